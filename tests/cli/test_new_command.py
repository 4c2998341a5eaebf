"""``wink-decl new``: the starter files (golden), that they compile alike, names, overwriting.

``WINK_UPDATE_GOLDEN=1`` rewrites ``tests/cli/golden/new.wink.yaml`` and ``new.wink.toml``.
"""

from __future__ import annotations

import argparse
import io
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from golden import updating_golden

from wink_decl.cli._command import Console
from wink_decl.cli._new import COMMAND, schema_ref_for, suggest_key
from wink_decl.compiler import compile_file, make_params
from wink_decl.diagnostics import render_text

GOLDEN = Path(__file__).resolve().parent / "golden"
FORMATS = ["yaml", "toml"]
RENDERED = """\
## 1. Task (task)

Answer the question about tea. Keep a friendly tone, and say so when you are
not sure.

## 2. Background (background)

Background notes on tea, to read when the question needs them.

---
[This section is summarized. Call `read_section` with key "background" to view full content \
including subsections: sources.]

## 3. Planning (planning)

For a question with several parts, set up a plan with setup_plan first, and read it
with read_plan before you answer."""


def run(*argv: str) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="wink-decl new")
    COMMAND.configure(parser)
    out, err = io.StringIO(), io.StringIO()
    status = COMMAND.run(parser.parse_args(list(argv)), Console(out=out, err=err))
    return status, out.getvalue(), err.getvalue()


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``<tmp>`` with ``schema/wink-decl.schema.json`` and ``prompts/``, the working folder."""
    (tmp_path / "schema").mkdir()
    (tmp_path / "schema" / "wink-decl.schema.json").write_text("{}\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def artifact_of(path: Path) -> dict[str, Any]:
    result = compile_file(path)
    assert render_text(result.diagnostics, result.sources) == ""
    assert result.prompt is not None
    artifact = dict(result.prompt.artifact)
    del artifact["source"], artifact["content_hash"]
    return artifact


@pytest.mark.parametrize("file_format", FORMATS)
def test_new_writes_the_golden_starter(workspace: Path, file_format: str) -> None:
    status, out, err = run("my-prompt", "--format", file_format, "--output", "prompts")
    written = workspace / "prompts" / f"my-prompt.wink.{file_format}"
    assert (status, err) == (0, "")
    shown = f"prompts/my-prompt.wink.{file_format}"
    assert out == (
        f"Created {shown}\nNext: edit it, then check it with: wink-decl validate {shown}\n"
    )
    golden = GOLDEN / f"new.wink.{file_format}"
    if updating_golden():
        golden.write_text(written.read_text())
    assert written.read_text() == golden.read_text()
    assert sorted(p.name for p in written.parent.iterdir()) == [written.name]  # no temp files


@pytest.mark.parametrize("file_format", FORMATS)
def test_the_starter_compiles_cleanly_and_renders(workspace: Path, file_format: str) -> None:
    run("my-prompt", "--format", file_format)
    result = compile_file(f"my-prompt.wink.{file_format}")
    assert render_text(result.diagnostics, result.sources) == ""
    assert result.prompt is not None
    assert result.prompt.template.key == "my-prompt"
    rendered = result.prompt.template.render(*make_params(result.prompt, {"topic": "tea"}))
    assert rendered.text == RENDERED
    assert rendered.tool_names == ("setup_plan", "read_plan", "read_section")


def test_yaml_and_toml_starters_compile_to_the_same_artifact(workspace: Path) -> None:
    run("my-prompt", "--format", "yaml")
    run("my-prompt", "--format", "toml")
    assert artifact_of(workspace / "my-prompt.wink.yaml") == artifact_of(
        workspace / "my-prompt.wink.toml"
    )


@pytest.mark.parametrize(
    ("file_format", "marker"), [("yaml", "# policies:"), ("toml", "# [[policies]]")]
)
def test_the_commented_out_policy_compiles_once_uncommented(
    workspace: Path, file_format: str, marker: str
) -> None:
    run("my-prompt", "--format", file_format)
    path = workspace / f"my-prompt.wink.{file_format}"
    lines = path.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(marker))
    path.write_text("\n".join([*lines[:start], *(line[2:] for line in lines[start:])]) + "\n")
    policies = artifact_of(path)["policies"]
    assert policies == {
        "prompt": ["sequential_dependency"],
        "tools": {"read_plan": ["sequential_dependency"], "setup_plan": ["sequential_dependency"]},
    }


def test_the_name_is_the_key_and_gives_the_display_name(workspace: Path) -> None:
    assert run("release_notes-2") == (
        0,
        "Created release_notes-2.wink.yaml\n"
        "Next: edit it, then check it with: wink-decl validate release_notes-2.wink.yaml\n",
        "",
    )
    text = (workspace / "release_notes-2.wink.yaml").read_text()
    assert text.splitlines()[:2] == [
        "# yaml-language-server: $schema=schema/wink-decl.schema.json",
        "# Release notes 2: a starter prompt made by `wink-decl new`. The comment above each "
        "part says what",
    ]
    assert "\nkey: release_notes-2\n" in text
    assert "\nname: Release notes 2\n" in text


# --- the schema line -------------------------------------------------------------------------


def test_schema_ref_is_relative_to_the_nearest_schema_folder(workspace: Path) -> None:
    deep = workspace / "prompts" / "agents"
    deep.mkdir(parents=True)
    assert schema_ref_for(deep) == "../../schema/wink-decl.schema.json"
    assert schema_ref_for(workspace) == "schema/wink-decl.schema.json"


def test_a_schema_file_written_into_a_folder_is_found_first(workspace: Path) -> None:
    (workspace / "prompts").mkdir()
    (workspace / "prompts" / "wink-decl.schema.json").write_text("{}\n")
    assert schema_ref_for(workspace / "prompts" / "new-folder") == "../wink-decl.schema.json"


def test_the_search_stops_at_the_root_of_the_checkout(tmp_path: Path) -> None:
    (tmp_path / "schema").mkdir()
    (tmp_path / "schema" / "wink-decl.schema.json").write_text("{}\n")
    checkout = tmp_path / "checkout"
    (checkout / ".git").mkdir(parents=True)
    assert schema_ref_for(checkout / "prompts") is None
    assert schema_ref_for(tmp_path / "elsewhere") == "../schema/wink-decl.schema.json"


def test_the_search_is_bounded_in_depth(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "wink-decl.schema.json").write_text("{}\n")
    monkeypatch.setattr("wink_decl.cli._new._MOST_LEVELS", 2)
    assert schema_ref_for(tmp_path / "one") == "../wink-decl.schema.json"
    assert schema_ref_for(tmp_path / "one" / "two") is None


def test_without_a_schema_copy_one_is_written_beside_the_prompt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".git").mkdir()  # the search ends here, whatever the folders above hold
    monkeypatch.chdir(tmp_path)
    assert run("tea", "--output", "prompts") == (
        0,
        "Created prompts/wink-decl.schema.json (the schema the first line points at)\n"
        "Created prompts/tea.wink.yaml\n"
        "Next: edit it, then check it with: wink-decl validate prompts/tea.wink.yaml\n",
        "",
    )
    packaged = resources.files("wink_decl.schema").joinpath("wink-decl.schema.json")
    assert (tmp_path / "prompts" / "wink-decl.schema.json").read_bytes() == (packaged.read_bytes())
    first = (tmp_path / "prompts" / "tea.wink.yaml").read_text().splitlines()[0]
    assert first == "# yaml-language-server: $schema=wink-decl.schema.json"
    # The next prompt in that folder finds the copy and leaves it as it is.
    assert run("coffee", "--output", "prompts", "--format", "toml")[1] == (
        "Created prompts/coffee.wink.toml\n"
        "Next: edit it, then check it with: wink-decl validate prompts/coffee.wink.toml\n"
    )
    first = (tmp_path / "prompts" / "coffee.wink.toml").read_text().splitlines()[0]
    assert first == "#:schema wink-decl.schema.json"


def test_a_schema_file_made_meanwhile_is_used_not_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)

    def nothing_found(folder: Path) -> None:
        del folder  # as if the search ran before the other writer made the file

    monkeypatch.setattr("wink_decl.cli._new.schema_ref_for", nothing_found)
    (tmp_path / "wink-decl.schema.json").write_text("{}\n")  # another writer's, made meanwhile
    assert run("tea") == (
        0,
        "Created tea.wink.yaml\nNext: edit it, then check it with: wink-decl validate "
        "tea.wink.yaml\n",
        "",
    )
    assert (tmp_path / "wink-decl.schema.json").read_text() == "{}\n"


def test_a_schema_copy_that_cannot_be_written_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)

    def refuse(path: Path, data: bytes, *, mode: int) -> bool:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("wink_decl.cli._new.write_once", refuse)
    assert run("tea") == (
        1,
        "",
        "wink-decl.schema.json: error: This file cannot be written: permission denied.\n"
        "  hint: check that you may write to the folder, and that it is a folder\n",
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == [".git"]


def test_schema_option_overrides_the_search(workspace: Path) -> None:
    run("my-prompt", "--format", "toml", "--schema", "https://example.org/s.json")
    first = (workspace / "my-prompt.wink.toml").read_text().splitlines()[0]
    assert first == "#:schema https://example.org/s.json"


# --- names -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "hint"),
    [
        ("My Prompt", "Did you mean 'my-prompt'? Run: wink-decl new my-prompt"),
        ("review.wink.yaml", "Did you mean 'review'? Run: wink-decl new review"),
        ("_draft_", "Did you mean 'draft'? Run: wink-decl new draft"),
        ("!!!", "For example: wink-decl new code-review"),
    ],
    ids=["spaces", "file-name", "dashes", "nothing-usable"],
)
def test_a_bad_name_is_a_usage_error_with_a_suggestion(
    workspace: Path, name: str, hint: str
) -> None:
    assert run(name) == (
        2,
        "",
        f"wink-decl new: error: '{name}' is not a valid prompt name: use 1-64 lowercase "
        "letters, digits, '_' or '-', starting with a letter or digit.\n"
        f"  hint: {hint}\n",
    )
    assert sorted(p.name for p in workspace.iterdir()) == ["schema"]


def test_a_suggestion_is_cut_to_the_longest_key() -> None:
    assert suggest_key("A" * 70) == "a" * 64
    assert suggest_key(("a" * 63) + " b") == "a" * 63


# --- files -------------------------------------------------------------------------------


def test_an_existing_file_is_left_alone(workspace: Path) -> None:
    (workspace / "my-prompt.wink.yaml").write_text("mine\n")
    assert run("my-prompt") == (
        1,
        "",
        "my-prompt.wink.yaml: error: This file already exists; it was left unchanged.\n"
        "  hint: pass --force to overwrite it, or choose another name\n",
    )
    assert (workspace / "my-prompt.wink.yaml").read_text() == "mine\n"


def test_force_overwrites(workspace: Path) -> None:
    (workspace / "my-prompt.wink.yaml").write_text("mine\n")
    assert run("my-prompt", "--force")[0] == 0
    assert (workspace / "my-prompt.wink.yaml").read_text().startswith("# yaml-language-server")


def test_an_output_that_is_a_file_is_a_usage_error(workspace: Path) -> None:
    (workspace / "notes.txt").write_text("x\n")
    assert run("my-prompt", "--output", "notes.txt") == (
        2,
        "",
        "wink-decl new: error: --output 'notes.txt' is a file, not a folder.\n",
    )


def test_a_file_that_cannot_be_written_is_reported(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(path: Path, text: str, *, make_folder: bool) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("wink_decl.cli._new.write_atomically", refuse)
    assert run("my-prompt") == (
        1,
        "",
        "my-prompt.wink.yaml: error: This file cannot be written: permission denied.\n"
        "  hint: check that you may write to the folder, and that it is a folder\n",
    )


def test_the_command_describes_itself() -> None:
    assert COMMAND.name == "new"
    assert COMMAND.examples[0] == "wink-decl new code-review"
