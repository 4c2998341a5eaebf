"""``Filesystem``: the protocol tools reach through ``context.filesystem``, and its snapshot.

The implementations (in memory, on the host, read-only) live in ``wink_decl.runtime.filesystem``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

__all__ = ["Filesystem", "FilesystemSnapshot"]


@dataclass(frozen=True, slots=True, eq=False, weakref_slot=True)
class FilesystemSnapshot:
    """An opaque point in a filesystem's history; give it back to that filesystem's ``restore``."""

    journal: object = field(repr=False)
    position: int


@runtime_checkable
class Filesystem(Protocol):
    """Text files under one root; paths are relative POSIX paths and never leave the root.

    Every method raises ``PathOutsideRootError`` for an absolute path or one that escapes
    the root, and ``FilesystemError`` for an empty one.
    """

    @property
    def root_label(self) -> str:
        """What to call the root in messages: ``"memory"`` or the host folder."""
        ...

    def normalise(self, path: str) -> str:
        """The canonical relative form of ``path``: ``'a/./b/../c.txt'`` gives ``'a/c.txt'``."""
        ...

    def exists(self, path: str) -> bool:
        """Whether a file or folder is at ``path``."""
        ...

    def is_file(self, path: str) -> bool:
        """Whether a file is at ``path``."""
        ...

    def read_text(self, path: str) -> str:
        """The UTF-8 text of the file at ``path``."""
        ...

    def write_text(self, path: str, text: str) -> None:
        """Replace (or create) the file at ``path``, creating missing folders."""
        ...

    def delete(self, path: str) -> None:
        """Delete the file at ``path`` (folders are refused)."""
        ...

    def list_dir(self, path: str = ".") -> tuple[str, ...]:
        """The sorted names of the files and folders directly inside ``path``."""
        ...

    def snapshot(self) -> FilesystemSnapshot:
        """A cheap marker of the current contents, for ``restore``."""
        ...

    def restore(self, snapshot: FilesystemSnapshot) -> None:
        """Put back the contents ``snapshot`` saw; ``ValueError`` if it is foreign or stale."""
        ...
