"""``HostFilesystem``: a ``Filesystem`` confined to one folder of this machine."""

from __future__ import annotations

import contextlib
import enum
import os
import secrets
import shutil
from pathlib import Path

from wink_decl.runtime.filesystem._errors import (
    FileNotFoundInFilesystemError,
    FilesystemError,
    PathOutsideRootError,
)
from wink_decl.runtime.filesystem._journal import (
    UNCHANGED,
    FilesystemSnapshot,
    Journal,
    Unchanged,
)
from wink_decl.runtime.filesystem._paths import normalise_path

__all__ = ["HostFilesystem"]


class _Folder(enum.Enum):
    CREATED = "created"  # journal value: undo by removing the folder


_Previous = bytes | _Folder | None  # what a journaled real path held: bytes, a new folder, nothing


class HostFilesystem:
    """Text files under ``root`` on this machine, which must be an existing folder.

    Symlinks are followed and refused when they lead outside the root. Writes are atomic:
    a temporary file in the same folder, then ``os.replace``. Like the in-memory filesystem,
    a folder lives while it holds files: ``delete`` removes the folders it leaves empty.
    """

    __slots__ = ("_journal", "_root")

    def __init__(self, root: str | os.PathLike[str]) -> None:
        given = os.fspath(root)
        real = Path(os.path.realpath(given))
        if not real.exists():
            raise FilesystemError(f"Filesystem root '{given}' does not exist.", path=given)
        if not real.is_dir():
            raise FilesystemError(f"Filesystem root '{given}' is not a folder.", path=given)
        self._root = real
        self._journal: Journal[_Previous] = Journal()

    @property
    def root_label(self) -> str:
        """The real path of the root folder."""
        return str(self._root)

    def normalise(self, path: str) -> str:
        """The canonical relative form of ``path``, after checking where it really leads."""
        return self._resolve(path)[0]

    def exists(self, path: str) -> bool:
        """Whether a file or folder is at ``path``."""
        return self._resolve(path)[1].exists()

    def is_file(self, path: str) -> bool:
        """Whether a file is at ``path``."""
        return self._resolve(path)[1].is_file()

    def read_text(self, path: str) -> str:
        """The UTF-8 text of the file at ``path``."""
        real = self._resolve(path)[1]
        try:
            data = real.read_bytes()
        except IsADirectoryError:
            raise FilesystemError(f"'{path}' is a directory.", path=path) from None
        except (FileNotFoundError, NotADirectoryError):
            raise FileNotFoundInFilesystemError(
                f"File '{path}' does not exist.", path=path
            ) from None
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise FilesystemError(f"File '{path}' is not UTF-8 text.", path=path) from None

    def write_text(self, path: str, text: str) -> None:
        """Replace (or create) the file at ``path`` atomically, creating missing folders."""
        real = self._resolve(path)[1]
        if real.is_dir():
            raise FilesystemError(f"'{path}' is a directory.", path=path)
        self._make_parents(path, real.parent)
        previous = self._previous(real)
        _write_atomically(real, text.encode("utf-8"))
        self._journal.record(str(real), previous)

    def delete(self, path: str) -> None:
        """Delete the file at ``path``, then the folders that delete left empty."""
        real = self._resolve(path)[1]
        if not real.is_file():
            if real.is_dir():
                raise FilesystemError(f"'{path}' is a directory.", path=path)
            raise FileNotFoundInFilesystemError(f"File '{path}' does not exist.", path=path)
        previous = self._previous(real)
        real.unlink()
        self._journal.record(str(real), previous)
        # Restoring the file recreates these folders, so their removal needs no journal entry.
        folder = real.parent
        while folder != self._root:
            try:
                folder.rmdir()
            except OSError:  # not empty
                break
            folder = folder.parent

    def list_dir(self, path: str = ".") -> tuple[str, ...]:
        """The sorted names of the files and folders directly inside ``path``."""
        real = self._resolve(path)[1]
        if real.is_file():
            raise FilesystemError(f"'{path}' is a file.", path=path)
        try:
            return tuple(sorted(child.name for child in real.iterdir()))
        except (FileNotFoundError, NotADirectoryError):
            raise FileNotFoundInFilesystemError(
                f"Folder '{path}' does not exist.", path=path
            ) from None

    def snapshot(self) -> FilesystemSnapshot:
        """A marker of the current contents; it reads no file."""
        return self._journal.snapshot()

    def restore(self, snapshot: FilesystemSnapshot) -> None:
        """Undo every change made after ``snapshot``, each file written back atomically."""
        self._journal.rollback(snapshot, _undo)

    def _resolve(self, path: str) -> tuple[str, Path]:
        """``path`` normalised, and the real path it leads to once symlinks are followed."""
        key = normalise_path(path)
        if "\\" in path:
            raise FilesystemError(
                f"Path '{path}' must separate folders with '/', not '\\'.", path=path
            )
        # realpath resolves the deepest existing part and keeps the rest lexically, so a
        # symlink is caught even on the way to a file that does not exist yet. Unlike
        # Path.resolve it does not raise on a symlink loop; opening the path will.
        real = Path(os.path.realpath(self._root / key))
        if not real.is_relative_to(self._root):
            raise PathOutsideRootError(f"Path '{path}' is outside the filesystem root.", path=path)
        return key, real

    def _make_parents(self, path: str, folder: Path) -> None:
        missing: list[Path] = []
        while not folder.is_dir():
            if folder.exists():
                name = folder.relative_to(self._root).as_posix()
                raise FilesystemError(f"Cannot write '{path}': '{name}' is a file.", path=path)
            missing.append(folder)
            folder = folder.parent
        for created in reversed(missing):
            created.mkdir()
            self._journal.record(str(created), _Folder.CREATED)

    def _previous(self, real: Path) -> bytes | None | Unchanged:
        """The bytes at ``real`` for the journal; not read when no snapshot needs them."""
        if not self._journal.needs(str(real)):
            return UNCHANGED
        try:
            return real.read_bytes()
        except FileNotFoundError:
            return None


def _write_atomically(real: Path, data: bytes) -> None:
    """Write ``data`` to a sibling temporary file, then move it over ``real``."""
    temporary = real.with_name(f".{real.name}.{secrets.token_hex(6)}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(data)
        with contextlib.suppress(FileNotFoundError):  # a new file keeps the umask's mode
            shutil.copymode(real, temporary)
        os.replace(temporary, real)  # noqa: PTH105  # named so tests can make it fail
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _undo(key: str, previous: _Previous) -> None:
    real = Path(key)
    if previous is _Folder.CREATED:
        with contextlib.suppress(OSError):  # something else was put inside: keep it
            real.rmdir()
    elif previous is None:
        if real.is_dir():  # a folder made after the file: later changes record nothing
            with contextlib.suppress(OSError):
                real.rmdir()
        else:
            real.unlink(missing_ok=True)
    else:
        real.parent.mkdir(parents=True, exist_ok=True)
        if real.is_dir():  # made after the file was deleted: it goes if empty
            real.rmdir()
        _write_atomically(real, previous)
