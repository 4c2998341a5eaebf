"""``wink-decl tools``: the tools a render offers, as JSON for a provider or a schema tool."""

from __future__ import annotations

import argparse
import json

from wink_decl.cli._command import Command, Console
from wink_decl.cli._inputs import add_render_options, render_from_args
from wink_decl.runtime.tool_schema import to_anthropic_tools, to_openai_tools

__all__ = ["COMMAND"]


def _configure(parser: argparse.ArgumentParser) -> None:
    add_render_options(parser)
    parser.add_argument(
        "--format",
        choices=("json-schema", "openai", "anthropic"),
        default="json-schema",
        help="json-schema: an object mapping each tool name to the JSON Schema of its "
        "parameters; openai or anthropic: that provider's list of tool definitions "
        "(default: json-schema)",
    )


def _run(args: argparse.Namespace, console: Console) -> int:
    rendered = render_from_args(args, console)
    if rendered is None:
        return 1
    tools = rendered.tools
    payload: object
    if args.format == "openai":
        payload = to_openai_tools(tools)
    elif args.format == "anthropic":
        payload = to_anthropic_tools(tools)
    else:
        payload = {tool["name"]: tool["input_schema"] for tool in to_anthropic_tools(tools)}
    # Key order is kept: tools come in the order the model sees them, properties as declared.
    console.out.write(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
    return 0


COMMAND = Command(
    name="tools",
    summary="Print the tools a rendered prompt offers, as JSON Schema or provider JSON.",
    description=(
        "Compile and render one prompt file like 'wink-decl render' and print only its tools, "
        "in the order the model receives them. Tools depend on what is shown: a summarized "
        "section adds read_section, and --open reveals the tools of the sections it opens. "
        "Imports the plugin code render imports: every predicate the file names, and the "
        "handler of each tool that leaves its params (or its result) to the handler. Exit "
        "status: 0 printed, 1 the file, a plugin or the params have errors, 2 usage error."
    ),
    examples=(
        "wink-decl tools prompts/agents/code-review.wink.yaml --param language=Python"
        ' --param change="$(git diff)"',
        "wink-decl tools prompts/release/pipeline.wink.toml --param version=1.4.0"
        " --format openai --open notes",
    ),
    configure=_configure,
    run=_run,
)
