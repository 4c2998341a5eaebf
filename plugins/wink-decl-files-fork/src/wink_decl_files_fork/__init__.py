"""A second ``files.read_file`` (lines numbered), so tests can show a real name conflict."""

# No `from __future__ import annotations`: wink-decl reads these field types at run time.
from dataclasses import dataclass, field

from wink_decl import FilesystemError, ToolContext, ToolResult

__all__ = ["NumberedFile", "ReadFileParams", "read_file"]


@dataclass(frozen=True, slots=True)
class ReadFileParams:
    """What this ``read_file`` takes."""

    path: str = field(metadata={"description": "The file to read, relative to the root."})


@dataclass(frozen=True, slots=True)
class NumberedFile:
    """The file's lines, each prefixed with its 1-based number."""

    path: str = field(metadata={"description": "The file's path, normalised."})
    lines: tuple[str, ...] = field(metadata={"description": "'1: first line', '2: ...'."})


def read_file(params: ReadFileParams, *, context: ToolContext) -> ToolResult[NumberedFile]:
    """Read one text file as numbered lines."""
    filesystem = context.filesystem
    if filesystem is None:
        return ToolResult.error(
            "No filesystem is attached to this prompt: the file tools need a Filesystem "
            "resource (such as HostFilesystem) in the prompt's resources."
        )
    try:
        path = filesystem.normalise(params.path)
        text = filesystem.read_text(path)
    except FilesystemError as error:
        return ToolResult.error(error.message)
    lines = tuple(f"{number}: {line}" for number, line in enumerate(text.splitlines(), 1))
    return ToolResult.ok(NumberedFile(path, lines), f"Read '{path}' (fork).")
