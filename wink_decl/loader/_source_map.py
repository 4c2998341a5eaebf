"""SourceMap: where each value and key of a loaded document was written, by JSON path."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from types import MappingProxyType
from typing import Any, NoReturn

from wink_decl.diagnostics import Span
from wink_decl.json_path import JSONPath
from wink_decl.loader._text import LineIndex

SpanTuple = tuple[int, int, int, int]
"""A span without its file: line, column, end line, end column (1-based, end inclusive)."""

IndexSpan = tuple[int, int]
"""A span as character indices of its first and last character."""

Resolve = Callable[[Any], SpanTuple]
"""Works out the span of an entry recorded as something else (such as a YAML node)."""


class SourceMap:
    """Spans of every value and key of one loaded file, looked up by JSON path.

    Value spans cover the value's tokens; a block mapping or list (one written over several
    lines without brackets) is represented by its first line's content. Key spans cover the
    key token of a mapping entry. Immutable after construction.
    """

    __slots__ = ("_keys", "_lines", "_resolve", "_values", "path")
    path: str
    _values: Mapping[JSONPath, object]
    _keys: Mapping[JSONPath, object]
    _lines: LineIndex | None
    _resolve: Resolve | None

    def __init__(
        self,
        path: str,
        values: Mapping[JSONPath, object],
        keys: Mapping[JSONPath, object],
        lines: LineIndex | None = None,
        *,
        resolve: Resolve | None = None,
    ) -> None:
        """Keep ``values`` and ``keys`` behind read-only views; the caller hands them over.

        Without ``lines`` they hold :data:`SpanTuple` entries; with it, :data:`IndexSpan`
        entries that become lines and columns only when looked up. With ``resolve``, an entry
        that is not a tuple is handed to it when looked up, so spans that are rarely needed
        cost nothing until then.
        """
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "_values", MappingProxyType(values))
        object.__setattr__(self, "_keys", MappingProxyType(keys))
        object.__setattr__(self, "_lines", lines)
        object.__setattr__(self, "_resolve", resolve)

    def __setattr__(self, name: str, value: object) -> NoReturn:
        """Refuse: a source map never changes."""
        raise AttributeError(f"SourceMap is immutable; cannot set {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        """Refuse: a source map never changes."""
        raise AttributeError(f"SourceMap is immutable; cannot delete {name!r}")

    def __repr__(self) -> str:
        """Path and size, never the whole index."""
        return f"SourceMap({self.path!r}, {len(self._values)} values)"

    def value_span(self, json_path: JSONPath) -> Span | None:
        """The span of the value at ``json_path``, or None when there is no such value."""
        found = self._values.get(json_path)
        return None if found is None else self._span(found)

    def key_span(self, json_path: JSONPath) -> Span | None:
        """The key token of the mapping entry at ``json_path``; None for list items and root."""
        found = self._keys.get(json_path)
        return None if found is None else self._span(found)

    def nearest(self, json_path: JSONPath) -> Span:
        """The value span of the longest prefix of ``json_path`` that exists.

        When only the root is left, the start of the file: ``Span(path, 1, 1)``.
        """
        for end in range(len(json_path), 0, -1):
            found = self._values.get(json_path[:end])
            if found is not None:
                return self._span(found)
        return Span(self.path, 1, 1)

    def paths(self) -> Iterator[JSONPath]:
        """Every recorded value path, root ``()`` included, in document order."""
        return iter(self._values)

    def _span(self, found: object) -> Span:
        if found.__class__ is not tuple and self._resolve is not None:
            return Span(self.path, *self._resolve(found))
        spans: tuple[int, ...] = found  # pyright: ignore[reportAssignmentType]  # checked above
        if self._lines is None:
            return Span(self.path, *spans)
        start, end = spans
        return Span(self.path, *self._lines.position(start), *self._lines.position(end))


def source_map_on_first_use(path: str, make: Callable[[], SourceMap]) -> SourceMap:
    """The source map ``make`` returns, made when it is first asked for a span.

    A file that loads and compiles cleanly is never asked: it costs one small object, not
    the tables, views and line index behind a map.
    """
    deferred = object.__new__(_MadeOnFirstUse)
    object.__setattr__(deferred, "path", path)
    object.__setattr__(deferred, "_make", make)
    return deferred


class _MadeOnFirstUse(SourceMap):
    """A source map whose lookups go to the one ``_make`` returns, made on the first of them."""

    __slots__ = ("_made", "_make")
    _make: Callable[[], SourceMap]
    _made: SourceMap

    def _map(self) -> SourceMap:
        try:
            return self._made
        except AttributeError:
            made = self._make()
            object.__setattr__(self, "_made", made)
            return made

    def __repr__(self) -> str:
        """As the map's own."""
        return repr(self._map())

    def value_span(self, json_path: JSONPath) -> Span | None:
        """As :meth:`SourceMap.value_span`."""
        return self._map().value_span(json_path)

    def key_span(self, json_path: JSONPath) -> Span | None:
        """As :meth:`SourceMap.key_span`."""
        return self._map().key_span(json_path)

    def nearest(self, json_path: JSONPath) -> Span:
        """As :meth:`SourceMap.nearest`."""
        return self._map().nearest(json_path)

    def paths(self) -> Iterator[JSONPath]:
        """As :meth:`SourceMap.paths`."""
        return self._map().paths()
