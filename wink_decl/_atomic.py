"""Write a file whole or not at all: the one way wink-decl replaces files it owns."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["write_atomically"]


def write_atomically(path: str | Path, text: str, *, make_folder: bool = False) -> None:
    """Write ``text`` (UTF-8, exactly as given) to ``path`` through a temporary file beside it.

    ``os.replace`` swaps the finished file in, so a reader never sees half of it and a failed
    or interrupted write leaves the old file as it was and no temporary file behind. A file
    that existed keeps its permissions; a new one gets what the umask allows.

    Raises:
        OSError: the folder is missing (and ``make_folder`` is false) or cannot be written.
    """
    target = Path(path)
    if make_folder:
        target.parent.mkdir(parents=True, exist_ok=True)
    mode = _mode_for(target)
    handle, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
    )
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
        Path(temporary).chmod(mode)
        Path(temporary).replace(target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _mode_for(path: Path) -> int:
    """The existing file's permissions, or what a new file would get (mkstemp makes 0600)."""
    try:
        return path.stat().st_mode & 0o777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
