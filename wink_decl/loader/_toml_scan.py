"""Before tomllib reads a text: what would make it slow, or fail outside its own errors.

tomllib is quadratic in the parts of a dotted key (64,000 parts take it a minute), recurses
once per bracket (deep enough, it runs out of stack), and lets ``int`` refuse a number with
more digits than Python converts (a ``ValueError``, not a ``TOMLDecodeError``). One linear
scan finds each before tomllib runs: brackets nested too deep, a key longer than
``max_key_length`` or with more parts than ``max_depth`` allows, and such a number.
"""

from __future__ import annotations

import re
import sys
from itertools import accumulate, repeat
from typing import NamedTuple

from wink_decl.loader.limit_diagnostics import Limits

__all__ = ["Found", "scan"]

_MULTI_LINE = (
    r'''"""(?:[^"\\]++|\\[\s\S]|"{1,2}(?!"))*+(?:"{3,5}|\Z)'''
    r"""|'''(?:[^']++|'{1,2}(?!'))*+(?:'{3,5}|\Z)"""
)
_STRING = r""""(?:[^"\\\n]++|\\.)*+"?|'[^'\n]*+'?"""  # closed, or left open at the line end
_COMMENT = r"\#[^\n]*+"
_PART = r"""[A-Za-z0-9_-]++|"(?:[^"\\\n]++|\\.)*+"|'[^'\n]*+'"""
_TOKEN = re.compile(
    f"(?P<text>{_MULTI_LINE})"
    f"|(?P<word>(?:{_PART})(?:[ \t]*+\\.[ \t]*+(?:{_PART}))*+)"
    f"|{_STRING}|{_COMMENT}"
    r"|(?P<open>[\[{])|(?P<close>[\]}])|(?P<break>\n)|[^\s]"
)
"""Multi-line strings; a word (a bare or quoted key, dotted or not, or a value such as a
string, a number or a date); strings left open; comments; brackets; line breaks; any other
character. Possessive quantifiers keep every match linear."""
_SKIPPED = re.compile(f"{_MULTI_LINE}|{_STRING}|{_COMMENT}")
"""Strings and comments: where brackets are text, not structure."""
_BRACKET = re.compile(r"[\[\]{}]")
_STEPS = {"[": 1, "{": 1, "]": -1, "}": -1}
_PARTS = re.compile(_PART)
_EQUALS = re.compile(r"[ \t]*=")
_DIGITS = re.compile(r"-?[0-9_]+")


class Found(NamedTuple):
    """What the scan stopped at: ``kind`` at ``start`` (to ``end``, inclusive)."""

    kind: str
    """``deep`` (a bracket or a key's part too deep), ``key`` or ``dotted key`` (too long), or
    ``number`` (too many digits)."""
    start: int
    end: int
    size: int = 0
    """The key's length or the number's digits."""


def scan(text: str, limits: Limits) -> Found | None:
    """The first thing in ``text`` that tomllib should not be given, if there is one."""
    max_nesting = limits.max_depth - 1
    longest_number = sys.get_int_max_str_digits() or len(text)
    longest_line = min(limits.max_key_length, longest_number)
    if _nesting(text, max_nesting) <= max_nesting and _short_lines(text, longest_line, max_nesting):
        return None  # the usual file: looking at it in C is enough
    depth = 0
    line_start = True  # nothing but blanks since the last line break
    header = False  # the next word names a table: [name] or [[name]]
    for token in _TOKEN.finditer(text):
        kind = token.lastgroup
        if kind == "break":
            line_start = True
            continue
        if kind == "open":
            depth += 1
            if depth > max_nesting:
                return Found("deep", token.start(), token.start())
            header = header or (line_start and depth == 1 and token.group() == "[")
        else:
            if kind == "word":
                key = header or _EQUALS.match(text, token.end()) is not None
                found = (
                    _key(token, limits, header=header) if key else _number(token, longest_number)
                )
                if found is not None:
                    return found
            elif kind == "close":
                depth = max(0, depth - 1)
            header = False
        line_start = False
    return None


def _nesting(text: str, enough: int) -> int:
    """How deeply brackets outside strings and comments nest (exactly, once past ``enough``).

    The work is done in C: strings and comments are cut out, then the running count of the
    brackets left is taken. A stray closing bracket is a syntax error that tomllib stops at,
    so what it does to the count after it never matters.
    """
    if text.count("[") + text.count("{") <= enough:
        return 0
    brackets = _BRACKET.findall(_SKIPPED.sub("", text))
    return max(accumulate(map(_STEPS.__getitem__, brackets)), default=0)


def _short_lines(text: str, length: int, dots: int) -> bool:
    """True when no line is longer than ``length`` or holds ``dots`` dots.

    A key too long, a number too long or a key of too many parts needs such a line.
    """
    if len(text) <= length and text.count(".") < dots:
        return True
    lines = text.split("\n")
    return max(map(len, lines)) <= length and max(map(str.count, lines, repeat("."))) < dots


def _key(token: re.Match[str], limits: Limits, *, header: bool) -> Found | None:
    """A key too long, or with more parts than the nesting allows (a header nests one more)."""
    start, end = token.start(), token.end()
    if end - start > limits.max_key_length:
        dotted = len(_PARTS.findall(token.group())) > 1
        return Found("dotted key" if dotted else "key", start, end - 1, end - start)
    deepest = limits.max_depth - 1 if header else limits.max_depth
    if token.group().count(".") < deepest:
        return None  # fewer dots than parts needed: no counting
    parts = list(_PARTS.finditer(token.group()))
    if len(parts) <= deepest:
        return None  # some dots were inside quoted parts
    # Tables nest one level per part: the part at max_depth - 1 is the first too deep.
    part = parts[limits.max_depth - 1]
    return Found("deep", start + part.start(), start + part.end() - 1)


def _number(token: re.Match[str], longest: int) -> Found | None:
    """A whole number with more digits than Python converts (tomllib would raise)."""
    if token.end() - token.start() <= longest or _DIGITS.fullmatch(token.group()) is None:
        return None
    number = token.group()
    digits = len(number) - number.count("_") - number.startswith("-")
    if digits <= longest:
        return None
    return Found("number", token.start(), token.end() - 1, digits)
