"""Text from a run made safe for the report page: escaped, visible, and cut to a bound.

Answers are untrusted model output: every text goes into the page through one of these.
"""

from __future__ import annotations

import re
from html import escape

__all__ = ["block", "cut_marker", "line"]

_HIDDEN = "\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff"
"""What could hide or reorder text, or cannot be written in UTF-8 at all: C0 controls but tab
and line break, DEL, C1 controls, the marks that reorder text, lone surrogates."""
_IN_BLOCK = re.compile(f"[{_HIDDEN}]")
_IN_LINE = re.compile(f"[\t\n{_HIDDEN}]")
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}
_LATIN_1 = 0x100


def line(text: str, longest: int) -> str:
    """``text`` on one line (line breaks and controls as escapes), cut, HTML-escaped.

    Plain text, so it fits in an attribute and in SVG as well; a cut is marked in words.
    """
    shown, hidden = _cut(text, longest)
    marker = f"\u2026 ({hidden:,} more characters)" if hidden else ""
    return escape(_IN_LINE.sub(_escape, shown) + marker)


def block(text: str, longest: int) -> str:
    """``text`` as it is (lines and tabs kept, other controls as escapes), cut, HTML-escaped."""
    shown, hidden = _cut(text, longest)
    return escape(_IN_BLOCK.sub(_escape, shown)) + cut_marker(hidden, "character")


def cut_marker(hidden: int, noun: str) -> str:
    """The mark that ``hidden`` of ``noun`` were left out ("" when none were), as HTML."""
    if not hidden:
        return ""
    plural = noun if hidden == 1 else f"{noun}s"
    return f'<span class="cut">\u2026 {hidden:,} more {plural} not shown</span>'


def _cut(text: str, longest: int) -> tuple[str, int]:
    if len(text) <= longest:
        return text, 0
    return text[:longest], len(text) - longest


def _escape(match: re.Match[str]) -> str:
    character = match.group()
    named = _NAMED.get(character)
    if named is not None:
        return named
    code = ord(character)
    return f"\\x{code:02x}" if code < _LATIN_1 else f"\\u{code:04x}"
