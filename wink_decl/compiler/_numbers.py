"""Numbers a prompt file may hold: finite ones, and whole numbers that fit in 64 bits.

YAML and TOML can write what JSON, the tools and the models cannot take: ``.nan``, ``inf``,
``1e400`` (infinity once read) and whole numbers of any size (``0x`` and thousands of digits;
Python will not even print one past 4,300 digits). Such a number is refused with its place
before anything else reads the file, so no check, render or artifact meets it.
"""

from __future__ import annotations

import math
from typing import Final, cast

from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, Span, clip, source_lines
from wink_decl.loader import JSONPath, LoadedFile
from wink_decl.loader.number_bounds import LARGEST, SMALLEST, unusable_number

__all__ = ["LARGEST", "SMALLEST", "number_problems"]

_HINT: Final = "put it in quotes if it is meant as text"


def number_problems(file: LoadedFile) -> list[Diagnostic]:
    """A diagnostic for each number in ``file`` that is not finite or not within 64 bits."""
    # The loader looked at each number as it read it: most files hold none of these.
    if not file.bad_numbers:
        return []
    found: list[tuple[JSONPath, int | float]] = []
    pending: list[tuple[object, JSONPath]] = [(file.data, ())]
    while pending:
        value, path = pending.pop()
        if isinstance(value, dict):
            items = cast("dict[str, object]", value).items()
            pending.extend((item, (*path, key)) for key, item in items)
        elif isinstance(value, list):
            pending.extend((item, (*path, i)) for i, item in enumerate(cast("list[object]", value)))
        elif unusable_number(value):
            found.append((path, cast("int | float", value)))
    lines = source_lines(file.text, toml=file.format == "toml")
    return [_problem(file, lines, path, value) for path, value in found]


def _problem(file: LoadedFile, lines: list[str], path: JSONPath, value: float) -> Diagnostic:
    span = file.source_map.value_span(path) or file.source_map.nearest(path)
    written = clip(_written(lines, span), 40)
    if isinstance(value, int):
        size = "large" if value > 0 else "small"
        message = f"The whole number '{written}' is too {size}."
        expected = f"a whole number from {SMALLEST} to {LARGEST} (64 bits)"
    else:
        if math.isnan(value):
            message = f"'{written}' (not a number) cannot be written in JSON."
        elif "inf" in written.lower():
            message = f"'{written}' (infinity) cannot be written in JSON."
        else:
            message = f"'{written}' is too large: it reads as infinity, which JSON cannot write."
        expected = "a finite number"
    return Diagnostic(message, span, DiagnosticCode.NUMBER, expected=expected, hint=_HINT)


def _written(lines: list[str], span: Span) -> str:
    """The value as the file spells it (``0x1F``, ``.inf``): a number is on one line."""
    line = lines[min(span.line, len(lines)) - 1] if lines else ""
    return line[span.column - 1 : span.end_column] or "?"
