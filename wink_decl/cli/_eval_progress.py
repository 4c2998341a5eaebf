"""``wink-decl eval``'s progress line: runs done, the pass rate so far, and the time left."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from wink_decl.evals import CaseResult

__all__ = ["EvalProgress", "time_left"]

_WIDTH = 20


def time_left(seconds: float) -> str:
    """``45s``, ``3m05s`` or ``2h01m``: short, for a line redrawn in place."""
    whole = max(round(seconds), 0)
    if whole < 60:  # noqa: PLR2004  # a minute
        return f"{whole}s"
    minutes, secs = divmod(whole, 60)
    if minutes < 60:  # noqa: PLR2004  # an hour
        return f"{minutes}m{secs:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"


class EvalProgress:
    """``[#####...............] 120/400  pass 87.5%  errors 2  3m05s left``, redrawn in place.

    Silent without a stream (stderr is not a terminal). The time left is the time per run so
    far times the runs left; runs taken from a journal or the cache count as done.
    """

    def __init__(
        self, stream: TextIO | None, total: int, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        """Draw nothing yet; ``total`` runs are planned."""
        self._stream = stream
        self._total = total
        self._clock = clock
        self._started = clock()
        self._done = 0
        self._passed = 0
        self._errors = 0
        self._drawn = 0

    def finished(self, result: CaseResult) -> None:
        """Count one more run done and redraw."""
        self._done += 1
        self._passed += result.passed
        self._errors += result.error is not None
        if self._stream is None:
            return
        self._draw(self._line())

    def _line(self) -> str:
        done, total = self._done, self._total
        filled = _WIDTH * done // total if total else _WIDTH
        checked = done - self._errors
        rate = f"pass {100 * self._passed / checked:.1f}%" if checked else "pass -"
        errors = f"  errors {self._errors}" if self._errors else ""
        elapsed = self._clock() - self._started
        left = f"  {time_left(elapsed / done * (total - done))} left" if done < total else ""
        return f"[{'#' * filled}{'.' * (_WIDTH - filled)}] {done}/{total}  {rate}{errors}{left}"

    def _draw(self, line: str) -> None:
        assert self._stream is not None  # noqa: S101  # callers draw only with a stream
        padding = " " * max(self._drawn - len(line), 0)
        self._stream.write("\r" + line + padding)
        self._stream.flush()
        self._drawn = len(line)

    def close(self) -> None:
        """Erase the line, so what follows starts on a clean one."""
        if self._stream is not None and self._drawn:
            self._stream.write("\r" + " " * self._drawn + "\r")
            self._stream.flush()
            self._drawn = 0
