"""Where each key and value of a TOML text was written: tomllib keeps no positions.

The scanner reads text that tomllib accepted (or the accepted part of it, up to an error), so
it trusts the syntax and only tracks positions: table headers, arrays of tables and their
indices, bare, quoted and dotted keys, inline tables, arrays, every string form, numbers,
booleans and dates. Every step consumes at least one character, so it always ends.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from wink_decl.loader._source_map import IndexSpan, JSONPath

_BLANK = re.compile(r"[ \t]*")
_SPACE = re.compile(r"(?:[ \t\r\n]|#[^\n]*)*")
_SIMPLE_PAIR = re.compile(
    r"""([A-Za-z0-9_-]+)[ \t]*=[ \t]*"""
    r"""((?!\"\"\")"(?:[^"\\\n]|\\.)*"|(?!''')'[^'\n]*'|[^\s\[\]{}"'#,=]+)"""
    r"""[ \t]*(?:#[^\n]*)?(?=\r?\n|\Z)"""
)
"""The usual line, ``key = value`` with a bare key and a one-line value, read at once."""
_KEY_PART = re.compile(r"""[A-Za-z0-9_-]+|"(?:[^"\\\n]|\\.)*"?|'[^'\n]*'?|[^ \t\n.=]""")
_VALUE = re.compile(
    r"""\"\"\"(?:[^"\\]|\\[\s\S]|"{1,2}(?!"))*(?:"{3,5})?"""
    r"""|'''(?:[^']|'{1,2}(?!'))*(?:'{3,5})?"""
    r"""|"(?:[^"\\\n]|\\.)*"?"""
    r"""|'[^'\n]*'?"""
    r"""|\d{4}-\d\d-\d\d[ Tt]\d\d:\d\d[^\s,\]}#]*"""
    r"""|[^\s,\]}#]+"""
    r"""|[\s\S]"""
)
_ESCAPE = re.compile(r"\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|([\s\S]))")
_SIMPLE_ESCAPES = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", '"': '"', "\\": "\\"}

KeyPart = tuple[str, int, int]
"""A key part's text (unquoted, unescaped) and its start and end indices."""


class TomlPositions:
    """Spans (as character indices) of every value and key in one TOML text."""

    def __init__(self, text: str) -> None:
        """Scan ``text`` at once."""
        self.text = text
        self.values: dict[JSONPath, IndexSpan] = {}
        self.keys: dict[JSONPath, IndexSpan] = {}
        self.first: dict[JSONPath, int] = {}
        """Where each path was first named (by a key, a dotted key part or a header)."""
        self.last: tuple[JSONPath, IndexSpan, str] | None = None
        """The last key's path, its span and what it starts: ``=``, ``[`` or ``[[``."""
        self._arrays: dict[JSONPath, int] = {}
        self._pos = 0
        self._scan()

    # -- statements ---------------------------------------------------------------------------

    def _scan(self) -> None:
        text, values = self.text, self.values
        table: JSONPath = ()
        values[()] = (0, 0)  # the root comes first; its span is the first statement's
        first = True
        while True:
            self._skip(_SPACE)
            start = self._pos
            if start >= len(text):
                return
            simple = _SIMPLE_PAIR.match(text, start)
            if simple is not None:  # the usual line, at once
                path = (*table, simple.group(1))
                key = (start, simple.end(1) - 1)
                self.keys[path] = key
                self.first.setdefault(path, start)
                values[path] = (simple.start(2), simple.end(2) - 1)
                self.last = (path, key, "=")
                self._pos = simple.end()
            elif text.startswith("[[", start):
                table = self._header(start, 2)
            elif text[start] == "[":
                table = self._header(start, 1)
            else:
                self._pair(table)
            if first:
                values[()] = (start, self._pos - 1)
                first = False

    def _header(self, start: int, brackets: int) -> JSONPath:
        """A ``[table]`` (brackets=1) or ``[[array.of.tables]]`` (2) header: its path."""
        self._pos += brackets
        parts = self._key()
        self._skip(_BLANK)
        if self.text.startswith("]" * brackets, self._pos):
            self._pos += brackets
        header = (start, self._pos - 1)
        parent = self._parents((), parts[:-1], through_arrays=True)
        name, key_start, key_end = parts[-1]
        path = (*parent, name)
        self.first.setdefault(path, key_start)
        self.last = (path, (parts[0][1], key_end), "[" * brackets)
        if brackets == 1:
            self.values[path] = header
            self.keys[path] = (key_start, key_end)
            return path
        if path not in self._arrays:
            self._arrays[path] = 0
            self.values[path] = header
            self.keys[path] = (key_start, key_end)
        index = self._arrays[path]
        self._arrays[path] = index + 1
        self.values[(*path, index)] = header
        return (*path, index)

    def _pair(self, table: JSONPath) -> None:
        """``key = value``, the key maybe dotted or quoted, under ``table``."""
        parts = self._key()
        self._skip(_BLANK)
        if self.text.startswith("=", self._pos):
            self._pos += 1
        self._skip(_BLANK)
        name, key_start, key_end = parts[-1]
        path = (*self._parents(table, parts[:-1], through_arrays=False), name)
        self.keys[path] = (key_start, key_end)
        self.first.setdefault(path, key_start)
        self.last = (path, (parts[0][1], key_end), "=")
        self._value(path)

    def _parents(self, base: JSONPath, parts: list[KeyPart], *, through_arrays: bool) -> JSONPath:
        """The path that dotted ``parts`` lead to from ``base``.

        Tables they name implicitly get their key part as span. A header goes through an
        array of tables to its last element.
        """
        path: JSONPath = base
        for name, start, end in parts:
            path = (*path, name)
            self.first.setdefault(path, start)
            if path not in self.values:
                self.values[path] = (start, end)
                self.keys[path] = (start, end)
            if through_arrays and path in self._arrays:
                path = (*path, self._arrays[path] - 1)
        return path

    # -- keys and values ----------------------------------------------------------------------

    def _key(self) -> list[KeyPart]:
        """A bare, quoted or dotted key."""
        parts: list[KeyPart] = []
        text = self.text
        while True:
            self._skip(_BLANK)
            match = _KEY_PART.match(text, self._pos)
            if match is None:  # the end of a cut text
                parts.append(("", self._pos, self._pos))
                return parts
            self._pos = match.end()
            parts.append((_key_text(match.group()), match.start(), match.end() - 1))
            self._skip(_BLANK)
            if not text.startswith(".", self._pos):
                return parts
            self._pos += 1

    def _value(self, path: JSONPath) -> None:
        start = self._pos
        if start >= len(self.text):
            self.values[path] = (start, start)
        elif self.text[start] == "[":
            self._collection(path, "]", self._value)
        elif self.text[start] == "{":
            self._collection(path, "}", self._pair)
        else:
            match = _VALUE.match(self.text, start)
            self._pos = start + 1 if match is None else match.end()
            self.values[path] = (start, self._pos - 1)

    def _collection(self, path: JSONPath, close: str, item: Callable[[JSONPath], None]) -> None:
        """An array or inline table: items until ``close``, separated by commas."""
        start = self._pos
        self.values[path] = (start, start)  # in document order: before its items
        self._pos += 1
        count = 0
        while True:
            self._skip(_SPACE)
            if self._pos >= len(self.text):
                break
            if self.text[self._pos] == close:
                self._pos += 1
                break
            item((*path, count) if close == "]" else path)  # an item's path, or the table's
            count += 1
            self._skip(_SPACE)
            if self.text.startswith(",", self._pos):
                self._pos += 1
        self.values[path] = (start, self._pos - 1)

    def _skip(self, pattern: re.Pattern[str]) -> None:
        match = pattern.match(self.text, self._pos)
        self._pos = self._pos if match is None else match.end()


def _key_text(token: str) -> str:
    """The text a key part names: quotes removed, escapes of basic strings applied."""
    if token.startswith('"'):
        return _ESCAPE.sub(_unescape, token[1:-1] if token.endswith('"') else token[1:])
    if token.startswith("'"):
        return token[1:-1] if len(token) > 1 and token.endswith("'") else token[1:]
    return token


def _unescape(match: re.Match[str]) -> str:
    code = match.group(1) or match.group(2)
    if code is not None:
        return chr(int(code, 16))
    return _SIMPLE_ESCAPES.get(match.group(3), match.group(3))
