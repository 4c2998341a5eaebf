"""Walking a path from the root's descriptor, one name at a time, never leaving the root.

Each folder on the way is opened relative to the one before it with ``O_NOFOLLOW`` and
``O_DIRECTORY``, so the kernel never resolves a symlink or ``..`` for us: a folder swapped for a
symlink between two steps makes the open fail instead of leading elsewhere. A symlink met on
the way is read (``readlink``) and its target walked the same way, from the folder that holds
it; ``..`` starts the walk again from the root's descriptor with the names that lead to the
parent, so a walk can never climb above the root, whatever is renamed meanwhile.
"""

from __future__ import annotations

import os
import stat
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import TracebackType
from typing import Final, Self

from wink_decl.errors import WinkDeclError
from wink_decl.runtime.filesystem._errors import FilesystemError, PathOutsideRootError
from wink_decl.runtime.filesystem._lexical_paths import ROOT

__all__ = [
    "FOLDER_FLAGS",
    "MAX_LINKS",
    "NAME_MAX",
    "PATH_MAX",
    "Found",
    "Missing",
    "NotAFolder",
    "Walker",
    "check_name",
    "lstat",
    "shown",
]

FOLDER_FLAGS: Final = (
    getattr(os, "O_DIRECTORY", 0)
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_PATH", os.O_RDONLY)
)
"""A folder to walk through, never a symlink; ``O_PATH`` (Linux) needs no read permission.
Every flag is looked up with ``getattr``: Windows lacks them, and imports this module anyway."""

NAME_MAX: Final = 255
"""Bytes in one name: the limit of ext4, XFS, Btrfs, tmpfs, APFS and most others."""

PATH_MAX: Final = 4096
"""Bytes in a whole path: Linux's limit, kept everywhere although the walk never needs it."""

MAX_LINKS: Final = 40
"""Symlinks one walk may follow, as Linux allows (a loop ends here)."""


def shown(text: str, width: int = 60) -> str:
    """``text`` cut to ``width`` characters for a message, marked with '...' when cut."""
    return text if len(text) <= width else text[: width - 3] + "..."


def check_name(name: str, path: str) -> None:
    """Refuse a name longer than ``NAME_MAX`` bytes, before the kernel does in its own words."""
    size = len(os.fsencode(name))
    if size > NAME_MAX:
        raise FilesystemError(
            f"Name '{shown(name)}' in path '{shown(path)}' is {size} bytes long; "
            f"a name can be at most {NAME_MAX} bytes.",
            path=path,
        )


def lstat(folder: int, name: str) -> os.stat_result | None:
    """What ``name`` in ``folder`` is, without following a symlink; None when nothing is there."""
    try:
        return os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return None


class Missing(WinkDeclError):  # noqa: N818  # a walk's outcome, caught inside the package
    """A folder on the way does not exist; ``at`` is its path from the root."""

    def __init__(self, at: str) -> None:
        super().__init__(at)
        self.at = at


class NotAFolder(WinkDeclError):  # noqa: N818  # a walk's outcome, caught inside the package
    """Something on the way is not a folder; ``at`` is its path from the root, ``mode`` its kind."""

    def __init__(self, at: str, mode: int) -> None:
        super().__init__(at)
        self.at = at
        self.mode = mode


@dataclass(slots=True)
class Found:
    """Where a walk ended: an open descriptor of the folder that holds the entry, and the entry.

    ``name`` is None when the path is that folder itself; ``stat`` describes the entry without
    following a symlink, or is None when nothing has the name. Close it (or use ``with``).
    """

    folder: int
    folders: tuple[str, ...]
    name: str | None
    stat: os.stat_result | None

    @property
    def key(self) -> str:
        """The entry's real path from the root, symlinks resolved: the journal's key."""
        names = self.folders if self.name is None else (*self.folders, self.name)
        return "/".join(names) or ROOT

    def close(self) -> None:
        """Close the folder's descriptor."""
        os.close(self.folder)

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


class _Walk:
    """One walk's state: the open folder, the names that led to it, the names still to go."""

    __slots__ = ("folder", "folders", "links", "path", "pending", "root")

    def __init__(self, root: int, path: str, names: Iterable[str]) -> None:
        self.root = root
        self.path = path
        self.pending = deque(names)
        self.folders: list[str] = []
        self.folder = os.dup(root)
        self.links = 0

    def at(self, name: str) -> str:
        return "/".join((*self.folders, name))

    def next_name(self) -> str | None:
        """The next real name to look at, after ``.`` and ``..``; None at the end."""
        while self.pending:
            name = self.pending.popleft()
            if name in {"", "."}:
                continue
            if name != "..":
                check_name(name, self.path)
                return name
            if not self.folders:
                raise PathOutsideRootError(
                    f"Path '{self.path}' is outside the filesystem root.", path=self.path
                )
            self.restart(self.folders[:-1])
        return None

    def restart(self, names: list[str]) -> None:
        """Walk ``names`` again from the root before what is pending (never ``..`` in place)."""
        self.pending.extendleft(reversed(names))
        self.folders = []
        os.close(self.folder)
        self.folder = os.dup(self.root)

    def enter(self, child: int, name: str) -> None:
        os.close(self.folder)
        self.folder = child
        self.folders.append(name)

    def follow(self, name: str, root_path: str) -> None:
        """Put the target of the symlink ``name`` (in the current folder) before what is pending."""
        self.links += 1
        if self.links > MAX_LINKS:
            raise FilesystemError(
                f"Path '{self.path}' runs through more than {MAX_LINKS} symbolic links.",
                path=self.path,
            )
        target = os.readlink(name, dir_fd=self.folder)
        if not target.startswith("/"):
            self.pending.extendleft(reversed(target.split("/")))
            return
        prefix = root_path.rstrip("/") + "/"
        if not (target + "/").startswith(prefix):
            raise PathOutsideRootError(
                f"Path '{self.path}' is outside the filesystem root.", path=self.path
            )
        self.restart(target[len(prefix) :].split("/"))  # an absolute link into the root

    def take(self, name: str | None, status: os.stat_result | None) -> Found:
        return Found(self.folder, tuple(self.folders), name, status)


class Walker:
    """Finds paths under the folder whose descriptor is ``root`` (kept open by the caller).

    ``root_path`` is that folder's real path when it was opened: a symlink whose target is an
    absolute path under it is followed as if relative to the root.
    """

    __slots__ = ("_root", "_root_path")

    def __init__(self, root: int, root_path: str) -> None:
        self._root = root
        self._root_path = root_path

    def find(
        self,
        path: str,
        key: str,
        *,
        follow_last: bool = True,
        made: Callable[[str], None] | None = None,
    ) -> Found:
        """Walk the normalised ``key`` (``path`` as given, for messages).

        Symlinks on the way are followed while they stay inside; the last one only when
        ``follow_last``. A missing folder on the way raises ``Missing``, or is created when
        ``made`` is given (which then hears its path); something that is not a folder raises
        ``NotAFolder``. Raises ``PathOutsideRootError`` for a symlink that leads outside.
        """
        walk = _Walk(self._root, path, () if key == ROOT else key.split("/"))
        try:
            while (name := walk.next_name()) is not None:
                if walk.pending:
                    self._descend(walk, name, made)
                    continue
                status = lstat(walk.folder, name)
                if follow_last and status is not None and stat.S_ISLNK(status.st_mode):
                    walk.follow(name, self._root_path)
                    continue
                return walk.take(name, status)
            return walk.take(None, os.fstat(walk.folder))
        except BaseException:
            os.close(walk.folder)
            raise

    def _descend(self, walk: _Walk, name: str, made: Callable[[str], None] | None) -> None:
        """Step into the folder ``name``: open it, follow it, or create it."""
        try:
            child = os.open(name, FOLDER_FLAGS, dir_fd=walk.folder)
        except OSError as error:
            status = lstat(walk.folder, name)
            if status is None:
                if made is None:
                    raise Missing(walk.at(name)) from None
                child = self._make(walk, name, made)
            elif stat.S_ISLNK(status.st_mode):
                walk.follow(name, self._root_path)
                return
            elif stat.S_ISDIR(status.st_mode):
                raise error from None  # a folder we may not enter: say why
            else:
                raise NotAFolder(walk.at(name), status.st_mode) from None
        walk.enter(child, name)

    @staticmethod
    def _make(walk: _Walk, name: str, made: Callable[[str], None]) -> int:
        try:
            os.mkdir(name, dir_fd=walk.folder)  # 0o777 less the umask, as for any new folder
        except FileExistsError:
            pass  # made by someone else meanwhile: open theirs (it must be a folder)
        else:
            made(walk.at(name))
        return os.open(name, FOLDER_FLAGS, dir_fd=walk.folder)

    def open_folder(self, names: Iterable[str], *, make: bool = False) -> int:
        """A descriptor of the folder at ``names`` (real names from the root, no symlink).

        For the journal, whose keys are real paths: nothing on the way is followed. Missing
        folders are made when ``make``; otherwise ``FileNotFoundError`` is raised.
        """
        folder = os.dup(self._root)
        try:
            for name in names:
                try:
                    child = os.open(name, FOLDER_FLAGS, dir_fd=folder)
                except FileNotFoundError:
                    if not make:
                        raise
                    os.mkdir(name, dir_fd=folder)
                    child = os.open(name, FOLDER_FLAGS, dir_fd=folder)
                os.close(folder)
                folder = child
        except BaseException:
            os.close(folder)
            raise
        return folder
