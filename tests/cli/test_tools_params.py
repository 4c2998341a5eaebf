"""``wink-decl tools`` asks only for the params that decide which tools are offered."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from compiler_support import make_catalog

from wink_decl.compiler import compile_file
from wink_decl.inputs._tool_params import deciding_params, stand_in
from wink_decl.schema import ParamSpec

Run = Callable[..., tuple[int, str, str]]

GATED = """\
key: gated
params:
  topic: {type: string}
  depth: {type: integer}
  ratio: {type: number}
  tags: {type: array, items: {type: string}}
  tone: {type: string, enum: [calm, brisk]}
  planning: {type: boolean}
  brief: {type: boolean}
  quiet: {type: boolean, default: false}
sections:
  - key: task
    title: Task
    template: "Write about ${topic} at depth ${depth}, ${ratio}, ${tags}, ${tone}."
  - key: plan
    title: Plan
    enabled: {all: [{param: planning}, {not: {equals: {param: quiet, value: true}}}]}
    template: Plan first.
    children:
      - key: steps
        title: Steps
        template: Read the plan.
        tools: [read_plan]
  - key: notes
    title: Notes
    enabled: {any: [true, false]}
    visibility: {summary_when: {param: brief}}
    summary: Notes.
    template: Notes in full.
tools:
  read_plan:
    description: Read the current plan.
    handler: planning.read_plan
"""

READ_PLAN: dict[str, object] = {"type": "object", "properties": {}, "additionalProperties": False}


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "gated.wink.yaml").write_text(GATED)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_only_the_params_that_decide_the_tools_are_asked_for(cli: Run, here: Path) -> None:
    hint = (
        "  hint: it decides which tools are offered (a section with tools is shown or "
        "summarized by it): pass --param {name}=VALUE or put it in --params-file, or give it "
        "a default\n"
    )
    assert cli("tools", "gated.wink.yaml") == (
        1,
        "",
        "gated.wink.yaml:8:3: error: Param 'planning' has no value and no default.\n"
        "   8 |   planning: {type: boolean}\n"
        "     |   ^^^^^^^^\n"
        + hint.format(name="planning")
        + "gated.wink.yaml:9:3: error: Param 'brief' has no value and no default.\n"
        "   9 |   brief: {type: boolean}\n"
        "     |   ^^^^^\n" + hint.format(name="brief"),
    )


def test_the_other_params_stand_in_with_a_value_of_their_type(cli: Run, here: Path) -> None:
    shown = cli("tools", "gated.wink.yaml", "--param", "planning=true", "--param", "brief=false")
    assert shown == (0, json.dumps({"read_plan": READ_PLAN}, indent=2) + "\n", "")


def test_render_still_needs_every_param(cli: Run, here: Path) -> None:
    status, out, err = cli("render", "gated.wink.yaml", "--param", "planning=true")
    assert (status, out) == (1, "")
    assert err.count("has no value and no default.") == 6  # all but planning


OTHER = """\
key: other
sections:
  - key: plain
    title: Plain
    template: Only text.
    children: [{key: below, title: Below, template: Text below.}]
  - key: summed
    title: Summed
    template: Long text.
    summary: Short.
  - key: deep
    title: Deep
    template: Text.
    children: [{key: tooled, title: Tooled, template: Read it., tools: [read_plan]}]
tools:
  read_plan:
    description: Read the current plan.
    handler: test.lookup
"""


@pytest.mark.parametrize(
    ("sections", "expected"),
    [
        ("[{key: a, title: A, enabled: {param: x}, template: t}]", frozenset[str]()),
        (
            "[{key: a, title: A, enabled: {param: x}, template: t, tools: [read_plan]}]",
            frozenset({"x"}),
        ),
        (
            "[{key: a, title: A, enabled: {predicate: test.always}, template: t,"
            " tools: [read_plan]}]",
            None,
        ),
        (
            '[{key: a, title: A, template: t, children: [{include: "other.wink.yaml#plain"}]}]',
            frozenset[str](),
        ),
        (
            '[{key: a, title: A, template: t, children: [{include: "other.wink.yaml#summed"}]}]',
            None,
        ),
        ('[{key: a, title: A, template: t, children: [{include: "other.wink.yaml#deep"}]}]', None),
        (
            "[{key: a, title: A, enabled: false, visibility: summary, summary: s, template: t}]",
            frozenset[str](),
        ),
    ],
    ids=[
        "no-tools",
        "tools",
        "predicate",
        "plain-include",
        "summary-include",
        "tool-include",
        "constant",
    ],
)
def test_deciding_params(tmp_path: Path, sections: str, expected: frozenset[str] | None) -> None:
    (tmp_path / "other.wink.yaml").write_text(OTHER)
    prompt = tmp_path / "gated.wink.yaml"
    prompt.write_text(
        f"key: gated\nparams: {{x: {{type: boolean}}}}\nsections: {sections}\n"
        + "tools: {read_plan: {description: Read the plan., handler: test.lookup}}\n"
        * ("read_plan" in sections)
    )
    compiled = compile_file(prompt, root=tmp_path, catalog=make_catalog()).prompt
    assert compiled is not None
    found = deciding_params(compiled.model, compiled.template.sections)
    assert found == expected


def test_the_bundled_review_prompt_needs_no_param_for_its_tools(cli: Run) -> None:
    status, out, err = cli("tools", "prompts/agents/code-review.wink.yaml", "--root", "prompts")
    assert (status, sorted(json.loads(out)), err) == (
        0,
        ["list_dir", "read_file", "read_section"],
        "",
    )


@pytest.mark.parametrize(
    ("spec", "value"),
    [
        ({"type": "string"}, ""),
        ({"type": "integer"}, 0),
        ({"type": "number"}, 0.0),
        ({"type": "boolean"}, False),
        ({"type": "array", "items": {"type": "string"}}, []),
        ({"type": "string", "enum": ["calm", "brisk"]}, "calm"),
    ],
)
def test_stand_in(spec: dict[str, object], value: object) -> None:
    assert stand_in(ParamSpec.model_validate(spec)) == value
