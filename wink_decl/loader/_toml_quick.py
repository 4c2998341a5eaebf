"""The data of a TOML file written plainly, read a line at a time without tomli.

Most prompt files use a small part of TOML: bare keys, ``[table]`` and ``[[array]]`` headers,
strings without escapes, small whole numbers, true/false, and one-line arrays and inline
tables of those. Such a file is read here, about three times faster than by tomli; anything
else (and anything doubtful: a table named twice, ``[a]`` after ``[a.b]``, a header through
an array of tables, a number near a limit) is refused, and tomli reads the file as before.
What this reads is what tomli reads; a differential test keeps it so.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from wink_decl.errors import WinkDeclError
from wink_decl.loader.limit_diagnostics import Limits

__all__ = ["QuickRead", "read_plain_toml"]

_CONTROLS = r"\x00-\x08\x0a-\x1f\x7f"
"""The characters TOML allows in no one-line string or comment (a CR among them: LF only
here; a multi-line string holds LF)."""
_LINES_CONTROLS = r"\x00-\x08\x0b-\x1f\x7f"
"""Those a multi-line string may not hold."""
_TEXT = rf"[^{_CONTROLS}]"
_BASIC = rf'[^"\\{_CONTROLS}]*+'
_LITERAL = rf"[^'{_CONTROLS}]*+"
_LONGEST_KEY = 100
"""The longest bare key read here: with ``max_key_length`` at least this, no key is too long."""
_KEY = rf"[A-Za-z0-9_-]{{1,{_LONGEST_KEY}}}+"
_INT = r"-?+(?:0|[1-9][0-9]{0,17}+)"
"""At most 18 digits: always within 64 bits, and within any digit limit Python sets."""
_SCALAR = rf""""{_BASIC}"|'{_LITERAL}'|{_INT}|true|false"""
_GAP = r"[ \t]*+"
_ARRAY = rf"\[{_GAP}(?:(?:{_SCALAR}){_GAP}(?:,{_GAP}(?:{_SCALAR}){_GAP})*+(?:,{_GAP})?+)?+\]"
"""On one line, of scalars only; TOML allows a comma after the last one."""
_PAIR = rf"{_KEY}{_GAP}={_GAP}(?:{_SCALAR})"
_INLINE = rf"\{{{_GAP}(?:{_PAIR}(?:{_GAP},{_GAP}{_PAIR})*+)?+{_GAP}\}}"
"""On one line, of scalars only, with no comma after the last pair (TOML 1.0 allows none)."""
_NAMES = rf"{_KEY}(?:\.{_KEY})*+"

_BLANK_LINES = rf"(?:{_GAP}(?:#{_TEXT}*+)?+\n)*+"
_STATEMENT = re.compile(
    rf"{_BLANK_LINES}{_GAP}(?:(?:(?P<key>{_KEY}){_GAP}={_GAP}(?:"
    rf'"""\n?+(?P<basic_lines>(?:[^"\\{_LINES_CONTROLS}]++|"{{1,2}}+(?!"))*+)"""(?!")'
    rf"|'''\n?+(?P<literal_lines>(?:[^'{_LINES_CONTROLS}]++|'{{1,2}}+(?!'))*+)'''(?!')"
    rf'|"(?P<basic>{_BASIC})"'
    rf"|'(?P<literal>{_LITERAL})'"
    rf"|(?P<int>{_INT})|(?P<true>true)|(?P<false>false)"
    rf"|(?P<array>{_ARRAY})|(?P<inline>{_INLINE}))"
    rf"|\[\[(?P<tables>{_NAMES})\]\]|\[(?P<table>{_NAMES})\])"
    rf"{_GAP}(?:#{_TEXT}*+)?+(?:\n|\Z)|(?:#{_TEXT}*+)?+\Z)"
)
"""Blank lines and comments, then one line (a multi-line string's lines with it): a header
or a key's value, perhaps with a comment after it; or the end of the text. A newline right
after a multi-line string's opening quotes is not part of it."""
_ITEM = re.compile(rf""""({_BASIC})"|'({_LITERAL})'|({_INT})|(true)|false""")
"""A scalar of an array, found left to right: a string's quotes are never inside another."""
_PAIRS = re.compile(rf"({_KEY}){_GAP}={_GAP}(?:{_ITEM.pattern})")
_DEEPEST_INLINE = 3
"""Where a key's inline array or table holds its values outside any header: depth 2, and
the checks need one to spare."""
_TEXTS = frozenset(("basic", "literal", "basic_lines", "literal_lines"))


class QuickRead(NamedTuple):
    """The data read, and whether it held a number (none of them unusable: see ``_INT``)."""

    data: dict[str, object]
    has_numbers: bool


class _NotPlain(WinkDeclError):  # noqa: N818 - a signal, caught in this module only
    """The text is not plain TOML (or is doubtful): tomli reads it."""


def read_plain_toml(text: str, limits: Limits) -> QuickRead | None:
    """The data of ``text`` when it is plain TOML well within ``limits``, else None.

    None for all that the scan before parsing (``_toml_scan``) refuses, so that scan need not
    run first: a key too long or of too many parts, brackets nested too deep (here: a header's
    two, or an inline array's or table's one), a number of more digits than Python reads (here:
    18 at most, and Python reads 640 at least).
    """
    # Every value takes a character at least, so a text shorter than max_nodes cannot hold
    # too many; each header's nesting and length are checked against the limits as it is read.
    too_deep = limits.max_depth < _DEEPEST_INLINE
    keys_too_long = limits.max_key_length < _LONGEST_KEY
    if too_deep or keys_too_long or len(text) >= limits.max_nodes:
        return None
    reader = _Reader(limits.max_depth, limits.max_key_length)
    try:
        data = reader.read(text)
    except _NotPlain:
        return None
    return QuickRead(data, reader.has_numbers) if data else None


class _Reader:
    """Reads one text, remembering the tables and arrays its headers made, by name.

    Those are the only ones another header may add to; a header never names one inside an
    array of tables (the reader leaves that to tomli), so a name says which table it is.
    """

    __slots__ = ("arrays", "has_numbers", "max_dots", "max_length", "tables")

    def __init__(self, max_depth: int, max_key_length: int) -> None:
        # A header's table of n names holds values at depth n + 1, an array of tables's
        # element at n + 2; an inline array or table among them nests one more.
        self.max_dots = max_depth - 4
        self.max_length = max_key_length
        """The longest header name (a dotted key, as long as its names and dots)."""
        self.has_numbers = False
        self.tables: dict[str, dict[str, object]] = {"": {}}
        self.arrays: dict[str, list[object]] = {}

    def read(self, text: str) -> dict[str, object]:
        root = current = self.tables[""]
        match = _STATEMENT.match
        position, end = 0, len(text)
        while position < end:
            line = match(text, position)
            if line is None:
                raise _NotPlain
            position = line.end()
            kind = line.lastgroup
            if kind in _TEXTS:  # most lines
                key = line["key"]
                if key in current:
                    raise _NotPlain  # tomli says where it was defined first
                current[key] = line[kind]
            elif kind == "table":
                current = self._table(line[kind])
            elif kind == "tables":
                current = self._element(line[kind])
            elif kind is not None:  # None: only blank lines and comments were left
                key = line["key"]
                if key in current:
                    raise _NotPlain
                current[key] = self._value(kind, line[kind])
        return root

    def _value(self, kind: str, written: str) -> object:
        if kind == "int":
            self.has_numbers = True
            return int(written)
        if kind == "array":
            return [self._item(item) for item in _ITEM.finditer(written)]
        if kind == "inline":
            table: dict[str, object] = {}
            for pair in _PAIRS.finditer(written):
                key = pair.group(1)
                if key in table:
                    raise _NotPlain
                table[key] = self._item(pair, 1)
            return table
        return kind == "true"

    def _item(self, item: re.Match[str], skip: int = 0) -> object:
        """The scalar ``item`` matched (its groups after the first ``skip``)."""
        index = (item.lastindex or 0) - skip
        if index <= 0:  # false: the one scalar without a group
            return False
        if index <= 2:  # a string  # noqa: PLR2004 - the two string groups of _ITEM
            return item.group(index + skip)
        if index == 3:  # noqa: PLR2004 - the number group
            self.has_numbers = True
            return int(item.group(index + skip))
        return True

    def _table(self, header: str) -> dict[str, object]:
        """The table ``[header]`` makes: one no header or key made before."""
        too_big = header.count(".") > self.max_dots or len(header) > self.max_length
        if too_big or header in self.tables:
            raise _NotPlain  # defined twice, [a] after [a.b] (tomli decides), deep or long
        return self._new_table(header)

    def _new_table(self, name: str) -> dict[str, object]:
        """A new table ``name``, in a header's table (made now if need be)."""
        parent_name, _, last = name.rpartition(".")
        parent = self.tables.get(parent_name)
        if parent is None:
            parent = self._new_table(parent_name)
        if last in parent:
            raise _NotPlain  # a value, an inline table, an array of tables: not a header's
        table: dict[str, object] = {}
        parent[last] = self.tables[name] = table
        return table

    def _element(self, header: str) -> dict[str, object]:
        """The table ``[[header]]`` adds to its array (made by such headers only)."""
        array = self.arrays.get(header)
        if array is None:
            if header.count(".") > self.max_dots or len(header) > self.max_length:
                raise _NotPlain  # deep or long
            parent_name, _, last = header.rpartition(".")
            parent = self.tables.get(parent_name)
            if parent is None:
                parent = self._new_table(parent_name)
            if last in parent:
                raise _NotPlain  # a table, a value or an inline array
            array = self.arrays[header] = []
            parent[last] = array
        element: dict[str, object] = {}
        array.append(element)
        return element
