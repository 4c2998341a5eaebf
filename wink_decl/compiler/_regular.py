"""Read a regular file, a bounded number of bytes, refusing anything else without waiting."""

from __future__ import annotations

import os

from wink_decl.loader.regular_files import NotAFileError, open_regular, read_up_to

__all__ = ["read_regular"]


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
    try:
        descriptor, info = open_regular(path, follow_links=False)
    except NotAFileError:
        return None
    try:
        if whole and info.st_size > most:
            return None
        content = read_up_to(descriptor, info.st_size, most + 1 if whole else most)
    finally:
        os.close(descriptor)
    return None if len(content) > most else (content, info)
