"""``wink-decl render``: exactly what a model receives, the rendered text and then the tools."""

from __future__ import annotations

import argparse
import json

from wink_decl.cli._command import Command, Console
from wink_decl.cli._inputs import add_render_options, render_from_args
from wink_decl.runtime.prompt import RenderedPrompt
from wink_decl.runtime.tool_schema import to_openai_tools

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


COMMAND = Command(
    name="render",
    summary="Render a prompt file as a model receives it: the text, then the tools.",
    description=(
        "Compile one prompt file, bind its params and render it: the text a model receives, "
        "then the tools it may call, in order. Summarized sections stay summarized unless "
        "--open names them. Imports the plugin code a render needs, and only that: every "
        "predicate the file names, and the handler of each tool that leaves its params (or "
        "its result) to the handler, whose schema comes from it; other handlers and policies "
        "are not imported. Exit status: 0 rendered, 1 the file, a plugin or the params have "
        "errors (reported on stderr), 2 usage error."
    ),
    examples=(
        "wink-decl render prompts/agents/code-review.wink.yaml"
        ' --param language=Python --param change="$(git diff)"',
        "wink-decl render prompts/research/assistant.wink.yaml --params-file question.yaml"
        " --open methods.finding",
        "wink-decl render prompts/release/pipeline.wink.toml --param version=1.4.0 --format json",
    ),
    configure=_configure,
    run=_run,
)
