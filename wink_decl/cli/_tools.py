"""``wink-decl tools``: the tools a render offers, as JSON for a provider or a schema tool."""

from __future__ import annotations

import argparse
import json

from wink_decl.cli._command import Console
from wink_decl.cli._commands import implemented
from wink_decl.cli._inputs import add_render_options, render_from_args
from wink_decl.prompt.tool_schema import to_anthropic_tools, to_openai_tools

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
    rendered = render_from_args(args, console, tools_only=True)
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


COMMAND = implemented("tools", configure=_configure, run=_run)
