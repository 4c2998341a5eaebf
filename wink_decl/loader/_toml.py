"""TOML prompt files: text -> plain data and a source map, or every problem found."""

from __future__ import annotations

import datetime
import sys
from collections.abc import Callable, Collection
from functools import partial
from typing import TYPE_CHECKING, cast

from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, Span
from wink_decl.errors import WinkDeclError
from wink_decl.loader._lazy_table import LazyTable
from wink_decl.loader._loaded import Loaded
from wink_decl.loader._source_map import JSONPath, SourceMap, source_map_on_first_use
from wink_decl.loader._text import LineIndex
from wink_decl.loader._toml_quick import read_plain_toml
from wink_decl.loader.file_kinds import FileKind
from wink_decl.loader.limit_diagnostics import Limits, too_deep, too_long_key, too_many_values
from wink_decl.loader.number_bounds import unusable_number

if TYPE_CHECKING:
    from wink_decl.loader._toml_positions import TomlPositions
    from wink_decl.loader._toml_scan import Found

Spans = Callable[[JSONPath], Span]
_DATES = (datetime.datetime, datetime.date, datetime.time)


class _Stop(WinkDeclError):  # noqa: N818 - a signal that carries its diagnostic
    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def load_toml(text: str, path: str, limits: Limits, kind: FileKind) -> Loaded:
    """The data of ``text`` and its source map (None on errors), and every problem found.

    ``kind`` words the diagnostics that depend on what kind of file this is.
    """
    # The quick read refuses all the scan before parsing would (and reads linearly): most
    # files are read without that scan, and with no source map made unless one is asked for.
    quick_read = read_plain_toml(text, limits)
    if quick_read is not None:  # most files: read without tomli, nothing to check after
        source_map = source_map_on_first_use(path, partial(_quick_source_map, text, path))
        return Loaded(quick_read.data, source_map, [], quick_read.has_numbers, bad_numbers=False)
    # Imported for the first text the quick read leaves (as tomli is, below).
    from wink_decl.loader._toml_scan import scan as scan_before_parsing  # noqa: PLC0415

    lines = LineIndex(text, "toml")
    found = scan_before_parsing(text, limits)
    if found is not None:
        return Loaded(None, None, [_refused(found, path, lines, limits)])
    return _read_by_tomli(text, path, lines, limits, kind)


def _quick_source_map(text: str, path: str) -> SourceMap:
    """The source map of a text read quickly, when a span is first asked of it."""
    return _lazy_source_map(text, path, LineIndex(text, "toml"))[1]


def _read_by_tomli(
    text: str, path: str, lines: LineIndex, limits: Limits, kind: FileKind
) -> Loaded:
    """What ``load_toml`` finds in a text that is not plain: tomli reads it, then the checks."""
    # Imported for the first such text: a process whose files are all read quickly (most
    # ``wink-decl validate`` runs) never pays for tomli's import.
    import tomli  # noqa: PLC0415

    try:
        data = tomli.loads(text)
    except tomli.TOMLDecodeError as error:
        # Imported here: a file that parses (most) never pays for what explains a mistake.
        from wink_decl.loader._toml_errors import syntax_diagnostic  # noqa: PLC0415

        return Loaded(None, None, [syntax_diagnostic(text, path, str(error))])
    if not data:
        return Loaded(None, None, [kind.not_a_mapping(Span(path, 1, 1), "empty", "toml")])
    positions, source_map = _lazy_source_map(text, path, lines)
    quick = QuickCheck(limits)
    if quick.table(data):  # the usual file: nothing to change and nothing to report
        return Loaded(data, source_map, [], quick.has_numbers, quick.bad_numbers)
    checker = _Checker(text, positions, limits, source_map.nearest, kind)
    try:
        plain = checker.table(data, (), 1)
    except _Stop as stop:
        return Loaded(None, None, [stop.diagnostic])
    return Loaded(plain, source_map, [], checker.has_numbers, checker.bad_numbers)


def _lazy_source_map(text: str, path: str, lines: LineIndex) -> tuple[_LazyScan, SourceMap]:
    """The source map of ``text``, whose positions are scanned when first asked for."""
    positions = _LazyScan(text)
    values = LazyTable(lambda: positions.scan.values)
    return positions, SourceMap(path, values, LazyTable(lambda: positions.scan.keys), lines)


def _refused(found: Found, path: str, lines: LineIndex, limits: Limits) -> Diagnostic:
    """What the scan before tomli found, as a diagnostic."""
    span = Span(path, *lines.position(found.start), *lines.position(found.end))
    if found.kind == "deep":
        return too_deep(span, limits.max_depth)
    if found.kind != "number":
        return too_long_key(span, found.size, limits.max_key_length, dotted=found.kind != "key")
    most = sys.get_int_max_str_digits()
    return Diagnostic(
        message=f"This number has {found.size:,} digits, more than Python reads ({most:,}).",
        span=span,
        code=DiagnosticCode.TOO_LONG,
        expected=f"a whole number of at most {most:,} digits",
        hint="Put it in quotes to keep it as text.",
    )


class _LazyScan:
    """The position scan of one text, run when a span is first asked for.

    tomli keeps no positions, and scanning for them costs about as much as parsing: a file
    that loads and compiles cleanly needs none (a date needs its own, to keep it as written).
    """

    __slots__ = ("_scan", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._scan: TomlPositions | None = None

    @property
    def scan(self) -> TomlPositions:
        """The scan, run now if it has not been."""
        if self._scan is None:
            from wink_decl.loader._toml_positions import TomlPositions  # noqa: PLC0415  # see above

            self._scan = TomlPositions(self._text)
        return self._scan


_TEXT: frozenset[type] = frozenset((str, bool))
"""The kinds of value that need no look (a bool is not a number here)."""
_NUMBERS: frozenset[type] = frozenset((int, float))
_PLAIN: frozenset[type] = _TEXT | _NUMBERS | {dict, list}
"""What the checker keeps as tomli read it: anything else is a date, given back as written."""


class QuickCheck:
    """Whether :class:`_Checker` would pass tomli's data as it is, found a table at a time.

    The checker calls a Python function for each value, to report the exact place of a
    problem; this looks at each table's or array's values together (their kinds, in C) and
    only steps into the tables and arrays among them. It says False for anything the checker
    has to look at (a date to give back as written, a limit reached), and that checker then
    walks the data from the start: what it reports, and how, never changes.
    """

    __slots__ = ("bad_numbers", "count", "has_numbers", "max_depth", "max_nodes")

    def __init__(self, limits: Limits) -> None:
        """Check against ``limits``."""
        self.max_depth = limits.max_depth
        self.max_nodes = limits.max_nodes
        self.count = 0
        self.has_numbers = False
        self.bad_numbers = False

    def table(self, table: dict[str, object]) -> bool:
        """True when the checker would find nothing in the document ``table`` and change it not."""
        return self._values(table.values(), 1)

    def _values(self, values: Collection[object], depth: int) -> bool:
        """The values of one table or array at nesting ``depth`` (the checker's count)."""
        self.count += len(values)
        if depth > self.max_depth or self.count > self.max_nodes:
            return False  # the checker says where, after counting the values before it
        kinds = set(map(type, values))
        if kinds <= _TEXT:  # most tables
            return True
        if not kinds <= _PLAIN:
            return False
        if kinds & _NUMBERS:
            self.has_numbers = True
            self.bad_numbers = self.bad_numbers or any(map(unusable_number, values))
        for value in values:
            kind = type(value)
            if kind is dict:
                table = cast("dict[str, object]", value)
                if not self._values(table.values(), depth + 1):
                    return False
            elif kind is list and not self._values(cast("list[object]", value), depth + 1):
                return False
        return True


class _Checker:
    """Walks tomli's data once: counts values, checks nesting, turns dates back into text."""

    def __init__(
        self, text: str, scan: _LazyScan, limits: Limits, spans: Spans, kind: FileKind
    ) -> None:
        self.text, self.scan, self.limits, self.spans = text, scan, limits, spans
        self.kind = kind
        self.count = 0
        self.has_numbers = False
        self.bad_numbers = False

    def table(self, table: dict[str, object], path: JSONPath, depth: int) -> dict[str, object]:
        """A table (at nesting ``depth``) as plain data: no dates, within the limits.

        Changed in place, not copied: tomli's tables are this load's own, and most hold
        no date, so copying every one would cost more than the walk.
        """
        self._check_depth(path, depth)
        for key, value in table.items():
            plain = self._item(value, (*path, key), depth)
            if plain is not value:  # a date, now its text (a key's value, not a new key)
                table[key] = plain
        return table

    def _item(self, value: object, path: JSONPath, depth: int) -> object:
        self.count += 1
        if self.count > self.limits.max_nodes:
            raise _Stop(too_many_values(self.spans(path), self.limits.max_nodes, kind=self.kind))
        kind = type(value)  # tomli makes exactly these types, never subclasses
        if kind is dict:
            return self.table(cast("dict[str, object]", value), path, depth + 1)
        if kind is list:
            self._check_depth(path, depth + 1)
            items = cast("list[object]", value)
            for index, item in enumerate(items):
                plain = self._item(item, (*path, index), depth + 1)
                if plain is not item:
                    items[index] = plain
            return items
        if kind is int or kind is float:
            self.has_numbers = True
            if unusable_number(value):
                self.bad_numbers = True
        elif isinstance(value, _DATES):  # a date is text to a prompt: keep it as written
            start, end = self.scan.scan.values[path]
            return self.text[start : end + 1]
        return value

    def _check_depth(self, path: JSONPath, depth: int) -> None:
        if depth > self.limits.max_depth:
            raise _Stop(too_deep(self.spans(path), self.limits.max_depth))
