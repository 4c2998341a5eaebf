"""``wink-decl render``: exactly what a model receives, the rendered text and then the tools."""

from __future__ import annotations

import argparse
import json

from wink_decl.cli._command import Console
from wink_decl.cli._commands import implemented
from wink_decl.cli._inputs import add_render_options, render_from_args
from wink_decl.prompt.template import RenderedPrompt
from wink_decl.prompt.tool_schema import to_openai_tools

__all__ = ["COMMAND", "render_text_form"]


def _configure(parser: argparse.ArgumentParser) -> None:
    add_render_options(parser)
    parser.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text: the prompt, a blank line, then 'tools:' with one tool per line; "
        'json: {"text": ..., "tools": [OpenAI-format tools]} (default: text)',
    )


def _run(args: argparse.Namespace, console: Console) -> int:
    rendered = render_from_args(args, console)
    if rendered is None:
        return 1
    if args.format == "json":
        payload = {"text": rendered.text, "tools": to_openai_tools(rendered.tools)}
        console.out.write(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
    else:
        console.out.write(render_text_form(rendered))
    return 0


def render_text_form(rendered: RenderedPrompt) -> str:
    """The text, a blank line, then ``tools:`` and each tool's name and description aligned."""
    tools = rendered.tools
    if not tools:
        return f"{rendered.text}\n\ntools: (none)\n"
    width = max(len(tool.name) for tool in tools)
    lines = [f"  {tool.name:<{width}}  {tool.description}" for tool in tools]
    return f"{rendered.text}\n\ntools:\n" + "\n".join(lines) + "\n"


COMMAND = implemented("render", configure=_configure, run=_run)
