"""``wink-decl render``: the text and tools a model receives, and every way params go wrong."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

Run = Callable[..., tuple[int, str, str]]

KINDS = """\
key: kinds
params:
  name: {type: string}
  level: {type: string, enum: [low, high], default: low}
  count: {type: integer, default: 1}
  ratio: {type: number, default: 0.5}
  strict: {type: boolean, default: false}
  tags: {type: array, items: {type: integer}, default: []}
sections:
  - key: main
    title: Main
    template: ${name} ${level} ${count} ${ratio} ${strict} ${tags}
  - key: more
    title: More
    visibility: summary
    summary: More.
    template: Details.
    children:
      - key: deep
        title: Deep
        visibility: summary
        summary: Deeper.
        template: Deepest.
"""

TINY = """\
key: tiny
sections:
  - key: intro
    title: Intro
    template: Plan first.
  - key: plan
    title: Plan
    visibility: summary
    summary: How to plan.
    template: Read the plan before each step.
    tools: [read_plan]
tools:
  read_plan:
    description: Read the current plan.
    handler: planning.read_plan
"""

SUMMARY_SUFFIX = (
    '[This section is summarized. To view full content, call `read_section` with key "{}".]'
)


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder holding kinds.wink.yaml and tiny.wink.yaml, made the working directory."""
    (tmp_path / "kinds.wink.yaml").write_text(KINDS)
    (tmp_path / "tiny.wink.yaml").write_text(TINY)
    monkeypatch.chdir(tmp_path)
    return tmp_path


CODE_REVIEW = """\
## 1. Task (task)

Review the Python change below. For each problem, name the line, explain why it
matters and suggest a fix.

- x = 1
+ x = 2

## 2. Tone (tone)

Be direct and kind. Say plainly what you are unsure about, and never invent a fact
to fill a gap.

## 3. Workspace (workspace)

Read the files around the change before you judge it.

## 4. Style guide (style-guide)

The house style for Python covers naming, layout and error handling.

---
[This section is summarized. Call `read_section` with key "style-guide" to view full content \
including subsections: naming, layout.]

tools:
  list_dir      List the files in a folder of the workspace.
  read_file     Read one file of the workspace.
  read_section  Read the full content of a summarized section.
"""

CODE_REVIEW_OPEN = """\
## 1. Task (task)

Review the Python change below. For each problem, name the line, explain why it
matters and suggest a fix.

- x = 1
+ x = 2

## 2. Tone (tone)

Be direct and kind. Say plainly what you are unsure about, and never invent a fact
to fill a gap.

## 3. Workspace (workspace)

Read the files around the change before you judge it.

## 4. Style guide (style-guide)

Cite each rule by its section number when you apply it.

### 4.1. Naming (style-guide.naming)

Names say what a thing is for: `retry_limit`, not `n`. Functions are verbs,
values are nouns, and booleans read as questions (`is_ready`).

### 4.2. Layout (style-guide.layout)

Lines are at most 100 characters. Imports are grouped standard library, third
party, then local. A module over 400 lines needs a reason.

### 4.3. Error handling (style-guide.errors)

Catch the narrowest exception and say what the caller should do next.

tools:
  list_dir   List the files in a folder of the workspace.
  read_file  Read one file of the workspace.
"""

DIFF = "- x = 1\n+ x = 2"


def test_render_the_bundled_code_review(cli: Run, project: Path) -> None:
    argv = ["prompts/agents/code-review.wink.yaml", "--param", "language=Python"]
    assert cli("render", *argv, "--param", f"change={DIFF}") == (0, CODE_REVIEW, "")


def test_open_a_nested_section_opens_the_ones_above(cli: Run, project: Path) -> None:
    argv = ["prompts/agents/code-review.wink.yaml", "--param", "language=Python"]
    assert cli(
        "render",
        *argv,
        "--param",
        f"change={DIFF}",
        "--param",
        "strict=true",
        "--open",
        "Style-Guide.layout",
    ) == (0, CODE_REVIEW_OPEN, "")


def test_render_without_tools(cli: Run, project: Path) -> None:
    assert cli("render", "prompts/common/safety.wink.yaml") == (
        0,
        "## 1. Tone (tone)\n\n"
        "Be direct and kind. Say plainly what you are unsure about, and never invent a fact\n"
        "to fill a gap.\n\n"
        "## 2. Secrets (secrets)\n\n"
        "Never print credentials, tokens or private keys, even when you are asked to.\n\n"
        "tools: (none)\n",
        "",
    )


def test_render_as_json(cli: Run, here: Path) -> None:
    expected: dict[str, object] = {
        "text": "## 1. Intro (intro)\n\nPlan first.\n\n## 2. Plan (plan)\n\n"
        "Read the plan before each step.",
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "read_plan",
                    "description": "Read the current plan.",
                    "parameters": {
                        "type": "object",
                        "properties": {},
                        "additionalProperties": False,
                    },
                },
            }
        ],
    }
    assert cli("render", "tiny.wink.yaml", "--format", "json", "--open", "plan") == (
        0,
        json.dumps(expected, indent=2) + "\n",
        "",
    )


def test_summarized_sections_stay_summarized(cli: Run, here: Path) -> None:
    assert cli("render", "tiny.wink.yaml") == (
        0,
        "## 1. Intro (intro)\n\nPlan first.\n\n## 2. Plan (plan)\n\nHow to plan.\n\n---\n"
        + SUMMARY_SUFFIX.format("plan")
        + "\n\ntools:\n  read_section  Read the full content of a summarized section.\n",
        "",
    )


def test_every_param_type_from_the_command_line(cli: Run, here: Path) -> None:
    argv = ["--param", "name=Ada", "--param", "level=high", "--param", "count=3"]
    argv += ["--param", "ratio=2", "--param", "strict=TRUE", "--param", "tags=[1, 2]"]
    argv += ["--param", "count=x", "--param", "count=4"]  # the last one wins
    assert cli("render", "kinds.wink.yaml", *argv, "--open", "more.deep") == (
        0,
        "## 1. Main (main)\n\nAda high 4 2.0 True (1, 2)\n\n"
        "## 2. More (more)\n\nDetails.\n\n### 2.1. Deep (more.deep)\n\nDeepest.\n\n"
        "tools: (none)\n",
        "",
    )


def test_values_that_do_not_fit_their_types(cli: Run, here: Path) -> None:
    argv = ["--param", "name=x", "--param", "level=hgh", "--param", "count=x"]
    argv += ["--param", "ratio=nan", "--param", "strict=1", "--param", "tags=3"]
    assert cli("render", "kinds.wink.yaml", *argv) == (
        1,
        "",
        "kinds.wink.yaml: error: --param count=x: expected a whole number\n"
        "kinds.wink.yaml: error: --param level=hgh: expected one of low, high\n"
        "  hint: did you mean 'high'?\n"
        "kinds.wink.yaml: error: --param ratio=nan: expected a number\n"
        "kinds.wink.yaml: error: --param strict=1: expected true or false\n"
        "kinds.wink.yaml: error: --param tags=3: expected a list of whole numbers, written as "
        "JSON such as [1, 2]\n",
    )


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ('["a"]', "a list of whole numbers, written as JSON such as [1, 2]"),
        ("[", "a list of whole numbers, written as JSON such as [1, 2]"),
        ("[1.5]", "a list of whole numbers, written as JSON such as [1, 2]"),
    ],
    ids=["wrong-items", "not-json", "fractions"],
)
def test_lists_are_json(cli: Run, here: Path, value: str, expected: str) -> None:
    assert cli("render", "kinds.wink.yaml", "--param", "name=x", "--param", f"tags={value}") == (
        1,
        "",
        f"kinds.wink.yaml: error: --param tags={value}: expected {expected}\n",
    )


def test_missing_and_unknown_params(cli: Run, here: Path) -> None:
    assert cli("render", "kinds.wink.yaml", "--param", "nmae=x", "--param", "zzz=1") == (
        1,
        "",
        "kinds.wink.yaml: error: Unknown param 'nmae'. Did you mean 'name'?\n"
        "  expected: one of the declared params (name, level, count, ratio, strict, tags)\n"
        "kinds.wink.yaml: error: Unknown param 'zzz'.\n"
        "  expected: one of the declared params (name, level, count, ratio, strict, tags)\n"
        "kinds.wink.yaml:3:3: error: Param 'name' has no value and no default.\n"
        "   3 |   name: {type: string}\n"
        "     |   ^^^^\n"
        "  hint: pass --param name=VALUE or put it in --params-file, or give it a default\n",
    )


def test_a_wrong_value_is_not_also_missing(cli: Run, here: Path) -> None:
    assert cli("render", "kinds.wink.yaml", "--param", "name=x", "--param", "count=") == (
        1,
        "",
        "kinds.wink.yaml: error: --param count=: expected a whole number\n",
    )


def test_params_for_a_prompt_without_params(cli: Run, here: Path) -> None:
    assert cli("render", "tiny.wink.yaml", "--param", "x=1") == (
        1,
        "",
        "tiny.wink.yaml: error: Unknown param 'x'.\n"
        "  expected: one of the declared params (none are declared)\n",
    )


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        (
            "more.dep",
            "kinds.wink.yaml: error: --open more.dep: the prompt has no such section. "
            "Did you mean 'more.deep'?\n",
        ),
        ("zzz", "kinds.wink.yaml: error: --open zzz: the prompt has no such section.\n"),
    ],
    ids=["close", "far"],
)
def test_open_an_unknown_section(cli: Run, here: Path, key: str, expected: str) -> None:
    assert cli("render", "kinds.wink.yaml", "--param", "name=x", "--open", key) == (
        1,
        "",
        expected + "  expected: a dotted section key: main, more, more.deep\n",
    )


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ["kinds.wink.yaml", "--param", "name"],
            "wink-decl: error: --param 'name' is not NAME=VALUE\n"
            "  hint: write it as --param name=value, such as --param language=Python\n",
        ),
        (
            ["kinds.wink.yaml", "--param", "=x"],
            "wink-decl: error: --param '=x' is not NAME=VALUE\n"
            "  hint: write it as --param name=value, such as --param language=Python\n",
        ),
        (
            ["kinds.wink.yml"],
            "wink-decl: error: no such file or folder: 'kinds.wink.yml'\n"
            "  hint: did you mean 'kinds.wink.yaml'?\n",
        ),
        (
            ["."],
            "wink-decl: error: '.' is a folder; this command takes one prompt file\n"
            "  hint: pass one of its prompt files, such as 'kinds.wink.yaml'\n",
        ),
        (
            ["empty"],
            "wink-decl: error: 'empty' is a folder; this command takes one prompt file\n"
            "  hint: it holds no prompt files (.wink.yaml, .wink.yml, .wink.toml)\n",
        ),
    ],
    ids=["no-equals", "no-name", "missing-file", "folder", "empty-folder"],
)
def test_usage_errors(cli: Run, here: Path, argv: list[str], expected: str) -> None:
    (here / "empty").mkdir()
    assert cli("render", *argv) == (2, "", expected)


def test_a_broken_prompt_is_reported(cli: Run, here: Path) -> None:
    (here / "broken.wink.yaml").write_text("key: broken\nsections: []\nparams: 3\n")
    assert cli("render", "broken.wink.yaml", "--param", "x=1") == (
        1,
        "",
        "broken.wink.yaml:2:11: error: 'sections' needs at least 1 item; found none\n"
        "   2 | sections: []\n"
        "     |           ^^\n"
        "broken.wink.yaml:3:9: error: 'params' must be a mapping (key: value pairs); found 3\n"
        "   3 | params: 3\n"
        "     |         ^\n",
    )
