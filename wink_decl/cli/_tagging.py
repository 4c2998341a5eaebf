"""``--tag``, ``--overrides`` and ``--strict``: a compiled prompt with a tag's overrides applied."""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

from wink_decl.cli._command import Console
from wink_decl.cli._overrides_folder import add_overrides_option, overrides_root
from wink_decl.cli._paths import root_finder
from wink_decl.cli._prompt import limits_from, report
from wink_decl.compiler import CompiledPrompt
from wink_decl.overrides import LocalOverrideStore, check_tag
from wink_decl.overrides.tagged import apply_tag

__all__ = ["add_tag_options", "tagged"]


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


def tagged(
    args: argparse.Namespace, console: Console, prompt: CompiledPrompt
) -> CompiledPrompt | None:
    """``prompt`` with ``--tag``'s overrides applied (as it is without ``--tag``).

    Diagnostics are written (warnings too: a stale entry, a tag the prompt has no file for);
    None when any is an error.
    """
    if args.tag is None:
        return prompt
    path = Path(args.file)
    folder = overrides_root(args, root_finder(args.root)(path))
    store = LocalOverrideStore(folder, limits=limits_from(args))
    result = apply_tag(prompt.template, store, args.tag, strict=args.strict, source=prompt.source)
    report(console, result.diagnostics, result.sources)
    return dataclasses.replace(prompt, template=result.template) if result.ok else None
