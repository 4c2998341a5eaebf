"""``Replacer``: a file put in place whole, with no temporary file left after a crash.

On Linux the new content goes into an unnamed file (``O_TMPFILE``) in the target's folder; it
gets a name only when complete (``linkat`` of ``/proc/self/fd/N``), and that name is renamed
over the target at once, so a process killed while writing leaves nothing. Where unnamed files
are not available (another system, a filesystem without ``O_TMPFILE``, no ``/proc``), the
content goes into a named temporary file created exclusively. Either name is recognizable
(``.wink-decl-PID-RANDOM.tmp``): the first write into a folder removes those that a process no
longer running left there.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Final

__all__ = ["TEMPORARY", "Replacer", "remove_leftovers", "temporary_name"]

TEMPORARY: Final = re.compile(r"\.wink-decl-([1-9][0-9]{0,6})-[0-9a-f]{16}\.tmp")
"""The names of temporary files; the number is the writing process's id."""

_PROC_FD: Final = "/proc/self/fd"
_CLOEXEC: Final = getattr(os, "O_CLOEXEC", 0)  # getattr: Windows imports this module too
_UNNAMED_FLAGS: Final = getattr(os, "O_TMPFILE", 0) | os.O_WRONLY | _CLOEXEC
_NAMED_FLAGS: Final = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | _CLOEXEC
_NO_UNNAMED: Final = frozenset({errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL})
"""What opening with ``O_TMPFILE`` fails with where the filesystem or the kernel lacks it."""


def temporary_name() -> str:
    """A new temporary name of this process."""
    return f".wink-decl-{os.getpid()}-{secrets.token_hex(8)}.tmp"


def _running(pid: int) -> bool:
    """Whether a process ``pid`` runs (one of another user counts): its files are in use."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_leftovers(folder: int) -> list[str]:
    """Remove the temporary files of processes no longer running from ``folder``.

    Returns their names. Best effort: whatever cannot be listed or removed stays.
    """
    try:
        readable = os.open(
            ".", os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC, dir_fd=folder
        )
    except OSError:
        return []
    try:
        with os.scandir(readable) as entries:
            names = [entry.name for entry in entries if TEMPORARY.fullmatch(entry.name)]
    finally:
        os.close(readable)
    removed: list[str] = []
    for name in names:
        match = TEMPORARY.fullmatch(name)
        assert match is not None  # noqa: S101  # chosen by the same pattern above
        if _running(int(match.group(1))):
            continue
        with contextlib.suppress(OSError):
            if stat.S_ISREG(os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode):
                os.unlink(name, dir_fd=folder)
                removed.append(name)
    return removed


class Replacer:
    """Replaces files in folders given by descriptor; remembers which folders it cleaned."""

    __slots__ = ("_cleaned", "unnamed")

    def __init__(self) -> None:
        # Whether unnamed files are tried: turned off the first time the filesystem refuses one.
        self.unnamed = hasattr(os, "O_TMPFILE") and Path(_PROC_FD).is_dir()
        self._cleaned: set[tuple[int, int]] = set()

    def replace(
        self, folder: int, name: str, fill: Callable[[int], None], mode: int | None
    ) -> None:
        """Put a file made by ``fill(descriptor)`` at ``name`` in ``folder``, whole or not at all.

        ``mode`` is the permissions to give it (an existing file's); None gives a new file what
        the umask allows. ``name`` is replaced whatever it is, a symlink included (never
        followed); a folder makes the rename fail.
        """
        self._clean(folder)
        # 0o600 until the mode is set: the content is never readable by more than it will be.
        descriptor, temporary = self._create(folder, 0o666 if mode is None else 0o600)
        try:
            fill(descriptor)
            if mode is not None:
                os.fchmod(descriptor, mode)
            if temporary is None:
                temporary = temporary_name()
                os.link(f"{_PROC_FD}/{descriptor}", temporary, dst_dir_fd=folder)
            os.rename(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
        except BaseException:
            if temporary is not None:
                with contextlib.suppress(OSError):
                    os.unlink(temporary, dir_fd=folder)
            raise
        finally:
            os.close(descriptor)

    def _create(self, folder: int, permissions: int) -> tuple[int, str | None]:
        """An open temporary file in ``folder``, and its name (None: it has none yet)."""
        if self.unnamed:
            try:
                return os.open(".", _UNNAMED_FLAGS, permissions, dir_fd=folder), None
            except OSError as error:
                if error.errno not in _NO_UNNAMED:
                    raise
                self.unnamed = False
        temporary = temporary_name()
        return os.open(temporary, _NAMED_FLAGS, permissions, dir_fd=folder), temporary

    def _clean(self, folder: int) -> None:
        """Remove leftovers from ``folder`` the first time this replacer writes there."""
        status = os.fstat(folder)
        identity = (status.st_dev, status.st_ino)
        if identity not in self._cleaned:
            self._cleaned.add(identity)
            remove_leftovers(folder)
