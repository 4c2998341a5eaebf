"""A kind of file other than a prompt file: the loader words each diagnostic for it."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import pytest

from wink_decl.diagnostics import Diagnostic, Span
from wink_decl.loader import PROMPT_FILE, FileKind, Holds, Limits, load_file, load_text

NOTES = FileKind(
    name="a notes file",
    holds={
        "yaml": Holds("a mapping of notes", hint="Write 'note: text' lines."),
        "toml": Holds("a table of notes", must="hold notes as 'note = \"text\"'"),
    },
    size_advice="Keep fewer notes",
    values_advice="Write shorter lists",
    size_limit="max_notes_bytes",
)


def too_large(span: Span, message: str, expected: str, hint: str) -> Diagnostic:
    return Diagnostic(message, span, "too-large", expected=expected, hint=hint)


VALUES = (
    "This file holds more than 2 values.",
    "at most 2 values",
    "write shorter lists, or allow more with --limit max_nodes=4",
)


@pytest.mark.parametrize(
    ("text", "file_format", "expected"),
    [
        (
            "- a\n",
            "yaml",
            Diagnostic(
                "This file holds a list; a notes file must be a mapping of notes.",
                Span("n", 1, 1, 1, 3),
                "not-a-mapping",
                expected="a mapping of notes",
                hint="write 'note: text' lines",
            ),
        ),
        (
            "",
            "toml",
            Diagnostic(
                "This file is empty; a notes file must hold notes as 'note = \"text\"'.",
                Span("n", 1, 1),
                "not-a-mapping",
                expected="a table of notes",
            ),
        ),
        ("a = [1, 2, 3]\n", "toml", too_large(Span("n", 1, 9), *VALUES)),
        ("a: [1, 2, 3]\n", "yaml", too_large(Span("n", 1, 5), *VALUES)),
        (
            "a: " + "x" * 40 + "\n",
            "yaml",
            too_large(
                Span("n", 1, 1),
                "This file is 44 bytes long, more than the limit of 32 bytes.",
                "a file of at most 32 bytes",
                "keep fewer notes, or allow more with --limit max_notes_bytes=64",
            ),
        ),
    ],
    ids=["yaml list", "empty toml", "toml values", "yaml values", "text too large"],
)
def test_each_diagnostic_is_worded_for_the_kind(
    text: str, file_format: Literal["yaml", "toml"], expected: Diagnostic
) -> None:
    limits = Limits(max_bytes=32, max_nodes=2)
    loaded = load_text(text, path="n", format=file_format, limits=limits, kind=NOTES)
    assert loaded.diagnostics == (expected,)


def test_a_file_too_large_to_read_is_worded_for_the_kind(tmp_path: Path) -> None:
    path = tmp_path / "n.yaml"
    path.write_bytes(b"a: 1\n" * 10)
    loaded = load_file(path, display_path="n.yaml", limits=Limits(max_bytes=20), kind=NOTES)
    assert loaded.diagnostics == (
        too_large(
            Span("n.yaml", 1, 1),
            "This file is 50 bytes long, more than the limit of 20 bytes.",
            "a file of at most 20 bytes",
            "keep fewer notes, or allow more with --limit max_notes_bytes=80",
        ),
    )


def test_a_prompt_file_is_what_the_loader_reads_unless_told() -> None:
    told = load_text("- a\n", path="p", format="yaml", kind=PROMPT_FILE)
    assert load_text("- a\n", path="p", format="yaml") == told
    assert told.diagnostics[0].message == (
        "This file holds a list; a prompt file must be a mapping of keys such as 'key:', "
        "'title:' and 'sections:'."
    )


CASES = FileKind(
    name="a dataset",
    holds={"yaml": Holds("a list of cases", must="be a list of cases")},
    size_advice="Keep fewer cases",
    values_advice="Keep fewer cases",
    holds_list=True,
)


def test_a_kind_that_holds_a_list_reads_one_and_no_single_value() -> None:
    loaded = load_text("- id: a\n- id: b\n", path="n", format="yaml", kind=CASES)
    assert loaded.file is not None
    assert loaded.file.data == [{"id": "a"}, {"id": "b"}]
    assert loaded.file.source_map.value_span((1, "id")) == Span("n", 2, 7, 2, 7)
    refused = load_text("just text\n", path="n", format="yaml", kind=CASES)
    assert refused.diagnostics == (
        Diagnostic(
            "This file holds a single value; a dataset must be a list of cases.",
            Span("n", 1, 1, 1, 9),
            "not-a-mapping",
            expected="a list of cases",
        ),
    )
