"""Where a prompt root's overrides are when no setting says: a module of its own, light to load.

Commands that only look for the folder (``validate``, ``preview``) read no override file.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["default_overrides_root"]


def default_overrides_root(prompt_root: str | os.PathLike[str]) -> Path:
    """``overrides`` beside the prompt root, where that stays within what the user works in.

    ``prompts/`` has ``overrides/`` as its sibling when that sibling lies inside the working
    folder or inside the project (the folder of the nearest ``pyproject.toml`` above the
    root). Otherwise (a prompt in the working folder itself, in the home folder, or named
    from elsewhere, with no project around it) the sibling would lie above the folder the
    user named, so the default is ``overrides`` inside the prompt root (docs/overrides.md).
    """
    root = Path(os.path.abspath(prompt_root))  # noqa: PTH100  # no links resolved: as named
    if _within(root.parent, Path.cwd()) or _within(root.parent, _project(root)):
        return root.parent / "overrides"
    return root / "overrides"


def _project(root: Path) -> Path | None:
    """The folder of the nearest ``pyproject.toml`` at or above ``root``, if any."""
    return next((folder for folder in (root, *root.parents) if _has_pyproject(folder)), None)


def _has_pyproject(folder: Path) -> bool:
    return (folder / "pyproject.toml").is_file()


def _within(folder: Path, bound: Path | None) -> bool:
    # realpath on both sides: a link in either (a temporary folder, a home) must not differ.
    return bound is not None and Path(os.path.realpath(folder)).is_relative_to(
        os.path.realpath(bound)
    )
