"""``wink-decl compile``: the deterministic JSON artifact of a prompt, handlers checked."""

from __future__ import annotations

import argparse

from wink_decl.cli._command import Console
from wink_decl.cli._commands import implemented
from wink_decl.cli._inputs import prepared_from_args
from wink_decl.cli._paths import write_output
from wink_decl.cli._prompt import add_file_options
from wink_decl.cli._tagging import add_tag_options
from wink_decl.compiler import artifact_json

__all__ = ["COMMAND"]


def _configure(parser: argparse.ArgumentParser) -> None:
    add_file_options(parser)
    add_tag_options(parser)
    parser.add_argument(
        "--output",
        metavar="FILE",
        help="write the artifact to FILE (replaced atomically; its folder must exist) "
        "instead of printing it",
    )


def _run(args: argparse.Namespace, console: Console) -> int:
    # No params: the artifact is the prompt as declared, not one render of it.
    prepared = prepared_from_args(args, console, plugins="all", params=False)
    if prepared is None:
        return 1
    assert prepared.prompt is not None  # noqa: S101  # a prepared prompt that is ok has one
    text = artifact_json(prepared.prompt.artifact)
    if args.output is None:
        console.out.write(text)
    else:
        write_output(args.output, text)
    return 0


COMMAND = implemented("compile", configure=_configure, run=_run)
