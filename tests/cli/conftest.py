"""Fixtures for the ``wink-decl`` tests: a project folder to work in, and running the command."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from wink_decl.cli import main

REPO = Path(__file__).resolve().parents[2]

Run = Callable[..., tuple[int, str, str]]
"""``cli("validate", "prompts")`` -> (exit status, whole stdout, whole stderr)."""


@pytest.fixture(autouse=True)
def fixed_width(monkeypatch: pytest.MonkeyPatch) -> None:
    """Help is laid out for the terminal; tests pin it so the expected texts hold anywhere."""
    monkeypatch.setenv("COLUMNS", "100")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``<tmp>/project``: the bundled prompts and a pyproject naming them the root; the cwd."""
    folder = tmp_path / "project"
    shutil.copytree(REPO / "prompts", folder / "prompts")
    (folder / "pyproject.toml").write_text('[tool.wink-decl]\nroot = "prompts"\n')
    monkeypatch.chdir(folder)
    return folder


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Run:
    """Run ``wink-decl`` in this process; the exit status and everything it wrote."""

    def run(*argv: str) -> tuple[int, str, str]:
        code = main(list(argv))
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return run
