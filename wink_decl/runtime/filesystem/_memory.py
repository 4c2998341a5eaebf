"""``InMemoryFilesystem``: a ``Filesystem`` kept in a dict, for tests and sandboxes."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import chain

from wink_decl.prompt.filesystem_protocol import FilesystemSnapshot
from wink_decl.runtime.filesystem._errors import FileNotFoundInFilesystemError, FilesystemError
from wink_decl.runtime.filesystem._journal import Journal
from wink_decl.runtime.filesystem._lexical_paths import ROOT, normalise_path, parent_of

__all__ = ["InMemoryFilesystem"]


class InMemoryFilesystem:
    """Text files held in memory; a folder exists while some file path runs through it.

    ``files`` maps paths (normalised on the way in) to their text.
    """

    __slots__ = ("_files", "_folders", "_journal")

    def __init__(self, files: Mapping[str, str] | None = None) -> None:
        self._files: dict[str, str] = {}
        self._folders: dict[str, int] = {}  # folder -> how many files it holds, at any depth
        self._journal: Journal[str | None] = Journal()
        for path, text in (files or {}).items():
            self.write_text(path, text)

    @property
    def root_label(self) -> str:
        """Always ``"memory"``."""
        return "memory"

    def normalise(self, path: str) -> str:
        """The canonical relative form of ``path``; backslashes are ordinary characters."""
        return normalise_path(path)

    def exists(self, path: str) -> bool:
        """Whether a file or folder is at ``path``."""
        key = normalise_path(path)
        return key in self._files or self._is_folder(key)

    def is_file(self, path: str) -> bool:
        """Whether a file is at ``path``."""
        return normalise_path(path) in self._files

    def read_text(self, path: str) -> str:
        """The text of the file at ``path``."""
        key = normalise_path(path)
        text = self._files.get(key)
        if text is not None:
            return text
        if self._is_folder(key):
            raise FilesystemError(f"'{path}' is a directory.", path=path)
        raise FileNotFoundInFilesystemError(f"File '{path}' does not exist.", path=path)

    def write_text(self, path: str, text: str) -> None:
        """Replace (or create) the file at ``path``; its folders come into being with it."""
        key = normalise_path(path)
        if self._is_folder(key):
            raise FilesystemError(f"'{path}' is a directory.", path=path)
        for folder in _ancestors(key):
            if folder in self._files:
                raise FilesystemError(f"Cannot write '{path}': '{folder}' is a file.", path=path)
        previous = self._files.get(key)
        self._put(key, text)
        self._journal.record(key, previous)

    def delete(self, path: str) -> None:
        """Delete the file at ``path``; folders it leaves empty disappear with it."""
        key = normalise_path(path)
        previous = self._files.get(key)
        if previous is None:
            if self._is_folder(key):
                raise FilesystemError(f"'{path}' is a directory.", path=path)
            raise FileNotFoundInFilesystemError(f"File '{path}' does not exist.", path=path)
        self._put(key, None)
        self._journal.record(key, previous)

    def list_dir(self, path: str = ".") -> tuple[str, ...]:
        """The sorted names of the files and folders directly inside ``path``."""
        key = normalise_path(path)
        if key in self._files:
            raise FilesystemError(f"'{path}' is a file.", path=path)
        if not self._is_folder(key):
            raise FileNotFoundInFilesystemError(f"Folder '{path}' does not exist.", path=path)
        return tuple(
            sorted(
                child.rpartition("/")[2]
                for child in chain(self._files, self._folders)
                if parent_of(child) == key
            )
        )

    def snapshot(self) -> FilesystemSnapshot:
        """A marker of the current contents; it copies no text."""
        return self._journal.snapshot()

    def restore(self, snapshot: FilesystemSnapshot) -> None:
        """Undo every change made after ``snapshot``."""
        self._journal.rollback(snapshot, self._put)

    def _is_folder(self, key: str) -> bool:
        return key == ROOT or key in self._folders

    def _put(self, key: str, text: str | None) -> None:
        """Store ``text`` at ``key`` (None removes it), keeping the folder counts right.

        Removing a missing file does nothing: a restore puts each path back in the state it
        had, whatever it holds by then.
        """
        if text is None:
            if self._files.pop(key, None) is None:
                return
            change = -1
        else:
            change = 0 if key in self._files else 1
            self._files[key] = text
        if change:
            for folder in _ancestors(key):
                count = self._folders.get(folder, 0) + change
                if count:
                    self._folders[folder] = count
                else:
                    del self._folders[folder]


def _ancestors(key: str) -> list[str]:
    """The folders above the normalised path ``key``, outermost first: 'a/b/c' gives a, a/b."""
    parts = key.split("/")
    return ["/".join(parts[:end]) for end in range(1, len(parts))]
