"""Resolve one annotation at a time, so one unresolvable name spoils only its own annotation."""

from __future__ import annotations

import dataclasses
import inspect
import sys
import types
import typing
from typing import Any

__all__ = ["is_dataclass_type", "namespace_of", "resolve_annotation", "type_name"]


def resolve_annotation(annotation: object, namespace: dict[str, Any]) -> object | None:
    """``annotation`` (an object or a string) evaluated in ``namespace``; None if it cannot be.

    ``typing.get_type_hints`` over a whole function fails when any one name is missing (a
    ``ToolContext`` imported only under ``TYPE_CHECKING``, say), so each is evaluated alone.
    """
    if annotation is inspect.Parameter.empty:
        return None
    holder = types.SimpleNamespace(__annotations__={"value": annotation})
    try:
        return typing.get_type_hints(holder, globalns=namespace)["value"]
    except Exception:  # noqa: BLE001  # evaluating a plugin's annotation runs its code
        return None


def namespace_of(obj: object) -> dict[str, Any]:
    """The globals ``obj``'s annotations were written in: a function's, else its module's."""
    function_globals: object = getattr(inspect.unwrap(obj), "__globals__", None)  # pyright: ignore[reportArgumentType]
    if isinstance(function_globals, dict):
        return typing.cast("dict[str, Any]", function_globals)
    module = sys.modules.get(str(getattr(obj, "__module__", "")))
    return vars(module) if module is not None else {}


def is_dataclass_type(value: object) -> typing.TypeGuard[type]:
    """Whether ``value`` is a dataclass (the class, not an instance)."""
    return isinstance(value, type) and dataclasses.is_dataclass(value)


def type_name(value: object) -> str:
    """How a type reads in a message: ``int``, ``tuple[str, ...]``, ``str | None``."""
    if isinstance(value, type):
        return value.__qualname__
    return repr(value).replace("typing.", "")
