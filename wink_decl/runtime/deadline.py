"""``Deadline``: a wall-clock limit that tools and the loop check before doing work."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["Deadline"]


@dataclass(slots=True, frozen=True)
class Deadline:
    """An absolute expiry time in seconds since the epoch; ``clock`` is injectable for tests."""

    expires_at: float
    clock: Callable[[], float] = field(default=time.time, compare=False, repr=False)

    @classmethod
    def after(cls, seconds: float, *, clock: Callable[[], float] = time.time) -> Deadline:
        """A deadline ``seconds`` from now."""
        if seconds <= 0:
            raise ValueError(f"A deadline must lie in the future; got {seconds} seconds.")
        return cls(clock() + seconds, clock)

    def remaining(self) -> float:
        """Seconds left; zero or negative once passed."""
        return self.expires_at - self.clock()

    def expired(self) -> bool:
        """True once the deadline has passed."""
        return self.remaining() <= 0
