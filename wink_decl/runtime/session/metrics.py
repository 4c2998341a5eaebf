"""Named integer counters that a session keeps as telemetry."""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["DISCLOSURE_DYNAMIC", "DISCLOSURE_RESTARTS", "TOOLS_INJECTED", "Metrics"]

TOOLS_INJECTED = "wink.tools.injected"
"""Counter of tools injected into a conversation after a section expanded."""

DISCLOSURE_RESTARTS = "wink.disclosure.restarts"
"""Counter of section expansions that needed the evaluation to restart."""

DISCLOSURE_DYNAMIC = "wink.disclosure.dynamic"
"""Counter of section expansions served without a restart (dynamic tools)."""


class Metrics:
    """Monotonic named counters.

    Counters are telemetry: ``Session.restore`` leaves them alone, so a rolled-back
    tool call still counts; ``Session.reset`` clears them.
    """

    __slots__ = ("_counters",)

    def __init__(self) -> None:
        """Start with every counter at zero."""
        self._counters: dict[str, int] = {}

    def increment(self, name: str, by: int = 1) -> None:
        """Add ``by`` to the counter ``name``.

        Raises:
            ValueError: ``by`` is negative; a counter only goes up.
        """
        if by < 0:
            raise ValueError(f"counter {name!r} cannot be incremented by {by}: must be >= 0")
        self._counters[name] = self._counters.get(name, 0) + by

    def value(self, name: str) -> int:
        """Return the counter ``name``, or 0 if it was never incremented."""
        return self._counters.get(name, 0)

    def snapshot(self) -> Mapping[str, int]:
        """Return a read-only copy of every counter, sorted by name."""
        return MappingProxyType(dict(sorted(self._counters.items())))

    def reset(self) -> None:
        """Set every counter back to zero (forget them all)."""
        self._counters.clear()
