"""Declarative conditions (``enabled``, ``summary_when``) compiled to runtime predicates."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Literal

from wink_decl.compiler._context import CompileContext
from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.loader import JSONPath
from wink_decl.schema import (
    AllCondition,
    AnyCondition,
    Condition,
    EqualsCondition,
    NotCondition,
    ParamCondition,
    PredicateCondition,
)
from wink_decl.suggestions import did_you_mean_sentence

if TYPE_CHECKING:
    from wink_decl.compiler._lazy import LazyPredicate

__all__ = ["Check", "compile_condition"]

Check = Callable[[object, object], bool]
"""``(params, session) -> bool``."""


Predicates = Callable[[JSONPath, str], "LazyPredicate | None"]


def compile_condition(
    ctx: CompileContext,
    path: JSONPath,
    condition: Condition,
    *,
    params: Mapping[str, object],
    predicates: Predicates,
) -> bool | Check | None:
    """A constant, a check, or None when the condition has errors (already reported).

    ``path`` is where the condition is in the file; each kind's key extends it (the JSON path
    of ``{not: ...}`` ends in ``"not"``, the file's key, not the model's field name).
    """
    match condition:
        case bool():
            return condition
        case NotCondition(not_=inner):
            compiled = compile_condition(
                ctx, (*path, "not"), inner, params=params, predicates=predicates
            )
            return _negate(compiled)
        case AllCondition(all_=items):
            return _all_or_any(ctx, (*path, "all"), "all", items, params, predicates)
        case AnyCondition(any_=items):
            return _all_or_any(ctx, (*path, "any"), "any", items, params, predicates)
        case _:
            return _reference(ctx, path, condition, params, predicates)


def _reference(
    ctx: CompileContext,
    path: JSONPath,
    condition: ParamCondition | EqualsCondition | PredicateCondition,
    params: Mapping[str, object],
    predicates: Predicates,
) -> bool | Check | None:
    """A condition that names a param or a predicate, checked against what is declared."""
    match condition:
        case ParamCondition(param=name):
            return _param(ctx, (*path, "param"), name, params)
        case EqualsCondition(equals=spec):
            return _param_equals(ctx, (*path, "equals", "param"), spec.param, spec.value, params)
        case _:  # a predicate, the one kind left
            found = predicates((*path, "predicate"), condition.predicate)
            return None if found is None else found.check


def _all_or_any(
    ctx: CompileContext,
    path: JSONPath,
    kind: Literal["all", "any"],
    items: Sequence[Condition],
    params: Mapping[str, object],
    predicates: Predicates,
) -> bool | Check | None:
    parts = [
        compile_condition(ctx, (*path, i), item, params=params, predicates=predicates)
        for i, item in enumerate(items)
    ]
    return _combine(kind, parts)


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
    ctx: CompileContext, path: JSONPath, field: str, params: Mapping[str, object]
) -> bool | Check | None:
    if not _known(ctx, path, field, params):
        return None
    return lambda p, _s: bool(getattr(p, field))


def _param_equals(
    ctx: CompileContext,
    path: JSONPath,
    field: str,
    expected: object,
    params: Mapping[str, object],
) -> bool | Check | None:
    if not _known(ctx, path, field, params):
        return None
    return lambda p, _s: getattr(p, field) == expected  # the schema allows scalars only


def _negate(inner: bool | Check | None) -> bool | Check | None:
    if inner is None:
        return None
    if isinstance(inner, bool):
        return not inner
    return lambda p, s: not inner(p, s)


def _combine(kind: Literal["all", "any"], parts: list[bool | Check | None]) -> bool | Check | None:
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
