"""Where a prompt root's overrides are when no setting says: a module of its own, light to load.

Commands that only look for the folder (``validate``, ``preview``) read no override file.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["default_overrides_root"]


def default_overrides_root(prompt_root: str | os.PathLike[str]) -> Path:
    """``overrides`` beside the prompt root: ``prompts/`` has ``overrides/`` as its sibling."""
    return Path(os.path.abspath(prompt_root)).parent / "overrides"  # noqa: PTH100
