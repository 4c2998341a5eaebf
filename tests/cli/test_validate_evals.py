"""``wink-decl validate`` finds eval files beside prompt files and checks them with the rest."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

Run = Callable[..., tuple[int, str, str]]

REPO = Path(__file__).resolve().parents[2]
EVAL = """\
prompt: ../prompts/agents/code-review.wink.yaml
models:
  - openai:gpt-4.1-mini
experiments:
  concise: {tag: concise}
cases:
  - id: one
    params: {language: Go, change: x}
"""


@pytest.fixture
def checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The bundled prompts, an ``evals/`` folder beside them, and a pyproject naming the root."""
    shutil.copytree(REPO / "prompts", tmp_path / "prompts")
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "review.wink-eval.yaml").write_text(EVAL)
    (tmp_path / "pyproject.toml").write_text('[tool.wink-decl]\nroot = "prompts"\n')
    monkeypatch.chdir(tmp_path)
    return tmp_path


TAG_WARNING = (
    "evals/review.wink-eval.yaml:5:18: warning: The prompt 'agents/code-review' has no override "
    "file for the tag 'concise' in '{folder}'.\n"
    "  expected: it has no tags\n"
    "   5 |   concise: {{tag: concise}}\n"
    "     |                  ^^^^^^^\n"
    "  hint: write one with 'wink-decl overrides seed prompts/agents/code-review.wink.yaml --tag "
    "concise'\n"
)


def test_a_folder_holds_eval_files_beside_prompt_files(cli: Run, checkout: Path) -> None:
    assert cli("validate", "prompts", "evals") == (
        0,
        "",
        TAG_WARNING.format(folder="overrides")
        + "5 files checked: 5 valid, 0 invalid (0 errors, 1 warning)\n",
    )


def test_a_tag_found_in_the_configured_overrides_folder(cli: Run, checkout: Path) -> None:
    (checkout / "pyproject.toml").write_text(
        '[tool.wink-decl]\nroot = "prompts"\noverrides = "variants"\n'
    )
    tag = checkout / "variants" / "agents" / "code-review" / "concise.wink-override.yaml"
    tag.parent.mkdir(parents=True)
    tag.write_text("sections: {}\n")
    assert cli("validate", "evals") == (0, "", "1 file checked: 1 valid, 0 invalid\n")
    assert cli("validate", "evals", "--overrides", "prompts") == (
        0,
        "",
        TAG_WARNING.format(folder="prompts")
        + "1 file checked: 1 valid, 0 invalid (0 errors, 1 warning)\n",
    )


def test_with_root_the_prompt_root_is_the_one_given(cli: Run, checkout: Path) -> None:
    (checkout / "prompts" / "evals").mkdir()
    (checkout / "prompts" / "evals" / "review.wink-eval.yaml").write_text(
        EVAL.replace("../prompts/agents/code-review.wink.yaml", "agents/code-review")
    )
    status, out, err = cli("validate", "--root", "prompts", "prompts")
    assert (status, out, err.splitlines()[0], err.splitlines()[-1]) == (
        0,
        "",
        "prompts/evals/review.wink-eval.yaml:5:18: warning: The prompt 'agents/code-review' has "
        "no override file for the tag 'concise' in 'overrides'.",
        "5 files checked: 5 valid, 0 invalid (0 errors, 1 warning)",
    )


def test_a_broken_prompt_is_reported_once_for_itself_and_its_eval_file(
    cli: Run, checkout: Path
) -> None:
    prompt = checkout / "prompts" / "agents" / "code-review.wink.yaml"
    prompt.write_text(prompt.read_text().replace("name: Code review", "name: [Code review]"))
    status, out, err = cli("validate", "prompts", "evals", "--format", "json")
    found = [(d["file"], d["line"], d["code"]) for d in json.loads(out)]
    assert (status, err, found) == (
        1,
        "",
        [
            ("evals/review.wink-eval.yaml", 1, "prompt-invalid"),
            ("prompts/agents/code-review.wink.yaml", 5, "type"),
        ],
    )
    assert cli("validate", "prompts", "evals")[2].endswith(
        "5 files checked: 3 valid, 2 invalid (2 errors, 0 warnings)\n"
    )


def test_worker_processes_check_eval_files_too(cli: Run, checkout: Path) -> None:
    for number in range(3):
        shutil.copy(
            checkout / "evals" / "review.wink-eval.yaml",
            checkout / "evals" / f"e{number}.wink-eval.yaml",
        )
    status, _, err = cli("validate", "prompts", "evals", "-j", "2", "--format", "json")
    assert (status, err) == (0, "")
    assert cli("validate", "prompts", "evals", "-j", "2")[2].endswith(
        "8 files checked: 8 valid, 0 invalid (0 errors, 4 warnings)\n"
    )


def test_the_bundled_eval_file_validates_clean(cli: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    assert cli("validate", "evals") == (0, "", "1 file checked: 1 valid, 0 invalid\n")


LOADED = """
import json, sys
from wink_decl.cli import main
status = main(sys.argv[1:])
print(json.dumps({"status": status, "modules": sorted(sys.modules)}))
"""


def loaded(folder: Path, *argv: str) -> tuple[int, list[str]]:
    """The exit status of ``wink-decl ARGV`` in a fresh interpreter, and every module it loaded."""
    completed = subprocess.run(  # our own interpreter, fixed arguments
        [sys.executable, "-c", LOADED, *argv],
        capture_output=True,
        text=True,
        check=True,
        cwd=folder,
        timeout=60,
    )
    found = json.loads(completed.stdout.splitlines()[-1])
    return found["status"], found["modules"]


def test_a_tree_without_eval_files_loads_nothing_of_evals() -> None:
    status, modules = loaded(REPO, "validate", "prompts")
    assert status == 0
    assert [m for m in modules if m.startswith(("wink_decl.evals", "jsonschema"))] == []
    assert "wink_decl.schema.eval_model" not in modules


def test_checking_eval_files_imports_no_provider_sdk_and_no_plugin_code() -> None:
    status, modules = loaded(REPO, "validate", "evals", "prompts")
    assert status == 0
    assert "wink_decl.evals._suite" in modules
    sdks = ("openai", "anthropic", "litellm", "claude_agent_sdk", "wink_decl_files")
    assert [m for m in modules if m.split(".")[0] in sdks] == []
    assert [
        m
        for m in modules
        if m.startswith("wink_decl.adapters.") and m != "wink_decl.adapters.providers"
    ] == []
