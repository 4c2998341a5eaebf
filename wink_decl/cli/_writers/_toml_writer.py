"""Plain prompt data as readable TOML: tables for records, inline values for small things.

The layout follows the hand-written ``prompts/release/pipeline.wink.toml``:

- ``sections``, their ``children``, the prompt's ``policies`` and a tool's ``examples`` are
  arrays of tables (``[[sections]]``; ``[[sections.children]]`` nests under the latest one).
- Each param and each tool is a table (``[params.topic]``, ``[tools.read_plan]``).
- Any other mapping or list of mappings stays inline (``enabled = { param = "strict" }``)
  unless it holds a multi-line string or its line would pass ``INLINE_WIDTH``.
- TOML needs a table's plain keys before its sub-tables; key order is kept within each group.
- Multi-line strings at table level are in triple double quotes (triple single quotes when the
  text has backslashes and a literal string can hold it); elsewhere strings are one-line.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import cast

from wink_decl.errors import WinkDeclError
from wink_decl.loader import JSONPath

__all__ = ["INLINE_WIDTH", "NullValueError", "null_paths", "to_toml"]

INLINE_WIDTH = 100
"""The longest ``key = { ... }`` line kept inline; a longer mapping becomes a table."""
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+\Z")
_MUST_ESCAPE = re.compile(r'["\\\x00-\x1f\x7f]')
_ANY_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_ML_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")  # all but tab and newline
_ML_ESCAPE = re.compile(r"[\\\x00-\x08\x0b-\x1f\x7f]")
_QUOTE_RUN = re.compile(r'"(?="|\Z)')
_ESCAPES = {
    **{char: f"\\{letter}" for char, letter in zip("\b\t\n\f\r", "btnfr", strict=True)},
    '"': '\\"',
    "\\": "\\\\",
}


class NullValueError(WinkDeclError, ValueError):
    """The data holds nulls, which TOML cannot write; ``paths`` says where, in file order."""

    def __init__(self, paths: Sequence[JSONPath]) -> None:
        super().__init__(f"TOML has no null; found {len(paths)}")
        self.paths = tuple(paths)


def null_paths(value: object, at: JSONPath = ()) -> list[JSONPath]:
    """The JSON path of every null in ``value``, in file order."""
    if value is None:
        return [at]
    found: list[JSONPath] = []
    if isinstance(value, Mapping):
        for key, item in cast("Mapping[str, object]", value).items():
            found.extend(null_paths(item, (*at, key)))
    elif isinstance(value, list):
        for index, item in enumerate(cast("list[object]", value)):
            found.extend(null_paths(item, (*at, index)))
    return found


def to_toml(data: Mapping[str, object]) -> str:
    """``data`` (strings, numbers, booleans, lists and string-keyed mappings) as TOML text.

    Raises:
        NullValueError: ``data`` holds a null somewhere.
    """
    nulls = null_paths(data)
    if nulls:
        raise NullValueError(nulls)
    out: list[str] = []
    _table(data, (), out)
    return "\n".join(out) + "\n"


def _table(table: Mapping[str, object], path: tuple[str, ...], out: list[str]) -> None:
    """The plain keys of ``table``, then each of its sub-tables under its own header."""
    nested = _nested_keys(table, path)
    out.extend(_assignment(key, value) for key, value in table.items() if key not in nested)
    for key in nested:
        value = table[key]
        header = _dotted((*path, key))
        if isinstance(value, list):
            for item in cast("list[Mapping[str, object]]", value):
                _header(out, f"[[{header}]]")
                _table(item, (*path, key), out)
        else:
            sub = cast("Mapping[str, object]", value)
            # A header over nothing but sub-tables says nothing: TOML makes the table anyway.
            if len(_nested_keys(sub, (*path, key))) < len(sub):
                _header(out, f"[{header}]")
            _table(sub, (*path, key), out)


def _header(out: list[str], header: str) -> None:
    if out:
        out.append("")
    out.append(header)


def _nested_keys(table: Mapping[str, object], path: tuple[str, ...]) -> list[str]:
    """The keys of ``table`` written as sub-tables rather than as ``key = value``."""
    nested: list[str] = []
    for key, value in table.items():
        at = (*path, key)
        if isinstance(value, list):
            items = cast("list[object]", value)
            if not items or not all(isinstance(item, Mapping) for item in items):
                continue
            mappings = cast("list[Mapping[str, object]]", items)
            if _is_array_of_tables(at) or _too_wide(key, items) or _holds_tables(mappings, at):
                nested.append(key)
        elif isinstance(value, Mapping) and value:
            mapping = cast("Mapping[str, object]", value)
            if _is_record(at) or _too_wide(key, mapping) or _holds_tables([mapping], at):
                nested.append(key)
    return nested


def _holds_tables(mappings: list[Mapping[str, object]], path: tuple[str, ...]) -> bool:
    """True when one of ``mappings`` (at ``path``) has a sub-table: it cannot be inline then."""
    return any(_nested_keys(mapping, path) for mapping in mappings)


def _is_record(path: tuple[str, ...]) -> bool:
    """True for a param or a tool (``[params.topic]``), and a tool's own params and result."""
    return (len(path) == 2 and path[0] in ("params", "tools")) or (  # noqa: PLR2004 - depth
        len(path) == 4 and path[0] == "tools" and path[2] in ("params", "result")  # noqa: PLR2004
    )


def _is_array_of_tables(path: tuple[str, ...]) -> bool:
    """True for the lists that are ``[[...]]`` even when short: sections, children, policies."""
    return (
        path in (("sections",), ("policies",))
        or (path[0] == "sections" and path[-1] == "children")
        or (len(path) == 3 and path[0] == "tools" and path[2] == "examples")  # noqa: PLR2004
    )


def _too_wide(key: str, value: object) -> bool:
    """True when ``key = value`` on one line would pass ``INLINE_WIDTH`` or hide a newline."""
    return len(f"{_key(key)} = {_inline(value)}") > INLINE_WIDTH or _has_multiline(value)


def _has_multiline(value: object) -> bool:
    if isinstance(value, str):
        return "\n" in value
    if isinstance(value, Mapping):
        return any(_has_multiline(item) for item in cast("Mapping[str, object]", value).values())
    if isinstance(value, list):
        return any(_has_multiline(item) for item in cast("list[object]", value))
    return False


def _assignment(key: str, value: object) -> str:
    """``key = value`` at table level, where strings and arrays may span lines."""
    if isinstance(value, str) and "\n" in value:
        return f"{_key(key)} = {_multiline(value)}"
    line = f"{_key(key)} = {_inline(value)}"
    if isinstance(value, list) and len(line) > INLINE_WIDTH:
        items = "".join(f"  {_inline(item)},\n" for item in cast("list[object]", value))
        return f"{_key(key)} = [\n{items}]"
    return line


def _inline(value: object) -> str:
    """``value`` on one line."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return _number(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list):
        return "[" + ", ".join(_inline(item) for item in cast("list[object]", value)) + "]"
    if isinstance(value, Mapping):
        pairs = [
            f"{_key(k)} = {_inline(v)}" for k, v in cast("Mapping[str, object]", value).items()
        ]
        return "{ " + ", ".join(pairs) + " }" if pairs else "{}"
    raise TypeError(f"TOML cannot write a {type(value).__name__}")


def _number(value: float) -> str:
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return repr(value)  # always has '.' or 'e', so it reads back as a float, exactly


def _key(key: str) -> str:
    return key if _BARE_KEY.match(key) else _basic(key)


def _dotted(path: tuple[str, ...]) -> str:
    return ".".join(_key(part) for part in path)


def _string(text: str) -> str:
    """A one-line string: double quotes, or single quotes to spare backslashes and quotes."""
    if _MUST_ESCAPE.search(text) and "'" not in text and not _ANY_CONTROL.search(text):
        return f"'{text}'"
    return _basic(text)


def _basic(text: str) -> str:
    return '"' + _MUST_ESCAPE.sub(_escape, text) + '"'


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    return _ESCAPES.get(char) or f"\\u{ord(char):04x}"


def _multiline(text: str) -> str:
    """A multi-line string; the newline after the opening quotes is not part of the text."""
    literal = "'''" not in text and not text.endswith("'") and not _ML_CONTROL.search(text)
    if literal and "\\" in text:
        return f"'''\n{text}'''"  # backslashes read better unescaped
    body = _ML_ESCAPE.sub(_escape, text)
    # A quote before another quote, or last, is escaped: the text then never holds '"""'.
    body = _QUOTE_RUN.sub(r'\\"', body)
    return f'"""\n{body}"""'
