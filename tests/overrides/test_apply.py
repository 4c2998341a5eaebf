"""Applying an override file: edited texts render; an entry that cannot apply says why."""

from __future__ import annotations

import gc
import warnings
import weakref
from pathlib import Path

import pytest
from override_support import BASE_TEXT, SUMMARY, Topic, template, write

from wink_decl import DiagnosticError, ParamHint
from wink_decl.diagnostics import render_text
from wink_decl.overrides import LocalOverrideStore, apply_tag, text_hash, with_overrides
from wink_decl.overrides.tagged import applied

H = text_hash
ZEROS = "sha256:" + "0" * 64


def apply(tmp_path: Path, text: str, *, suffix: str = "yaml", strict: bool = False):
    write(tmp_path, text, suffix=suffix)
    return with_overrides(template(), LocalOverrideStore(tmp_path), "exp", strict=strict)


def errors_of(tmp_path: Path, text: str, *, suffix: str = "yaml", strict: bool = False) -> str:
    with pytest.raises(DiagnosticError) as caught:
        apply(tmp_path, text, suffix=suffix, strict=strict)
    return str(caught.value)


EDITED_YAML = f"""sections:
  intro:
    template:
      hash: {H("Review ${topic}.")}
      text: Review ${{topic}} with care.
  context:
    summary: {{hash: "{H("Some context.")}", text: A short context.}}
    visibility: {{hash: "{H("summary")}", text: full}}
  context.deep:
    template: {{hash: "{H("Deeper.")}", text: Deepest.}}
tools:
  search:
    description: {{hash: "{H("Search the code.")}", text: Search everything.}}
    params:
      query:
        description: {{hash: "{H("What to look for.")}", text: The words.}}
        type: {{hash: "{H("string")}", text: text}}
      limit:
        default: {{hash: "{H("10")}", text: ""}}
"""

EDITED_TOML = f"""[sections.intro.template]
hash = "{H("Review ${topic}.")}"
text = "Review ${{topic}} with care."

[sections.context]
summary = {{ hash = "{H("Some context.")}", text = "A short context." }}
visibility = {{ hash = "{H("summary")}", text = "full" }}

[sections."context.deep".template]
hash = "{H("Deeper.")}"
text = "Deepest."

[tools.search.description]
hash = "{H("Search the code.")}"
text = "Search everything."

[tools.search.params.query]
description = {{ hash = "{H("What to look for.")}", text = "The words." }}
type = {{ hash = "{H("string")}", text = "text" }}

[tools.search.params.limit]
default = {{ hash = "{H("10")}", text = "" }}
"""

EDITED_TEXT = (
    "## 1. Intro (intro)\n\nReview tests with care.\n\n## 2. Context (context)\n\n"
    "Lots of context.\n\n### 2.1. Deep (context.deep)\n\nDeepest.\n\n## 3. Fixed (fixed)\n\n"
    "Do not touch.\n\n## 4. Locked tool (locked)"
)


@pytest.mark.parametrize(("suffix", "text"), [("yaml", EDITED_YAML), ("toml", EDITED_TOML)])
def test_every_kind_of_entry_applies_in_yaml_and_toml_alike(
    tmp_path: Path, suffix: str, text: str
) -> None:
    tagged = apply(tmp_path, text, suffix=suffix)
    rendered = tagged.render(Topic())
    assert rendered.text == EDITED_TEXT
    assert [(tool.name, tool.description) for tool in rendered.tools] == [
        ("search", "Search everything."),
        ("fixed_search", "Search, fixed."),
        ("locked_search", "Search, locked."),
    ]
    assert rendered.tool_param_descriptions["search"] == {
        "query": ParamHint("The words.", "text"),
        "limit": ParamHint("", "integer"),
    }
    assert rendered.tool_param_descriptions["fixed_search"] == {
        "query": ParamHint("What to look for.", "string"),
        "limit": ParamHint("", "integer", "10"),
    }
    summarized = tagged.render(Topic(), visibility_overrides={"context": SUMMARY})
    assert "A short context." in summarized.text
    assert template().render(Topic()).text == BASE_TEXT  # the base is left as it was


NO_FILE = (
    "<input>: {severity}: Prompt 'tests/review' has no override file for tag 'exp', so it is "
    "used as written.\n"
    "  expected: one of its tags: it has none\n"
    "  hint: check the tag, or write its file: wink-decl overrides seed FILE --tag exp"
)
MISSPELT = (
    "prompts/review.wink.yaml: {severity}: Prompt 'tests/review' has no override file for tag "
    "'concize', so it is used as written.\n"
    "  expected: one of its tags: concise, exp\n"
    "  hint: did you mean 'concise'?"
)


def test_a_prompt_without_a_file_for_the_tag_renders_its_base_with_a_warning(
    tmp_path: Path,
) -> None:
    base = template()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert with_overrides(base, LocalOverrideStore(tmp_path), "exp") is base
    assert [str(warning.message) for warning in caught] == [NO_FILE.format(severity="warning")]
    with pytest.raises(DiagnosticError) as raised:
        with_overrides(base, LocalOverrideStore(tmp_path), "exp", strict=True)
    assert str(raised.value) == NO_FILE.format(severity="error")


def test_a_misspelt_tag_names_the_tags_there_are_and_the_nearest(tmp_path: Path) -> None:
    write(tmp_path, EDITED_YAML)
    write(tmp_path, EDITED_TOML, tag="concise", suffix="toml")
    base = template()
    store = LocalOverrideStore(tmp_path)
    shown = "prompts/review.wink.yaml"
    for strict, severity in ((False, "warning"), (True, "error")):
        tagged = apply_tag(base, store, "concize", strict=strict, source=shown)
        assert (tagged.template, tagged.ok, tagged.sources) == (base, not strict, {})
        assert render_text(tagged.diagnostics) == MISSPELT.format(severity=severity)


def test_applying_is_kept_per_template_and_file(tmp_path: Path) -> None:
    write(tmp_path, EDITED_YAML)
    store = LocalOverrideStore(tmp_path)
    base = template()
    first = with_overrides(base, store, "exp")
    assert with_overrides(base, store, "exp") is first
    loaded = store.load("tests", "review", "exp")
    assert loaded.file is not None
    kept = applied(base, loaded.file, strict=False)
    assert kept.template is first
    assert kept.ok


def test_a_file_that_changes_nothing_lets_its_template_go(tmp_path: Path) -> None:
    """Kept results never hold the template they are kept under (it would never be freed)."""
    write(tmp_path, STALE)
    store = LocalOverrideStore(tmp_path)
    base = template()
    loaded = store.load("tests", "review", "exp")
    assert loaded.file is not None
    first = applied(base, loaded.file, strict=False)
    again = applied(base, loaded.file, strict=False)
    assert (first.template is base, again.template is base, again.diagnostics) == (
        True,
        True,
        first.diagnostics,
    )
    gone = weakref.ref(base)
    del base, first, again
    gc.collect()
    assert gone() is None


STALE = f"""sections:
  intro:
    template:
      hash: {ZEROS}
      text: Review ${{topic}} with care.
"""
STALE_REPORT = (
    "tests/review/exp.wink-override.yaml:4:13: {severity}: The override of "
    "sections.intro.template was written for another text: the base text has changed since, "
    "so the base text is used.\n"
    f"  expected: hash: {H('Review ${topic}.')}\n"
    f"   4 |       hash: {ZEROS}\n"
    f"     |             {'^' * 71}\n"
    "  hint: compare the override with the new base text, then re-pin it: wink-decl "
    "overrides repin FILE --tag TAG shows each stale entry's base text and, with "
    "--all or --entry, writes the new hashes and keeps your texts"
)


def test_a_stale_entry_warns_and_the_base_text_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tagged = apply(Path(), STALE)
    assert [str(warning.message) for warning in caught] == [STALE_REPORT.format(severity="warning")]
    assert tagged.render(Topic()).text == BASE_TEXT


def test_a_stale_entry_is_an_error_when_strict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert errors_of(Path(), STALE, strict=True) == STALE_REPORT.format(severity="error")


REFUSED = f"""sections:
  fixed:
    template: {{hash: "{H("Do not touch.")}", text: Touched.}}
tools:
  fixed_search:
    description: {{hash: "{H("Search, fixed.")}", text: Changed.}}
  locked_search:
    description: {{hash: "{H("Search, locked.")}", text: Changed.}}
  read_section:
    description: {{hash: "{H("Read the full content of a summarized section.")}", text: Read.}}
"""


def test_entries_for_parts_that_refuse_overrides_are_errors_with_their_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    refused = "  expected: entries for sections and tools that accept overrides\n"
    assert errors_of(Path(), REFUSED) == (
        "tests/review/exp.wink-override.yaml:2:3: error: Section 'fixed' does not accept "
        "overrides (accepts_overrides: false), so this entry is not applied.\n"
        + refused
        + "   2 |   fixed:\n     |   ^^^^^\n  hint: remove the entry\n"
        "tests/review/exp.wink-override.yaml:5:3: error: Tool 'fixed_search' belongs to "
        "section 'fixed', which does not accept overrides (accepts_overrides: false), so this "
        "entry is not applied.\n"
        + refused
        + "   5 |   fixed_search:\n     |   ^^^^^^^^^^^^\n  hint: remove the entry\n"
        "tests/review/exp.wink-override.yaml:7:3: error: Tool 'locked_search' does not accept "
        "overrides (accepts_overrides: false), so this entry is not applied.\n"
        + refused
        + "   7 |   locked_search:\n     |   ^^^^^^^^^^^^^\n  hint: remove the entry\n"
        "tests/review/exp.wink-override.yaml:9:3: error: Tool 'read_section' is wink-decl's "
        "own: it is never overridden, so this entry is not applied.\n"
        + refused
        + "   9 |   read_section:\n     |   ^^^^^^^^^^^^\n  hint: remove the entry"
    )


UNKNOWN = f"""sections:
  intro.nope:
    template: {{hash: "{ZEROS}", text: x}}
  intro:
    summary: {{hash: "{ZEROS}", text: x}}
  contxt:
    template: {{hash: "{ZEROS}", text: x}}
tools:
  serch:
    description: {{hash: "{ZEROS}", text: x}}
  nothing:
    description: {{hash: "{ZEROS}", text: x}}
  search:
    params:
      querry:
        type: {{hash: "{ZEROS}", text: x}}
      other:
        type: {{hash: "{ZEROS}", text: x}}
"""


def test_entries_for_parts_the_prompt_lacks_are_errors_with_a_suggestion(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    name = "tests/review/exp.wink-override.yaml"
    section = "  expected: a section of the prompt, its dotted key from the top\n"
    params = "  expected: one of query, limit\n"
    assert errors_of(Path(), UNKNOWN) == (
        f"{name}:2:3: error: Prompt 'tests/review' has no section 'intro.nope'.\n"
        + section
        + "   2 |   intro.nope:\n     |   ^^^^^^^^^^\n  hint: did you mean 'intro'?\n"
        f"{name}:4:3: error: Section 'intro' has no summary to override.\n"
        + section
        + "   4 |   intro:\n     |   ^^^^^\n"
        "  hint: remove the entry, or give the section a summary in the prompt file\n"
        f"{name}:6:3: error: Prompt 'tests/review' has no section 'contxt'.\n"
        + section
        + "   6 |   contxt:\n     |   ^^^^^^\n  hint: did you mean 'context'?\n"
        f"{name}:9:3: error: Prompt 'tests/review' has no tool 'serch'.\n"
        "  expected: a tool of the prompt\n"
        "   9 |   serch:\n     |   ^^^^^\n  hint: did you mean 'search'?\n"
        f"{name}:11:3: error: Prompt 'tests/review' has no tool 'nothing'.\n"
        "  expected: a tool of the prompt\n"
        "  11 |   nothing:\n     |   ^^^^^^^\n  hint: remove the entry\n"
        f"{name}:15:7: error: Tool 'search' has no param 'querry'.\n"
        + params
        + "  15 |       querry:\n     |       ^^^^^^\n  hint: did you mean 'query'?\n"
        f"{name}:17:7: error: Tool 'search' has no param 'other'.\n"
        + params
        + "  17 |       other:\n     |       ^^^^^\n  hint: remove the entry"
    )


INVALID_TEXT = f"""sections:
  intro:
    template:
      hash: {H("Review ${topic}.")}
      text: Review ${{topc}}.
    visibility:
      hash: {H("full")}
      text: summary
tools:
  search:
    description:
      hash: {H("Search the code.")}
      text: ""
"""


def test_a_text_the_prompt_could_not_hold_is_an_error_and_the_base_stays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    name = "tests/review/exp.wink-override.yaml"
    tail = (
        "  expected: a text the prompt file could hold in its place\n"
        "{quoted}\n"
        "  hint: correct the text; the base text is used until then"
    )
    assert errors_of(Path(), INVALID_TEXT) == "\n".join(
        [
            f"{name}:5:13: error: The text of sections.intro.template cannot be used: "
            "Placeholder 'topc' in the template of section 'intro' is not a field of Topic. "
            "Did you mean 'topic'?",
            tail.format(
                quoted="   5 |       text: Review ${topc}.\n     |             " + "^" * 15
            ),
            f"{name}:8:13: error: The text of sections.intro.visibility cannot be used: "
            "Section 'intro' is summarized but has no summary: add summary=.",
            tail.format(quoted="   8 |       text: summary\n     |             ^^^^^^^"),
            f"{name}:13:13: error: The text of tools.search.description cannot be used: "
            "Tool 'search' description must be 1-200 characters after stripping; it has 0.",
            tail.format(quoted='  13 |       text: ""\n     |             ^^'),
        ]
    )
