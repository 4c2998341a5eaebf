"""``read_file``, ``write_file``, ``edit_file`` and ``list_dir``: tools over the ``Filesystem``.

Each handler reaches the files through ``context.filesystem``, so the same tools work on an
``InMemoryFilesystem`` in tests and on a ``HostFilesystem`` confined to one folder. A refused
path (missing, outside the root, a folder where a file is expected), a prompt without a
filesystem, or an edit that cannot be made becomes an error result the model can read and act
on, never an exception.
"""

# No `from __future__ import annotations`: the params and result dataclasses keep real field
# types, which wink-decl's schema builder and serde read with typing.get_type_hints.
from dataclasses import dataclass, field

from wink_decl import Filesystem, FilesystemError, ToolContext, ToolResult

__all__ = [
    "NO_FILESYSTEM",
    "EditFileParams",
    "EditFileResult",
    "ListDirParams",
    "ListDirResult",
    "ReadFileParams",
    "ReadFileResult",
    "WriteFileParams",
    "WriteFileResult",
    "edit_file",
    "list_dir",
    "read_file",
    "write_file",
]

NO_FILESYSTEM = (
    "No filesystem is attached to this prompt: the file tools need a Filesystem resource "
    "(such as HostFilesystem) in the prompt's resources."
)
"""The error every handler here returns when ``context.filesystem`` is None."""
_LINES_SHOWN = 5
"""How many line numbers an ambiguous ``edit_file`` names before it says how many more."""


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
class EditFileParams:
    """What ``edit_file`` takes."""

    path: str = field(
        metadata={"description": "The file to change, relative to the workspace root."}
    )
    old_text: str = field(
        metadata={
            "description": "The exact text to replace, whitespace and line breaks included. "
            "It must occur exactly once in the file: include enough surrounding lines to make "
            "it unique."
        }
    )
    new_text: str = field(
        metadata={"description": "The text to put in its place; empty to delete old_text."}
    )


@dataclass(frozen=True, slots=True)
class EditFileResult:
    """What ``edit_file`` returns."""

    path: str = field(metadata={"description": "The file's path, normalised."})
    line: int = field(metadata={"description": "The line (1-based) where the replacement starts."})
    old_lines: int = field(metadata={"description": "How many lines old_text spanned."})
    new_lines: int = field(metadata={"description": "How many lines new_text spans."})


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
    if filesystem is None:
        return ToolResult.error(NO_FILESYSTEM)
    try:
        path = filesystem.normalise(params.path)
        text = filesystem.read_text(path)
    except FilesystemError as error:
        return ToolResult.error(error.message)
    return ToolResult.ok(ReadFileResult(path, text), f"Read '{path}' ({_count(len(text))}).")


def write_file(params: WriteFileParams, *, context: ToolContext) -> ToolResult[WriteFileResult]:
    """Create or replace one text file."""
    filesystem = context.filesystem
    if filesystem is None:
        return ToolResult.error(NO_FILESYSTEM)
    try:
        path = filesystem.normalise(params.path)
        created = not filesystem.exists(path)
        filesystem.write_text(path, params.text)
    except FilesystemError as error:
        return ToolResult.error(error.message)
    verb = "Created" if created else "Replaced"
    result = WriteFileResult(path, len(params.text), created)
    return ToolResult.ok(result, f"{verb} '{path}' ({_count(len(params.text))}).")


def edit_file(params: EditFileParams, *, context: ToolContext) -> ToolResult[EditFileResult]:
    """Replace one exact, unique piece of text in a text file."""
    filesystem = context.filesystem
    if filesystem is None:
        return ToolResult.error(NO_FILESYSTEM)
    problem = _edit_problem(params)
    if problem is not None:
        return ToolResult.error(problem)
    try:
        path = filesystem.normalise(params.path)
        text = filesystem.read_text(path)
    except FilesystemError as error:
        return ToolResult.error(error.message)
    starts = _occurrences(text, params.old_text)
    if not starts:
        return ToolResult.error(
            f"old_text was not found in '{path}'. It must match the file exactly, whitespace "
            "and line breaks included: read the file again and copy the text from it."
        )
    if len(starts) > 1:
        return ToolResult.error(
            f"old_text occurs {len(starts)} times in '{path}' ({_lines(text, starts)}): "
            "include more of the surrounding text in old_text, so that it occurs exactly once."
        )
    return _write_edit(filesystem, path, text, starts[0], params)


def _edit_problem(params: EditFileParams) -> str | None:
    """Why the edit cannot be made whatever the file holds, or None."""
    if not params.old_text:
        return "old_text is empty: give the exact text to replace, copied from the file."
    if params.old_text == params.new_text:
        return "old_text and new_text are the same: the edit would change nothing."
    return None


def _write_edit(
    filesystem: Filesystem, path: str, text: str, start: int, params: EditFileParams
) -> ToolResult[EditFileResult]:
    # The path was just read, so it is a file inside the root; the write may still be refused
    # (a read-only workspace, a full disk): the model reads why.
    try:
        filesystem.write_text(
            path, text[:start] + params.new_text + text[start + len(params.old_text) :]
        )
    except FilesystemError as error:
        return ToolResult.error(error.message)
    line = _line_of(text, start)
    old_lines, new_lines = _line_count(params.old_text), _line_count(params.new_text)
    replaced = f"{_lines_word(old_lines)} replaced by {_lines_word(new_lines)}"
    return ToolResult.ok(
        EditFileResult(path, line, old_lines, new_lines),
        f"Edited '{path}' at line {line}: {replaced}.",
    )


def _occurrences(text: str, needle: str) -> list[int]:
    """Where ``needle`` starts in ``text``, overlapping matches included."""
    found: list[int] = []
    at = text.find(needle)
    while at >= 0:
        found.append(at)
        at = text.find(needle, at + 1)
    return found


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _line_count(fragment: str) -> int:
    """How many lines ``fragment`` touches; a final newline ends a line, it starts none."""
    if not fragment:
        return 0
    return fragment.count("\n") + (0 if fragment.endswith("\n") else 1)


def _lines(text: str, starts: list[int]) -> str:
    """``on line 4``, ``on lines 2, 7 and 9``; past five, ``on lines 1, 2, 3, 4, 5 and 3 more``."""
    numbers = [str(n) for n in dict.fromkeys(_line_of(text, at) for at in starts)]
    if len(numbers) == 1:
        return f"on line {numbers[0]}"
    shown, more = numbers[:_LINES_SHOWN], len(numbers) - _LINES_SHOWN
    last = f"{more} more" if more > 0 else shown.pop()
    return f"on lines {', '.join(shown)} and {last}"


def _lines_word(count: int) -> str:
    return _plural(count, "line", "lines")


def list_dir(params: ListDirParams, *, context: ToolContext) -> ToolResult[ListDirResult]:
    """List one folder."""
    filesystem = context.filesystem
    if filesystem is None:
        return ToolResult.error(NO_FILESYSTEM)
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
