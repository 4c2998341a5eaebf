"""``read_file``, ``write_file`` and ``list_dir``: tools over the prompt's ``Filesystem``.

Each handler reaches the files through ``context.filesystem``, so the same tools work on an
``InMemoryFilesystem`` in tests and on a ``HostFilesystem`` confined to one folder. A refused
path (missing, outside the root, a folder where a file is expected) becomes an error result
the model can read and act on, never an exception.
"""

# No `from __future__ import annotations`: the params and result dataclasses keep real field
# types, which wink-decl's schema builder and serde read with typing.get_type_hints.
from dataclasses import dataclass, field

from wink_decl import FilesystemError, ToolContext, ToolResult

__all__ = [
    "ListDirParams",
    "ListDirResult",
    "ReadFileParams",
    "ReadFileResult",
    "WriteFileParams",
    "WriteFileResult",
    "list_dir",
    "read_file",
    "write_file",
]


@dataclass(frozen=True, slots=True)
class ReadFileParams:
    """What ``read_file`` takes."""

    path: str = field(metadata={"description": "The file to read, relative to the workspace root."})


@dataclass(frozen=True, slots=True)
class ReadFileResult:
    """What ``read_file`` returns."""

    path: str = field(metadata={"description": "The file's path, normalised."})
    text: str = field(metadata={"description": "The file's whole text."})


@dataclass(frozen=True, slots=True)
class WriteFileParams:
    """What ``write_file`` takes."""

    path: str = field(
        metadata={"description": "The file to create or replace, relative to the workspace root."}
    )
    text: str = field(metadata={"description": "The file's complete new text."})


@dataclass(frozen=True, slots=True)
class WriteFileResult:
    """What ``write_file`` returns."""

    path: str = field(metadata={"description": "The file's path, normalised."})
    characters: int = field(metadata={"description": "How many characters were written."})
    created: bool = field(
        metadata={"description": "True when the file is new, false when it was replaced."}
    )


@dataclass(frozen=True, slots=True)
class ListDirParams:
    """What ``list_dir`` takes."""

    path: str = field(
        default=".",
        metadata={"description": "The folder to list, relative to the workspace root."},
    )


@dataclass(frozen=True, slots=True)
class ListDirResult:
    """What ``list_dir`` returns."""

    path: str = field(metadata={"description": "The folder's path, normalised."})
    entries: tuple[str, ...] = field(
        metadata={"description": "The names of the files and folders directly inside, sorted."}
    )


def read_file(params: ReadFileParams, *, context: ToolContext) -> ToolResult[ReadFileResult]:
    """Read one text file."""
    filesystem = context.filesystem
    try:
        path = filesystem.normalise(params.path)
        text = filesystem.read_text(path)
    except FilesystemError as error:
        return ToolResult.error(error.message)
    return ToolResult.ok(ReadFileResult(path, text), f"Read '{path}' ({_count(len(text))}).")


def write_file(params: WriteFileParams, *, context: ToolContext) -> ToolResult[WriteFileResult]:
    """Create or replace one text file."""
    filesystem = context.filesystem
    try:
        path = filesystem.normalise(params.path)
        created = not filesystem.exists(path)
        filesystem.write_text(path, params.text)
    except FilesystemError as error:
        return ToolResult.error(error.message)
    verb = "Created" if created else "Replaced"
    result = WriteFileResult(path, len(params.text), created)
    return ToolResult.ok(result, f"{verb} '{path}' ({_count(len(params.text))}).")


def list_dir(params: ListDirParams, *, context: ToolContext) -> ToolResult[ListDirResult]:
    """List one folder."""
    filesystem = context.filesystem
    try:
        path = filesystem.normalise(params.path)
        entries = filesystem.list_dir(path)
    except FilesystemError as error:
        return ToolResult.error(error.message)
    count = _plural(len(entries), "entry", "entries")
    return ToolResult.ok(ListDirResult(path, entries), f"'{path}' has {count}.")


def _count(characters: int) -> str:
    return _plural(characters, "character", "characters")


def _plural(count: int, one: str, many: str) -> str:
    return f"1 {one}" if count == 1 else f"{count} {many}"
