"""``--output`` paths: writing a command's file without creating folders or partial files."""

from __future__ import annotations

from pathlib import Path

from wink_decl._atomic import write_atomically
from wink_decl.cli._usage import UsageError

__all__ = ["write_output"]


def write_output(destination: str, text: str) -> None:
    """Write an ``--output`` file atomically; nothing is created outside an existing folder."""
    path = Path(destination)
    folder = path.parent
    if not folder.is_dir():
        raise UsageError(
            f"cannot write '{destination}': the folder '{folder}' does not exist",
            hint="create the folder first, or choose another --output",
        )
    if path.is_dir():
        raise UsageError(f"cannot write '{destination}': it is a folder")
    write_atomically(path, text)
