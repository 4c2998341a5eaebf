"""``--overrides`` and ``--strict``, and the folder they name: finding it reads no override."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from wink_decl.inputs import RootSearch, overrides_folder
from wink_decl.inputs import chosen_overrides as chosen_folder

if TYPE_CHECKING:
    from wink_decl._checking import EvalSettings

__all__ = ["add_overrides_option", "chosen_overrides", "eval_settings", "overrides_root"]


def add_overrides_option(parser: argparse.ArgumentParser, *, tags: bool = False) -> None:
    """``--overrides DIR`` and ``--strict``: where override files are, how stale ones count.

    ``tags``: the command applies a tag, and a tag without a file counts as ``--strict`` says.
    """
    parser.add_argument(
        "--overrides",
        metavar="DIR",
        help="the overrides folder, holding NS/PROMPT-KEY/TAG.wink-override.yaml (or .toml) "
        "(default: [tool.wink-decl] overrides in the nearest pyproject.toml unless --root is "
        "given, else 'overrides' beside the prompt root)",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="count a stale override (one whose base text has changed)"
        + (", and a tag the prompt has no override file for," if tags else "")
        + " as an error, not a warning",
    )


def overrides_root(args: argparse.Namespace, prompt_root: Path) -> Path:
    """The overrides folder of the command line's ``--overrides`` and ``--root``."""
    return overrides_folder(args.overrides, prompt_root, root_given=args.root is not None)


def chosen_overrides(args: argparse.Namespace) -> Path | None:
    """``--overrides``, else the configured folder (not read with ``--root``), else None."""
    return chosen_folder(args.overrides, root_given=args.root is not None)


def eval_settings(args: argparse.Namespace) -> EvalSettings:
    """Where eval files' prompts and tags are found: as for prompt files (docs/evals.md)."""
    from wink_decl._checking import EvalSettings  # noqa: PLC0415  # eval files only

    roots = RootSearch.given(args.root)
    overrides = chosen_overrides(args)
    return EvalSettings(roots.root, roots.configured, None if overrides is None else str(overrides))
