"""``wink-decl schema``: the JSON Schema of prompt files, for editors and other tools."""

from __future__ import annotations

import argparse
from importlib import resources

from wink_decl.cli._command import Console
from wink_decl.cli._commands import implemented
from wink_decl.cli._paths import write_output
from wink_decl.schema import SCHEMA_FILE_NAME

__all__ = ["COMMAND"]


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--output",
        metavar="FILE",
        help="write the schema to FILE (replaced atomically; its folder must exist) "
        "instead of printing it",
    )


def _run(args: argparse.Namespace, console: Console) -> int:
    # The packaged copy, byte for byte: what editors were pointed at when this version shipped.
    text = resources.files("wink_decl.schema").joinpath(SCHEMA_FILE_NAME).read_text("utf-8")
    if args.output is None:
        console.out.write(text)
    else:
        write_output(args.output, text)
    return 0


COMMAND = implemented("schema", configure=_configure, run=_run)
