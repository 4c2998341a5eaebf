"""What a render is given: ``--param``, ``--params-file`` and ``--open``, checked and applied."""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from wink_decl.cli._command import Console
from wink_decl.cli._params_file import ParamsFile, load_params_file
from wink_decl.cli._prompt import add_file_options, compile_prompt, limits_from, report
from wink_decl.cli._tagging import add_tag_options, tagged
from wink_decl.cli._tool_params import deciding_params, stand_in
from wink_decl.cli._usage import UsageError
from wink_decl.compiler import (
    CompiledPrompt,
    CompileResult,
    bind_plugins,
    make_params,
    unknown_param,
)
from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, DiagnosticError
from wink_decl.plugins import PluginCallError
from wink_decl.prompt.template import RenderedPrompt
from wink_decl.prompt.visibility import SectionPath, SectionVisibility
from wink_decl.schema import param_from_text, param_misfit
from wink_decl.suggestions import close_matches, did_you_mean

if TYPE_CHECKING:
    from wink_decl.schema import ParamSpec

__all__ = [
    "BoundPrompt",
    "add_render_options",
    "bind_from_args",
    "params_from_texts",
    "prepared_from_args",
    "render_bound",
    "render_from_args",
]

_MISSING_HINT = "pass --param {name}=VALUE or put it in --params-file, or give it a default"
_DECIDING_HINT = (
    "it decides which tools are offered (a section with tools is shown or summarized by it): "
    + _MISSING_HINT
)


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


@dataclass(frozen=True)
class BoundPrompt:
    """A compiled prompt with the params and opened sections the command line gave it."""

    result: CompileResult
    prompt: CompiledPrompt
    params: tuple[object, ...]
    overrides: dict[SectionPath, SectionVisibility]


def render_from_args(
    args: argparse.Namespace, console: Console, *, tools_only: bool = False
) -> RenderedPrompt | None:
    """Compile and render ``args.file``; None (diagnostics written) when anything is wrong.

    Only the plugin code the render needs is imported: predicates, and the handlers that
    give their tools' schemas. ``tools_only``: only the tools will be used, so a required
    param that cannot change them stands in with a value of its type (``_tool_params``).
    """
    prepared = prepared_from_args(args, console, rendering_only=True, tools_only=tools_only)
    if prepared is None:
        return None
    bound, prompt = prepared
    return render_bound(console, bound, prompt)


def prepared_from_args(
    args: argparse.Namespace, console: Console, *, rendering_only: bool, tools_only: bool = False
) -> tuple[BoundPrompt, CompiledPrompt] | None:
    """``bind_from_args``, its plugins imported and checked, and ``--tag`` applied.

    The bound prompt as compiled and the prompt to use (with the tag's overrides, if any);
    None (diagnostics written) when anything is wrong. ``rendering_only`` imports only the
    plugin code a render needs (``bind_plugins``).
    """
    bound = bind_from_args(args, console, tools_only=tools_only)
    if bound is None:
        return None
    problems = bind_plugins(bound.prompt, rendering_only=rendering_only)
    if problems:
        report(console, problems, bound.result.sources)
        return None
    prompt = tagged(args, console, bound.prompt)
    return None if prompt is None else (bound, prompt)


def render_bound(
    console: Console, bound: BoundPrompt, prompt: CompiledPrompt
) -> RenderedPrompt | None:
    """``prompt`` rendered with the command line's params and opened sections.

    A predicate that raises is the plugin's fault: it is reported against the plugin, and
    None comes back.
    """
    try:
        return prompt.template.render(*bound.params, visibility_overrides=bound.overrides)
    except PluginCallError as error:
        report(console, [error.to_diagnostic(path=bound.prompt.source)], bound.result.sources)
        return None


def bind_from_args(
    args: argparse.Namespace, console: Console, *, tools_only: bool = False
) -> BoundPrompt | None:
    """Compile ``args.file`` and check its params and ``--open``; None when anything is wrong."""
    pairs = [_split(text) for text in cast("list[str]", args.param)]
    params_file = (
        None if args.params_file is None else load_params_file(args.params_file, limits_from(args))
    )
    result = compile_prompt(args, console)
    prompt = result.prompt
    if prompt is None:
        return None
    inputs = _Inputs(prompt, tools_only=tools_only)
    if params_file is not None:
        inputs.add_file(params_file)
    for name, text in dict(pairs).items():  # the last --param of a name wins
        inputs.add_text(name, text)
    params = inputs.params()
    overrides = _overrides(prompt, cast("list[str]", args.open), inputs.problems)
    if inputs.problems:
        sources = {**result.sources, **(params_file.sources if params_file else {})}
        report(console, inputs.problems, sources)
        return None
    return BoundPrompt(result, prompt, params, overrides)


def params_from_texts(
    prompt: CompiledPrompt, texts: Mapping[str, str], *, missing_hint: str
) -> tuple[tuple[object, ...], list[Diagnostic]]:
    """Param values written as text, converted as ``--param`` converts them; the problems found.

    Use the params only when no problem was found.
    """
    inputs = _Inputs(prompt)
    for name, text in texts.items():
        inputs.add_text(name, text)
    params = inputs.params(missing_hint)
    return params, inputs.problems


def _split(text: str) -> tuple[str, str]:
    name, equals, value = text.partition("=")
    if not equals or not name:
        raise UsageError(
            f"--param '{text}' is not NAME=VALUE",
            hint="write it as --param name=value, such as --param language=Python",
        )
    return name, value


class _Inputs:
    """Param values gathered from a file and the command line, and the problems found."""

    def __init__(self, prompt: CompiledPrompt, *, tools_only: bool = False) -> None:
        self.prompt = prompt
        self.tools_only = tools_only
        self.declared = prompt.model.params
        self.values: dict[str, object] = {}
        self.failed: dict[str, Diagnostic] = {}
        """The wrong value of each param; a later value for the name replaces it."""
        self.problems: list[Diagnostic] = []
        self.complete = True
        """False when a params file did not load: then no param can be said to be missing."""

    def add_file(self, source: ParamsFile) -> None:
        self.problems.extend(source.diagnostics)
        # A file that did not load may hold any param: do not call them missing.
        self.complete = not source.diagnostics
        for name, value in source.values.items():
            spec = self.declared.get(name)
            if spec is None:
                declared = list(self.declared)
                self.problems.append(
                    unknown_param(name, declared, source.key_span(name), source.path)
                )
                continue
            expected = param_misfit(spec, value)
            if expected is None:
                self.values[name] = value
                continue
            self.failed[name] = Diagnostic(
                f"Param '{name}' must be {expected}, not {json.dumps(value)}.",
                source.value_span(name),
                DiagnosticCode.PARAM_VALUE,
                hint=_enum_hint(spec, value),
                path=source.path,
            )

    def add_text(self, name: str, text: str) -> None:
        spec = self.declared.get(name)
        if spec is None:
            self.values[name] = text  # make_params reports it, with its did-you-mean
            return
        value, expected = param_from_text(spec, text)
        self.failed.pop(name, None)  # the command line wins over the params file
        if expected is None:
            self.values[name] = value
            return
        self.failed[name] = Diagnostic(
            f"--param {name}={text}: expected {expected}",
            None,
            DiagnosticCode.PARAM_VALUE,
            hint=_enum_hint(spec, text),
            path=self.prompt.source,
        )

    def params(self, missing_hint: str = _MISSING_HINT) -> tuple[object, ...]:
        self.problems.extend(self.failed.values())
        if not self.complete:
            return ()
        # Names whose value failed still count as given: they are wrong, not missing.
        given = {**dict.fromkeys(self.failed), **self.values}
        hint = missing_hint
        deciding = (
            deciding_params(self.prompt.model, self.prompt.template.sections)
            if self.tools_only
            else None
        )
        if deciding is not None:
            given = {**self._stand_ins(deciding), **given}
            hint = _DECIDING_HINT
        try:
            return make_params(self.prompt, given, missing_hint=hint)
        except DiagnosticError as error:
            self.problems.extend(
                d for d in error.diagnostics if not (self.failed and d.code == DiagnosticCode.PARAM)
            )
            return ()

    def _stand_ins(self, deciding: frozenset[str]) -> dict[str, object]:
        """A value for each required param that cannot change the tools offered."""
        return {
            name: stand_in(spec)
            for name, spec in self.declared.items()
            if spec.default is None and name not in deciding
        }


def _enum_hint(spec: ParamSpec, value: object) -> str | None:
    if spec.enum is None or not isinstance(value, str):
        return None
    return did_you_mean(value, [str(v) for v in spec.enum])


def _overrides(
    prompt: CompiledPrompt, keys: Sequence[str], problems: list[Diagnostic]
) -> dict[SectionPath, SectionVisibility]:
    """FULL for each opened section and the sections above it (else it would stay hidden)."""
    template = prompt.template
    nodes = template.nodes
    overrides: dict[SectionPath, SectionVisibility] = {}
    for key in keys:
        node = template.find(key)
        if node is None:
            known = [n.dotted for n in nodes]
            match = next(iter(close_matches(key.lower(), known, most=1)), None)
            problems.append(
                Diagnostic(
                    f"--open {key}: the prompt has no such section."
                    + (f" Did you mean '{match}'?" if match else ""),
                    None,
                    DiagnosticCode.UNKNOWN_SECTION,
                    expected="a dotted section key: " + ", ".join(known),
                    path=prompt.source,
                )
            )
            continue
        for index in (*node.ancestors, node.index):
            overrides[nodes[index].path] = SectionVisibility.FULL
    return overrides
