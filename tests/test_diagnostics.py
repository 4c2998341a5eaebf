"""The one reporter: text and JSON forms, ordering, de-duplication, excerpts."""

from __future__ import annotations

import dataclasses
import json
import pickle
from pathlib import Path

import pytest

from wink_decl.diagnostics import (
    CauseText,
    Diagnostic,
    DiagnosticBag,
    DiagnosticError,
    Span,
    as_hint,
    cause_traceback,
    render_json,
    render_text,
    sort_diagnostics,
)
from wink_decl.loader import load_text
from wink_decl.plugins import HANDLERS, PluginCatalog, PluginEntry, PluginLoadError
from wink_decl.schema.validate import validate_document

SOURCE = "key: review\nsections:\n  - key: task\n    visibility: ful\n"
BAD_VISIBILITY = Diagnostic(
    "'ful' is not a valid visibility",
    Span("review.wink.yaml", 4, 17, 4, 19),
    "enum",
    expected="one of full, summary",
    hint="did you mean 'full'?",
    suggestions=("full",),
)


def test_text_form_quotes_the_line_and_points_at_the_value() -> None:
    assert render_text([BAD_VISIBILITY], {"review.wink.yaml": SOURCE}) == (
        "review.wink.yaml:4:17: error: 'ful' is not a valid visibility\n"
        "  expected: one of full, summary\n"
        "   4 |     visibility: ful\n"
        "     |                 ^^^\n"
        "  hint: did you mean 'full'?"
    )


@pytest.mark.parametrize(
    ("span", "excerpt"),
    [
        (Span("f", 9, 1), ""),
        (Span("f", 4, 5, 6, 2), "   4 |     visibility: ful\n     |     ^^^^^^^^^^^^^^^\n"),
        (Span("f", 1, 12), "   1 | key: review\n     |            ^\n"),
    ],
    ids=["line-beyond-the-file", "span-over-several-lines", "column-past-the-end"],
)
def test_excerpts_are_clipped_to_the_quoted_line(span: Span, excerpt: str) -> None:
    diagnostic = Diagnostic("m", span, "c")
    assert render_text(
        [diagnostic], {"f": SOURCE}
    ) == f"f:{span.line}:{span.column}: error: m\n{excerpt}".rstrip("\n")


def test_diagnostics_without_span_or_source() -> None:
    no_span = Diagnostic("File cannot be read.", None, "unreadable", path="gone.wink.yaml")
    anonymous = Diagnostic("Something is off.", None, "other", severity="warning")
    no_source = Diagnostic("m", Span("elsewhere.yaml", 2, 3), "c")
    assert render_text([no_span, anonymous, no_source]) == (
        "<input>: warning: Something is off.\n"
        "elsewhere.yaml:2:3: error: m\n"
        "gone.wink.yaml: error: File cannot be read."
    )


def test_sorting_by_file_line_column_and_dropping_repeats() -> None:
    first = Diagnostic("b", Span("a.yaml", 2, 1), "x")
    second = Diagnostic("a", Span("a.yaml", 10, 1), "x")
    other_file = Diagnostic("c", Span("b.yaml", 1, 1), "x")
    assert sort_diagnostics([other_file, second, first, second]) == [first, second, other_file]


def test_json_form_is_one_object_per_line() -> None:
    lines = render_json([BAD_VISIBILITY, Diagnostic("gone", None, "unreadable", path="x.yaml")])
    assert [json.loads(line) for line in lines.splitlines()] == [
        {
            "file": "review.wink.yaml",
            "line": 4,
            "column": 17,
            "end_line": 4,
            "end_column": 19,
            "severity": "error",
            "code": "enum",
            "message": "'ful' is not a valid visibility",
            "expected": "one of full, summary",
            "hint": "did you mean 'full'?",
            "suggestions": ["full"],
        },
        {
            "file": "x.yaml",
            "line": None,
            "column": None,
            "end_line": None,
            "end_column": None,
            "severity": "error",
            "code": "unreadable",
            "message": "gone",
            "expected": None,
            "hint": None,
            "suggestions": [],
        },
    ]


def test_a_span_without_end_covers_one_character() -> None:
    assert Span("f", 3, 7) == Span("f", 3, 7, 3, 7)


def test_diagnostic_error_carries_every_diagnostic_sorted() -> None:
    later = Diagnostic("later", Span("f", 9, 1), "c")
    error = DiagnosticError([later, BAD_VISIBILITY])
    assert error.diagnostics == (later, BAD_VISIBILITY)  # file "f" sorts before "review..."
    assert str(error) == "f:9:1: error: later (and 1 more)"
    assert str(DiagnosticError([])) == "no diagnostics"
    assert str(DiagnosticError([later])) == "f:9:1: error: later"


def test_bag_collects_and_knows_whether_anything_blocks() -> None:
    bag = DiagnosticBag()
    bag.add(Diagnostic("w", None, "c", severity="warning"))
    assert not bag.has_errors
    bag.extend([BAD_VISIBILITY])
    assert bag.has_errors
    assert len(bag.items) == 2


def test_a_boolean_where_text_belongs_gets_a_quoting_hint() -> None:
    loaded = load_text(
        "key: review\nsections:\n  - title: true\n", path="p.wink.yaml", format="yaml"
    )
    assert loaded.file is not None
    document, problems = validate_document(loaded.file.data, loaded.file.source_map)
    assert document is None
    assert render_text(problems, {"p.wink.yaml": loaded.file.text}) == (
        "p.wink.yaml:3:12: error: 'title' must be text; found true\n"
        "   3 |   - title: true\n"
        "     |            ^^^^\n"
        '  hint: put it in quotes: "true"'
    )


@pytest.mark.parametrize(
    "diagnostic",
    [
        Diagnostic(
            "Unknown key 'tempalte'.",
            Span("a.wink.yaml", 4, 5, 4, 12),
            "unknown-key",
            expected="one of key, title",
            hint="did you mean 'template'?",
            suggestions=("template",),
        ),
        Diagnostic("Tool 'x' is unused.", Span("a.wink.yaml", 2, 3), "unused-tool", "warning"),
        Diagnostic("Cannot read the file.", None, "unreadable", path="gone.wink.yaml"),
    ],
    ids=["everything", "warning", "no-span"],
)
def test_json_form_reads_back_to_the_same_diagnostic(diagnostic: Diagnostic) -> None:
    assert Diagnostic.from_json(json.loads(json.dumps(diagnostic.to_json()))) == diagnostic


@pytest.mark.parametrize(
    ("written", "shown"),
    [
        ("Save the file as UTF-8 in your editor.", "save the file as UTF-8 in your editor"),
        ("UTF-8 is the only encoding.", "UTF-8 is the only encoding"),
        ("did you mean 'full'?", "did you mean 'full'?"),
        ("Did you mean 'a'? Run 'wink-decl plugins'.", "did you mean 'a'? Run 'wink-decl plugins'"),
        ("  Wait for it...  ", "wait for it..."),
        ("X", "X"),
    ],
    ids=["sentence", "acronym", "question", "two-sentences", "ellipsis", "one-letter"],
)
def test_hints_read_alike_whoever_wrote_them(written: str, shown: str) -> None:
    assert as_hint(written) == shown
    assert Diagnostic("m", None, "c", hint=written).hint == shown


def raise_here(error: Exception) -> Exception:
    """``error``, raised and caught in this file, so that it has a traceback here."""
    with pytest.raises(type(error)) as info:
        raise error
    return info.value


def test_a_cause_is_kept_but_not_part_of_equality_or_json() -> None:
    error = raise_here(KeyError("region"))
    caused = dataclasses.replace(BAD_VISIBILITY, cause=error)
    assert caused.cause is error
    assert caused == BAD_VISIBILITY
    assert hash(caused) == hash(BAD_VISIBILITY)
    assert caused.to_json() == BAD_VISIBILITY.to_json()
    assert "cause" not in repr(caused)


def test_the_traceback_of_a_cause_starts_at_the_first_frame_outside_wink_decl() -> None:
    error = raise_here(KeyError("region"))
    line = next(
        number
        for number, text in enumerate(Path(__file__).read_text().splitlines(), 1)
        if text == "        raise error"
    )
    assert cause_traceback(error) == (
        "Traceback (most recent call last):\n"
        f'  File "{__file__}", line {line}, in raise_here\n'
        "    raise error\n"
        "KeyError: 'region'\n"
    )


def test_a_cause_raised_by_wink_decl_alone_has_no_traceback_to_show() -> None:
    # A module that is not installed: only the import machinery and wink-decl ran.
    entry = PluginEntry(HANDLERS, "x", "no_such_module_for_tests:x", "plug-a", "1.0")
    with pytest.raises(PluginLoadError) as info:
        PluginCatalog(entry_points=[]).load(entry)
    assert isinstance(info.value.__cause__, ModuleNotFoundError)
    assert cause_traceback(info.value.__cause__) is None
    assert cause_traceback(ValueError("never raised")) is None


def test_a_pickled_diagnostic_carries_its_cause_as_traceback_text() -> None:
    class UnpicklableError(Exception):  # rebuilt from its arguments, it would miss one
        def __init__(self, message: str, *, code: int) -> None:
            super().__init__(message)
            self.code = code

    error = raise_here(UnpicklableError("no region", code=3))
    caused = dataclasses.replace(BAD_VISIBILITY, cause=error)
    copy = pickle.loads(pickle.dumps(caused))  # noqa: S301  # our own bytes
    assert copy == BAD_VISIBILITY
    assert isinstance(copy.cause, CauseText)
    assert cause_traceback(copy.cause) == cause_traceback(error)
    assert pickle.loads(pickle.dumps(copy)).cause.text == copy.cause.text  # noqa: S301
    assert pickle.loads(pickle.dumps(BAD_VISIBILITY)).cause is None  # noqa: S301
    wink_decl_only = dataclasses.replace(BAD_VISIBILITY, cause=ValueError("never raised"))
    assert pickle.loads(pickle.dumps(wink_decl_only)).cause is None  # noqa: S301
