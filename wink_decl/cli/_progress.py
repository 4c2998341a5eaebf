"""A one-line progress bar on an interactive stderr, cleared when the work is done."""

from __future__ import annotations

from typing import TextIO

__all__ = ["Progress"]

_WIDTH = 20


class Progress:
    """``[#####...............] 120/400 files``, redrawn in place; silent without a stream."""

    def __init__(self, stream: TextIO | None, total: int) -> None:
        """Draw nothing yet; ``stream`` None means the bar is off."""
        self._stream = stream
        self._total = total
        self._done = 0
        self._drawn = 0

    def advance(self, count: int) -> None:
        """Count ``count`` more files done and redraw."""
        self._done += count
        if self._stream is None:
            return
        filled = _WIDTH * self._done // self._total
        line = f"[{'#' * filled}{'.' * (_WIDTH - filled)}] {self._done}/{self._total} files"
        self._stream.write("\r" + line)
        self._stream.flush()
        self._drawn = len(line)

    def close(self) -> None:
        """Erase the bar, so what follows starts on a clean line."""
        if self._stream is not None and self._drawn:
            self._stream.write("\r" + " " * self._drawn + "\r")
            self._stream.flush()
