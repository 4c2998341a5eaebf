"""Where the parts of one case were written: spans by JSON path within the case.

A case written in the eval file or in a YAML dataset has a span for every key and value; one
on a JSONL line, or a CSV row, has the line (and a CSV row its cells). Checks of a case report
through a place, whichever file it came from.
"""

from __future__ import annotations

from collections.abc import Mapping

from wink_decl.diagnostics import JSONPath, Span
from wink_decl.loader import SourceMap

__all__ = ["LinePlace", "MapPlace", "Place"]


class MapPlace:
    """The part of a loaded file at ``base``: its keys' and values' spans, by path below it.

    It is also a ``SpanLookup``, so the schema's diagnostics of that part alone (a case of a
    dataset validated on its own) point into the file.
    """

    __slots__ = ("_base", "_map")

    def __init__(self, source_map: SourceMap, base: JSONPath = ()) -> None:
        self._map = source_map
        self._base = base

    @property
    def path(self) -> str:
        """The file."""
        return self._map.path

    def value_span(self, json_path: JSONPath) -> Span | None:
        """The value at ``json_path`` below the base, or None when it is not in the file."""
        return self._map.value_span(self._base + json_path)

    def key_span(self, json_path: JSONPath) -> Span | None:
        """The key of the entry at ``json_path`` below the base, or None."""
        return self._map.key_span(self._base + json_path)

    def nearest(self, json_path: JSONPath) -> Span:
        """The closest thing to ``json_path`` below the base that is in the file."""
        return self._map.nearest(self._base + json_path)

    def value(self, json_path: JSONPath = ()) -> Span:
        """The value at ``json_path``, else the nearest thing written."""
        return self.value_span(json_path) or self.nearest(json_path)

    def key(self, json_path: JSONPath) -> Span:
        """The key of the entry at ``json_path``, else its value's place."""
        return self.key_span(json_path) or self.value(json_path)

    def within(self, *parts: str | int) -> MapPlace:
        """The place of the part at ``parts`` below this one."""
        return MapPlace(self._map, (*self._base, *parts))


class LinePlace:
    """A case on one line (JSONL) or row (CSV): the spans of its cells, else the line's."""

    __slots__ = ("_keys", "_line", "_values")

    def __init__(
        self,
        line: Span,
        values: Mapping[JSONPath, Span] | None = None,
        keys: Mapping[JSONPath, Span] | None = None,
    ) -> None:
        self._line = line
        self._values = values or {}
        self._keys = keys or {}

    @property
    def path(self) -> str:
        """The file."""
        return self._line.path

    def value_span(self, json_path: JSONPath) -> Span | None:
        """The cell holding the value at ``json_path``, or None."""
        return self._values.get(json_path)

    def key_span(self, json_path: JSONPath) -> Span | None:
        """The header cell naming the value at ``json_path``, or None."""
        return self._keys.get(json_path)

    def nearest(self, json_path: JSONPath) -> Span:
        """The line: nothing smaller is known there."""
        del json_path
        return self._line

    def value(self, json_path: JSONPath = ()) -> Span:
        """The cell of ``json_path``, else the line."""
        return self._values.get(json_path, self._line)

    def key(self, json_path: JSONPath) -> Span:
        """The header cell of ``json_path``, else its value's place."""
        return self._keys.get(json_path) or self.value(json_path)

    def within(self, *parts: str | int) -> LinePlace:
        """The line again: the parts of a check on a line have no spans of their own."""
        del parts
        return LinePlace(self._line)


Place = MapPlace | LinePlace
"""Where a case's parts were written."""
