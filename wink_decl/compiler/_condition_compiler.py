"""Declarative conditions (``enabled``, ``summary_when``) compiled to runtime predicates."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, cast

from wink_decl.compiler._context import CompileContext
from wink_decl.compiler._lazy import LazyPredicate
from wink_decl.compiler._readable import readable_mapping
from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.loader import JSONPath
from wink_decl.suggestions import did_you_mean_sentence

__all__ = ["Check", "compile_condition"]

Check = Callable[[Any, Any], bool]
"""``(params, session) -> bool``."""


Predicates = Callable[[JSONPath, str], "LazyPredicate | None"]


def compile_condition(
    ctx: CompileContext,
    path: JSONPath,
    data: object,
    *,
    params: Mapping[str, object],
    predicates: Predicates,
) -> bool | Check | None:
    """A constant, a check, or None when the condition has errors (already reported)."""
    if isinstance(data, bool):
        return data
    if not isinstance(data, Mapping) or len(data) != 1:  # pyright: ignore[reportUnknownArgumentType]
        return None  # the schema already reported the shape
    shape = cast("Mapping[str, Any]", data)
    ((kind, value),) = shape.items()
    compiler = _KINDS.get(kind)
    if compiler is None:
        return None  # the schema already reported the kind
    return compiler(ctx, (*path, kind), value, params, predicates)


def _predicate(
    ctx: CompileContext,
    path: JSONPath,
    value: Any,
    params: Mapping[str, object],
    predicates: Predicates,
) -> bool | Check | None:
    del ctx, params
    found = predicates(path, str(value))
    return None if found is None else found.check


def _not(
    ctx: CompileContext,
    path: JSONPath,
    value: Any,
    params: Mapping[str, object],
    predicates: Predicates,
) -> bool | Check | None:
    return _negate(compile_condition(ctx, path, value, params=params, predicates=predicates))


def _all_or_any(kind: str) -> _Compiler:
    def combine(
        ctx: CompileContext,
        path: JSONPath,
        value: Any,
        params: Mapping[str, object],
        predicates: Predicates,
    ) -> bool | Check | None:
        items = cast("list[Any]", value)
        parts = [
            compile_condition(ctx, (*path, i), item, params=params, predicates=predicates)
            for i, item in enumerate(items)
        ]
        return _combine(kind, parts)

    return combine


def _known(ctx: CompileContext, path: JSONPath, name: str, params: Mapping[str, object]) -> bool:
    if name in params:
        return True
    declared = ", ".join(params) or "none"
    suggestion = did_you_mean_sentence(name, params)
    ctx.error(
        DiagnosticCode.UNKNOWN_PARAM,
        f"Condition uses param '{name}', which is not declared.",
        ctx.span(path),
        expected=f"a declared param ({declared})",
        hint=suggestion.strip().lower() if suggestion else "declare it under params:",
        suggestions=[s for s in params if suggestion and f"'{s}'" in suggestion],
    )
    return False


def _param(
    ctx: CompileContext,
    path: JSONPath,
    name: Any,
    params: Mapping[str, object],
    predicates: Predicates,
) -> bool | Check | None:
    del predicates
    field = str(name)
    if not _known(ctx, path, field, params):
        return None
    return lambda p, _s: bool(getattr(p, field))


def _equals(
    ctx: CompileContext,
    path: JSONPath,
    spec: Any,
    params: Mapping[str, object],
    predicates: Predicates,
) -> bool | Check | None:
    del predicates
    shape = readable_mapping(spec)
    field = str(shape.get("param"))
    if not _known(ctx, (*path, "param"), field, params):
        return None
    expected: object = shape.get("value")
    return lambda p, _s: getattr(p, field) == expected  # the schema allows scalars only


def _negate(inner: bool | Check | None) -> bool | Check | None:
    if inner is None:
        return None
    if isinstance(inner, bool):
        return not inner
    return lambda p, s: not inner(p, s)


def _combine(kind: str, parts: list[bool | Check | None]) -> bool | Check | None:
    """``all``/``any`` of the parts; constants fold away so plain files stay plain."""
    if any(part is None for part in parts):
        return None
    checks = [part for part in parts if callable(part)]
    constants = {part for part in parts if isinstance(part, bool)}
    deciding = kind != "all"  # any: one True decides; all: one False decides
    if deciding in constants:
        return deciding
    if not checks:
        return not deciding
    test = any if deciding else all
    return lambda p, s: test(check(p, s) for check in checks)


_Compiler = Callable[
    [CompileContext, JSONPath, Any, Mapping[str, object], Predicates], "bool | Check | None"
]
_KINDS: dict[str, _Compiler] = {
    "param": _param,
    "equals": _equals,
    "predicate": _predicate,
    "not": _not,
    "all": _all_or_any("all"),
    "any": _all_or_any("any"),
}
