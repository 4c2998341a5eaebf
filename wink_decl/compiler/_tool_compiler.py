"""Tool declarations compiled to runtime ``Tool`` objects bound to entry-point handlers."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from wink_decl.compiler._context import CompileContext
from wink_decl.compiler._lazy import LazyHandler, LazyTool
from wink_decl.compiler._params_dataclass import make_dataclass_for, spec_from_model
from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.errors import PromptValidationError, ToolValidationError
from wink_decl.loader import JSONPath
from wink_decl.plugins import HANDLERS, PluginCatalog, PluginProblem
from wink_decl.prompt.tool import Tool, ToolExample
from wink_decl.suggestions import did_you_mean_sentence

if TYPE_CHECKING:
    from wink_decl.diagnostics import Diagnostic
    from wink_decl.schema.model import ParamSpec, ToolDoc, ToolExampleDoc

__all__ = ["compile_tool", "pascal"]

_NONE_TYPE = type(None)


def pascal(name: str) -> str:
    """``lookup_rule`` -> ``LookupRule``, for generated class names."""
    return "".join(part.capitalize() for part in name.replace("-", "_").split("_")) or "Prompt"


def compile_tool(
    ctx: CompileContext,
    path: JSONPath,
    name: str,
    tool: ToolDoc,
    catalog: PluginCatalog,
) -> Tool[Any, Any] | None:
    """One tool, or None when it has errors (reported). Nothing is imported.

    Declared ``params``/``result`` become generated dataclasses. When the file leaves the
    params out (or the result, for a tool with examples), the handler's own dataclasses are
    used: the tool is a ``LazyTool``, and what needs them (``reads``/``writes`` against the
    handler's params, the examples) is checked when it is bound. What the file declares is
    checked now.
    """
    paths_ok = not _declares_params(tool) or _check_paths(
        ctx, path, name, tool, {n: spec.type for n, spec in tool.params.items()}
    )
    handler = _handler(ctx, (*path, "handler"), name, tool.handler, catalog)
    if handler is None:
        return None
    types = _declared_types(name, tool)
    if _types_from_handler(tool):
        examples_ok = _check_declared_examples(ctx, (*path, "examples"), tool.examples, *types)
        if not (examples_ok and paths_ok):
            return None
        return _lazy_tool(ctx, path, name, tool, handler, types)
    params_type, result_type = types
    assert params_type is not None  # noqa: S101  # declared, or the types come from the handler
    examples = _examples(ctx, (*path, "examples"), tool.examples, params_type, result_type)
    if examples is None or not paths_ok:
        return None
    return _build(ctx, path, name, tool, handler, (params_type, result_type), examples)


_Declared = tuple[type | None, type | None]
"""The params and result classes the file declares; None for each it leaves out."""


def _declares_params(tool: ToolDoc) -> bool:
    """Whether the file writes ``params`` (``params: {}`` is a tool that takes none).

    Left out, they come from the handler: the model's empty default cannot tell the two apart.
    """
    return "params" in tool.model_fields_set


def _types_from_handler(tool: ToolDoc) -> bool:
    """Whether the handler's dataclasses are needed: params left out, or a result for examples.

    Written ``examples`` count even when empty, as the file wrote them (the result's type is
    then the handler's).
    """
    if not _declares_params(tool):
        return True
    return tool.result is None and "examples" in tool.model_fields_set


def _declared_types(name: str, tool: ToolDoc) -> _Declared:
    result = tool.result
    return (
        _fields_class(f"{pascal(name)}Params", tool.params) if _declares_params(tool) else None,
        None if result is None else _fields_class(f"{pascal(name)}Result", result),
    )


def _lazy_tool(
    ctx: CompileContext,
    path: JSONPath,
    name: str,
    tool: ToolDoc,
    handler: LazyHandler,
    declared: _Declared,
) -> Tool[Any, Any] | None:
    """The tool, typed when bound: its binding reports at the places the file names."""
    file = ctx.file

    def complete() -> tuple[Tool[Any, Any] | None, Sequence[Diagnostic]]:
        bound = CompileContext(file)
        return _complete(bound, path, name, tool, handler, declared), bound.bag.items

    try:
        return LazyTool(
            name=name,
            description=tool.description,
            handler=handler,
            accepts_overrides=tool.accepts_overrides,
            reads=tool.reads,
            writes=tool.writes,
            example_count=len(tool.examples),
            complete=complete,
        )
    except PromptValidationError as error:
        ctx.refused(DiagnosticCode.TOOL, error.message, ctx.key_span(path))
        return None


def _complete(
    ctx: CompileContext,
    path: JSONPath,
    name: str,
    tool: ToolDoc,
    handler: LazyHandler,
    declared: _Declared,
) -> Tool[Any, Any] | None:
    """The typed tool, its handler imported; None when it cannot be made (reported)."""
    problem = handler.resolve()
    if problem is not None:
        ctx.error(DiagnosticCode.HANDLER, problem, ctx.span((*path, "handler")))
        return None
    types = _handler_types(ctx, path, handler, declared)
    if types is None:
        return None
    params_type, result_type = types
    paths_ok = declared[0] is not None or _check_paths(
        ctx, path, name, tool, _field_names(params_type)
    )
    examples = _examples(ctx, (*path, "examples"), tool.examples, params_type, result_type)
    if examples is None or not paths_ok:
        return None
    return _build(ctx, path, name, tool, handler, types, examples)


def _handler_types(
    ctx: CompileContext, path: JSONPath, handler: LazyHandler, declared: _Declared
) -> tuple[type, type | None] | None:
    """The declared types, and the imported handler's for those the file leaves out."""
    # Imported here: only binding imports a handler, and only then are its types read.
    from wink_decl.plugins import handler_params_type, handler_result_type  # noqa: PLC0415

    params, result = declared
    if params is None:
        params = handler_params_type(handler.target)
    if params is None:
        ctx.error(
            DiagnosticCode.HANDLER,
            f"Handler '{handler.entry.name}' does not annotate its params with a dataclass.",
            ctx.span((*path, "handler")),
            hint="declare the tool's fields under params:",
        )
        return None
    return params, result if result is not None else handler_result_type(handler.target)


def _build(
    ctx: CompileContext,
    path: JSONPath,
    name: str,
    tool: ToolDoc,
    handler: LazyHandler,
    types: tuple[type, type | None],
    examples: list[ToolExample[Any, Any]],
) -> Tool[Any, Any] | None:
    params_type, result_type = types
    try:
        return Tool(
            name=name,
            description=tool.description,
            handler=handler,
            examples=examples,
            accepts_overrides=tool.accepts_overrides,
            params_type=params_type,
            result_type=result_type,
            reads=tool.reads,
            writes=tool.writes,
        )
    except PromptValidationError as error:
        ctx.refused(DiagnosticCode.TOOL, error.message, ctx.key_span(path))
        return None


def _field_names(params_type: type) -> dict[str, str | None]:
    """The handler's params, their types unknown (None); none for a tool that takes none."""
    if params_type is _NONE_TYPE:
        return {}
    return dict.fromkeys((f.name for f in dataclasses.fields(params_type)), None)


def _check_paths(
    ctx: CompileContext,
    path: JSONPath,
    name: str,
    tool: ToolDoc,
    params: Mapping[str, str | None],
) -> bool:
    """``reads``/``writes`` name a param of the tool, and a string one when its type is known.

    ``params`` maps each param to its declared type word, or to None when the type comes from
    the handler's dataclass (the runtime policy refuses a path that is not a string).
    """
    ok = True
    for role, param in (("reads", tool.reads), ("writes", tool.writes)):
        if param is None:
            continue
        span = ctx.span((*path, role))
        where = f"Tool '{name}' {role} the file named by param '{param}'"
        if param not in params:
            suggestion = did_you_mean_sentence(param, params)
            hint = suggestion.strip().lower() if suggestion else None
            if not params:
                hint = f"give the tool a param that holds the path, or remove {role}:"
            ctx.error(
                DiagnosticCode.UNKNOWN_PARAM,
                f"{where}, which it does not take.",
                span,
                expected=f"one of its params ({', '.join(params) or 'it takes none'})",
                hint=hint,
                suggestions=[p for p in params if suggestion and f"'{p}'" in suggestion],
            )
            ok = False
            continue
        kind = params[param]
        if kind is not None and kind != "string":
            strings = [p for p, t in params.items() if t == "string"]
            article = "an" if kind[0] in "aeiou" else "a"
            ctx.error(
                DiagnosticCode.PARAM_TYPE,
                f"{where}, which is {article} {kind}, not a string.",
                span,
                expected=f"a string param ({', '.join(strings) or 'it has none'})",
            )
            ok = False
    return ok


def _fields_class(class_name: str, fields: Mapping[str, ParamSpec]) -> type:
    return make_dataclass_for(
        class_name, tuple(spec_from_model(n, spec) for n, spec in fields.items())
    )


def _handler(
    ctx: CompileContext, path: JSONPath, tool: str, reference: str, catalog: PluginCatalog
) -> LazyHandler | None:
    found = catalog.resolve(HANDLERS, reference)
    if isinstance(found, PluginProblem):
        ctx.bag.add(found.to_diagnostic(ctx.span(path)))
        return None
    return LazyHandler(catalog, found, tool, ctx.span_later(path))


def _examples(
    ctx: CompileContext,
    path: JSONPath,
    items: Sequence[ToolExampleDoc],
    params_type: type,
    result_type: type | None,
) -> list[ToolExample[Any, Any]] | None:
    examples: list[ToolExample[Any, Any]] = []
    ok = True
    for index, item in enumerate(items):
        here = (*path, index)
        given = _parse_input(ctx, (*here, "input"), params_type, item.input)
        output = item.output
        if result_type is None and output is not None:
            ctx.error(
                DiagnosticCode.EXAMPLE,
                "This example has an output, but the tool declares no result.",
                ctx.key_span((*here, "output")),
                hint="declare the result fields under result:, or remove the output",
            )
            ok = False
            continue
        produced = (
            None
            if result_type is None
            else _parse_part(ctx, (*here, "output"), result_type, output or {})
        )
        if given is _REFUSED or (result_type is not None and produced is None):
            ok = False
            continue
        examples.append(ToolExample(item.description, given, produced))
    return examples if ok else None


def _check_declared_examples(
    ctx: CompileContext,
    path: JSONPath,
    items: Sequence[ToolExampleDoc],
    params_type: type | None,
    result_type: type | None,
) -> bool:
    """The parts of each example whose fields the file declares (None: left to the handler).

    The rest is checked when the tool is bound, with the handler's own dataclasses.
    """
    ok = True
    for index, item in enumerate(items):
        here = (*path, index)
        if params_type is not None:
            given = _parse_input(ctx, (*here, "input"), params_type, item.input)
            ok = given is not _REFUSED and ok
        if result_type is not None:
            produced = _parse_part(ctx, (*here, "output"), result_type, item.output or {})
            ok = produced is not None and ok
    return ok


_REFUSED = object()
"""What ``_parse_input`` returns for an input it reported (None is a valid input)."""


def _parse_input(ctx: CompileContext, path: JSONPath, kind: type, data: object) -> object:
    """The example's params; None for a tool that takes none (its input must be empty)."""
    if kind is not _NONE_TYPE:
        parsed = _parse_part(ctx, path, kind, data)
        return _REFUSED if parsed is None else parsed
    if data:
        ctx.error(
            DiagnosticCode.EXAMPLE,
            "This example has an input, but the tool takes no params.",
            ctx.span(path),
            hint="leave the input empty: input: {}",
        )
        return _REFUSED
    return None


def _parse_part(ctx: CompileContext, path: JSONPath, kind: type, data: object) -> object | None:
    # Imported here: most files declare no tool examples, and the parser costs start-up time.
    from wink_decl.prompt.serde import parse  # noqa: PLC0415

    try:
        parsed = cast("object", parse(kind, data))
    except ToolValidationError as error:
        ctx.error(
            DiagnosticCode.EXAMPLE,
            f"This example does not fit the declared fields: {error.message}",
            ctx.span(path),
        )
        return None
    return parsed
