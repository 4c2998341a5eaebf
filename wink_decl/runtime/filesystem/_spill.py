"""``Spill``: the old contents a host journal may put back, kept on disk rather than in memory."""

from __future__ import annotations

import os
import tempfile
from typing import IO, Final

__all__ = ["CHUNK", "Spill", "write_all"]

CHUNK: Final = 1 << 20
"""Bytes copied at a time: what copying a file of any size holds in memory."""


def write_all(descriptor: int, data: bytes | memoryview) -> None:
    """Write all of ``data`` (``os.write`` may write less than it was given)."""
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view) :]


class Spill:
    """One anonymous temporary file that old contents are appended to.

    It is made on first use by ``tempfile.TemporaryFile``, which has no name on Linux
    (``O_TMPFILE``) and is unlinked as soon as it is made elsewhere, so nothing is left behind
    when the process dies. Copies go through a buffer of ``CHUNK`` bytes.
    """

    __slots__ = ("_file", "_size")

    def __init__(self) -> None:
        self._file: IO[bytes] | None = None
        self._size = 0

    @property
    def size(self) -> int:
        """Bytes held."""
        return self._size

    def save(self, source: int) -> tuple[int, int]:
        """Append what is left to read from ``source``; returns where it went (offset, length)."""
        if self._file is None:
            self._file = tempfile.TemporaryFile(prefix="wink-decl-journal-")  # noqa: SIM115  # kept open until close()
        spill = self._file.fileno()
        start = self._size
        os.lseek(spill, start, os.SEEK_SET)  # a save that failed halfway left the offset past
        while chunk := os.read(source, CHUNK):
            write_all(spill, chunk)
            self._size += len(chunk)
        return start, self._size - start

    def load(self, offset: int, length: int, target: int) -> None:
        """Write the ``length`` bytes saved at ``offset`` to ``target``."""
        assert self._file is not None  # noqa: S101  # only what save returned is loaded
        spill = self._file.fileno()
        end = offset + length
        while offset < end:
            chunk = os.pread(spill, min(CHUNK, end - offset), offset)
            write_all(target, chunk)
            offset += len(chunk)

    def clear(self) -> None:
        """Forget everything saved (the journal holds no entry any more)."""
        if self._file is not None and self._size:
            os.ftruncate(self._file.fileno(), 0)
            self._size = 0

    def close(self) -> None:
        """Close the file; the spill may be used again (a new file is made)."""
        if self._file is not None:
            self._file.close()
            self._file = None
            self._size = 0
