"""``wink-decl compile``: the deterministic JSON artifact of a prompt, handlers checked."""

from __future__ import annotations

import argparse

from wink_decl.cli._command import Command, Console
from wink_decl.cli._paths import write_output
from wink_decl.cli._prompt import add_file_options, compile_prompt, report
from wink_decl.compiler import artifact_json, bind_plugins

__all__ = ["COMMAND"]


def _configure(parser: argparse.ArgumentParser) -> None:
    add_file_options(parser)
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
    text = artifact_json(prompt.artifact)
    if args.output is None:
        console.out.write(text)
    else:
        write_output(args.output, text)
    return 0


COMMAND = Command(
    name="compile",
    summary="Compile a prompt file to its JSON artifact, importing and checking its handlers.",
    description=(
        "Compile one prompt file and print its artifact: the resolved section tree, each "
        "tool's parameter and result schemas, handler and policies, as canonical JSON (sorted "
        "keys, two-space indent), equal for equal input. Unlike validate, this imports every "
        "handler, predicate and policy the file names (plugin code runs) and checks each "
        "against its use: signatures, params, and the tools that take their params from "
        "their handler. Exit status: 0 compiled, 1 the file or a plugin has errors, 2 usage "
        "error."
    ),
    examples=(
        "wink-decl compile prompts/agents/code-review.wink.yaml",
        "wink-decl compile prompts/release/pipeline.wink.toml --output build/pipeline.json",
    ),
    configure=_configure,
    run=_run,
)
