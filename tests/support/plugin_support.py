"""Shared by the plugin tests: distributions made in memory, and the repository's folders."""

from __future__ import annotations

import os
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


FRESH_HANDLER = "fresh.lookup"
"""The handler ``install_fresh_plugin`` installs: ``fresh_plugin:lookup`` of ``fresh-plugin``."""
FRESH_MODULE = """\
from dataclasses import dataclass

from wink_decl import ToolContext, ToolResult


@dataclass(frozen=True)
class Found:
    text: str


def lookup(params: None, *, context: ToolContext) -> ToolResult[Found]:
    return ToolResult.ok(Found("found"))
"""


def install_fresh_plugin(site: Path) -> None:
    """Install ``fresh-plugin`` by hand in ``site`` (a folder on ``sys.path``): a module and
    its ``.dist-info`` folder, under the escaped name pip writes (``fresh_plugin-1.0``)."""
    (site / "fresh_plugin.py").write_text(FRESH_MODULE, encoding="utf-8")
    info = site / "fresh_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: fresh-plugin\nVersion: 1.0\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(
        f"[{HANDLERS}]\n{FRESH_HANDLER} = fresh_plugin:lookup\n", encoding="utf-8"
    )
    moved_on(site)


def moved_on(folder: Path) -> None:
    """Move the folder's modification time on, as a change some seconds later would.

    A test installs within milliseconds of the catalog's read, which a file system with
    coarse timestamps may not tell apart; a real install takes longer than a tick.
    """
    stat = folder.stat()
    os.utime(folder, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10_000_000_000))
