"""The address a prompt file claims, read from its top-level ``ns``/``key`` lines alone.

The registry's cheap index: learning the address of 10,000 files by
compiling each costs seconds; reading two lines of each costs milliseconds. The reading is
deliberately narrow. It answers only for files laid out the plain way (every top-level entry
at column 0 and on one line, or with its nested lines indented under it) and says "not sure"
(None) for anything else: a value that may continue on the next line (a quoted string or a
flow collection left open: the YAML loader reads ``key: x`` inside such a value as text), an
anchor, alias, tag, merge key, document marker, quoted or dotted TOML key, a multi-line TOML
string, a key written in any unusual way. The registry compiles a file it is not sure of.

A claim is a hint: the registry compiles the file before serving it and checks the address
the compile gives. So a wrong claim costs a compile; only a *missing* claim could hide a
file, and the rules below are written so that whenever a file compiles, the claim read here is
its address or the reading is not sure.
"""

from __future__ import annotations

import re
from pathlib import Path

from wink_decl.compiler._context import folder_ns
from wink_decl.loader.api import detect_format

__all__ = ["claimed_address"]

_SEGMENT = r"[a-z0-9][a-z0-9_-]{0,63}"
_KEY = re.compile(_SEGMENT)
_NS = re.compile(f"{_SEGMENT}(?:/{_SEGMENT})*")
_PLAIN_FIRST = re.compile("[a-z]")
"""A plain YAML scalar that starts with a digit may read as a number: not sure."""
_WORDS = frozenset({"y", "n", "yes", "no", "on", "off", "true", "false", "null"})
"""Plain YAML scalars some readers take as booleans or null (YAML 1.1): not sure."""
_ODD_CHARS = re.compile("[\r\x85\u2028\u2029\ufeff]")
"""Other line breaks and a byte-order mark: lines would not be what they seem."""

_YAML_LEAD = re.compile(r"(?:[ ]*(?:#.*)?\n)*")
"""Blank and comment lines before the first content line."""
_YAML_TOP = re.compile(r"^[^ #\n].*", re.MULTILINE)
"""A line at column 0 that is not a comment: a top-level entry, or something not plain."""
_YAML_ENTRY = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*):(?: +(.*))?")
_YAML_COMMENT = r"(?: +#.*)?"
_YAML_DOUBLE = re.compile(rf'"([^"\\]*)"{_YAML_COMMENT}')
_YAML_SINGLE = re.compile(rf"'([^']*)'{_YAML_COMMENT}")
_YAML_BLOCK = re.compile(rf"[|>][-+1-9]{{0,2}}{_YAML_COMMENT}")
_YAML_PLAIN = re.compile(rf"([^\s\"'\[\]{{}}#&*!|>%@`,?:-][^#]*?){_YAML_COMMENT}")

_TOML_ENTRY = re.compile(r"([A-Za-z0-9_-]+) *= *(.*)")
_TOML_COMMENT = r"(?:[ \t]*#.*)?"
_TOML_BASIC = re.compile(rf'"([^"\\]*)"{_TOML_COMMENT}')
_TOML_LITERAL = re.compile(rf"'([^']*)'{_TOML_COMMENT}")
_TOML_BARE = re.compile(rf"[A-Za-z0-9_.:+-]+{_TOML_COMMENT}")


def claimed_address(content: bytes, path: str, root: Path) -> str | None:
    """``ns/key`` as compiling ``content`` (the file at ``path``) would give it; None: not sure.

    Without an ``ns:`` line the ns is the folder's under ``root``, as the compiler names it.
    """
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if _ODD_CHARS.search(text):
        return None
    found = _yaml_names(text) if detect_format(path) == "yaml" else _toml_names(text)
    if found is None or "key" not in found:
        return None
    key = found["key"]
    ns = found.get("ns")
    if ns is None:
        ns = folder_ns(root, path)
    if not (_KEY.fullmatch(key) and _NS.fullmatch(ns)):
        return None
    return f"{ns}/{key}"


def _yaml_names(text: str) -> dict[str, str] | None:
    """The top-level ``key`` and ``ns`` of a plain YAML block mapping; None: not sure.

    Only lines at column 0 that are not comments are looked at (the regular expression skips
    the others: nested lines, comments, blank lines), once the first content line is seen to
    be one of them: a mapping indented as a whole has its keys elsewhere.
    """
    first = next(_YAML_LEAD.finditer(text)).end()  # it matches at 0, if only ""
    if text.startswith(" ", first):
        return None
    names: dict[str, str] = {}
    for found in _YAML_TOP.finditer(text, first):
        line = found.group()
        entry = _YAML_ENTRY.fullmatch(line)
        if entry is None:
            return None
        name, value = entry.group(1), (entry.group(2) or "").rstrip(" ")
        scalar = _yaml_value(value)
        if scalar is None:
            return None
        if name in ("key", "ns"):
            if name in names or scalar == "" or scalar in _WORDS:
                return None
            names[name] = scalar
    return names


def _yaml_value(value: str) -> str | None:
    """A one-line value's text; "" for a value that is nested or a block scalar; None: not sure.

    A plain scalar keeps its text only when it starts with a letter (a digit may read as a
    number); a quoted one keeps it whole. Flow collections are accepted when they close on
    their line and hold no quotes or comments.
    """
    if not value or value.startswith("#") or _YAML_BLOCK.fullmatch(value):
        return ""
    for quoted in (_YAML_DOUBLE, _YAML_SINGLE):
        match = quoted.fullmatch(value)
        if match is not None:
            return match.group(1) or "\0"  # an empty string is still a value, never a name
    if value[0] in "[{":
        return "" if _closed_flow(value) else None
    plain = _YAML_PLAIN.fullmatch(value)
    if plain is None:
        return None
    text = plain.group(1)
    if ": " in text or text.endswith(":"):
        return None  # a mapping inside a plain scalar: an error the loader reports
    return text if _PLAIN_FIRST.match(text) else "\0"


def _closed_flow(value: str) -> bool:
    """True when a flow collection closes exactly at the end of its line, with no quotes."""
    if any(c in value for c in "\"'#"):
        return False
    depth = 0
    for index, char in enumerate(value):
        depth += (char in "[{") - (char in "]}")
        if depth == 0:
            return index == len(value) - 1
    return False


def _toml_names(text: str) -> dict[str, str] | None:
    """The top-level ``key`` and ``ns`` of a plain TOML file; None: not sure.

    Top-level keys are those before the first table header; every line before it must be a
    bare key with a one-line value, so that header is a real one and not text inside a value.
    """
    names: dict[str, str] = {}
    for line in text.split("\n"):
        stripped = line.strip(" \t")
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("["):
            break  # the first table: nothing after it is top-level
        entry = _TOML_ENTRY.fullmatch(line.rstrip(" \t"))
        if entry is None:
            return None
        name, value = entry.groups()
        string = _toml_value(value)
        if string is None:
            return None
        if name in ("key", "ns"):
            if name in names or not string:
                return None
            names[name] = string
    return names


def _toml_value(value: str) -> str | None:
    """A one-line string's text; "" for any other one-line value; None: not sure."""
    if value.startswith(('"""', "'''")):
        return None
    for quoted in (_TOML_BASIC, _TOML_LITERAL):
        match = quoted.fullmatch(value)
        if match is not None:
            return match.group(1) or "\0"
    if value[:1] in ("[", "{"):
        return "" if _closed_flow(value) else None
    return "" if _TOML_BARE.fullmatch(value) else None
