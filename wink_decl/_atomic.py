"""Write a file whole or not at all: the one way wink-decl replaces files it owns."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

__all__ = ["write_atomically"]

_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
"""A new file only (never another writer's), bytes as written (Windows translates without)."""


def write_atomically(path: str | Path, text: str, *, make_folder: bool = False) -> None:
    """Write ``text`` (UTF-8, exactly as given) to ``path`` through a temporary file beside it.

    ``os.replace`` swaps the finished file in, so a reader never sees half of it and a failed
    or interrupted write leaves the old file as it was and no temporary file behind. A file
    that existed keeps its permissions; a new one gets what the umask allows.

    Safe from many threads and processes at once, on one path too: each write has its own
    temporary file (a random name, created exclusively) and the last ``os.replace`` wins
    whole. The umask is never changed, not even for a moment: it belongs to the whole
    process, and another thread creating a file then would get the wrong permissions.

    Raises:
        OSError: the folder is missing (and ``make_folder`` is false) or cannot be written.
    """
    target = Path(path)
    if make_folder:
        target.parent.mkdir(parents=True, exist_ok=True)
    mode = _existing_mode(target)
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(8)}.tmp")
    # 0o666: the kernel applies the umask, as for any new file; an existing mode is set below.
    handle = os.open(temporary, _CREATE, 0o666 if mode is None else 0o600)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
        if mode is not None:
            temporary.chmod(mode)
        temporary.replace(target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _existing_mode(path: Path) -> int | None:
    """The existing file's permissions; None for a new file."""
    try:
        return path.stat().st_mode & 0o777
    except FileNotFoundError:
        return None
