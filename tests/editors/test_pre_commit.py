"""The hook in .pre-commit-hooks.yaml, installed and run by pre-commit itself, offline."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest
from editor_support import REPO, TIMEOUT, tool

WHEELHOUSE = os.environ.get("WINK_WHEELHOUSE", "")
pytestmark = pytest.mark.skipif(
    not WHEELHOUSE,
    reason="WINK_WHEELHOUSE is unset: pre-commit installs the hook offline from a wheelhouse; "
    "make one with: python3 -m pip wheel -w DIR . setuptools wheel && export WINK_WHEELHOUSE=DIR "
    "(.ci/run does this)",
)

HOOK_REPO_FILES = ("wink_decl", "pyproject.toml", "README.md", ".pre-commit-hooks.yaml")
"""What `pip install .` of the hook repo needs: the working tree, uncommitted changes and all."""

INSTALL_TIMEOUT = 180.0
"""The first run builds the hook's virtualenv and installs wink-decl into it (~20 s here)."""

VALID_YAML = """\
key: review
sections:
  - key: task
    title: Task
    template: Review the change.
"""
VALID_TOML = """\
key = "release"

[[sections]]
key = "goal"
title = "Goal"
visibility = "summary"
summary = "Ship it."
"""


def git_env(home: Path) -> dict[str, str]:
    """No user or system git config (signing, hooks, templates), and an identity to commit."""
    return {
        **os.environ,
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "wink-decl tests",
        "GIT_AUTHOR_EMAIL": "tests@example.invalid",
        "GIT_COMMITTER_NAME": "wink-decl tests",
        "GIT_COMMITTER_EMAIL": "tests@example.invalid",
        "HOME": str(home),
    }


def git(folder: Path, env: Mapping[str, str], *args: str) -> str:
    result = subprocess.run(
        ["git", *args],
        cwd=folder,
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=True,
    )
    return result.stdout.strip()


@dataclass(frozen=True)
class HookSetup:
    """A committed copy of this repository and the environment pre-commit runs in."""

    repo: Path
    rev: str
    env: dict[str, str]


@pytest.fixture(scope="module")
def hook(tmp_path_factory: pytest.TempPathFactory) -> HookSetup:
    base = tmp_path_factory.mktemp("pre-commit")
    env = {
        **git_env(base),
        # One PRE_COMMIT_HOME for the module, so the hook env is built once.
        "PRE_COMMIT_HOME": str(base / "cache"),
        "PIP_NO_INDEX": "1",
        "PIP_FIND_LINKS": WHEELHOUSE,
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        # virtualenv would otherwise start a background download of newer seed wheels.
        "VIRTUALENV_NO_PERIODIC_UPDATE": "1",
        "VIRTUALENV_OVERRIDE_APP_DATA": str(base / "virtualenv"),
        "NO_COLOR": "1",
    }
    repo = base / "wink-decl"
    repo.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for name in HOOK_REPO_FILES:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, repo / name, ignore=ignore)
        else:
            shutil.copy2(source, repo / name)
    git(repo, env, "init", "--quiet")
    git(repo, env, "add", "--all")
    git(repo, env, "commit", "--quiet", "--no-verify", "-m", "the working tree under test")
    setup = HookSetup(repo, git(repo, env, "rev-parse", "HEAD"), env)
    # Build the hook's environment up front, so the tests' output has no "[INFO] Installing".
    warm_up = project(base / "warm-up", setup, {})
    installed = pre_commit(warm_up, setup, "install-hooks")
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return setup


def project(folder: Path, hook: HookSetup, files: Mapping[str, str]) -> Path:
    """A git repo using the hook, with ``files`` staged (pre-commit reads what git tracks)."""
    folder.mkdir()
    (folder / ".pre-commit-config.yaml").write_text(
        f"repos:\n"
        f"  - repo: {hook.repo}\n"
        f"    rev: {hook.rev}\n"
        f"    hooks:\n"
        f"      - id: wink-decl-validate\n",
        encoding="utf-8",
    )
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    git(folder, hook.env, "init", "--quiet")
    git(folder, hook.env, "add", "--all")
    return folder


def pre_commit(folder: Path, hook: HookSetup, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [tool("pre-commit"), *args],
        cwd=folder,
        env=hook.env,
        capture_output=True,
        text=True,
        timeout=INSTALL_TIMEOUT,
        check=False,
    )


def run_hooks(folder: Path, hook: HookSetup) -> subprocess.CompletedProcess[str]:
    return pre_commit(folder, hook, "run", "--all-files", "--color", "never")


def header(status: str) -> str:
    return f"wink-decl validate{'.' * (79 - len('wink-decl validate') - len(status))}{status}\n"


def test_valid_prompts_pass(tmp_path: Path, hook: HookSetup) -> None:
    files = {
        "prompts/review.wink.yaml": VALID_YAML,
        "prompts/release.wink.toml": VALID_TOML,
        "notes.yaml": "not: [a prompt\n",  # broken, but not a prompt: `files` keeps it out
    }
    result = run_hooks(project(tmp_path / "ok", hook, files), hook)
    assert (result.returncode, result.stdout) == (0, header("Passed")), result.stderr


def test_a_broken_prompt_fails_with_the_diagnostics(tmp_path: Path, hook: HookSetup) -> None:
    files = {
        "prompts/review.wink.yaml": VALID_YAML.replace("template:", "tempalte:"),
        "prompts/release.wink.toml": VALID_TOML.replace('"summary"', '"ful"'),
        "prompts/extra.wink.yml": VALID_YAML,
    }
    result = run_hooks(project(tmp_path / "broken", hook, files), hook)
    assert result.returncode == 1, result.stderr
    assert result.stdout == (
        header("Failed") + "- hook id: wink-decl-validate\n"
        "- exit code: 1\n"
        "\n"
        "prompts/release.wink.toml:6:14: error: 'visibility' must be one of full, summary, "
        "or {summary_when: ...}; found 'ful'\n"
        '   6 | visibility = "ful"\n'
        "     |              ^^^^^\n"
        "  hint: did you mean 'full'?\n"
        "prompts/review.wink.yaml:5:5: error: Unknown key 'tempalte' in section.\n"
        "  expected: one of key, title, template, summary, summary_suffix, visibility, enabled, "
        "tools, policies, accepts_overrides, children\n"
        "   5 |     tempalte: Review the change.\n"
        "     |     ^^^^^^^^\n"
        "  hint: did you mean 'template'?\n"
        "3 files checked: 1 valid, 2 invalid (2 errors, 0 warnings)\n"
        "\n"
    )


def test_an_eval_file_is_passed_to_the_hook_too(tmp_path: Path, hook: HookSetup) -> None:
    files = {
        "prompts/review.wink.yaml": VALID_YAML,
        "evals/review.wink-eval.yaml": "prompt: ../prompts/review.wink.yaml\nmodels:\n"
        "  - opneai:gpt-4.1-mini\ncases:\n  - id: one\n",
    }
    result = run_hooks(project(tmp_path / "evals", hook, files), hook)
    assert result.returncode == 1, result.stderr
    assert result.stdout == (
        header("Failed") + "- hook id: wink-decl-validate\n"
        "- exit code: 1\n"
        "\n"
        "evals/review.wink-eval.yaml:3:5: error: 'opneai' is not a provider wink-decl knows.\n"
        "  expected: PROVIDER:MODEL with PROVIDER one of openai, anthropic, litellm, "
        "claude-agent\n"
        "   3 |   - opneai:gpt-4.1-mini\n"
        "     |     ^^^^^^^^^^^^^^^^^^^\n"
        "  hint: did you mean 'openai'?\n"
        "2 files checked: 1 valid, 1 invalid (1 error, 0 warnings)\n"
        "\n"
    )
