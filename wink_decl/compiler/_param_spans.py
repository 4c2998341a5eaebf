"""Where each declared param is written, found only when a diagnostic asks.

A compiled prompt keeps these spans for the params a caller later gets wrong. Finding them
eagerly would cost every TOML file its position scan (tomllib keeps no positions), which a
file that compiles cleanly otherwise never needs.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from wink_decl.diagnostics import Span
from wink_decl.loader import SourceMap

__all__ = ["ParamSpans"]


class ParamSpans(Mapping[str, Span]):
    """``name -> Span`` of each declared param's key in one file, looked up on first use.

    Two threads asking at once may both look a span up; both find the same one.
    """

    __slots__ = ("_found", "_names", "_source_map")

    def __init__(self, source_map: SourceMap, names: Iterable[str]) -> None:
        """The params ``names``, declared under ``params`` in the file ``source_map`` maps."""
        self._source_map = source_map
        self._names = tuple(names)
        self._found: dict[str, Span] = {}

    def __getitem__(self, name: str) -> Span:
        """The span of the key ``params.<name>`` (as ``CompileContext.key_span`` finds it)."""
        span = self._found.get(name)
        if span is None:
            if name not in self._names:
                raise KeyError(name)
            path = ("params", name)
            found = self._source_map
            span = found.key_span(path) or found.value_span(path) or found.nearest(path)
            self._found[name] = span
        return span

    def __iter__(self) -> Iterator[str]:
        """The declared names, in the file's order."""
        return iter(self._names)

    def __len__(self) -> int:
        """How many params are declared."""
        return len(self._names)
