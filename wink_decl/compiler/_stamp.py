"""A file's state as the caches compare it, taken before the file is read."""

from __future__ import annotations

import os
from typing import NamedTuple

__all__ = ["IncludeState", "Stamp", "digest", "stamp_of"]

Stamp = tuple[int, int]
"""Modification time (ns) and size: another value means the file may have changed."""


class IncludeState(NamedTuple):
    """An included file as the compile that used it found it.

    ``stamp`` was taken before the file was read, so an edit after that shows as another
    stamp: a cache checking it can keep a stale result only until the next look.
    """

    stamp: Stamp | None
    """None: the file did not exist."""
    digest: str | None
    """sha256 of the bytes compiled; None when they could not be read."""


def stamp_of(path: str | os.PathLike[str]) -> Stamp | None:
    """Modification time and size, or None when the file is gone."""
    try:
        stat = os.stat(path)  # noqa: PTH116  # takes a str: a Path object per hit costs time
    except OSError:
        return None
    return (stat.st_mtime_ns, stat.st_size)


def digest(content: bytes | None) -> str | None:
    """sha256 of ``content`` in hex; None for None."""
    # Imported here: starting OpenSSL costs milliseconds, and most files include nothing.
    import hashlib  # noqa: PLC0415

    return None if content is None else hashlib.sha256(content).hexdigest()
