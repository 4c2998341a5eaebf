"""``--overrides`` and ``--strict``, and the folder they name: finding it reads no override."""

from __future__ import annotations

import argparse
from pathlib import Path

from wink_decl.cli._paths import configured_folder, existing_path
from wink_decl.cli._usage import UsageError
from wink_decl.overrides import default_overrides_root

__all__ = ["add_overrides_option", "chosen_overrides", "overrides_root"]


def add_overrides_option(parser: argparse.ArgumentParser) -> None:
    """``--overrides DIR`` and ``--strict``: where override files are, how stale ones count."""
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
        help="count a stale override (one whose base text has changed) as an error, not a warning",
    )


def overrides_root(args: argparse.Namespace, prompt_root: Path) -> Path:
    """``--overrides``, else the configured folder, else ``overrides`` beside the prompt root.

    With ``--root``, the ``pyproject.toml`` is not read for this either: the folder is the one
    beside the root given.
    """
    chosen = chosen_overrides(args)
    return chosen if chosen is not None else default_overrides_root(prompt_root)


def chosen_overrides(args: argparse.Namespace) -> Path | None:
    """``--overrides``, else the configured folder (not read with ``--root``), else None."""
    if args.overrides is not None:
        folder = existing_path(args.overrides)
        if not folder.is_dir():
            raise UsageError(f"--overrides '{args.overrides}' is not a folder")
        return folder
    return None if args.root is not None else configured_folder(Path.cwd(), "overrides")
