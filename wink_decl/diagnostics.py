"""Diagnostics: every mistake a prompt author can make, with its span, rendered by one reporter.

Text form (the style every editor and CI log can jump to)::

    prompts/review.wink.yaml:5:17: error: 'ful' is not a valid visibility
      expected: one of full, summary
       5 |     visibility: ful
         |                 ^^^
      hint: did you mean 'full'?

Prompt files may be written to hurt, and reports land in terminals and CI logs: the text form
escapes control characters (``printable``), quotes at most a window of a long line and shows at
most ``SHOWN_PER_LINE`` diagnostics of one code on one line; every text is bounded.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Final, Literal

# DiagnosticCode, JSONPath and close_matches are re-exported: the schema imports only this
# module of the package, and what it reports with lives here or below.
from wink_decl._nouns import noun_for
from wink_decl.diagnostic_codes import DiagnosticCode, code_of
from wink_decl.errors import WinkDeclError
from wink_decl.json_path import JSONPath
from wink_decl.suggestions import close_matches

__all__ = [
    "LONGEST_TEXT",
    "SHOWN_PER_LINE",
    "WINDOW",
    "CauseText",
    "Diagnostic",
    "DiagnosticBag",
    "DiagnosticCode",
    "DiagnosticError",
    "JSONPath",
    "Severity",
    "Span",
    "as_hint",
    "cause_traceback",
    "clip",
    "close_matches",
    "noun_for",
    "printable",
    "printable_json",
    "render_json",
    "render_json_array",
    "render_text",
    "some_of",
    "sort_diagnostics",
    "source_lines",
]

WINDOW: Final = 100
"""Characters of a quoted line shown at most; a longer line is cut around the span."""
_BEFORE: Final = 40
"""How many of them come before the span when a line is cut."""
LONGEST_TEXT: Final = 2_000
"""Characters of a message, ``expected`` or ``hint`` at most; the middle of a longer one is cut."""
SHOWN_PER_LINE: Final = 10
"""Diagnostics of one code on one line shown in full by the text form; the rest are counted."""
_CUT: Final = "..."

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
    code: DiagnosticCode | str
    """A stable identifier such as ``unknown-key`` or ``yaml-syntax``, for tools and tests.

    The package writes only ``DiagnosticCode`` members; a plain string is for diagnostics
    made outside it (a caller's own checks reported alike)."""
    severity: Severity = "error"
    expected: str | None = None
    hint: str | None = None
    suggestions: tuple[str, ...] = ()
    path: str | None = None
    """The file when there is no span (for example an unreadable file)."""
    cause: BaseException | None = field(default=None, compare=False, repr=False)
    """The exception plugin code raised, when that is the problem (its import, its config, a
    call), for its traceback (``cause_traceback``). Not part of equality or of ``to_json``:
    the same mistake is the same diagnostic, and a traceback is for the plugin's author, shown
    by the command line under ``-v`` (docs/diagnostics.md)."""

    def __post_init__(self) -> None:
        """Hints read alike whoever wrote them: one lower-case clause after ``hint:``.

        Every text is bounded (``LONGEST_TEXT``): a value quoted in a message may be huge, and
        a file can repeat it with aliases.
        """
        if self.hint:
            object.__setattr__(self, "hint", _bounded(as_hint(self.hint)))
        if len(self.message) > LONGEST_TEXT:
            object.__setattr__(self, "message", _bounded(self.message))
        if self.expected is not None and len(self.expected) > LONGEST_TEXT:
            object.__setattr__(self, "expected", _bounded(self.expected))

    def __getstate__(self) -> list[object]:
        """The fields, for pickle (a worker process sends its diagnostics back).

        The cause travels as its traceback text: plugin code may raise an exception that
        cannot be pickled, or not rebuilt from its arguments, and a traceback is never pickled.
        """
        state: list[object] = [getattr(self, f.name) for f in fields(self)]
        cause = self.cause
        if cause is not None and not isinstance(cause, CauseText):
            text = cause_traceback(cause)
            state[-1] = None if text is None else CauseText(text)
        return state

    def __setstate__(self, state: list[object]) -> None:
        """The fields ``__getstate__`` gave, set as ``__init__`` sets a frozen dataclass's."""
        for f, value in zip(fields(self), state, strict=True):
            object.__setattr__(self, f.name, value)

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
            code=code_of(str(data["code"])),
            severity="warning" if data["severity"] == "warning" else "error",
            expected=data["expected"],
            hint=data["hint"],
            suggestions=tuple(data["suggestions"]),
            path=str(data["file"]) if span is None else None,
        )


class CauseText(WinkDeclError):  # noqa: N818  # not raised: an exception's traceback, as text
    """The cause of a diagnostic made in another process: its traceback, formatted there."""

    def __init__(self, text: str) -> None:
        """Keep the text."""
        super().__init__(text)
        self.text = text


def cause_traceback(cause: BaseException) -> str | None:
    """The traceback of ``cause`` as Python prints it, from the first frame of plugin code on.

    The frames of wink-decl and of the import machinery that led to plugin code are the same
    for every plugin and are left out; everything from there on is kept, chained exceptions
    and wink-decl's own frames too. None when no frame is outside them: nothing but wink-decl
    or the import machinery raised (a module that is not installed), or a builtin did.
    """
    if isinstance(cause, CauseText):
        return cause.text
    import importlib  # noqa: PLC0415  # a failing plugin only
    import traceback  # noqa: PLC0415  # same

    ours = (
        str(Path(__file__).parent) + os.sep,
        str(Path(importlib.__file__).parent) + os.sep,
        "<frozen importlib.",
    )
    summary = traceback.TracebackException.from_exception(cause)
    frames = list(summary.stack)
    first = next((i for i, frame in enumerate(frames) if not frame.filename.startswith(ours)), None)
    if first is None:
        return None
    summary.stack = traceback.StackSummary.from_list(frames[first:])
    return "".join(summary.format())


def as_hint(text: str) -> str:
    """``Save the file as UTF-8.`` -> ``save the file as UTF-8``; ``UTF-8 ...`` stays as it is.

    The form of STYLE.md's ``hint: did you mean 'full'?``: no capital unless the first word is
    an acronym or a name, no final period (a question keeps its mark).
    """
    text = text.strip()
    if len(text) > 1 and text[0].isupper() and not text[1].isupper():
        text = text[0].lower() + text[1:]
    return text.removesuffix(".") if not text.endswith("..") else text


class DiagnosticError(WinkDeclError, ValueError):
    """Raised by API entry points when input has errors; carries every diagnostic found."""

    def __init__(
        self, diagnostics: Sequence[Diagnostic], *, sources: Mapping[str, str] | None = None
    ) -> None:
        """Keep them sorted; the message is the first one's header.

        With ``sources`` (file texts by display path) the message is the whole text report,
        every diagnostic with its lines quoted (``render_text``), as ``wink_decl.load`` gives.
        """
        self.diagnostics = tuple(sort_diagnostics(diagnostics))
        self.sources: Mapping[str, str] = {} if sources is None else sources
        """The file texts the diagnostics quote (empty when none were given)."""
        if sources is not None:
            super().__init__(render_text(self.diagnostics, sources))
            return
        first = self.diagnostics[0] if self.diagnostics else None
        summary = _header(first) if first else "no diagnostics"
        more = len(self.diagnostics) - 1
        super().__init__(summary + (f" (and {more} more)" if more > 0 else ""))


def clip(text: str, longest: int = 64) -> str:
    """``text`` when it has at most ``longest`` characters, else its start and ``...``.

    For values quoted in messages: a name or a path written in a file may be any length.
    """
    return text if len(text) <= longest else text[: longest - len(_CUT)] + _CUT


def some_of(words: Sequence[str], shown: int = 20) -> str:
    """``a, b, c``; past ``shown`` words, the first ones and how many more (``and 12 more``)."""
    if len(words) <= shown:
        return ", ".join(words)
    return f"{', '.join(words[:shown])} and {len(words) - shown:,} more"


def _bounded(text: str) -> str:
    """``text``, its middle cut when it is longer than ``LONGEST_TEXT`` (its end often matters)."""
    if len(text) <= LONGEST_TEXT:
        return text
    tail = LONGEST_TEXT // 4
    head = LONGEST_TEXT - tail - len(_CUT)
    return text[:head] + _CUT + text[-tail:]


_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")
"""What could drive a terminal or hide text: C0 and C1 controls, DEL, line and paragraph
separators, and the marks that reorder text (bidirectional overrides and isolates)."""
_JSON_UNSAFE = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")
"""The same, less what ``json.dumps`` escapes itself (C0 controls)."""
_NAMED_ESCAPES: Final = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_LATIN_1: Final = 0x100
"""Below this, an escape is ``\\x`` and two hex digits; from it on, ``\\u`` and four."""


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    named = _NAMED_ESCAPES.get(char)
    if named is not None:
        return named
    code = ord(char)
    return f"\\x{code:02x}" if code < _LATIN_1 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with control characters written as Python writes them in strings, safe to print.

    ESC becomes the four characters of its escape, a line break the two of its own.
    """
    return _UNSAFE.sub(_escape, text)


def printable_json(text: str) -> str:
    """JSON text from ``json.dumps(..., ensure_ascii=False)`` with what it leaves raw escaped.

    C1 controls, DEL and the marks that reorder text become JSON's own escapes (U+0085 as
    six characters): the same data, safe to print in a terminal.
    """
    return _JSON_UNSAFE.sub(_json_escape, text)


_YAML_BREAKS = re.compile("\r\n|[\r\n\x85\u2028\u2029]")


def source_lines(text: str, path: str = "", *, toml: bool | None = None) -> list[str]:
    """The lines of a file as its loader counts them (``toml`` or else by its name).

    TOML breaks at LF only, YAML at CR LF, CR, LF, NEL, LS and PS; ``str.splitlines`` breaks
    at more characters, which would quote the wrong line.
    """
    if path.lower().endswith(".toml") if toml is None else toml:
        lines = [line.removesuffix("\r") for line in text.split("\n")]
    else:
        lines = _YAML_BREAKS.split(text)
    if not lines[-1]:
        lines.pop()  # the break that ends the file starts no line (and "" has no lines)
    return lines


def sort_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Sorted by file, line and column; duplicates (same place, same message) dropped."""
    unique = {(d.sort_key(), d.code): d for d in diagnostics}
    return [unique[key] for key in sorted(unique)]


def render_text(diagnostics: Iterable[Diagnostic], sources: Mapping[str, str] | None = None) -> str:
    """Every diagnostic with the offending line quoted and a caret under the value.

    Control characters are escaped everywhere, a long line is quoted only around the span,
    and past ``SHOWN_PER_LINE`` diagnostics of one code on one line the rest are counted in
    one line (``validate --format json`` lists every one): the report grows with the file, no
    faster.
    """
    sources = sources or {}
    lines_of: dict[str, list[str] | None] = {}
    blocks: list[str] = []
    shown: dict[str, int] = {}
    hidden: dict[str, int] = {}
    place: tuple[str, int] | None = None
    for diagnostic in sort_diagnostics(diagnostics):
        span = diagnostic.span
        here = (diagnostic.file, span.line if span else 0)
        if here != place:
            blocks.extend(_more(hidden, place))
            shown.clear()
            hidden.clear()
            place = here
        count = shown[diagnostic.code] = shown.get(diagnostic.code, 0) + 1
        if span is not None and count > SHOWN_PER_LINE:
            hidden[diagnostic.code] = hidden.get(diagnostic.code, 0) + 1
            continue
        file = diagnostic.file
        if file not in lines_of:
            source = sources.get(file)
            lines_of[file] = None if source is None else source_lines(source, file)
        blocks.append(_render_one(diagnostic, lines_of[file]))
    blocks.extend(_more(hidden, place))
    return "\n".join(blocks)


def _more(hidden: Mapping[str, int], place: tuple[str, int] | None) -> list[str]:
    """One line per code with diagnostics left out on the line at ``place``."""
    if place is None:
        return []
    path, line = place
    return [
        f"  ... and {count:,} more {code} {'diagnostic' if count == 1 else 'diagnostics'} on "
        f"line {line} of {printable(path)} (wink-decl validate --format json lists every one)"
        for code, count in hidden.items()
    ]


def render_json(diagnostics: Iterable[Diagnostic]) -> str:
    """One JSON object per line, sorted like the text form; C1 controls escaped as well."""
    import json  # noqa: PLC0415  # reports in JSON only: text reports and checks never load it

    return "\n".join(
        printable_json(json.dumps(d.to_json(), ensure_ascii=False))
        for d in sort_diagnostics(diagnostics)
    )


def render_json_array(diagnostics: Iterable[Diagnostic]) -> str:
    """One indented JSON array of every diagnostic (``--format json``), escaped as above."""
    import json  # noqa: PLC0415  # see render_json

    objects = [d.to_json() for d in sort_diagnostics(diagnostics)]
    text = json.dumps(objects, indent=2, ensure_ascii=False)
    return printable_json(text) + "\n"


def _json_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def _header(diagnostic: Diagnostic) -> str:
    span = diagnostic.span
    where = f"{span.path}:{span.line}:{span.column}" if span else (diagnostic.file or "<input>")
    return printable(f"{where}: {diagnostic.severity}: {diagnostic.message}")


def _render_one(diagnostic: Diagnostic, lines: list[str] | None) -> str:
    out = [_header(diagnostic)]
    if diagnostic.expected:
        out.append(f"  expected: {printable(diagnostic.expected)}")
    out.extend(_excerpt(diagnostic.span, lines))
    if diagnostic.hint:
        out.append(f"  hint: {printable(diagnostic.hint)}")
    return "\n".join(out)


def _excerpt(span: Span | None, lines: list[str] | None) -> list[str]:
    """The offending line and a caret run under the span (clipped to that line).

    A line longer than ``WINDOW`` is cut to a window around the span, each cut marked with
    ``...``; control characters show as escapes and the caret stays under what it marks.
    """
    if span is None or lines is None or not 1 <= span.line <= len(lines):
        return []
    text = lines[span.line - 1]
    size = len(text)
    start = span.column - 1
    last = span.end_column if span.end_line == span.line else size
    stop = start + max(1, min(last, max(size, span.column)) - span.column + 1)
    low = 0 if size <= WINDOW else max(0, min(start - _BEFORE, size - WINDOW))
    high = min(size, low + WINDOW)
    before = _CUT if low > 0 else ""
    after = _CUT if high < size else ""
    if start >= size:  # past the end of the line: one caret after it
        offset = len(before) + len(_shown(text[low:])) + start - size
        width = 1
    else:
        offset = len(before) + len(_shown(text[low:start]))
        width = max(1, len(_shown(text[start : min(stop, high)])))
    return [
        f"{span.line:>4} | {before}{_shown(text[low:high])}{after}",
        f"{'':>4} | {' ' * offset}{'^' * width}",
    ]


def _shown(text: str) -> str:
    """Part of a quoted line as printed: a tab as one space (columns count it as one)."""
    return printable(text.replace("\t", " "))


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
