"""``--tag``, ``--overrides`` and ``--strict``: which of a prompt's tagged variants to use."""

from __future__ import annotations

import argparse

from wink_decl.cli._overrides_folder import add_overrides_option
from wink_decl.overrides import check_tag

__all__ = ["add_tag_options"]


def add_tag_options(parser: argparse.ArgumentParser) -> None:
    """``--tag TAG`` with ``--overrides`` and ``--strict``."""
    parser.add_argument(
        "--tag",
        type=_tag,
        metavar="TAG",
        help="apply the prompt's overrides for TAG (docs/overrides.md); without it the prompt "
        "is used as written",
    )
    add_overrides_option(parser, tags=True)


def _tag(text: str) -> str:
    try:
        return check_tag(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
