"""The data of a YAML prompt file written in the common, simple way, read line by line.

Most prompt files use a small part of YAML: block mappings and lists nested by spaces, text,
numbers, true/false and null on one line each, quoted text without escapes, small flow
collections (``{type: string}``, ``[a, b]``) and literal block text (``|``). For those, this
reader gives the data that composing the nodes and reading them (``_yaml_plain``) gives, at a
fraction of the cost. Anything else, and anything near a limit, it leaves to that path: it
answers None, and the composer reads the file (and reports every mistake) exactly as before.
When in doubt, it answers None: a file it reads must mean the same to the composer.
"""

from __future__ import annotations

import re
from typing import cast

from wink_decl.errors import WinkDeclError
from wink_decl.loader._yaml_core import TAGGED_FIRST as _TAGGED
from wink_decl.loader._yaml_core import plain_kind, to_float, to_int
from wink_decl.loader.limit_diagnostics import Limits
from wink_decl.loader.number_bounds import unusable_number

__all__ = ["QuickRead", "quick_read"]


_FIRST = r"""[^\s\-?:,\[\]{}#&*!|>'"%@`]"""
"""A character a plain scalar may start with, ``-`` aside (indicators, anchors, tags: not here)."""
_PLAIN_FLOW = rf"(?:{_FIRST}|-(?=[^\s:#,\[\]{{}}]))(?:[^:#,\[\]{{}}]*[^\s:#,\[\]{{}}])?"
"""A plain scalar in a flow collection: no ``:``, ``#``, brackets or commas inside."""
_SINGLE = r"'([^']*(?:''[^']*)*)'"
_DOUBLE = r'"([^"\\]*)"'
"""Quoted scalars on one line; a backslash escape is left to the composer."""
_END = r"(?: +(?:#.*)?)?\Z"
"""The rest of a line after a value: spaces, then a comment."""

_PLAIN_KEY = rf"({_FIRST}[^:#,\[\]{{}}]*)"
"""A plain key (spaces before its ``:`` included), without ``:#,[]{{}}`` inside."""
_KEY = re.compile(rf"(?:{_PLAIN_KEY}|{_SINGLE} *|{_DOUBLE} *):(?: +|\Z)")
"""A mapping key, up to the ``: `` after it."""
_SIMPLE = re.compile(rf"{_PLAIN_KEY}: +({_FIRST}.*)")
"""The most common entry: a plain key, and a plain value (if no ``: `` or `` #`` is in it)."""
_SINGLE_LINE = re.compile(_SINGLE + _END)
_DOUBLE_LINE = re.compile(_DOUBLE + _END)
_LITERAL = re.compile(r"\|([-+]?)" + _END)
_FLOW_ITEM = re.compile(rf" *(?:{_SINGLE}|{_DOUBLE}|({_PLAIN_FLOW})) *([,\]])")
_FLOW_PAIR = re.compile(
    rf" *(?:{_SINGLE}|{_DOUBLE}|({_PLAIN_FLOW})): +(?:{_SINGLE}|{_DOUBLE}|({_PLAIN_FLOW})) *([,}}])"
)
_FLOW_EMPTY = re.compile(r"(?:\[ *\]|\{ *\})" + _END)
_PLAIN_PAIR = rf"{_PLAIN_FLOW}: +{_PLAIN_FLOW}"
_PLAIN_PAIRS = re.compile(rf"\{{( *{_PLAIN_PAIR}(?: *, *{_PLAIN_PAIR})*) *\}}{_END}")
"""The most common flow mapping: plain keys and values only (the pairs are group 1)."""
_PLAIN_PAIR_PARTS = re.compile(rf"({_PLAIN_FLOW}): +({_PLAIN_FLOW})")
_FLOW_AFTER = re.compile(_END)

_BLANK = r" *+(?:#[^\n]*+)?\n"
"""A blank line, or one with only a comment."""
_START = _FIRST.replace(r"\s", r" \n")
"""As ``_FIRST``, once the text is known to hold no other white space (``quick_read``)."""
_LINE = (
    rf"(?:{_BLANK})*+( *+)(- +)?({_START}[^\n:#,\[\]{{}}]*+):"
    rf"(?: +(?:({_START}[^\n]*+)|(\{{[^\n]*+)))?(?: +#[^\n]*+)? *+(?:\n|\Z)"
)
"""The most common line: its indentation, the ``-`` of a list item, a plain key, and a
value on the line: a plain scalar or a flow mapping (then read as ``_Reader.lines_read`` says)."""
_WORD = r"[^ \n:#,\[\]{}]"
_FLOW_PLAIN = rf"(?:{_START}|-(?={_WORD})){_WORD}*+(?: ++{_WORD}++)*+"
"""As ``_PLAIN_FLOW``, written to be matched sooner."""
_FLOW_PAIR_FAST = rf"{_FLOW_PLAIN}: ++{_FLOW_PLAIN}"
_FAST_FLOW = re.compile(rf"\{{ *+{_FLOW_PAIR_FAST}(?: *+, *+{_FLOW_PAIR_FAST})*+ *+\}}")
"""A flow mapping of plain keys and values, alone on the rest of its line."""
_FAST_LINE = re.compile(rf"{_LINE}|(?:{_BLANK})*+ *+(?:#[^\n]*+)?\Z|([^\n]*+\n?)")
"""One such line; or the blank lines and comments at the end; or any other line (the last group)."""

_NOT_PLAIN = frozenset("?:,[]{}#&*!|>%@`")
"""Characters a value never starts with here (quotes, brackets and ``|`` are read apart)."""
_WORDS: dict[str, object] = {
    **dict.fromkeys(("true", "True", "TRUE"), True),
    **dict.fromkeys(("false", "False", "FALSE"), False),
    **dict.fromkeys(("null", "Null", "NULL"), None),
}
"""The words YAML 1.2's core schema reads as true/false or null (no other one starts with a
letter): what starts with another of ``_TAGGED`` may be a number or a date."""
_NUMBERISH = frozenset(char for char in _TAGGED if not char.isalpha())
_SHORT_DIGITS = 19
"""Fewer decimal digits always fit in 64 bits."""
_LONGEST_KEY = 1_000
"""libyaml refuses a key over 1,024 characters long: longer ones are left to it."""

QuickRead = tuple[dict[str, object], bool, bool]
"""The data, whether it holds a number, whether one of them is unusable."""


class _NotQuick(WinkDeclError):  # noqa: N818 - a signal, not a failure
    """This file is not for the quick read."""


def quick_read(text: str, limits: Limits) -> QuickRead | None:
    """The data of ``text`` with ``has_numbers`` and ``bad_numbers``; None when not for it."""
    # Python's printable characters are all printable to YAML, and leave out tabs, carriage
    # returns, byte order marks and the line breaks other than \n (libyaml reads those as
    # breaks); a file with any other character (rare) is left to libyaml's reader.
    if not text.replace("\n", "").isprintable() or ("&" in text and "*" in text):
        return None
    fast = _Reader(limits)  # most files: only the most common kinds of line
    try:
        data = fast.lines_read(text)
    except _NotQuick:
        data = None
    if data is not None:
        return data, fast.has_numbers, fast.bad_numbers
    reader = _Reader(limits)
    try:
        data = reader.document(text)
    except _NotQuick:
        return None
    return data, reader.has_numbers, reader.bad_numbers


class _Reader:
    """One pass over the lines; ``indent`` is the current line's (-1 past the last one)."""

    __slots__ = (
        "bad_numbers",
        "count",
        "end",
        "has_numbers",
        "indent",
        "index",
        "lines",
        "max_depth",
        "max_key_length",
        "max_nodes",
        "newline_at_end",
    )

    lines: list[str]
    end: int
    newline_at_end: bool
    index: int
    indent: int
    count: int
    max_depth: int
    max_nodes: int
    max_key_length: int
    has_numbers: bool
    bad_numbers: bool

    def __init__(self, limits: Limits) -> None:
        self.count = 1  # the root, as the plain read counts it
        self.max_depth = limits.max_depth - 1  # a level short of the limit: the walk decides
        self.max_nodes = limits.max_nodes
        self.max_key_length = min(limits.max_key_length, _LONGEST_KEY)
        self.has_numbers = False
        self.bad_numbers = False

    def document(self, text: str) -> dict[str, object]:
        lines = text.split("\n")
        self.newline_at_end = lines[-1] == ""
        if self.newline_at_end:
            lines.pop()
        self.lines = lines
        self.end = len(lines)
        self.index = 0
        self.indent = -1
        line = self._skip()
        if self.indent < 0 or _is_entry(line, self.indent):
            raise _NotQuick  # empty, or not a mapping: the full path words it
        data = self._mapping(self.indent, line[self.indent :], 1)
        if self.indent >= 0 or self.count >= self.max_nodes:
            raise _NotQuick
        return data

    def lines_read(self, text: str) -> dict[str, object] | None:  # noqa: C901, PLR0911, PLR0912, PLR0915 - one loop, no call a line: the point of it
        """The data of ``text`` if made of ``_FAST_LINE``'s lines only; else None (others decide).

        Each frame of the stack is a block mapping or list open at a column, and its depth.
        """
        root: dict[str, object] = {}
        stack: list[tuple[int, dict[str, object] | None, list[object] | None, int]]
        stack = [(0, root, None, 1)]
        pending: tuple[dict[str, object], str, int, int] | None = None  # a key, its value below
        last = 0  # a line deeper than this continues the value before it: not read here
        count = 0
        max_depth = self.max_depth
        max_key_length = self.max_key_length
        words = _WORDS
        numberish = _NUMBERISH
        for indent, dash, key, value, flow, other in _FAST_LINE.findall(text):
            if not key:
                if other:
                    return None  # a line of another kind
                continue  # blank lines and comments at the end
            column = len(indent)
            if pending is not None:
                owner, name, at, depth = pending
                pending = None
                if column > at or (column == at and dash):
                    if depth >= max_depth:
                        return None
                    if dash:
                        opened: list[object] = []
                        owner[name] = opened
                        stack.append((column, None, opened, depth + 1))
                    else:
                        child: dict[str, object] = {}
                        owner[name] = child
                        stack.append((column, child, None, depth + 1))
                else:
                    owner[name] = None
            elif column > last:
                return None  # a continuation line, or a mistake
            while stack[-1][0] > column:
                stack.pop()
            at, mapping, items, depth = stack[-1]
            if at != column:
                return None  # between two indentations: a mistake
            if dash:
                if items is None or depth >= max_depth:
                    return None
                item: dict[str, object] = {}
                items.append(item)
                mapping = item
                column += len(dash)
                depth += 1
                stack.append((column, mapping, None, depth))
                count += 2
            else:
                if mapping is None:  # the list under a key at the same column ends
                    stack.pop()
                    at, mapping, _, depth = stack[-1]
                    if at != column or mapping is None:
                        return None
                count += 1
            if (
                key in mapping
                or key[-1] == " "
                or key in words
                or len(key) > max_key_length
                or (key[0] in numberish and plain_kind(key) != "str")
            ):
                return None  # a duplicate, a long key, or one that is not text
            last = column
            if value:
                if ": " in value or " #" in value or value[-1] in ": ":
                    return None  # a comment, trailing spaces, or a mistake
                mapping[key] = (
                    self._plain(value) if value[0] in numberish else words.get(value, value)
                )
            elif not flow:
                pending = (mapping, key, column, depth)
            else:
                if depth >= max_depth or not _FAST_FLOW.fullmatch(flow):
                    return None
                pairs = self._flow_pairs(flow[1:-1])
                if pairs is None:
                    return None
                mapping[key] = pairs
        if pending is not None:
            pending[0][pending[1]] = None
        self.count += count
        if not root or self.count >= self.max_nodes:
            return None
        return root

    def _flow_pairs(self, pairs: str) -> dict[str, object] | None:
        """The flow mapping whose braces hold ``pairs``, as ``_FAST_FLOW`` matched them."""
        result: dict[str, object] = {}
        words = _WORDS
        numberish = _NUMBERISH
        for pair in pairs.split(","):
            key, _, text = pair.partition(":")
            key = key.lstrip(" ")
            text = text.strip(" ")
            if (
                key in result
                or key in words
                or len(key) > self.max_key_length
                or (key[0] in numberish and plain_kind(key) != "str")
            ):
                return None
            result[key] = self._plain(text) if text[0] in numberish else words.get(text, text)
        self.count += len(result)
        return result

    def _skip(self) -> str:
        """Move to the next line with content (blank and comment lines skipped); return it."""
        lines = self.lines
        index = self.index
        end = self.end
        while index < end:
            line = lines[index]
            content = line.lstrip(" ")
            if content and content[0] != "#":
                self.index = index
                self.indent = len(line) - len(content)
                return line
            index += 1
        self.index = index
        self.indent = -1
        return ""

    def _mapping(self, column: int, entry: str, depth: int) -> dict[str, object]:
        """The block mapping whose keys are at ``column``; ``entry`` is its first one's line."""
        result: dict[str, object] = {}
        while True:
            simple = _SIMPLE.match(entry)
            if simple is None:
                key, value = self._entry(column, entry, depth)
            else:  # most lines: read here, at the least cost
                written, text = simple.groups()
                text = text.rstrip(" ")
                if ": " in text or " #" in text or text[-1] == ":":
                    key, value = self._entry(column, entry, depth)  # a comment, or a mistake
                else:
                    key = self._plain_key(written)
                    value = self._plain(text) if text[0] in _NUMBERISH else _WORDS.get(text, text)
                    self.index += 1
                    self._skip()
                    if self.indent > column:
                        raise _NotQuick  # a continuation line, or a mistake
            if key in result:
                raise _NotQuick  # the full walk reports the duplicate
            result[key] = value
            if self.indent != column:
                self.count += len(result)
                return result
            entry = self.lines[self.index][column:]

    def _entry(self, column: int, entry: str, depth: int) -> tuple[str, object]:
        """The key and value of the mapping entry ``entry`` (its line from ``column`` on)."""
        match = _KEY.match(entry)
        if match is None:
            raise _NotQuick
        key = self._key(match)
        rest = entry[match.end() :]
        self.index += 1
        if rest and rest[0] != "#":
            value = self._literal(rest, column) if rest[0] == "|" else self._inline(rest, depth)
            self._skip()
            if self.indent > column:
                raise _NotQuick  # a continuation line, or a mistake
            return key, value
        line = self._skip()
        if self.indent > column:
            value = self._nested(line, depth)
            if self.indent > column:
                raise _NotQuick  # a line between the two indentations: a mistake
            return key, value
        if self.indent == column and _is_entry(line, column):
            if depth >= self.max_depth:
                raise _NotQuick
            return key, self._sequence(column, line, depth + 1)
        return key, None

    def _key(self, match: re.Match[str]) -> str:
        which = cast("int", match.lastindex)  # the plain, single- or double-quoted form
        key: str = match[which]
        if which == 1:
            return self._plain_key(key)
        if which == 2:  # noqa: PLR2004 - the group of single-quoted keys
            key = key.replace("''", "'")
        if len(key) > self.max_key_length or match.end() > _LONGEST_KEY:
            raise _NotQuick
        return key

    def _plain_key(self, written: str) -> str:
        """The key ``written`` plainly (the spaces between it and its ``:`` dropped)."""
        key = written.rstrip(" ")
        if key in _WORDS or (key[0] in _NUMBERISH and plain_kind(key) != "str"):
            raise _NotQuick  # a number, true/false, null or a date as a key
        if len(written) > self.max_key_length:  # a long key, spaces and all: libyaml decides
            raise _NotQuick
        return key

    def _nested(self, line: str, depth: int) -> object:
        """The block mapping or list that starts on ``line``, deeper than its key."""
        if depth >= self.max_depth:
            raise _NotQuick
        column = self.indent
        if _is_entry(line, column):
            return self._sequence(column, line, depth + 1)
        return self._mapping(column, line[column:], depth + 1)

    def _sequence(self, column: int, line: str, depth: int) -> list[object]:
        """The block list whose ``-`` are at ``column``; ``line`` is its first item's line."""
        items: list[object] = []
        while True:
            after = line[column + 1 :]
            content = after.lstrip(" ")
            if not content or content[0] == "#":
                self.index += 1
                line = self._skip()
                items.append(self._nested(line, depth) if self.indent > column else None)
            elif _KEY.match(content):
                if depth >= self.max_depth:
                    raise _NotQuick
                inner = column + 1 + len(after) - len(content)
                items.append(self._mapping(inner, content, depth + 1))
            elif content[0] == "-" and (len(content) == 1 or content[1] == " "):
                raise _NotQuick  # a list in a list on one line
            else:
                self.index += 1
                if content[0] == "|":
                    items.append(self._literal(content, column))
                else:
                    items.append(self._inline(content, depth))
                self._skip()
            if self.indent != column:
                if self.indent > column:
                    raise _NotQuick
                self.count += len(items)
                return items
            line = self.lines[self.index]
            if not _is_entry(line, column):
                self.count += len(items)
                return items

    def _inline(self, rest: str, depth: int) -> object:
        """A value written on its key's (or its ``-``'s) line: ``rest`` is the line from it."""
        first = rest[0]
        if first == "'":
            match = _SINGLE_LINE.match(rest)
            if match is None:
                raise _NotQuick  # text over several lines, or more after the quotes
            return match[1].replace("''", "'")
        if first == '"':
            match = _DOUBLE_LINE.match(rest)
            if match is None:
                raise _NotQuick
            return match[1]
        if first in "[{":
            if depth >= self.max_depth:
                raise _NotQuick
            return self._flow(rest)
        if first in _NOT_PLAIN or (first == "-" and (len(rest) == 1 or rest[1] == " ")):
            raise _NotQuick
        cut = rest.find(" #")
        text = (rest if cut < 0 else rest[:cut]).rstrip(" ")
        if ": " in text or text[-1] == ":":
            raise _NotQuick  # a mapping where a value was expected: a mistake
        return self._plain(text)

    def _plain(self, text: str) -> object:
        """A plain scalar, as the YAML 1.2 core schema reads it."""
        if text.isdigit() and text.isascii() and len(text) < _SHORT_DIGITS:
            self.has_numbers = True  # the most common number: what to_int gives, sooner
            return int(text)
        if text[0] not in _NUMBERISH:
            return _WORDS.get(text, text)
        kind = plain_kind(text)
        if kind == "str":
            return text
        if kind == "int":
            value: object = to_int(text)
        elif kind == "float":
            value = to_float(text)
        elif kind == "null":
            return None  # "~": the words (true, null...) start with a letter, read above
        else:
            raise _NotQuick  # a date, '=' or '<<': left to the full walk
        self.has_numbers = True
        if unusable_number(value):
            self.bad_numbers = True
        return value

    def _flow(self, rest: str) -> object:
        """A flow list or mapping of scalars, closed on its line."""
        if rest[0] == "[":
            return self._flow_list(rest)
        plain = _PLAIN_PAIRS.match(rest)
        if plain is not None:
            return self._plain_pairs(plain[1])
        result: dict[str, object] = {}
        if _FLOW_EMPTY.match(rest):
            return result
        position, close = 1, ","
        while close == ",":
            match = _FLOW_PAIR.match(rest, position)
            if match is None:
                raise _NotQuick
            single, double, plain, v_single, v_double, v_plain, close = match.groups()
            if plain is not None:
                if plain in _WORDS or (plain[0] in _NUMBERISH and plain_kind(plain) != "str"):
                    raise _NotQuick
                key = plain
            else:
                key = double if single is None else single.replace("''", "'")
            if key in result or len(key) > self.max_key_length:
                raise _NotQuick
            result[key] = self._flow_value(v_single, v_double, v_plain)
            position = match.end()
        self._flow_end(rest, position)
        self.count += len(result)
        return result

    def _plain_pairs(self, pairs: str) -> dict[str, object]:
        """A flow mapping of plain keys and values; ``pairs`` is what its braces hold."""
        result: dict[str, object] = {}
        for key, text in _PLAIN_PAIR_PARTS.findall(pairs):
            if key in _WORDS or (key[0] in _NUMBERISH and plain_kind(key) != "str"):
                raise _NotQuick
            if key in result or len(key) > self.max_key_length:
                raise _NotQuick
            result[key] = self._plain(text) if text[0] in _NUMBERISH else _WORDS.get(text, text)
        self.count += len(result)
        return result

    def _flow_list(self, rest: str) -> list[object]:
        if _FLOW_EMPTY.match(rest):
            return []
        items: list[object] = []
        position, close = 1, ","
        while close == ",":
            match = _FLOW_ITEM.match(rest, position)
            if match is None:
                raise _NotQuick
            single, double, plain, close = match.groups()
            items.append(self._flow_value(single, double, plain))
            position = match.end()
        self._flow_end(rest, position)
        self.count += len(items)
        return items

    def _flow_value(self, single: str | None, double: str | None, plain: str | None) -> object:
        if plain is not None:
            return self._plain(plain)
        return double if single is None else single.replace("''", "'")

    @staticmethod
    def _flow_end(rest: str, position: int) -> None:
        if not _FLOW_AFTER.match(rest, position):
            raise _NotQuick  # a comma before the bracket, nesting, or more after it

    def _literal(self, header: str, column: int) -> str:
        """A literal block scalar (``|``, ``|-``, ``|+``) under a key or ``-`` at ``column``.

        The chomping indicator says what becomes of the line breaks at its end.
        """
        match = _LITERAL.match(header)
        if match is None:
            raise _NotQuick  # an indentation indicator, or more after the header
        pieces, kept = self._literal_lines(column)
        text = "\n".join(pieces[:kept])
        chomping = match[1]
        if chomping == "-":
            return text
        if chomping == "+":
            return text + "\n" * (len(pieces) - kept + 1)
        return text + "\n"

    def _literal_lines(self, column: int) -> tuple[list[str], int]:
        """A literal's lines without its indentation, and how many end with its last text.

        Its indentation is its first non-blank line's, deeper than ``column``; a line with
        less ends it.
        """
        lines = self.lines
        start = first = self.index
        end = len(lines)
        while first < end and not lines[first].strip(" "):
            first += 1
        if first == end:
            raise _NotQuick  # nothing in it
        line = lines[first]
        indent = len(line) - len(line.lstrip(" "))
        if indent <= column or any(len(lines[blank]) > indent for blank in range(start, first)):
            raise _NotQuick  # empty, or blank lines deeper than its text: libyaml decides
        pieces: list[str] = [""] * (first - start)
        last = index = first
        margin = " " * indent
        while index < end:
            line = lines[index]
            if line.startswith(margin):
                pieces.append(line[indent:])
                if len(line) > indent:
                    last = index
            elif line.strip(" "):
                break
            else:
                pieces.append("")
            index += 1
        if index == end and not self.newline_at_end:
            raise _NotQuick  # the text ends without a line break: libyaml decides
        self.index = index
        return pieces, last - start + 1


def _is_entry(line: str, column: int) -> bool:
    """Whether ``line`` is a list entry (``-`` then a space or the end) at ``column``."""
    return line[column] == "-" and (len(line) == column + 1 or line[column + 1] == " ")
