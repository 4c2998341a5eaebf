"""``wink_decl.load(..., tag=)``: a prompt file with a tag's overrides, its plugin tools too."""

from __future__ import annotations

from pathlib import Path

import pytest

import wink_decl
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
    assert wink_decl.load("prompts/review.wink.yaml", tag="none", overrides=store) is not None
