"""``HostFilesystem``: a ``Filesystem`` confined to one folder of this machine."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import weakref
from collections.abc import Iterator
from types import TracebackType
from typing import Final, Self

from wink_decl.prompt.filesystem_protocol import FilesystemSnapshot
from wink_decl.runtime.filesystem._errors import FileNotFoundInFilesystemError, FilesystemError
from wink_decl.runtime.filesystem._journal import UNCHANGED, Journal, Unchanged
from wink_decl.runtime.filesystem._lexical_paths import normalise_path
from wink_decl.runtime.filesystem._replace import Replacer
from wink_decl.runtime.filesystem._spill import CHUNK, Spill, write_all
from wink_decl.runtime.filesystem._states import (
    ABSENT,
    File,
    Folder,
    Link,
    State,
    put_back,
    remove_entry,
)
from wink_decl.runtime.filesystem._walk import (
    PATH_MAX,
    Found,
    Missing,
    NotAFolder,
    Walker,
    check_name,
    shown,
)

__all__ = ["DEFAULT_MAX_READ_BYTES", "HostFilesystem", "describe", "missing_support"]

DEFAULT_MAX_READ_BYTES: Final = 16 << 20
"""16 MiB: far more text than a model reads at once, far less memory than a machine has."""

_NOFOLLOW: Final = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC: Final = getattr(os, "O_CLOEXEC", 0)
_DIRECTORY: Final = getattr(os, "O_DIRECTORY", 0)
_READ_FLAGS: Final = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | _CLOEXEC
"""A file to read: never through a symlink, and never waiting for a FIFO's writer."""
_LIST_FLAGS: Final = os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC
_ROOT_FLAGS: Final = _DIRECTORY | _CLOEXEC | getattr(os, "O_PATH", os.O_RDONLY)

_DIR_FD: Final = (
    os.open,
    os.stat,
    os.mkdir,
    os.rmdir,
    os.unlink,
    os.rename,
    os.readlink,
    os.symlink,
)
"""The calls made with ``dir_fd``."""

_KINDS: Final = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISREG, "a file"),
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def describe(mode: int) -> str:
    """What kind of entry ``mode`` describes, with its article: 'a FIFO', 'a directory'..."""
    return next((text for test, text in _KINDS if test(mode)), "a special file")


def missing_support() -> list[str]:
    """What ``HostFilesystem`` needs from ``os`` and this platform lacks (Windows: most of it)."""
    names = ("O_NOFOLLOW", "O_DIRECTORY", "O_NONBLOCK")
    flags = [f"os.{flag}" for flag in names if not hasattr(os, flag)]
    missing = [f"os.{call.__name__}(dir_fd=)" for call in _DIR_FD if call not in os.supports_dir_fd]
    if os.scandir not in os.supports_fd:
        missing.append("os.scandir(descriptor)")
    return flags + missing


@contextlib.contextmanager
def _failures(verb: str, path: str) -> Iterator[None]:
    """Turn an ``OSError`` into a ``FilesystemError`` that says what could not be done."""
    try:
        yield
    except OSError as error:
        if error.errno == errno.ENAMETOOLONG:
            reason = "a name in it is too long for this filesystem"
        else:
            reason = error.strerror or str(error)
        raise FilesystemError(f"Cannot {verb} '{path}': {reason}.", path=path) from error


def _regular(path: str, mode: int) -> None:
    """Refuse anything but a regular file (``mode`` never describes a symlink here)."""
    if stat.S_ISDIR(mode):
        raise FilesystemError(f"'{path}' is a directory.", path=path)
    if not stat.S_ISREG(mode):
        raise FilesystemError(f"'{path}' is {describe(mode)}, not a regular file.", path=path)


def _open_root(given: str) -> int:
    try:
        return os.open(given, _ROOT_FLAGS)
    except FileNotFoundError:
        raise FilesystemError(f"Filesystem root '{given}' does not exist.", path=given) from None
    except NotADirectoryError:
        raise FilesystemError(f"Filesystem root '{given}' is not a folder.", path=given) from None
    except OSError as error:
        raise FilesystemError(
            f"Filesystem root '{given}' cannot be opened: {error.strerror}.", path=given
        ) from None


def _close(root: int, spill: Spill) -> None:
    os.close(root)
    spill.close()


class HostFilesystem:
    """Text files under ``root`` on this machine, which must be an existing folder.

    The root is opened once and every path is walked from that descriptor one name at a time
    (``openat`` with ``O_NOFOLLOW``), so no path string is ever resolved by the kernel: a symlink
    or a folder swapped for one while a call runs cannot lead outside. Symlinks are followed
    when their target stays inside, resolved name by name the same way (an absolute target
    under the root's real path counts as inside); one leading outside is refused with
    ``PathOutsideRootError``. ``delete`` of a symlink removes the link, never its target.

    Only regular files are read or written: a FIFO, socket or device is refused without
    waiting on it. A read returns at most ``max_read_bytes`` (16 MiB by default). A name longer
    than 255 bytes or a path longer than 4096 is refused before the kernel sees it.

    Writes are atomic and leave no temporary file when the process dies: the text goes into an
    unnamed file (Linux ``O_TMPFILE``) or a temporary one named ``.wink-decl-PID-RANDOM.tmp``,
    which is renamed over the target; the first write into a folder removes such files left by
    processes that no longer run. A replaced file keeps its permission bits; a new one gets
    what the umask allows. A replaced file is a new inode: other hard links to the old one keep
    the old text. Like the in-memory filesystem, a folder lives while it holds files: ``delete``
    removes the folders it leaves empty.

    ``snapshot`` and ``restore`` keep, per snapshot, the first old state of each changed path
    only; old file contents go to an anonymous temporary file, not memory. ``close`` (or a
    ``with`` block) releases the root's descriptor; garbage collection does too.
    """

    __slots__ = (
        "__weakref__",
        "_closer",
        "_journal",
        "_label",
        "_max_read_bytes",
        "_replacer",
        "_spill",
        "_walker",
    )

    def __init__(
        self, root: str | os.PathLike[str], *, max_read_bytes: int = DEFAULT_MAX_READ_BYTES
    ) -> None:
        given = os.fspath(root)
        missing = missing_support()
        if missing:
            raise FilesystemError(
                f"HostFilesystem needs {', '.join(missing)}, which this platform lacks.",
                path=given,
            )
        if max_read_bytes < 0:
            raise ValueError(f"max_read_bytes must be 0 or more, not {max_read_bytes}.")
        descriptor = _open_root(given)
        self._label = os.path.realpath(given)  # only a label: the descriptor is what is used
        self._walker = Walker(descriptor, self._label)
        self._replacer = Replacer()
        self._spill = Spill()
        self._journal: Journal[State] = Journal()
        self._max_read_bytes = max_read_bytes
        self._closer = weakref.finalize(self, _close, descriptor, self._spill)

    @property
    def root_label(self) -> str:
        """The real path of the root folder when it was opened."""
        return self._label

    @property
    def max_read_bytes(self) -> int:
        """The most bytes ``read_text`` returns; a larger file is refused."""
        return self._max_read_bytes

    def close(self) -> None:
        """Release the root's descriptor and the journal's file; later calls are refused."""
        self._closer()

    def __enter__(self) -> Self:
        """Itself."""
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        """Close it."""
        self.close()

    def normalise(self, path: str) -> str:
        """The canonical relative form of ``path``, after checking where it really leads."""
        key = self._key(path)
        self._status(path, key)
        return key

    def exists(self, path: str) -> bool:
        """Whether a file or folder is at ``path``."""
        return self._status(path, self._key(path)) is not None

    def is_file(self, path: str) -> bool:
        """Whether a regular file is at ``path``."""
        status = self._status(path, self._key(path))
        return status is not None and stat.S_ISREG(status.st_mode)

    def read_text(self, path: str) -> str:
        """The UTF-8 text of the file at ``path``, at most ``max_read_bytes`` of it."""
        key = self._key(path)
        with _failures("read", path):
            found = self._look(path, key)
            if found is None or found.stat is None:
                raise FileNotFoundInFilesystemError(f"File '{path}' does not exist.", path=path)
            with found:
                data = self._read(path, found)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise FilesystemError(f"File '{path}' is not UTF-8 text.", path=path) from None

    def write_text(self, path: str, text: str) -> None:
        """Replace (or create) the file at ``path`` atomically, creating missing folders."""
        key = self._key(path)
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError as error:
            raise FilesystemError(
                f"Text for '{path}' cannot be written as UTF-8: {error.reason} "
                f"at character {error.start}.",
                path=path,
            ) from None
        with _failures("write", path):
            try:
                found = self._walker.find(path, key, made=self._made)
            except NotAFolder as blocked:
                raise FilesystemError(
                    f"Cannot write '{path}': '{blocked.at}' is {describe(blocked.mode)}.",
                    path=path,
                ) from None
            with found:
                self._write(path, found, data)

    def delete(self, path: str) -> None:
        """Delete the file or symlink at ``path``, then the folders that delete left empty."""
        key = self._key(path)
        with _failures("delete", path):
            found = self._look(path, key, follow_last=False)
            if found is None or found.stat is None:
                raise FileNotFoundInFilesystemError(f"File '{path}' does not exist.", path=path)
            with found:
                if not stat.S_ISLNK(found.stat.st_mode):
                    _regular(path, found.stat.st_mode)
                name = self._named(found)
                previous = self._state(path, found) if self._journal.needs(found.key) else UNCHANGED
                os.unlink(name, dir_fd=found.folder)
                self._record(found.key, previous)
            self._remove_empty(found.folders)

    def list_dir(self, path: str = ".") -> tuple[str, ...]:
        """The sorted names of the files and folders directly inside ``path``."""
        key = self._key(path)
        with _failures("list", path):
            found = self._look(path, key)
            if found is None or found.stat is None:
                raise FileNotFoundInFilesystemError(f"Folder '{path}' does not exist.", path=path)
            with found:
                mode = found.stat.st_mode
                if not stat.S_ISDIR(mode):
                    raise FilesystemError(f"'{path}' is {describe(mode)}.", path=path)
                readable = os.open(found.name or ".", _LIST_FLAGS, dir_fd=found.folder)
                try:
                    with os.scandir(readable) as entries:
                        return tuple(sorted(entry.name for entry in entries))
                finally:
                    os.close(readable)

    def snapshot(self) -> FilesystemSnapshot:
        """A marker of the current contents; it reads no file."""
        self._check_open()
        return self._journal.snapshot()

    def restore(self, snapshot: FilesystemSnapshot) -> None:
        """Undo every change made after ``snapshot``, each file written back atomically."""
        self._check_open()
        self._journal.rollback(snapshot, self._undo)
        if not len(self._journal):
            self._spill.clear()

    # --- paths --------------------------------------------------------------------------------

    def _check_open(self) -> None:
        if not self._closer.alive:
            raise FilesystemError(f"Filesystem '{self._label}' is closed.", path=self._label)

    def _key(self, path: str) -> str:
        """``path`` normalised, after the checks that need no disk."""
        self._check_open()
        key = normalise_path(path)
        if "\\" in path:
            raise FilesystemError(
                f"Path '{path}' must separate folders with '/', not '\\'.", path=path
            )
        try:
            size = len(os.fsencode(key))
        except UnicodeEncodeError:
            raise FilesystemError(
                f"Path {path!r} cannot be a file name: it is not valid Unicode.", path=path
            ) from None
        if size > PATH_MAX:
            raise FilesystemError(
                f"Path '{shown(path)}' is {size} bytes long; a path can be at most "
                f"{PATH_MAX} bytes.",
                path=path,
            )
        for name in key.split("/"):  # every name, even past a folder that does not exist
            check_name(name, path)
        return key

    def _look(self, path: str, key: str, *, follow_last: bool = True) -> Found | None:
        """Where ``key`` leads; None when a folder on the way is missing or is not one."""
        try:
            return self._walker.find(path, key, follow_last=follow_last)
        except (Missing, NotAFolder):
            return None

    def _status(self, path: str, key: str) -> os.stat_result | None:
        """What ``key`` leads to, symlinks followed; None when nothing is there."""
        with _failures("look up", path):
            found = self._look(path, key)
        if found is None:
            return None
        with found:
            return found.stat

    @staticmethod
    def _named(found: Found) -> str:
        assert found.name is not None  # noqa: S101  # a path that is a folder was refused
        return found.name

    # --- reading and writing ------------------------------------------------------------------

    def _read(self, path: str, found: Found) -> bytes:
        assert found.stat is not None  # noqa: S101  # checked by the caller
        _regular(path, found.stat.st_mode)  # checked before opening: a device is never opened
        descriptor = os.open(self._named(found), _READ_FLAGS, dir_fd=found.folder)
        try:
            status = os.fstat(descriptor)
            _regular(path, status.st_mode)  # swapped after the check: refused all the same
            limit = self._max_read_bytes
            chunks: list[bytes] = []
            total = 0
            if status.st_size <= limit:
                while total <= limit:  # stops at limit + 1 bytes, however much the file grows
                    chunk = os.read(descriptor, max(status.st_size + 1 - total, CHUNK))
                    if not chunk:
                        break
                    chunks.append(chunk)
                    total += len(chunk)
            if status.st_size > limit or total > limit:
                raise FilesystemError(
                    f"File '{path}' is larger than {limit} bytes, the most a read returns "
                    "(max_read_bytes).",
                    path=path,
                )
            return b"".join(chunks)
        finally:
            os.close(descriptor)

    def _write(self, path: str, found: Found, data: bytes) -> None:
        status = found.stat
        if status is not None:
            _regular(path, status.st_mode)
        name = self._named(found)
        previous = self._state(path, found) if self._journal.needs(found.key) else UNCHANGED
        mode = None if status is None else stat.S_IMODE(status.st_mode)
        self._replacer.replace(found.folder, name, lambda target: write_all(target, data), mode)
        self._record(found.key, previous)

    def _remove_empty(self, folders: tuple[str, ...]) -> None:
        """Remove the folders above a deleted file, innermost first, while they are empty."""
        for depth in range(len(folders), 0, -1):
            key = "/".join(folders[:depth])
            try:
                previous = self._remove_folder(folders[: depth - 1], folders[depth - 1], key)
            except OSError:  # not empty, or no longer the folder we walked through: stop
                return
            self._record(key, previous)

    def _remove_folder(self, above: tuple[str, ...], name: str, key: str) -> State | Unchanged:
        parent = self._walker.open_folder(above)
        try:
            status = os.stat(name, dir_fd=parent, follow_symlinks=False)
            needed = self._journal.needs(key)
            previous = Folder(stat.S_IMODE(status.st_mode)) if needed else UNCHANGED
            os.rmdir(name, dir_fd=parent)
        finally:
            os.close(parent)
        return previous

    # --- the journal --------------------------------------------------------------------------

    def _made(self, key: str) -> None:
        self._record(key, ABSENT)

    def _record(self, key: str, previous: State | Unchanged) -> None:
        self._journal.record(key, previous)
        if not len(self._journal):  # no snapshot needs any old content
            self._spill.clear()

    def _state(self, path: str, found: Found) -> State:
        """What ``found`` holds now, old file content copied to the spill file."""
        status, name = found.stat, self._named(found)
        if status is None:
            return ABSENT
        if stat.S_ISLNK(status.st_mode):
            return Link(os.readlink(name, dir_fd=found.folder))
        descriptor = os.open(name, _READ_FLAGS, dir_fd=found.folder)
        try:
            status = os.fstat(descriptor)
            _regular(path, status.st_mode)
            offset, length = self._spill.save(descriptor)
        finally:
            os.close(descriptor)
        return File(offset, length, stat.S_IMODE(status.st_mode))

    def _undo(self, key: str, state: State) -> None:
        """Put ``state`` back at the real path ``key``, whatever is there now."""
        *above, name = key.split("/")
        with _failures("restore", key):
            if state is ABSENT:
                try:
                    parent = self._walker.open_folder(above)
                except FileNotFoundError:
                    return  # its folder is gone, so it is too
                try:
                    remove_entry(parent, name)
                finally:
                    os.close(parent)
                return
            parent = self._walker.open_folder(above, make=True)
            try:
                put_back(parent, name, state, self._replacer, self._spill)
            finally:
                os.close(parent)
