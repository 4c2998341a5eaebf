"""Check a loaded handler against the runtime's rules and read its params and result types."""

from __future__ import annotations

import inspect
import typing
from dataclasses import dataclass
from typing import TYPE_CHECKING

from wink_decl.errors import PromptValidationError
from wink_decl.plugins._annotations import is_dataclass_type, namespace_of, resolve_annotation
from wink_decl.plugins._catalog import PluginEntry
from wink_decl.prompt.callables import builtin_name
from wink_decl.prompt.tool import Tool
from wink_decl.prompt.tool_result import ToolResult

if TYPE_CHECKING:
    from wink_decl.prompt.tool import ToolHandler

__all__ = ["check_handler", "handler_params_type", "handler_result_type"]

_PROBE_NAME = "plugin"
_NONE_TYPE = type(None)
_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


@dataclass(frozen=True)
class _ProbeParams:
    """A stand-in params type, so that building the probe ``Tool`` checks only the handler."""


def check_handler(obj: object, *, name: str, entry: PluginEntry) -> str | None:
    """Why ``obj`` cannot be the handler of tool ``name``, or None when it can.

    The rule is the runtime's own: ``Tool`` is built around ``obj`` and its refusal reworded
    to name the entry point and its distribution, as pluggy names a hook implementation.
    Builtins are refused before ``Tool`` sees them, in words that do not depend on what
    ``inspect`` reads from C on this Python.
    """
    builtin = builtin_name(obj)
    if builtin is not None:
        return (
            f"Handler {entry.label} for tool '{name}' is the builtin '{builtin}', not a function "
            "with the signature (params, *, context)."
        )
    try:
        Tool(
            name=_PROBE_NAME,
            description=_PROBE_NAME,
            handler=typing.cast("ToolHandler[_ProbeParams, object]", obj),
            params_type=_ProbeParams,
        )
    except PromptValidationError as error:
        reason = error.message.removeprefix(f"Tool '{_PROBE_NAME}' handler ")
        return f"Handler {entry.label} for tool '{name}' {reason}"
    return None


def handler_params_type(obj: object) -> type | None:
    """The dataclass annotated on the handler's first positional parameter, if there is one.

    ``type(None)`` when that parameter is annotated ``None``: the tool takes no params
    (``Tool[None, R]``), and the handler is called with ``None``.
    """
    signature = _signature(obj)
    if signature is None:
        return None
    first = next((p for p in signature.parameters.values() if p.kind in _POSITIONAL), None)
    if first is None:
        return None
    hint = resolve_annotation(first.annotation, namespace_of(obj))
    return hint if hint is _NONE_TYPE or is_dataclass_type(hint) else None


def handler_result_type(obj: object) -> type | None:
    """``X`` from a ``-> ToolResult[X]`` annotation when ``X`` is a dataclass, else None."""
    signature = _signature(obj)
    if signature is None:
        return None
    hint = resolve_annotation(signature.return_annotation, namespace_of(obj))
    if typing.get_origin(hint) is not ToolResult:
        return None
    value = typing.get_args(hint)[0]
    return value if is_dataclass_type(value) else None


def _signature(obj: object) -> inspect.Signature | None:
    try:
        return inspect.signature(obj)  # pyright: ignore[reportArgumentType]
    except (TypeError, ValueError):
        return None
