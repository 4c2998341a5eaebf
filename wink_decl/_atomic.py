"""Write a file whole or not at all: the one way wink-decl replaces files it owns."""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path

__all__ = ["write_atomically", "write_once"]

_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
"""A new file only (never another writer's), bytes as written (Windows translates without)."""


def write_atomically(path: str | Path, text: str | bytes, *, make_folder: bool = False) -> None:
    """Write ``text`` (a str as UTF-8, exactly as given; bytes as they are) to ``path``.

    The text goes to a temporary file beside ``path`` first, and ``os.replace`` swaps the
    finished file in, so a reader never sees half of it and a failed or interrupted write
    leaves the old file as it was and no temporary file behind. A regular file that existed
    keeps its permissions; a new one gets what the umask allows, and so does one that
    replaces anything else (a link is replaced, never followed: its target keeps its bytes
    and lends nothing to the new file).

    Safe from many threads and processes at once, on one path too: each write has its own
    temporary file (a random name, created exclusively) and the last ``os.replace`` wins
    whole. The umask is never changed, not even for a moment: it belongs to the whole
    process, and another thread creating a file then would get the wrong permissions.

    Raises:
        OSError: the folder is missing (and ``make_folder`` is false) or cannot be written,
            or a folder is in the way.
    """
    target = Path(path)
    if make_folder:
        target.parent.mkdir(parents=True, exist_ok=True)
    mode = _existing_mode(target)
    temporary = _temporary_beside(target)
    # 0o666: the kernel applies the umask, as for any new file; an existing mode is set below.
    handle = os.open(temporary, _CREATE, 0o666 if mode is None else 0o600)
    try:
        _fill(handle, text)
        if mode is not None:
            temporary.chmod(mode)
        temporary.replace(target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def write_once(path: str | Path, data: bytes, *, mode: int = 0o600) -> bool:
    """Create ``path`` holding ``data`` whole, unless something is there already.

    True when this call made the file. A reader sees no file or all of it, and of several
    threads or processes racing to make it, exactly one wins and none overwrites another's:
    the data is written to a private temporary file (``mode``, less the umask) that is then
    hard-linked into place, which fails when the name is taken.

    Raises:
        OSError: the folder is missing or cannot be written, or the file system has no hard
            links.
    """
    target = Path(path)
    temporary = _temporary_beside(target)
    handle = os.open(temporary, _CREATE, mode)
    try:
        _fill(handle, data)
        os.link(temporary, target)
    except FileExistsError:
        return False
    finally:
        temporary.unlink(missing_ok=True)
    return True


def _temporary_beside(target: Path) -> Path:
    return target.with_name(f".{target.name}.{secrets.token_hex(8)}.tmp")


def _fill(handle: int, text: str | bytes) -> None:
    """Write everything to ``handle`` and close it."""
    if isinstance(text, str):
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
    else:
        with os.fdopen(handle, "wb") as stream:
            stream.write(text)


def _existing_mode(path: Path) -> int | None:
    """The permissions of the regular file at ``path``; None when there is none there."""
    try:
        info = path.lstat()
    except FileNotFoundError:
        return None
    return stat.S_IMODE(info.st_mode) & 0o777 if stat.S_ISREG(info.st_mode) else None
