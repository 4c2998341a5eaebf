"""Read a regular file, a bounded number of bytes, refusing anything else without waiting."""

from __future__ import annotations

import os
import stat

__all__ = ["read_regular"]

_OPEN = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)  # a FIFO swapped in after the lstat opens without a writer
    | getattr(os, "O_NOFOLLOW", 0)  # and a link swapped in is refused, not followed
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)
_STEP = 1 << 16
"""Bytes per read once the size the file reported has been read (it grew)."""


def read_regular(
    path: str, most: int, *, whole: bool = False
) -> tuple[bytes, os.stat_result] | None:
    """The first ``most`` bytes of the regular file at ``path``, and its state; None for others.

    For files wink-decl does not trust (a cache folder anyone may have written): a link,
    FIFO, socket, device or folder is refused by ``lstat`` before it is opened, so nothing
    hangs, follows a link or wakes a device; the open itself neither follows a link nor
    waits, and ``fstat`` checks the file opened again, in case it was swapped in between.
    At most ``most`` bytes are read (one more with ``whole``), however large the file is or
    grows. With ``whole``, a file of more than ``most`` bytes is None too: refused by its
    size before any read, or once it is seen to have grown past it.

    Raises:
        OSError: ``path`` does not exist (``FileNotFoundError``) or cannot be read.
    """
    if not stat.S_ISREG(os.lstat(path).st_mode):
        return None
    descriptor = os.open(path, _OPEN)
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode) or (whole and info.st_size > most):
            return None
        wanted = most + 1 if whole else most
        chunks: list[bytes] = []
        size = 0
        step = info.st_size + 1  # one byte more than it says: one read takes it all
        while size < wanted:
            chunk = os.read(descriptor, min(step, wanted - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            step = _STEP
    finally:
        os.close(descriptor)
    return None if size > most else (b"".join(chunks), info)
