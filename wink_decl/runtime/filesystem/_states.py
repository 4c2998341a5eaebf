"""What a path held before a change, and how ``restore`` puts it back whatever is there."""

from __future__ import annotations

import contextlib
import enum
import os
import stat
from dataclasses import dataclass
from typing import Final

from wink_decl.runtime.filesystem._replace import Replacer
from wink_decl.runtime.filesystem._spill import Spill
from wink_decl.runtime.filesystem._walk import lstat

__all__ = ["ABSENT", "Absent", "File", "Folder", "Link", "State", "put_back", "remove_entry"]

_FOLDER_FLAGS: Final = (
    os.O_RDONLY
    | getattr(os, "O_DIRECTORY", 0)
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
)
"""A folder to change the mode of (``fchmod`` needs more than ``O_PATH``)."""


class Absent(enum.Enum):
    """The type of ``ABSENT``."""

    ABSENT = "absent"


ABSENT: Final = Absent.ABSENT
"""Nothing was there."""


@dataclass(frozen=True, slots=True)
class Folder:
    """A folder with these permission bits."""

    mode: int


@dataclass(frozen=True, slots=True)
class File:
    """A file: its content in the spill file, and its permission bits."""

    offset: int  # where the content is in the spill file
    length: int
    mode: int


@dataclass(frozen=True, slots=True)
class Link:
    """A symlink to ``target``."""

    target: str


State = Absent | Folder | File | Link
"""What a real path held before a change: what ``restore`` puts back, whatever is there then."""


def put_back(
    parent: int, name: str, state: Folder | File | Link, replacer: Replacer, spill: Spill
) -> None:
    """Make ``name`` in ``parent`` hold ``state`` again, whatever it holds now."""
    status = lstat(parent, name)
    if isinstance(state, Folder):
        _put_folder(parent, name, status, state.mode)
        return
    if status is not None and stat.S_ISDIR(status.st_mode):
        os.rmdir(name, dir_fd=parent)  # a folder made since: it goes if empty
    elif status is not None and isinstance(state, Link):
        os.unlink(name, dir_fd=parent)
    if isinstance(state, Link):
        os.symlink(state.target, name, dir_fd=parent)
        return
    replacer.replace(
        parent, name, lambda target: spill.load(state.offset, state.length, target), state.mode
    )


def remove_entry(parent: int, name: str) -> None:
    """Remove ``name`` from ``parent``: a file or link, or a folder if it is empty."""
    status = lstat(parent, name)
    if status is None:
        return
    if stat.S_ISDIR(status.st_mode):
        with contextlib.suppress(OSError):  # something else was put inside: keep it
            os.rmdir(name, dir_fd=parent)
    else:
        os.unlink(name, dir_fd=parent)


def _put_folder(parent: int, name: str, status: os.stat_result | None, mode: int) -> None:
    if status is None or not stat.S_ISDIR(status.st_mode):
        if status is not None:
            os.unlink(name, dir_fd=parent)
        os.mkdir(name, 0o700, dir_fd=parent)
    descriptor = os.open(name, _FOLDER_FLAGS, dir_fd=parent)
    try:
        os.fchmod(descriptor, mode)
    finally:
        os.close(descriptor)
