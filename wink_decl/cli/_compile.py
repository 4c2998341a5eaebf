"""``wink-decl compile``: the deterministic JSON artifact of a prompt, handlers checked."""

from __future__ import annotations

import argparse

from wink_decl.cli._command import Console
from wink_decl.cli._commands import implemented
from wink_decl.cli._paths import write_output
from wink_decl.cli._prompt import add_file_options, compile_prompt, report
from wink_decl.cli._tagging import add_tag_options, tagged
from wink_decl.compiler import artifact_json, bind_plugins

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
    result = compile_prompt(args, console)
    prompt = result.prompt
    if prompt is None:
        return 1
    problems = bind_plugins(prompt)
    if problems:
        report(console, problems, result.sources)
        return 1
    prompt = tagged(args, console, prompt)
    if prompt is None:
        return 1
    text = artifact_json(prompt.artifact)
    if args.output is None:
        console.out.write(text)
    else:
        write_output(args.output, text)
    return 0


COMMAND = implemented("compile", configure=_configure, run=_run)
