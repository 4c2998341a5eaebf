"""Diagnostics: every mistake a prompt author can make, with its span, rendered by one reporter.

Text form (the style every editor and CI log can jump to)::

    prompts/review.wink.yaml:5:17: error: 'ful' is not a valid visibility
      expected: one of full, summary
       5 |     visibility: ful
         |                 ^^^
      hint: did you mean 'full'?
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = [
    "Diagnostic",
    "DiagnosticBag",
    "DiagnosticError",
    "Severity",
    "Span",
    "as_hint",
    "render_json",
    "render_text",
    "sort_diagnostics",
]

Severity = Literal["error", "warning"]


@dataclass(slots=True, frozen=True, order=True)
class Span:
    """A region of one file: 1-based lines and columns, end inclusive of the last character."""

    path: str
    line: int
    column: int
    end_line: int = 0
    end_column: int = 0

    def __post_init__(self) -> None:
        """An end defaults to the start: a one-character span."""
        if self.end_line == 0:
            object.__setattr__(self, "end_line", self.line)
        if self.end_column == 0:
            object.__setattr__(self, "end_column", self.column)


@dataclass(slots=True, frozen=True)
class Diagnostic:
    """One problem: what is wrong, where, what was expected, and what to do."""

    message: str
    span: Span | None
    code: str
    """A stable identifier such as ``unknown-key`` or ``yaml-syntax``, for tools and tests."""
    severity: Severity = "error"
    expected: str | None = None
    hint: str | None = None
    suggestions: tuple[str, ...] = ()
    path: str | None = None
    """The file when there is no span (for example an unreadable file)."""

    def __post_init__(self) -> None:
        """Hints read alike whoever wrote them: one lower-case clause after ``hint:``."""
        if self.hint:
            object.__setattr__(self, "hint", as_hint(self.hint))

    @property
    def file(self) -> str:
        """The file this diagnostic belongs to ("" when unknown)."""
        return self.span.path if self.span is not None else (self.path or "")

    def sort_key(self) -> tuple[str, int, int, str]:
        """File, line, column, then message: the order authors read them in."""
        span = self.span
        return (self.file, span.line if span else 0, span.column if span else 0, self.message)

    def to_json(self) -> dict[str, object]:
        """One JSON object, for tools (``--format json``)."""
        span = self.span
        return {
            "file": self.file,
            "line": span.line if span else None,
            "column": span.column if span else None,
            "end_line": span.end_line if span else None,
            "end_column": span.end_column if span else None,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "expected": self.expected,
            "hint": self.hint,
            "suggestions": list(self.suggestions),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Diagnostic:
        """The diagnostic ``to_json`` wrote (for caches that keep results as data)."""
        line = data["line"]
        span = (
            None
            if line is None
            else Span(str(data["file"]), line, data["column"], data["end_line"], data["end_column"])
        )
        return cls(
            message=str(data["message"]),
            span=span,
            code=str(data["code"]),
            severity="warning" if data["severity"] == "warning" else "error",
            expected=data["expected"],
            hint=data["hint"],
            suggestions=tuple(data["suggestions"]),
            path=str(data["file"]) if span is None else None,
        )


def as_hint(text: str) -> str:
    """``Save the file as UTF-8.`` -> ``save the file as UTF-8``; ``UTF-8 ...`` stays as it is.

    The form of STYLE.md's ``hint: did you mean 'full'?``: no capital unless the first word is
    an acronym or a name, no final period (a question keeps its mark).
    """
    text = text.strip()
    if len(text) > 1 and text[0].isupper() and not text[1].isupper():
        text = text[0].lower() + text[1:]
    return text.removesuffix(".") if not text.endswith("..") else text


class DiagnosticError(Exception):
    """Raised by API entry points when input has errors; carries every diagnostic found."""

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        """Keep them sorted; the message is the first one's header."""
        self.diagnostics = tuple(sort_diagnostics(diagnostics))
        first = self.diagnostics[0] if self.diagnostics else None
        summary = _header(first) if first else "no diagnostics"
        more = len(self.diagnostics) - 1
        super().__init__(summary + (f" (and {more} more)" if more > 0 else ""))


def sort_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Sorted by file, line and column; duplicates (same place, same message) dropped."""
    unique = {(d.sort_key(), d.code): d for d in diagnostics}
    return [unique[key] for key in sorted(unique)]


def render_text(diagnostics: Iterable[Diagnostic], sources: Mapping[str, str] | None = None) -> str:
    """Every diagnostic with the offending line quoted and a caret under the value."""
    blocks = [_render_one(d, (sources or {}).get(d.file)) for d in sort_diagnostics(diagnostics)]
    return "\n".join(blocks)


def render_json(diagnostics: Iterable[Diagnostic]) -> str:
    """One JSON object per line, sorted like the text form."""
    return "\n".join(
        json.dumps(d.to_json(), ensure_ascii=False) for d in sort_diagnostics(diagnostics)
    )


def _header(diagnostic: Diagnostic) -> str:
    span = diagnostic.span
    where = f"{span.path}:{span.line}:{span.column}" if span else (diagnostic.file or "<input>")
    return f"{where}: {diagnostic.severity}: {diagnostic.message}"


def _render_one(diagnostic: Diagnostic, source: str | None) -> str:
    lines = [_header(diagnostic)]
    if diagnostic.expected:
        lines.append(f"  expected: {diagnostic.expected}")
    lines.extend(_excerpt(diagnostic.span, source))
    if diagnostic.hint:
        lines.append(f"  hint: {diagnostic.hint}")
    return "\n".join(lines)


def _excerpt(span: Span | None, source: str | None) -> list[str]:
    """The offending line and a caret run under the span (clipped to that line)."""
    if span is None or source is None:
        return []
    text_lines = source.splitlines()
    if not 1 <= span.line <= len(text_lines):
        return []
    text = text_lines[span.line - 1].expandtabs(1)
    last = span.end_column if span.end_line == span.line else len(text)
    width = max(1, min(last, max(len(text), span.column)) - span.column + 1)
    return [
        f"{span.line:>4} | {text}",
        f"{'':>4} | {' ' * (span.column - 1)}{'^' * width}",
    ]


@dataclass(slots=True)
class DiagnosticBag:
    """Collects diagnostics while a file is processed; nothing stops at the first one."""

    items: list[Diagnostic] = field(default_factory=list[Diagnostic])

    def add(self, diagnostic: Diagnostic) -> None:
        """Record one."""
        self.items.append(diagnostic)

    def extend(self, diagnostics: Iterable[Diagnostic]) -> None:
        """Record several."""
        self.items.extend(diagnostics)

    @property
    def has_errors(self) -> bool:
        """True when any is an error (warnings do not block)."""
        return any(d.severity == "error" for d in self.items)
