"""``wink_decl.load(..., tag=)``: a prompt file with a tag's overrides, its plugin tools too."""

from __future__ import annotations

from pathlib import Path

import pytest

import wink_decl
from wink_decl import DiagnosticError
from wink_decl.overrides import LocalOverrideStore, text_hash
from wink_decl.runtime.planning.plan_model import ReadPlan

PROMPT = """key: review
sections:
  - key: intro
    title: Intro
    template: Plan the work.
    tools: [read_plan]
tools:
  read_plan: {description: Read the plan., handler: planning.read_plan}
"""


def overrides(folder: Path, text: str) -> None:
    path = folder / "prompts" / "review" / "exp.wink-override.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(text)


def test_a_tag_overrides_a_tool_whose_types_its_handler_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("prompts").mkdir()
    Path("prompts/review.wink.yaml").write_text(PROMPT)
    overrides(
        Path("overrides"),
        "tools:\n  read_plan:\n    description:\n"
        f"      hash: {text_hash('Read the plan.')}\n      text: Read the whole plan.\n",
    )
    tagged = wink_decl.load("prompts/review.wink.yaml", tag="exp")
    (tool,) = tagged.render().tools
    assert (tool.name, tool.description, tool.params_type) == (
        "read_plan",
        "Read the whole plan.",
        ReadPlan,
    )
    base = wink_decl.load("prompts/review.wink.yaml", root="prompts")
    assert base.render().tools[0].description == "Read the plan."
    store = LocalOverrideStore("overrides")
    with pytest.warns(UserWarning, match="has no override file for tag") as caught:
        untagged = wink_decl.load("prompts/review.wink.yaml", tag="none", overrides=store)
    assert untagged.render().tools[0].description == "Read the plan."
    assert [str(warning.message) for warning in caught] == [
        "prompts/review.wink.yaml: warning: Prompt 'prompts/review' has no override file for "
        "tag 'none', so it is used as written.\n"
        "  expected: one of its tags: exp\n"
        "  hint: check the tag, or write its file: wink-decl overrides seed "
        "prompts/review.wink.yaml --tag none"
    ]


MISSPELT = (
    "prompts/review.wink.yaml: {severity}: Prompt 'prompts/review' has no override file for tag "
    "'exq', so it is used as written.\n"
    "  expected: one of its tags: exp\n"
    "  hint: did you mean 'exp'?"
)


def test_a_misspelt_tag_warns_with_the_nearest_and_is_an_error_when_strict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("prompts").mkdir()
    Path("prompts/review.wink.yaml").write_text(PROMPT)
    overrides(Path("overrides"), "sections: {}\n")
    with pytest.warns(UserWarning, match="has no override file for tag") as caught:
        untagged = wink_decl.load("prompts/review.wink.yaml", tag="exq")
    assert [str(warning.message) for warning in caught] == [MISSPELT.format(severity="warning")]
    assert untagged.render().text == "## 1. Intro (intro)\n\nPlan the work."
    with pytest.raises(DiagnosticError) as raised:
        wink_decl.load("prompts/review.wink.yaml", tag="exq", strict=True)
    assert str(raised.value) == MISSPELT.format(severity="error")
    assert [d.code for d in raised.value.diagnostics] == ["unknown-tag"]
