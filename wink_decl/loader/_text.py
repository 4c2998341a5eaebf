"""Positions in one text: 1-based lines and columns, with the line breaks a format counts."""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate
from typing import Literal

_YAML_LINE = re.compile(r"[^\r\n\x85\u2028\u2029]*(?:\r\n|[\r\n\x85\u2028\u2029]|\Z)")
_SPLITLINES_ONLY = re.compile(r"[\x0b\x0c\x1c-\x1e]")
_BREAK_CHARS = frozenset("\r\n\x85\u2028\u2029")


class LineIndex:
    """Turns a character index into a 1-based (line, column).

    YAML breaks lines where libyaml does (CR LF, CR, LF, NEL, LS and PS: the same places as
    ``str.splitlines`` in valid YAML); TOML only at LF. The lines are indexed on the first
    lookup: most loaded files never need a position that their parser did not give.
    """

    __slots__ = ("_format", "_starts", "_text")

    def __init__(self, text: str, file_format: Literal["yaml", "toml"]) -> None:
        """Remember ``text``; its line starts are found when first needed."""
        self._text = text
        self._format = file_format
        self._starts: list[int] | None = None

    def _index(self) -> list[int]:
        """The index where each line starts."""
        text, file_format = self._text, self._format
        if file_format == "toml":
            lengths = [length + 1 for length in map(len, text.split("\n"))]
        elif _SPLITLINES_ONLY.search(text):  # controls that only splitlines breaks at
            lengths = [len(line) for line in _YAML_LINE.findall(text) if line]
        else:
            lengths = list(map(len, text.splitlines(keepends=True)))
        starts = [0, *accumulate(lengths)]
        if len(starts) > 1 and (file_format == "toml" or text[-1] not in _BREAK_CHARS):
            starts.pop()  # the last line has no line break after it
        self._starts = starts
        return starts

    def position(self, index: int) -> tuple[int, int]:
        """Line and column (1-based) of the character at ``index``."""
        starts = self._starts if self._starts is not None else self._index()
        line = bisect_right(starts, index) - 1
        return line + 1, index - starts[line] + 1

    def start(self, line: int) -> int:
        """The index where ``line`` (1-based, at most the last line) starts."""
        starts = self._starts if self._starts is not None else self._index()
        return starts[min(line, len(starts)) - 1]


def quotable(text: str, index: int) -> int:
    """``index``, moved back onto the last line when it lies past a final line break.

    Positions at the very end of a file then still name a line that an excerpt can quote.
    """
    if index >= len(text) and text and text[-1] in _BREAK_CHARS:
        return len(text) - (2 if text.endswith("\r\n") else 1)
    return index
