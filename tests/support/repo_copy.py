"""A copy of the repository's prompts and evals, for the tests that run its eval suite."""

from __future__ import annotations

import shutil
from pathlib import Path

__all__ = ["REPO", "copy_prompts_and_evals"]

REPO = Path(__file__).resolve().parents[2]


def copy_prompts_and_evals(folder: Path) -> Path:
    """The repository's ``prompts/``, ``evals/`` (without run outputs) and ``pyproject.toml``
    copied into ``folder``; returns ``folder``."""
    shutil.copytree(REPO / "prompts", folder / "prompts")
    shutil.copytree(REPO / "evals", folder / "evals", ignore=shutil.ignore_patterns(".wink-eval"))
    shutil.copy(REPO / "pyproject.toml", folder / "pyproject.toml")
    return folder
