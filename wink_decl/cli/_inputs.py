"""What a render is given on the command line: ``--param``, ``--params-file``, ``--open``, tags.

The options become one ``wink_decl.inputs.PromptRequest``; ``prepare`` answers it as it answers
every other front end, and this module writes what it found.
"""

from __future__ import annotations

import argparse
import dataclasses
from typing import TYPE_CHECKING, cast

from wink_decl.cli._command import Console
from wink_decl.cli._prompt import add_file_options, limits_from, report
from wink_decl.cli._tagging import add_tag_options
from wink_decl.diagnostics import DiagnosticError
from wink_decl.inputs import Plugins, Prepared, PromptRequest, prepare, split_param

if TYPE_CHECKING:
    from wink_decl.prompt.template import RenderedPrompt

__all__ = [
    "add_render_options",
    "prepared_from_args",
    "render_from_args",
    "render_prepared",
    "request_from_args",
]


def add_render_options(parser: argparse.ArgumentParser) -> None:
    """The prompt file, ``--root``, and what to render it with."""
    add_file_options(parser)
    parser.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a param value, converted by its declared type: booleans are true or false, "
        'lists are JSON such as \'["a", "b"]\' (repeatable; wins over --params-file)',
    )
    parser.add_argument(
        "--params-file",
        metavar="FILE",
        help="a .yaml, .yml, .toml or .json file mapping param names to values",
    )
    parser.add_argument(
        "--open",
        action="append",
        default=[],
        metavar="KEY",
        help="render a summarized section in full, as after read_section; a dotted key such "
        "as reference.style opens the sections above it too (repeatable)",
    )
    add_tag_options(parser)


def request_from_args(args: argparse.Namespace) -> PromptRequest:
    """The command line's prompt file, root, limits, params, opened sections and tag.

    A command without some of these options (``compile`` takes no params) leaves them out.
    """
    given = vars(args)
    return PromptRequest(
        file=args.file,
        root=args.root,
        limits=limits_from(args),
        params=tuple(split_param(text) for text in cast("list[str]", given.get("param", []))),
        params_file=given.get("params_file"),
        open=tuple(cast("list[str]", given.get("open", []))),
        tag=given.get("tag"),
        overrides=given.get("overrides"),
        strict=bool(given.get("strict")),
    )


def render_from_args(
    args: argparse.Namespace, console: Console, *, tools_only: bool = False
) -> RenderedPrompt | None:
    """Compile and render ``args.file``; None (diagnostics written) when anything is wrong.

    Only the plugin code the render needs is imported: predicates, and the handlers that
    give their tools' schemas. ``tools_only``: only the tools will be used, so a required
    param that cannot change them stands in with a value of its type.
    """
    prepared = prepared_from_args(args, console, plugins="render", tools_only=tools_only)
    return None if prepared is None else render_prepared(console, prepared)


def prepared_from_args(
    args: argparse.Namespace,
    console: Console,
    *,
    plugins: Plugins,
    tools_only: bool = False,
    params: bool = True,
    tag: bool = True,
) -> Prepared | None:
    """The command line's prompt, prepared; None (diagnostics written) when anything is wrong.

    What each step found is written as it is for every command, warnings too. ``params``
    False: the prompt is not bound to params (nothing will be rendered); ``tag`` False:
    ``--tag`` names a variant to write, not one to apply.
    """
    request = request_from_args(args)
    if not tag:
        request = dataclasses.replace(request, tag=None)
    prepared = prepare(request, plugins=plugins, tools_only=tools_only, bind_params=params)
    for found in prepared.reports:
        report(console, found.diagnostics, found.sources)
    return prepared if prepared.ok else None


def render_prepared(
    console: Console, prepared: Prepared, *, tagged: bool = True
) -> RenderedPrompt | None:
    """The prepared prompt rendered (with its tag unless ``tagged`` is False).

    A predicate that raises is reported against its plugin, and None comes back.
    """
    try:
        return prepared.render(tagged=tagged)
    except DiagnosticError as error:
        report(console, error.diagnostics, error.sources)
        return None
