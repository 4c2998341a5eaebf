"""The undo journal behind ``Filesystem.snapshot`` and ``Filesystem.restore``.

Every change records what its key held before; a snapshot is a position in that record, so
taking one copies nothing. Restoring undoes the entries after the position, newest first.
Only live snapshots keep entries: once none refers to a change, it is forgotten.

An undo puts a key back in the state it had, whatever it holds now, so only the first change
of a key after the newest live snapshot needs that state: every live snapshot lies before that
first change, and undoing it puts back what any of them saw. Later changes of the same key
record ``UNCHANGED`` (they still count as changes), so a file rewritten twenty times under one
snapshot keeps one old version, not twenty.
"""

from __future__ import annotations

import enum
import weakref
from collections.abc import Callable
from typing import Final, Generic, TypeVar

from wink_decl.prompt.filesystem_protocol import FilesystemSnapshot

__all__ = ["UNCHANGED", "Journal", "Unchanged"]

V = TypeVar("V")


class Unchanged(enum.Enum):
    """The type of ``UNCHANGED``."""

    UNCHANGED = "unchanged"


UNCHANGED: Final = Unchanged.UNCHANGED
"""An entry no restore needs: an earlier entry of the same key already holds its old state."""


class Journal(Generic[V]):
    """Undo entries ``(key, previous)`` between the oldest live snapshot and now."""

    __slots__ = ("_base", "_entries", "_live", "_saved")

    def __init__(self) -> None:
        self._base = 0  # the absolute position of ``_entries[0]``
        self._entries: list[tuple[str, V | Unchanged]] = []
        self._live: weakref.WeakSet[FilesystemSnapshot] = weakref.WeakSet()
        self._saved: dict[str, int] = {}  # key -> position of its newest entry with a state

    def __len__(self) -> int:
        """How many undo entries are kept."""
        return len(self._entries)

    @property
    def position(self) -> int:
        """The absolute position a snapshot taken now would hold."""
        return self._base + len(self._entries)

    def needs(self, key: str) -> bool:
        """Whether a change of ``key`` made now must record what ``key`` holds.

        False when no snapshot is live, or when ``key`` has changed since the newest live
        snapshot (that change recorded the state every live snapshot needs). Callers ask before
        reading the old content, and pass ``UNCHANGED`` to ``record`` when the answer is no.
        """
        if not self._live:
            return False
        newest = max(snapshot.position for snapshot in self._live)
        return self._saved.get(key, -1) < newest

    def snapshot(self) -> FilesystemSnapshot:
        """A snapshot of now: one small object, whatever the size of the files."""
        taken = FilesystemSnapshot(self, self.position)
        self._live.add(taken)
        return taken

    def record(self, key: str, previous: V | Unchanged) -> None:
        """Remember that ``key`` held ``previous`` before the change just made."""
        if not self._live:  # nothing can roll back: forget, but keep counting changes
            self._base = self.position + 1
            self._entries.clear()
            self._saved.clear()
            return
        if not self.needs(key):
            previous = UNCHANGED
        oldest = min(snapshot.position for snapshot in self._live)
        if oldest > self._base:
            del self._entries[: oldest - self._base]
            self._base = oldest
            self._saved = {k: at for k, at in self._saved.items() if at >= oldest}
        if previous is not UNCHANGED:
            self._saved[key] = self.position
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
            if previous is not UNCHANGED:
                undo(key, previous)
                if self._saved.get(key) == self.position - 1:
                    del self._saved[key]
            self._entries.pop()
        for later in [s for s in self._live if s.position > snapshot.position]:
            self._live.discard(later)
