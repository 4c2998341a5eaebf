"""The real entry-point machinery: pip-installed packages in a fresh venv, found by the catalog.

The venv is built once per session (about 20-40 s): wink-decl, wink-decl-files and
wink-decl-files-fork are installed from copies of their folders (so no build output lands in
the repository), and ``installed_probe.py`` runs inside it and prints JSON.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from plugin_support import PLUGINS, REPO

PROBE = Path(__file__).with_name("installed_probe.py")
PACKAGES = (REPO, PLUGINS / "wink-decl-files", PLUGINS / "wink-decl-files-fork")
BUILD_NOISE = shutil.ignore_patterns(
    ".git",
    ".venv",
    "venv",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    ".*_cache",
    ".hypothesis",
    ".coverage*",
    "htmlcov",
    "node_modules",
)


def ignored(directory: str, names: list[str]) -> set[str]:
    """Caches and build output anywhere; the top-level ``plugins`` folder of the repository."""
    skip = set(BUILD_NOISE(directory, names))
    if Path(directory) == REPO:
        skip.update({"plugins"} & set(names))
    return skip


def run(*command: str | Path, cwd: Path) -> str:
    """Run ``command`` without the caller's PYTHONPATH; fail with its output when it fails."""
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "PYTHONHOME"}}
    completed = subprocess.run(  # fixed commands over paths this module chose
        [str(part) for part in command],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        check=False,
        timeout=600,
    )
    assert completed.returncode == 0, f"{command}\n{completed.stdout}\n{completed.stderr}"
    return completed.stdout


def build_requirements(projects: list[Path]) -> list[str]:
    """The union of the projects' ``build-system.requires``, in first-seen order."""
    found: dict[str, None] = {}
    for project in projects:
        data = tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))
        found.update(dict.fromkeys(data["build-system"]["requires"]))
    return list(found)


@pytest.fixture(scope="session")
def venv_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the three packages pip-installed (not editable) from copies."""
    root = tmp_path_factory.mktemp("installed-plugins")
    copies = [root / "sources" / package.name for package in PACKAGES]
    for package, copy in zip(PACKAGES, copies, strict=True):
        shutil.copytree(package, copy, ignore=ignored)
    run(sys.executable, "-m", "venv", root / "venv", cwd=root)
    python = root / "venv" / "bin" / "python"
    pip = (python, "-m", "pip", "--disable-pip-version-check", "--no-input", "--quiet")
    # The build backend goes in once, so the three builds skip isolated build environments.
    run(*pip, "install", *build_requirements(copies), cwd=root)
    run(*pip, "install", "--no-build-isolation", *copies, cwd=root)
    return python


def test_the_catalog_finds_resolves_and_loads_real_installed_plugins(venv_python: Path) -> None:
    report: dict[str, Any] = json.loads(run(venv_python, PROBE, cwd=venv_python.parent))
    files_entry = {
        "kind": "PluginEntry",
        "group": "wink_decl.handlers",
        "name": "files.read_file",
        "value": "wink_decl_files.handlers:read_file",
        "distribution": "wink-decl-files",
        "version": "1.0.0",
    }
    assert report == {
        "wink_decl_in_venv": True,
        "handlers": [
            "files.edit_file",
            "files.list_dir",
            "files.read_file",
            "files.write_file",
            "planning.add_step",
            "planning.read_plan",
            "planning.setup_plan",
            "planning.update_step",
        ],
        "conflicts": {
            "files.read_file": [
                "files.read_file@wink-decl-files",
                "files.read_file@wink-decl-files-fork",
            ]
        },
        "ambiguous": {
            "kind": "PluginProblem",
            "code": "ambiguous-plugin",
            "message": (
                "Handler 'files.read_file' is registered by two distributions: "
                "wink-decl-files 1.0.0, wink-decl-files-fork 2.1.0."
            ),
            "hint": (
                "choose one: files.read_file@wink-decl-files, files.read_file@wink-decl-files-fork"
            ),
            "suggestions": [
                "files.read_file@wink-decl-files",
                "files.read_file@wink-decl-files-fork",
            ],
        },
        "chosen": files_entry,
        "fork": {
            **files_entry,
            "value": "wink_decl_files_fork:read_file",
            "distribution": "wink-decl-files-fork",
            "version": "2.1.0",
        },
        "loaded_once": True,
        "check": None,
        "result_type": "ReadFileResult",
        "read": {
            "success": True,
            "message": "Read 'notes.txt' (8 characters).",
            "value": '{"path": "notes.txt", "text": "one\\ntwo\\n"}',
        },
        "missing": {
            "success": False,
            "message": "File 'missing.txt' does not exist.",
            "value": "",
        },
        "fork_read": {
            "success": True,
            "message": "Read 'notes.txt' (fork).",
            "value": '{"path": "notes.txt", "lines": ["1: one", "2: two"]}',
        },
    }
