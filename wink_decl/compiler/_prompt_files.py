"""Finding prompt files in a folder: what every command that takes folders needs, and no more."""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

__all__ = [
    "EVAL_SUFFIXES",
    "PROMPT_SUFFIXES",
    "FoundFile",
    "find_prompt_files",
    "listing_order",
    "prompt_entries",
    "prompt_paths",
]

PROMPT_SUFFIXES = (".wink.yaml", ".wink.yml", ".wink.toml")
EVAL_SUFFIXES = (".wink-eval.yaml", ".wink-eval.yml", ".wink-eval.toml")
"""Eval files (docs/evals.md): ``validate`` finds them in the same walk as prompt files."""


class FoundFile(NamedTuple):
    """A prompt file found in a folder, and whether its name is a symbolic link."""

    path: str
    is_link: bool
    """Told by the folder listing itself, so knowing it costs no system call."""


def find_prompt_files(root: str | Path) -> list[Path]:
    """Every ``*.wink.yaml|yml|toml`` under ``root``, sorted; hidden folders are skipped."""
    return [Path(path) for path in prompt_paths(root)]


def prompt_paths(root: str | Path) -> list[str]:
    """``find_prompt_files`` as the strings ``os.fspath`` gives, in the same order.

    Strings all the way: 10,000 Path objects, built and sorted, cost more than the walk.
    Paths sort by their parts, so the strings do too ('a/b' before 'a-b/c').
    """
    return [found.path for found in prompt_entries(root)]


def prompt_entries(
    root: str | Path, suffixes: tuple[str, ...] = PROMPT_SUFFIXES
) -> list[FoundFile]:
    """``prompt_paths``, each with whether it is a link; found as ``os.walk`` would find them.

    A link to a folder is not entered (it may lead anywhere), a link to a file is listed, and
    a folder that cannot be listed is passed over. ``suffixes`` are the names looked for
    (any case): ``validate`` adds ``EVAL_SUFFIXES``.
    """
    top = os.fspath(Path(root))  # the spelling Path gives: no './', no trailing separator
    found: list[FoundFile] = []
    pending = [top]
    while pending:
        folder = pending.pop()
        # os.walk('.') names folders './x'; Path('./x', f) is 'x/f'.
        base = folder[2:] if top == os.curdir and folder != os.curdir else folder
        try:
            with os.scandir(folder) as entries:
                listing = list(entries)
        except OSError:
            continue
        for entry in listing:
            name = entry.name
            if _is_dir(entry):
                if not name.startswith(".") and not entry.is_symlink():
                    pending.append(entry.path)
            elif name.lower().endswith(suffixes):
                path = name if base == os.curdir else os.path.join(base, name)  # noqa: PTH118
                found.append(FoundFile(path, entry.is_symlink()))
    return sorted(found, key=_parts)


def _is_dir(entry: os.DirEntry[str]) -> bool:
    """As ``os.walk`` tells folders from files: a link to a folder counts as one."""
    try:
        return entry.is_dir()
    except OSError:
        return False


def _parts(found: FoundFile) -> list[str]:
    return listing_order(found.path)


def listing_order(path: str) -> list[str]:
    """The key files are listed (and a registry's files looked at) by: their path's parts."""
    return os.path.normcase(path).split(os.sep)  # noqa: PTH206  # str: no Path per file
