"""The text report stays safe and small whatever a file holds: escapes, windows, counts, sizes."""

from __future__ import annotations

import json

import pytest

from wink_decl.diagnostics import (
    LONGEST_TEXT,
    SHOWN_PER_LINE,
    WINDOW,
    Diagnostic,
    DiagnosticError,
    Span,
    clip,
    printable,
    render_json,
    render_text,
    some_of,
    source_lines,
)

LONG = "key: review\nsections: [" + ", ".join(f"k{i}: {i}" for i in range(100)) + "]\n"
LINE = LONG.splitlines()[1]
"""890 characters: 'k0' starts at column 12, 'k50' at column 442, 'k99' at column 883."""


def at(column: int, end_column: int = 0, *, line: int = 2, path: str = "p.wink.yaml") -> Span:
    return Span(path, line, column, line, end_column or column)


def excerpt(diagnostic: Diagnostic, source: str, path: str = "p.wink.yaml") -> list[str]:
    """The quoted line and the caret line of one diagnostic's report."""
    return render_text([diagnostic], {path: source}).splitlines()[1:3]


@pytest.mark.parametrize(
    ("column", "end_column", "quoted", "caret"),
    [
        (12, 13, LINE[:100] + "...", " " * 11 + "^^"),
        (442, 444, "..." + LINE[401:501] + "...", " " * 43 + "^^^"),
        (883, 890, "..." + LINE[790:], " " * 95 + "^" * 8),
        (893, 893, "..." + LINE[790:], " " * 105 + "^"),
        (442, 890, "..." + LINE[401:501] + "...", " " * 43 + "^" * 60),
    ],
    ids=["at-the-start", "in-the-middle", "at-the-end", "past-the-end", "running-past-the-cut"],
)
def test_a_long_line_is_quoted_in_a_window_around_the_span(
    column: int, end_column: int, quoted: str, caret: str
) -> None:
    assert len(LINE) == 890
    diagnostic = Diagnostic("m", at(column, end_column), "c")
    assert excerpt(diagnostic, LONG) == [f"   2 | {quoted}", f"     | {caret}"]


def test_a_line_of_the_window_size_is_quoted_whole() -> None:
    line = "x" * WINDOW
    assert excerpt(Diagnostic("m", at(WINDOW, line=1), "c"), line) == [
        f"   1 | {line}",
        "     | " + " " * (WINDOW - 1) + "^",
    ]


@pytest.mark.parametrize(
    ("line", "column", "end_column", "quoted", "caret"),
    [
        ("title: \x1b]0;owned\x07x", 8, 17, "title: \\x1b]0;owned\\x07x", " " * 7 + "^" * 16),
        ("title: a\x9b31mb", 10, 10, "title: a\\x9b31mb", " " * 12 + "^"),
        ("title: \u202eevil", 8, 8, "title: \\u202eevil", " " * 7 + "^" * 6),
        ("t:\ta\x7f", 4, 5, "t: a\\x7f", "   ^^^^^"),
    ],
    ids=["escape-and-bell", "c1-control", "bidi-override", "tab-and-delete"],
)
def test_control_characters_in_a_quoted_line_are_escaped_and_the_caret_follows(
    line: str, column: int, end_column: int, quoted: str, caret: str
) -> None:
    diagnostic = Diagnostic("m", at(column, end_column, line=1), "c")
    assert excerpt(diagnostic, line + "\n") == [f"   1 | {quoted}", f"     | {caret}"]


def test_a_window_counts_characters_of_the_file_and_escapes_what_it_shows() -> None:
    line = "\x1b" * 300
    quoted, caret = excerpt(Diagnostic("m", at(150, line=1), "c"), line)
    assert quoted == "   1 | ..." + "\\x1b" * WINDOW + "..."
    assert caret == "     | " + " " * (3 + 4 * 40) + "^^^^"


def test_every_text_of_a_report_is_escaped() -> None:
    diagnostic = Diagnostic(
        "Unknown key 'a\x1b[2Jb' in section.",
        Span("evil\x07.wink.yaml", 1, 1),
        "unknown-key",
        expected="one of \x1b[31mkey\r\nfake.wink.yaml:1:1: error: forged",
        hint="rename '\x9b' to \u2066x",
    )
    assert render_text([diagnostic]) == (
        "evil\\x07.wink.yaml:1:1: error: Unknown key 'a\\x1b[2Jb' in section.\n"
        "  expected: one of \\x1b[31mkey\\r\\nfake.wink.yaml:1:1: error: forged\n"
        "  hint: rename '\\x9b' to \\u2066x"
    )
    no_span = Diagnostic("Gone.", None, "unreadable", path="\x1b.wink.yaml")
    assert render_text([no_span]) == "\\x1b.wink.yaml: error: Gone."
    assert str(DiagnosticError([diagnostic])).startswith("evil\\x07.wink.yaml:1:1: error: ")


def test_printable_leaves_ordinary_text_alone() -> None:
    text = "Größe: 5 € — 日本語 ✓ emoji 👨\u200d👩\u200d👧 and a \\ backslash"
    assert printable(text) == text
    assert printable("a\nb\tc\rd\x00e\x85f\u2028g") == "a\\nb\\tc\\rd\\x00e\\x85f\\u2028g"


def test_json_form_escapes_c1_controls_and_reads_back_the_same() -> None:
    diagnostic = Diagnostic("Key 'a\x9b\x1b\u202e' is odd.", at(1), "c", hint="see \u2028 here")
    text = render_json([diagnostic])
    assert "\x9b" not in text
    assert "\u202e" not in text
    assert "\u2028" not in text
    assert "\x1b" not in text
    assert "\\u009b\\u001b\\u202e" in text
    assert Diagnostic.from_json(json.loads(text)) == diagnostic


@pytest.mark.parametrize(
    ("text", "path", "lines"),
    [
        ("a\nb\x0cc\x1cd\ne\n", "p.wink.yaml", ["a", "b\x0cc\x1cd", "e"]),
        ("a\r\nb\rc\x85d\u2028e\u2029f", "p.wink.yaml", ["a", "b", "c", "d", "e", "f"]),
        ('a = "x\u2028y\x85z"\r\nb = 1\n', "p.wink.toml", ['a = "x\u2028y\x85z"', "b = 1"]),
        ("", "p.wink.toml", []),
        ("", "p.wink.yaml", []),
        ("\n\n", "p.wink.yaml", ["", ""]),
    ],
    ids=[
        "yaml-keeps-other-controls",
        "yaml-breaks",
        "toml-breaks-at-lf",
        "empty-toml",
        "empty",
        "blank",
    ],
)
def test_lines_are_counted_as_the_loader_counts_them(
    text: str, path: str, lines: list[str]
) -> None:
    assert source_lines(text, path) == lines


def test_a_toml_line_after_a_line_separator_is_the_right_one() -> None:
    source = 'title = "a\u2028b"\nkey = 5\n'
    diagnostic = Diagnostic("m", Span("p.wink.toml", 2, 7), "c")
    assert render_text([diagnostic], {"p.wink.toml": source}) == (
        "p.wink.toml:2:7: error: m\n   2 | key = 5\n     |       ^"
    )


def many(count: int, code: str = "unknown-key", line: int = 2) -> list[Diagnostic]:
    return [
        Diagnostic(f"Unknown key 'k{i}'.", at(12 + 7 * i, line=line), code) for i in range(count)
    ]


def test_past_a_few_diagnostics_of_one_code_on_one_line_the_rest_are_counted() -> None:
    source = "key: review\nsections: [" + ", ".join(f"k{i}: {i}" for i in range(3)) + "]\n"
    shown = many(SHOWN_PER_LINE + 3)
    other = Diagnostic("Something else.", at(1), "other")
    next_line = Diagnostic("Later.", at(1, line=3), "unknown-key")
    no_span = Diagnostic("No place.", None, "unknown-key", path="p.wink.yaml")
    text = render_text([*shown, other, next_line, no_span], {"p.wink.yaml": source})
    headers = [line for line in text.splitlines() if ": error: " in line]
    assert headers == [
        "p.wink.yaml: error: No place.",
        "p.wink.yaml:2:1: error: Something else.",
        *(f"p.wink.yaml:2:{12 + 7 * i}: error: Unknown key 'k{i}'." for i in range(10)),
        "p.wink.yaml:3:1: error: Later.",
    ]
    assert text.splitlines()[-2:] == [
        "  ... and 3 more unknown-key diagnostics on line 2 of p.wink.yaml "
        "(wink-decl validate --format json lists every one)",
        "p.wink.yaml:3:1: error: Later.",
    ]


def test_one_left_out_is_one_diagnostic() -> None:
    text = render_text(many(SHOWN_PER_LINE + 1))
    assert text.splitlines()[-1] == (
        "  ... and 1 more unknown-key diagnostic on line 2 of p.wink.yaml "
        "(wink-decl validate --format json lists every one)"
    )
    assert render_text(many(SHOWN_PER_LINE)).count("error:") == SHOWN_PER_LINE


def test_every_text_of_a_diagnostic_is_bounded() -> None:
    huge = "x" * 100_000
    diagnostic = Diagnostic(
        f"Unknown key '{huge}' in section.", at(1), "c", expected=huge, hint=huge + "."
    )
    assert len(diagnostic.message) == LONGEST_TEXT
    assert diagnostic.message.startswith("Unknown key 'xxx")
    assert diagnostic.message.endswith("xxx' in section.")
    assert "..." in diagnostic.message
    assert diagnostic.expected is not None
    assert len(diagnostic.expected) == LONGEST_TEXT
    assert diagnostic.hint is not None
    assert len(diagnostic.hint) == LONGEST_TEXT
    assert Diagnostic.from_json(diagnostic.to_json()) == diagnostic
    short = Diagnostic("m" * LONGEST_TEXT, None, "c", expected="e" * LONGEST_TEXT)
    assert (short.message, short.expected) == ("m" * LONGEST_TEXT, "e" * LONGEST_TEXT)


def test_clip_and_some_of() -> None:
    assert clip("short") == "short"
    assert clip("x" * 64) == "x" * 64
    assert clip("x" * 65) == "x" * 61 + "..."
    assert clip("abcdef", 5) == "ab..."
    assert some_of(["a", "b"]) == "a, b"
    assert some_of([str(i) for i in range(20)]) == ", ".join(str(i) for i in range(20))
    assert some_of([str(i) for i in range(1025)], 3) == "0, 1, 2 and 1,022 more"
