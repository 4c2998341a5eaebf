"""Where a composed YAML node was written: first and last character, or first line's content.

Positions come from libyaml's marks wherever they can; the line index is built only for the
rare positions that marks do not give directly (anchors and tags, aliases), which keeps
loading fast.
"""

from __future__ import annotations

import re

from wink_decl.loader._source_map import SpanTuple
from wink_decl.loader._text import LineIndex, quotable
from wink_decl.loader._yaml_compose import MAPPING, SCALAR, Mark, Node

SPACE = frozenset(" \t\r\n\x85\u2028\u2029")
PROPERTY = re.compile(r"&[^\s,\[\]{}]+|(!<[^>]*>|![^\s,\[\]{}]*)")
"""An anchor, or a tag (group 1), written before a node's content."""
SEPARATION = re.compile(r"(?:\s|#[^\r\n\x85\u2028\u2029]*)*")
_BLOCK_HEADER = re.compile(r"[|>]?[-+0-9]*")
_LINE_REST = re.compile(r"[^\r\n\x85\u2028\u2029]*")
_BLANKS = re.compile(r"[ \t]*")


class SpanFinder:
    """Spans of the nodes of one text (1-based lines and columns, end inclusive)."""

    def __init__(self, text: str) -> None:
        """Find spans in ``text``."""
        self.text = text
        self._lines: LineIndex | None = None
        self._breaks: tuple[str, ...] | None = None

    def scalar(self, node: Node) -> SpanTuple:
        """From the scalar's first character (after any anchor or tag) to its last."""
        start, end, text = node.start_mark, node.end_mark, self.text
        if (
            end.index > start.index
            and text[start.index] not in "&!"
            and text[end.index - 1] not in SPACE
        ):
            return start.line + 1, start.column + 1, end.line + 1, end.column
        index, line, column = self.start(node)
        if end.index <= index:  # empty: the place where a value could be written
            line, column = self.position(index)
            return line, column, line, column
        return line, column, *self._last(node, index)

    def collection(self, node: Node) -> SpanTuple:
        """A flow collection whole; a block one by the content of its first line."""
        index, line, column = self.start(node)
        if node.flow_style:
            return line, column, *self._last(node, index)
        return line, column, *self._first_line_end(node, index, line, column)

    def start(self, node: Node) -> tuple[int, int, int]:
        """Index, line and column of the node's first character after its anchor and tag."""
        mark, text = node.start_mark, self.text
        index = mark.index
        if index < len(text) and text[index] in "&!":
            while (match := PROPERTY.match(text, index)) is not None:
                index = match_end(SEPARATION, text, match.end())
            return index, *self.position(index)
        return index, mark.line + 1, mark.column + 1

    def _last(self, node: Node, start: int) -> tuple[int, int]:
        """Line and column of the node's last character that is not a space or line break."""
        mark, text = node.end_mark, self.text
        index = mark.index - 1
        if index > start and text[index] not in SPACE:
            return mark.line + 1, mark.column
        while index > start and text[index] in SPACE:
            index -= 1
        return self._before(mark, max(index, start))

    def _before(self, mark: Mark, index: int) -> tuple[int, int]:
        """Line and column of ``index``, found from a ``mark`` a few characters after it."""
        text = self.text
        if self._breaks is None:
            self._breaks = tuple(char for char in "\n\r\x85\u2028\u2029" if char in text)
        gap = text[index : mark.index]
        crossed = sum(map(gap.count, self._breaks)) - gap.count("\r\n")
        if crossed == 0:
            return mark.line + 1, mark.column - (mark.index - index) + 1
        line_start = max(text.rfind(char, 0, index) for char in self._breaks) + 1
        return mark.line + 1 - crossed, index - line_start + 1

    def _first_line_end(self, node: Node, index: int, line: int, column: int) -> tuple[int, int]:
        """Where the content of the node's first line ends (comments left out)."""
        if node.__class__ is SCALAR:
            return self._scalar_first_line_end(node, index, line)
        if node.flow_style:
            last = self._last(node, index)
            return last if last[0] == line else self._flow_first_line_end(node, index, line)
        if node.__class__ is MAPPING:
            return self._mapping_first_line_end(node, index, line, column)
        item: Node = node.value[0]  # a block list: its first item, if on this line
        if item.start_mark.index >= index and item.start_mark.line + 1 == line:
            return self._first_line_end(item, *self.start(item))
        return line, column

    def _mapping_first_line_end(
        self, node: Node, index: int, line: int, column: int
    ) -> tuple[int, int]:
        key, value = node.value[0]
        if value.start_mark.index >= index and value.start_mark.line + 1 == line:
            return self._first_line_end(value, *self.start(value))
        end = key.end_mark
        colon = match_end(_BLANKS, self.text, end.index)
        if self.text[colon : colon + 1] == ":":  # the value starts on a later line
            return end.line + 1, end.column + colon - end.index + 1
        return line, column  # an explicit '? key' or an alias as the first key

    def _flow_first_line_end(self, node: Node, index: int, line: int) -> tuple[int, int]:
        """A flow collection over several lines: up to its last item on the first line."""
        chosen: Node | None = None
        for child in _flat(node):
            mark = child.start_mark
            if mark.index < index:
                continue  # an alias of a node written earlier
            if mark.line + 1 != line:
                break
            chosen = child
        if chosen is None:
            return line, node.start_mark.column + 1  # the bracket alone
        return self._first_line_end(chosen, *self.start(chosen))

    def _scalar_first_line_end(self, node: Node, index: int, line: int) -> tuple[int, int]:
        last = self._last(node, index)
        if last[0] == line:
            return last
        if node.style in ("|", ">"):
            end = match_end(_BLOCK_HEADER, self.text, index)
        else:
            end = match_end(_LINE_REST, self.text, index)
            while self.text[end - 1] in " \t":
                end -= 1
        mark = node.start_mark  # the first line is the mark's line from here on
        return line, mark.column + (end - 1 - mark.index) + 1

    def position(self, index: int) -> tuple[int, int]:
        """Line and column of ``index`` (past a final line break: still on the last line)."""
        if self._lines is None:
            self._lines = LineIndex(self.text, "yaml")
        return self._lines.position(quotable(self.text, index))


def match_end(pattern: re.Pattern[str], text: str, index: int) -> int:
    """Where ``pattern`` (which may match nothing) stops matching from ``index``."""
    match = pattern.match(text, index)
    return index if match is None else match.end()


def _flat(node: Node) -> list[Node]:
    """Keys and values (or items) of a collection, in document order."""
    if node.__class__ is MAPPING:
        return [child for pair in node.value for child in pair]
    return list(node.value)
