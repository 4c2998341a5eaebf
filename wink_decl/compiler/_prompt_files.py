"""Finding prompt files in a folder: what every command that takes folders needs, and no more."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["PROMPT_SUFFIXES", "find_prompt_files", "prompt_paths"]

PROMPT_SUFFIXES = (".wink.yaml", ".wink.yml", ".wink.toml")


def find_prompt_files(root: str | Path) -> list[Path]:
    """Every ``*.wink.yaml|yml|toml`` under ``root``, sorted; hidden folders are skipped."""
    return [Path(path) for path in prompt_paths(root)]


def prompt_paths(root: str | Path) -> list[str]:
    """``find_prompt_files`` as the strings ``os.fspath`` gives, in the same order.

    Strings all the way: 10,000 Path objects, built and sorted, cost more than the walk.
    Paths sort by their parts, so the strings do too ('a/b' before 'a-b/c').
    """
    top = os.fspath(Path(root))  # the spelling Path gives: no './', no trailing separator
    found: list[str] = []
    for folder, dirs, files in os.walk(top):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        # os.walk('.') names folders './x'; Path('./x', f) is 'x/f'.
        base = folder[2:] if top == os.curdir and folder != os.curdir else folder
        found.extend(
            f if base == os.curdir else os.path.join(base, f)  # noqa: PTH118
            for f in files
            if f.lower().endswith(PROMPT_SUFFIXES)
        )
    return sorted(found, key=_parts)


def _parts(path: str) -> list[str]:
    return os.path.normcase(path).split(os.sep)  # noqa: PTH206  # str: no Path per file
