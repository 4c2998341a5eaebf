"""Reading a file someone else wrote: a regular file only, never blocking, never past a cap.

A pull request can name a FIFO, a device or a symbolic link to ``/dev/zero`` like a prompt
file. Such a path is refused from its ``stat`` alone, so it is never opened (opening some
devices does something). The open itself cannot block (``O_NONBLOCK``: a FIFO swapped in after
the check opens at once) and does not follow a link swapped in for a file (``O_NOFOLLOW``);
the descriptor is then checked again with ``fstat``, which nothing can swap.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable

from wink_decl.errors import WinkDeclError

__all__ = ["FileTooLargeError", "NotAFileError", "open_regular", "read_capped", "read_up_to"]

_O_BINARY: int = getattr(os, "O_BINARY", 0)  # Windows translates line breaks without it
_O_NOFOLLOW: int = getattr(os, "O_NOFOLLOW", 0)
_FLAGS = os.O_RDONLY | _O_BINARY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_STEP = 65_536
"""Bytes per read once a file has given more than it said it held."""

_KINDS: tuple[tuple[Callable[[int], bool], str], ...] = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class NotAFileError(WinkDeclError, OSError):
    """The path leads to a folder, a pipe, a device or a socket; it was not read."""

    def __init__(self, path: str | os.PathLike[str], mode: int) -> None:
        self.kind = next((kind for test, kind in _KINDS if test(mode)), "not a regular file")
        code = errno.EISDIR if stat.S_ISDIR(mode) else errno.EINVAL
        super().__init__(code, f"it is {self.kind}, not a regular file", os.fspath(path))


class FileTooLargeError(WinkDeclError, OSError):
    """The file holds more than the cap; ``size`` is None when it did not say how much."""

    def __init__(
        self, path: str | os.PathLike[str], size: int | None, limit: int, head: bytes = b""
    ) -> None:
        self.size = size
        self.limit = limit
        self.head = head
        """What was read before the file proved too large (its first ``limit`` bytes at most),
        for quoting; empty when its size said so before anything was read."""
        super().__init__(errno.EFBIG, "the file is larger than the limit", os.fspath(path))


def read_capped(
    file: str | os.PathLike[str], cap: int, *, state: os.stat_result | None = None
) -> tuple[bytes, os.stat_result]:
    """The bytes of the regular file at ``file`` (at most ``cap``) and its state when opened.

    ``state``: the file's ``os.lstat``, when the caller took it already (``open_regular``).

    Raises:
        NotAFileError: ``file`` is (or leads to) anything but a regular file.
        FileTooLargeError: it holds more than ``cap`` bytes; nothing is read when it says so.
        OSError: it cannot be opened or read.
    """
    descriptor, info = open_regular(file, state=state)
    try:
        if info.st_size > cap:
            raise FileTooLargeError(file, info.st_size, cap)
        content = read_up_to(descriptor, info.st_size, cap + 1)
        if len(content) > cap:  # it grew while it was read: say how large it is now
            size = os.fstat(descriptor).st_size
            raise FileTooLargeError(file, size if size > cap else None, cap, content[:cap])
    finally:
        os.close(descriptor)
    return content, info


def open_regular(
    file: str | os.PathLike[str],
    *,
    follow_links: bool = True,
    state: os.stat_result | None = None,
) -> tuple[int, os.stat_result]:
    """A descriptor of the regular file at ``file`` and its ``fstat``; anything else refused.

    ``follow_links=False`` refuses a link too, for files no one should have linked (a cache
    entry, a key file). ``state`` is the file's ``os.lstat`` when the caller took it already
    (one system call fewer): it is judged as that one would be. The caller closes the
    descriptor.

    Raises:
        NotAFileError: ``file`` is (or leads to) anything but a regular file; never opened.
        OSError: it cannot be opened.
    """
    info = os.lstat(file) if state is None else state
    flags = _FLAGS
    if stat.S_ISLNK(info.st_mode) and follow_links:
        info = os.stat(file)  # noqa: PTH116 - where the link leads (a link to a file is fine)
    else:
        flags |= _O_NOFOLLOW  # a link swapped in after the check is refused, not followed
    if not stat.S_ISREG(info.st_mode):
        raise NotAFileError(file, info.st_mode)
    descriptor = os.open(file, flags)
    try:
        info = os.fstat(descriptor)
    except OSError:
        os.close(descriptor)
        raise
    if not stat.S_ISREG(info.st_mode):  # swapped between the check and the open
        os.close(descriptor)
        raise NotAFileError(file, info.st_mode)
    return descriptor, info


def read_up_to(descriptor: int, size: int, wanted: int) -> bytes:
    """At most ``wanted`` bytes; the first read asks for one byte more than ``size``.

    A file that says its size is read whole by one ``read``, which finds no more than that
    size; one that grew, or says it is empty (as files under ``/proc`` do), is read in steps
    until a read finds the end.
    """
    chunks: list[bytes] = []
    total = 0
    step = size + 1 if size > 0 else _STEP
    if 0 < size < wanted:  # most files: the first read finds all they said they held
        first = os.read(descriptor, step)
        if len(first) == size or not first:
            return first
        chunks.append(first)
        total, step = len(first), _STEP
    while total < wanted:
        chunk = os.read(descriptor, min(step, wanted - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
        if total == size:  # all it said it held, asked for one byte more: no read to find the end
            break
        step = _STEP
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)
