"""Shared by the plugin tests: distributions made in memory, and the repository's folders."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping
from importlib.metadata import Distribution, EntryPoint
from os import PathLike
from pathlib import Path

from wink_decl.plugins import HANDLERS

REPO = Path(__file__).resolve().parents[2]
"""The repository root: this file is ``tests/support/plugin_support.py``."""
PLUGINS = REPO / "plugins"


class MemoryDistribution(Distribution):
    """A distribution whose METADATA and entry_points.txt are strings, not files."""

    def __init__(self, name: str, version: str, groups: Mapping[str, Mapping[str, str]]) -> None:
        sections = [
            f"[{group}]\n" + "".join(f"{key} = {value}\n" for key, value in points.items())
            for group, points in groups.items()
        ]
        self._texts = {
            "METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
            "entry_points.txt": "\n".join(sections),
        }

    def read_text(self, filename: str) -> str | None:
        return self._texts.get(filename)

    def locate_file(self, path: str | PathLike[str]) -> Path:
        return Path(path)


def memory_entries(
    name: str, version: str, points: Mapping[str, str], group: str = HANDLERS
) -> list[EntryPoint]:
    """Entry points of ``group`` whose ``dist`` is a ``MemoryDistribution``."""
    return list(MemoryDistribution(name, version, {group: points}).entry_points)


def pip_install_into(source: Path, target: Path) -> None:
    """Install the package at ``source`` into the folder ``target`` with the real pip.

    Its build backend comes from the package index, its dependencies are left out: the test
    puts ``target`` on ``PYTHONPATH`` beside this environment's packages.
    """
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input", "--quiet"]
    completed = subprocess.run(  # a fixed command over folders the caller made
        [*pip, "install", "--no-deps", "--target", target, source],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        cwd=source.parent,
    )
    assert completed.returncode == 0, completed.stderr
