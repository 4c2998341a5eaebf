"""The undo journal behind ``Filesystem.snapshot`` and ``Filesystem.restore``.

Every change records what it overwrote; a snapshot is a position in that record, so
taking one copies nothing. Restoring undoes the entries after the position, newest first.
Only live snapshots keep entries: once none refers to a change, it is forgotten.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

__all__ = ["FilesystemSnapshot", "Journal"]

V = TypeVar("V")


@dataclass(frozen=True, slots=True, eq=False, weakref_slot=True)
class FilesystemSnapshot:
    """An opaque point in a filesystem's history; give it back to that filesystem's ``restore``."""

    journal: object = field(repr=False)
    position: int


class Journal(Generic[V]):
    """Undo entries ``(key, previous)`` between the oldest live snapshot and now."""

    __slots__ = ("_base", "_entries", "_live")

    def __init__(self) -> None:
        self._base = 0  # the absolute position of ``_entries[0]``
        self._entries: list[tuple[str, V]] = []
        self._live: weakref.WeakSet[FilesystemSnapshot] = weakref.WeakSet()

    def __len__(self) -> int:
        """How many undo entries are kept."""
        return len(self._entries)

    @property
    def recording(self) -> bool:
        """Whether a live snapshot needs changes recorded (callers skip reading old content)."""
        return bool(self._live)

    @property
    def position(self) -> int:
        """The absolute position a snapshot taken now would hold."""
        return self._base + len(self._entries)

    def snapshot(self) -> FilesystemSnapshot:
        """A snapshot of now: one small object, whatever the size of the files."""
        taken = FilesystemSnapshot(self, self.position)
        self._live.add(taken)
        return taken

    def record(self, key: str, previous: V) -> None:
        """Remember that ``key`` held ``previous`` before the change just made."""
        if not self._live:  # nothing can roll back: forget, but keep counting changes
            self._base = self.position + 1
            self._entries.clear()
            return
        oldest = min(snapshot.position for snapshot in self._live)
        if oldest > self._base:
            del self._entries[: oldest - self._base]
            self._base = oldest
        self._entries.append((key, previous))

    def rollback(self, snapshot: FilesystemSnapshot, undo: Callable[[str, V], None]) -> None:
        """Undo every change after ``snapshot``; later snapshots become invalid.

        An entry is dropped only once its undo succeeded, so a failed restore can be retried.
        """
        if snapshot.journal is not self:
            raise ValueError("Snapshot was taken from a different filesystem.")
        if snapshot not in self._live:
            raise ValueError(
                "Snapshot is no longer valid: the filesystem was restored to an earlier snapshot."
            )
        while self.position > snapshot.position:
            key, previous = self._entries[-1]
            undo(key, previous)
            self._entries.pop()
        for later in [s for s in self._live if s.position > snapshot.position]:
            self._live.discard(later)
