"""``wink-decl tools``, ``compile`` and ``schema``: JSON for providers, artifacts, the schema."""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from pathlib import Path

import pytest
from compiler_support import make_catalog

from wink_decl.compiler import artifact_json, bind_plugins, compile_file
from wink_decl.compiler import compile as compile_module

Run = Callable[..., tuple[int, str, str]]

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

EMPTY: dict[str, object] = {"type": "object", "properties": {}, "additionalProperties": False}
READ_SECTION: dict[str, object] = {
    "type": "object",
    "properties": {
        "section_key": {
            "type": "string",
            "description": "Key of the section to read, as shown in its summary. Nested "
            "sections use dot notation (e.g. 'context.examples').",
        }
    },
    "required": ["section_key"],
    "additionalProperties": False,
}
READ_SECTION_DESCRIPTION = "Read the full content of a summarized section."


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "tiny.wink.yaml").write_text(TINY)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def as_json(value: object) -> str:
    return json.dumps(value, indent=2) + "\n"


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        ([], {"read_section": READ_SECTION}),
        (["--format", "json-schema", "--open", "plan"], {"read_plan": EMPTY}),
        (
            ["--format", "openai"],
            [
                {
                    "type": "function",
                    "function": {
                        "name": "read_section",
                        "description": READ_SECTION_DESCRIPTION,
                        "parameters": READ_SECTION,
                    },
                }
            ],
        ),
        (
            ["--format", "anthropic", "--open", "plan"],
            [
                {
                    "name": "read_plan",
                    "description": "Read the current plan.",
                    "input_schema": EMPTY,
                }
            ],
        ),
    ],
    ids=["default", "opened", "openai", "anthropic"],
)
def test_tools(cli: Run, here: Path, argv: list[str], expected: object) -> None:
    assert cli("tools", "tiny.wink.yaml", *argv) == (0, as_json(expected), "")


def test_tools_with_wrong_params(cli: Run, here: Path) -> None:
    assert cli("tools", "tiny.wink.yaml", "--param", "x=1") == (
        1,
        "",
        "tiny.wink.yaml: error: Unknown param 'x'.\n"
        "  expected: one of the declared params (none are declared)\n",
    )


def test_compile_prints_the_artifact(cli: Run, project: Path) -> None:
    path = "prompts/release/pipeline.wink.toml"
    result = compile_file(path, root="prompts", display_path=path)
    assert result.prompt is not None
    assert bind_plugins(result.prompt) == []  # as compile does: its tools' types are known
    assert cli("compile", path) == (0, artifact_json(result.prompt.artifact), "")


def test_compile_writes_the_artifact(cli: Run, project: Path) -> None:
    path = "prompts/agents/code-review.wink.yaml"
    expected = cli("compile", path)[1]
    assert cli("compile", path, "--output", "review.json") == (0, "", "")
    assert (project / "review.json").read_text() == expected
    assert sorted(p.name for p in project.iterdir()) == ["prompts", "pyproject.toml", "review.json"]


def test_compile_reports_errors(cli: Run, here: Path) -> None:
    (here / "broken.wink.yaml").write_text("key: broken\nsections: []\n")
    assert cli("compile", "broken.wink.yaml") == (
        1,
        "",
        "broken.wink.yaml:2:11: error: 'sections' needs at least 1 item; found none\n"
        "   2 | sections: []\n"
        "     |           ^^\n",
    )


def test_compile_checks_handlers(cli: Run, here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compile_module, "default_catalog", make_catalog)
    (here / "gone.wink.yaml").write_text(
        "key: gone\n"
        "sections:\n"
        "  - {key: main, title: Main, template: Look it up., tools: [lookup]}\n"
        "tools:\n"
        "  lookup:\n"
        "    description: Look up a rule.\n"
        "    handler: test.unimportable\n"
        "    params:\n"
        "      rule_id: {type: string}\n"
    )
    assert cli("compile", "gone.wink.yaml") == (
        1,
        "",
        "gone.wink.yaml:7:14: error: Tool 'lookup' cannot use handler 'test.unimportable': "
        "Could not import handler 'test.unimportable' (test-plugins 1.0, value "
        "'no_such_module_for_tests:handler'): ModuleNotFoundError: No module named "
        "'no_such_module_for_tests'\n"
        "   7 |     handler: test.unimportable\n"
        "     |              ^^^^^^^^^^^^^^^^^\n"
        "  hint: check that the plugin's version matches this prompt, or name another entry "
        "point\n",
    )


SCHEMA = resources.files("wink_decl.schema").joinpath("wink-decl.schema.json").read_text()


def test_schema_prints_the_packaged_file(cli: Run) -> None:
    assert cli("schema") == (0, SCHEMA, "")


def test_schema_output(cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "old.json").write_text("{}")
    assert cli("schema", "--output", "old.json") == (0, "", "")
    assert cli("schema", "--output", "new.json") == (0, "", "")
    assert (tmp_path / "old.json").read_text() == SCHEMA
    assert (tmp_path / "new.json").read_text() == SCHEMA
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.json", "old.json"]


@pytest.mark.parametrize(
    ("command", "argv", "expected"),
    [
        (
            "schema",
            ["--output", "nowhere/schema.json"],
            "wink-decl: error: cannot write 'nowhere/schema.json': the folder 'nowhere' does "
            "not exist\n"
            "  hint: create the folder first, or choose another --output\n",
        ),
        (
            "schema",
            ["--output", "."],
            "wink-decl: error: cannot write '.': it is a folder\n",
        ),
        (
            "compile",
            ["tiny.wink.yaml", "--output", "out/x.json"],
            "wink-decl: error: cannot write 'out/x.json': the folder 'out' does not exist\n"
            "  hint: create the folder first, or choose another --output\n",
        ),
    ],
    ids=["schema-no-folder", "schema-folder", "compile-no-folder"],
)
def test_output_errors(cli: Run, here: Path, command: str, argv: list[str], expected: str) -> None:
    assert cli(command, *argv) == (2, "", expected)
    assert sorted(p.name for p in here.iterdir()) == ["tiny.wink.yaml"]
