"""Override files of the wrong shape: every mistake reported at its place, nothing applied."""

from __future__ import annotations

from pathlib import Path

import pytest
from override_support import SHAPES, template, write

from wink_decl import DiagnosticError
from wink_decl.overrides import LocalOverrideStore, with_overrides

NAME = "tests/review/exp.wink-override.yaml"


def report(folder: Path, text: str, suffix: str = "yaml") -> str:
    write(folder, text, suffix=suffix)
    with pytest.raises(DiagnosticError) as caught:
        with_overrides(template(), LocalOverrideStore(folder), "exp")
    return str(caught.value)


def test_every_mistake_in_the_shape_is_reported_with_its_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    expected = [
        f"{NAME}:3:5: error: 'templat' is not a key of section 'intro'.",
        "  expected: one of template, summary, visibility",
        '   3 |     templat: {hash: "sha256:00000000000000000000'
        '00000000000000000000000000000000000000000000", text:...',
        "     |     ^^^^^^^",
        "  hint: did you mean 'template'?",
        f"{NAME}:4:15: error: The entry sections.intro.template must be a mapping.",
        "  expected: a mapping",
        "   4 |     template: just text",
        "     |               ^^^^^^^^^",
        f"{NAME}:5:14: error: The entry sections.intro.summary has no text.",
        "  expected: hash: and text:",
        '   5 |     summary: {hash: "sha256:000000000000000'
        '0000000000000000000000000000000000000000000000000"}',
        "     |              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^"
        "^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        "  hint: 'wink-decl overrides seed' writes every entry with both",
        f"{NAME}:6:105: error: 'ful' is not a visibility.",
        "  expected: one of full, summary",
        '   6 | ...bility: {hash: "sha256:0000000000000000000000'
        '000000000000000000000000000000000000000000", text: ful}',
        "     |                                                "
        "                                                    ^^^",
        "  hint: did you mean 'full'?",
        f"{NAME}:7:12: error: Section 'context' must be a mapping.",
        "  expected: a mapping",
        "   7 |   context: [1]",
        "     |            ^^^",
        f"{NAME}:10:25: error: The hash of tools.search.description is not a whole sha256 hash.",
        "  expected: sha256: and 64 lower-case hex digits",
        '  10 |     description: {hash: "sha256:abc", text: x}',
        "     |                         ^^^^^^^^^^^^",
        "  hint: copy the hash 'wink-decl overrides seed' writes; a short prefix is not enough",
        f"{NAME}:13:110: error: The text of tools.search.params.query.description must be text.",
        "  expected: text",
        '  13 | ...cription: {hash: "sha256:00000000000000000000'
        '00000000000000000000000000000000000000000000", text: 5}',
        "     |                                                "
        "                                                      ^",
        f"{NAME}:14:9: error: 'kind' is not a key of param 'query'.",
        "  expected: one of description, type, default",
        "  14 |         kind: {}",
        "     |         ^^^^",
        "  hint: remove it",
        f"{NAME}:15:10: error: Tool 'other' must be a mapping.",
        "  expected: a mapping",
        "  15 |   other: 3",
        "     |          ^",
        f"{NAME}:16:1: error: 'extra' is not a key of an override file.",
        "  expected: one of sections, tools",
        "  16 | extra: 1",
        "     | ^^^^^",
        "  hint: remove it",
    ]
    assert report(Path(), SHAPES) == "\n".join(expected)
