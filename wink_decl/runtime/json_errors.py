"""JSON syntax errors reported alike on every Python: a trailing comma is one message."""

from __future__ import annotations

import json

__all__ = ["same_on_every_python"]

_SPACE = " \t\n\r"
"""What JSON counts as whitespace."""

_COMMA_MESSAGES = frozenset(
    {
        "Expecting value",
        "Expecting property name enclosed in double quotes",
        "Illegal trailing comma before end of array",
        "Illegal trailing comma before end of object",
    }
)
"""What the versions say about a trailing comma (and about nothing else at a comma)."""


def same_on_every_python(error: json.JSONDecodeError) -> json.JSONDecodeError:
    """``error``, with a trailing comma worded and placed the same way on every Python.

    Python 3.13 reports ``[1,]`` as "Illegal trailing comma before end of array" at the comma;
    3.11 and 3.12 report "Expecting value" (or, in an object, "Expecting property name
    enclosed in double quotes") at the bracket after it. Both become one message of our own,
    at the comma, where the mistake is.
    """
    comma = _trailing_comma(error.doc, error.pos) if error.msg in _COMMA_MESSAGES else None
    if comma is None:
        return error
    closing = error.doc[_after_space(error.doc, comma + 1)]
    return json.JSONDecodeError(f"Trailing comma before the closing '{closing}'", error.doc, comma)


def _trailing_comma(doc: str, pos: int) -> int | None:
    """The comma an error at ``pos`` is about, when a closing bracket follows it; else None."""
    # 3.13 points at the comma itself; 3.11 and 3.12 at the bracket after it.
    comma = pos if doc.startswith(",", pos) else len(doc[:pos].rstrip(_SPACE)) - 1
    if comma < 0 or not doc.startswith(",", comma):
        return None
    return comma if doc.startswith(("}", "]"), _after_space(doc, comma + 1)) else None


def _after_space(doc: str, start: int) -> int:
    """The index of the first character at or after ``start`` that is not whitespace."""
    return len(doc) - len(doc[start:].lstrip(_SPACE))
