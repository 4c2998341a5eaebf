"""``load_suite`` and ``check_suite``: an eval file into a ``Suite``, and where its prompt is."""

from __future__ import annotations

import os
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from plugin_support import MemoryDistribution

from wink_decl.diagnostics import DiagnosticError, render_text
from wink_decl.evals import (
    BASELINE,
    AllOf,
    AnyOf,
    Experiment,
    FieldCheck,
    JsonSchemaCheck,
    JudgeCheck,
    LimitCheck,
    ModelSpec,
    PluginCheck,
    RegexCheck,
    Sample,
    Suite,
    SuiteCase,
    TextCheck,
    ToolCalledCheck,
    ToolCallsCheck,
    ToolsSucceededCheck,
    check_suite,
    load_suite,
)
from wink_decl.plugins import EVALUATORS, HANDLERS, PluginCatalog

REPO = Path(__file__).resolve().parents[2]
PROMPT = """\
key: review
params:
  language: {type: string}
  change: {type: string}
  count: {type: integer, default: 1}
sections:
  - key: task
    title: Task
    template: Review the ${language} change ${change} (${count}).
    tools: [read_file]
tools:
  read_file: {description: Read a file., handler: planning.read_plan}
"""
EVAL = """\
prompt: review.wink.yaml
models:
  - openai:gpt-4.1-mini
  - model: openai:qwen3:8b
    base_url: http://127.0.0.1:11434/v1
    options: {temperature: 0}
experiments:
  concise: {tag: concise}
  bigger: {model: "anthropic:claude-sonnet-4-5"}
defaults:
  params: {language: Python}
  assert:
    - max_turns: 6
cases:
  - id: add-bug
    params: {change: "a - b", count: 2}
    expected: "a + b"
    repeat: 3
    assert:
      - contains: "a + b"
      - icontains: return
        weight: 2
      - regex: 'line \\d+'
      - contains: TODO
        negate: true
      - equals: null
      - starts_with: The
      - tool_called: read_file
      - tool_not_called: write_file
      - tool_calls: {name: read_file, min: 1, max: 3}
      - tools_succeeded: false
      - max_tokens: 4000
      - max_latency_ms: 2.5
      - json_schema: {type: object}
      - field: {path: verdict, equals: reject}
      - field: {path: findings.0.text, contains: "a + b"}
      - judge: {rubric: Names the bug., model: "openai:gpt-4.1", prompt: judge.wink.yaml}
      - plugin: {name: myevals.polite, args: {min: 0.5}}
      - all: [{contains: a}, {any: [{contains: b}]}]
dataset: cases.jsonl
threshold: 0.8
"""
JUDGE = "key: judge\nsections:\n  - {key: task, title: Task, template: Judge.}\n"


def catalog_with_evaluator() -> PluginCatalog:
    """The installed handlers, and one evaluator: ``myevals.polite``."""
    evaluator = MemoryDistribution("myevals", "1.0", {EVALUATORS: {"myevals.polite": "m:f"}})
    return PluginCatalog(entry_points(group=HANDLERS), distributions=[evaluator])


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "review.wink.yaml").write_text(PROMPT)
    (tmp_path / "judge.wink.yaml").write_text(JUDGE)
    (tmp_path / "review.wink-eval.yaml").write_text(EVAL)
    (tmp_path / "cases.jsonl").write_text('{"params": {"change": "x"}}\n')
    # The working folder holds the prompt, without a project: its overrides are inside it.
    tag = tmp_path / "overrides" / tmp_path.name / "review" / "concise.wink-override.yaml"
    tag.parent.mkdir(parents=True, exist_ok=True)
    tag.write_text("sections: {}\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_suite_holds_every_part_of_its_file_defaults_applied(folder: Path) -> None:
    suite = load_suite("review.wink-eval.yaml", catalog=catalog_with_evaluator())
    defaults = (LimitCheck(kind="max_turns", limit=6.0, label="max_turns: 6"),)
    checks = (
        TextCheck(kind="contains", value="a + b", label="contains: a + b"),
        TextCheck(
            kind="icontains", value="return", weight=2.0, label="icontains: return, weight: 2"
        ),
        RegexCheck(pattern="line \\d+", label='regex: "line \\\\d+"'),
        TextCheck(kind="contains", value="TODO", negate=True, label="contains: TODO, negate: true"),
        TextCheck(kind="equals", value=None, label="equals: null"),
        TextCheck(kind="starts_with", value="The", label="starts_with: The"),
        ToolCalledCheck(name="read_file", label="tool_called: read_file"),
        ToolCalledCheck(name="write_file", called=False, label="tool_not_called: write_file"),
        ToolCallsCheck(
            name="read_file", min=1, max=3, label="tool_calls: {name: read_file, min: 1, max: 3}"
        ),
        ToolsSucceededCheck(negate=True, label="tools_succeeded: false"),
        LimitCheck(kind="max_tokens", limit=4000.0, label="max_tokens: 4000"),
        LimitCheck(kind="max_latency_ms", limit=2.5, label="max_latency_ms: 2.5"),
        JsonSchemaCheck(schema={"type": "object"}, label="json_schema: {type: object}"),
        FieldCheck(
            path="verdict",
            op="equals",
            value="reject",
            label="field: {path: verdict, equals: reject}",
        ),
        FieldCheck(
            path="findings.0.text",
            op="contains",
            value="a + b",
            label="field: {path: findings.0.text, contains: a + b}",
        ),
        JudgeCheck(
            rubric="Names the bug.",
            model="openai:gpt-4.1",
            prompt="judge.wink.yaml",
            label="judge: {rubric: Names the bug., model: openai:gpt-4.1, prompt: judge.wink.yaml}",
        ),
        PluginCheck(
            name="myevals.polite",
            args={"min": 0.5},
            label="plugin: {name: myevals.polite, args: {min: 0.5}}",
        ),
        AllOf(
            checks=(
                TextCheck(kind="contains", value="a", label="contains: a"),
                AnyOf(
                    checks=(TextCheck(kind="contains", value="b", label="contains: b"),),
                    label="any: [{contains: b}]",
                ),
            ),
            label="all: [{contains: a}, {any: [{contains: b}]}]",
        ),
    )
    assert suite == Suite(
        path="review.wink-eval.yaml",
        prompt_path="review.wink.yaml",
        root=".",
        overrides=str(folder / "overrides"),
        models=(
            ModelSpec("openai", "gpt-4.1-mini"),
            ModelSpec("openai", "qwen3:8b", "http://127.0.0.1:11434/v1", {"temperature": 0}),
        ),
        experiments=(
            Experiment(BASELINE),
            Experiment("concise", "concise"),
            Experiment("bigger", None, ModelSpec("anthropic", "claude-sonnet-4-5")),
        ),
        cases=(
            SuiteCase(
                Sample("add-bug", {"language": "Python", "change": "a - b", "count": 2}, "a + b"),
                (*defaults, *checks),
                3,
            ),
            SuiteCase(Sample("line-1", {"language": "Python", "change": "x"}), defaults, 1),
        ),
        threshold=0.8,
    )
    assert [model.name for model in suite.models] == ["openai:gpt-4.1-mini", "openai:qwen3:8b"]


def test_load_suite_raises_every_diagnostic_as_the_report(folder: Path) -> None:
    (folder / "review.wink-eval.yaml").write_text(EVAL.replace("openai:gpt-4.1-mini", "opneai:x"))
    with pytest.raises(DiagnosticError) as raised:
        load_suite("review.wink-eval.yaml")
    assert str(raised.value) == (
        "review.wink-eval.yaml:3:5: error: 'opneai' is not a provider wink-decl knows.\n"
        "  expected: PROVIDER:MODEL with PROVIDER one of openai, anthropic, litellm, "
        "claude-agent\n"
        "   3 |   - opneai:x\n"
        "     |     ^^^^^^^^\n"
        "  hint: did you mean 'openai'?\n"
        "review.wink-eval.yaml:38:24: error: No evaluator named 'myevals.polite' is installed.\n"
        "  38 |       - plugin: {name: myevals.polite, args: {min: 0.5}}\n"
        "     |                        ^^^^^^^^^^^^^^\n"
        "  hint: run 'wink-decl plugins' to list what is installed"
    )


def test_warnings_leave_the_suite_and_come_with_it(folder: Path) -> None:
    (folder / "review.wink-eval.yaml").write_text(EVAL.replace("{tag: concise}", "{tag: brief}"))
    checked = check_suite("review.wink-eval.yaml", catalog=catalog_with_evaluator())
    assert checked.ok
    assert checked.suite is not None
    assert [(d.severity, d.code, d.message) for d in checked.diagnostics] == [
        (
            "warning",
            "unknown-tag",
            f"The prompt '{folder.name}/review' has no override file for the tag 'brief' in "
            "'overrides'.",
        )
    ]


def test_the_overrides_folder_given_is_where_tags_are_found(folder: Path) -> None:
    checked = check_suite(
        "review.wink-eval.yaml", overrides="elsewhere", catalog=catalog_with_evaluator()
    )
    assert checked.suite is not None
    assert checked.suite.overrides == "elsewhere"
    assert [d.message for d in checked.diagnostics] == [
        f"The prompt '{folder.name}/review' has no override file for the tag 'concise' in "
        "'elsewhere'."
    ]


SMALL = "prompt: {prompt}\nmodels:\n  - openai:gpt-4.1-mini\ncases:\n  - id: one\n"
TINY = "key: tiny\nsections:\n  - {key: task, title: Task, template: Do it.}\n"


def small_project(tmp_path: Path, prompt: str) -> None:
    (tmp_path / "prompts" / "agents").mkdir(parents=True)
    (tmp_path / "prompts" / "agents" / "tiny.wink.yaml").write_text(TINY)
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "tiny.wink-eval.yaml").write_text(SMALL.format(prompt=prompt))


def test_a_prompt_inside_the_configured_root_compiles_under_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    small_project(tmp_path, "../prompts/agents/tiny.wink.yaml")
    monkeypatch.chdir(tmp_path)
    suite = load_suite("evals/tiny.wink-eval.yaml", configured_root="prompts")
    assert (suite.prompt_path, suite.root) == ("prompts/agents/tiny.wink.yaml", "prompts")
    outside = load_suite("evals/tiny.wink-eval.yaml", configured_root="evals")
    assert (outside.prompt_path, outside.root) == (
        "prompts/agents/tiny.wink.yaml",
        "prompts/agents",
    )


def test_an_address_is_looked_up_under_the_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    small_project(tmp_path, "agents/tiny")
    monkeypatch.chdir(tmp_path)
    for found in (
        load_suite("evals/tiny.wink-eval.yaml", root="prompts"),
        load_suite("evals/tiny.wink-eval.yaml", configured_root="prompts"),
    ):
        assert (found.prompt_path, found.root) == ("prompts/agents/tiny.wink.yaml", "prompts")


def test_an_address_of_a_prompt_with_errors_reports_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    small_project(tmp_path, "agents/tiny")
    (tmp_path / "prompts" / "agents" / "tiny.wink.yaml").write_text(TINY + "tools: {}\nname: 3\n")
    monkeypatch.chdir(tmp_path)
    checked = check_suite("evals/tiny.wink-eval.yaml", root="prompts")
    assert render_text(checked.diagnostics, checked.sources) == (
        "evals/tiny.wink-eval.yaml:1:9: error: The prompt 'agents/tiny' has errors (listed with "
        "it), so the cases cannot be checked against it.\n"
        "   1 | prompt: agents/tiny\n"
        "     |         ^^^^^^^^^^^\n"
        "  hint: fix the prompt's errors first\n"
        "prompts/agents/tiny.wink.yaml:5:7: error: 'name' must be text; found 3\n"
        "   5 | name: 3\n"
        "     |       ^\n"
        '  hint: put it in quotes: "3"'
    )


def test_an_address_under_a_root_without_prompts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    small_project(tmp_path, "agents/tiny")
    monkeypatch.chdir(tmp_path)
    checked = check_suite("evals/tiny.wink-eval.yaml")
    assert [(d.message, d.expected, d.hint) for d in checked.diagnostics] == [
        (
            "No prompt under 'evals' has the address 'agents/tiny'.",
            "no prompt was found under it",
            "pass --root to look elsewhere, or write the prompt file's path relative to this "
            "eval file",
        )
    ]


def test_a_prompt_outside_the_root_given_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    small_project(tmp_path, "../prompts/agents/tiny.wink.yaml")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "evals" / "other").mkdir()
    checked = check_suite("evals/tiny.wink-eval.yaml", root="evals")
    assert [(d.code, d.message) for d in checked.diagnostics] == [
        (
            "outside-root",
            "The prompt file 'prompts/agents/tiny.wink.yaml' lies outside the prompt root "
            "'evals', so it is not read.",
        )
    ]


def test_without_a_root_a_prompt_outside_the_working_folder_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    small_project(tmp_path, "../prompts/agents/tiny.wink.yaml")
    judge = tmp_path / "evals" / "judge.wink.yaml"
    judge.symlink_to(tmp_path / "prompts" / "agents" / "tiny.wink.yaml")
    (tmp_path / "evals" / "tiny.wink-eval.yaml").write_text(
        SMALL.format(prompt="../prompts/agents/tiny.wink.yaml")
        + "    assert:\n      - judge: {rubric: Fine., prompt: judge.wink.yaml}\n"
    )
    monkeypatch.chdir(tmp_path / "evals")
    checked = check_suite("tiny.wink-eval.yaml")
    assert [(d.code, d.message, d.expected) for d in checked.diagnostics] == [
        (
            "outside-root",
            "The prompt file '../prompts/agents/tiny.wink.yaml' lies outside the working "
            "folder, so it is not read.",
            "a prompt file inside the working folder (links included)",
        ),
        (
            "unknown-prompt",
            "The judge's prompt file 'judge.wink.yaml' is not a prompt file in this eval file's "
            "folder.",
            "a path, relative to the eval file and inside its folder, of a file ending in "
            ".wink.yaml, .wink.yml or .wink.toml",
        ),
    ]


@pytest.mark.parametrize("rooted", [False, True], ids=["own-folder", "root"])
def test_an_eval_file_linked_from_outside_is_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rooted: bool
) -> None:
    (tmp_path / "secret.yaml").write_text("token: s3cr3t\n")
    (tmp_path / "checkout").mkdir()
    (tmp_path / "checkout" / "x.wink-eval.yaml").symlink_to(tmp_path / "secret.yaml")
    monkeypatch.chdir(tmp_path / "checkout")
    where = "the prompt root" if rooted else "its folder"
    checked = check_suite("x.wink-eval.yaml", root="." if rooted else None)
    assert (checked.sources, render_text(checked.diagnostics, {})) == (
        {},
        f"x.wink-eval.yaml: error: This eval file is a symbolic link to a file outside {where}, "
        "so it is not read.\n"
        f"  expected: an eval file whose real path lies inside {where}\n"
        "  hint: replace the link with the file itself",
    )


def test_numbers_json_cannot_carry_are_refused_first(tmp_path: Path) -> None:
    path = tmp_path / "x.wink-eval.yaml"
    path.write_text("prompt: x.wink.yaml\nmodels: []\nthreshold: .inf\n")
    checked = check_suite(path)
    assert [(d.code, d.span.line if d.span else 0) for d in checked.diagnostics] == [("number", 3)]


def test_a_file_that_does_not_load_is_reported_as_an_eval_file(tmp_path: Path) -> None:
    path = tmp_path / "x.wink-eval.yaml"
    path.write_text("- prompt: x\n")
    checked = check_suite(path)
    assert [(d.message, d.expected) for d in checked.diagnostics] == [
        (
            "This file holds a list; an eval file must be a mapping of keys such as 'prompt:', "
            "'models:' and 'cases:'.",
            "a mapping of keys such as 'prompt:', 'models:' and 'cases:'",
        )
    ]
    assert checked.sources == {str(path): "- prompt: x\n"}


def test_the_bundled_example_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    suite = load_suite("evals/code-review.wink-eval.yaml", configured_root="prompts")
    assert (suite.prompt_path, suite.root, len(suite.cases), suite.threshold) == (
        "prompts/agents/code-review.wink.yaml",
        "prompts",
        3,
        0.6,
    )
    assert [case.sample.id for case in suite.cases] == ["add-bug", "off-by-one", "strict-errors"]
    assert Path(suite.overrides).is_absolute()


def test_a_dataset_outside_the_eval_folder_or_in_a_missing_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    small_project(tmp_path, "../prompts/agents/tiny.wink.yaml")
    (tmp_path / "cases.jsonl").write_text("{}\n")
    monkeypatch.chdir(tmp_path)
    eval_file = tmp_path / "evals" / "tiny.wink-eval.yaml"
    found: list[tuple[str, str | None]] = []
    for dataset in ("../cases.jsonl", "sub/cases.jsonl"):
        eval_file.write_text(
            SMALL.format(prompt="../prompts/agents/tiny.wink.yaml") + f"dataset: {dataset}\n"
        )
        checked = check_suite("evals/tiny.wink-eval.yaml")
        found.extend((d.message, d.hint) for d in checked.diagnostics)
    assert found == [
        (
            "The dataset 'cases.jsonl' lies outside the eval file's folder, so it is not read.",
            "move the dataset beside the eval file, or into a folder below it",
        ),
        (
            "There is no dataset file 'evals/sub/cases.jsonl' (the path is relative to the eval "
            "file).",
            None,
        ),
    ]


def test_a_file_under_the_root_that_cannot_be_read_claims_no_address(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    small_project(tmp_path, "agents/nothing")
    os.mkfifo(tmp_path / "prompts" / "agents" / "pipe.wink.yaml")
    monkeypatch.chdir(tmp_path)
    checked = check_suite("evals/tiny.wink-eval.yaml", root="prompts")
    assert [(d.code, d.message) for d in checked.diagnostics] == [
        ("unknown-prompt", "No prompt under 'prompts' has the address 'agents/nothing'.")
    ]
