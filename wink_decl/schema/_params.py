"""Param rules the field types cannot say alone: items iff array, default and enum fit the type.

``PARAM_RULES`` says the same in JSON Schema (draft-07 ``if``/``then``) so editors flag these
mistakes too; only "the default is one of the enum values" is left to the model.
"""

from __future__ import annotations

from typing import Any, Final

from wink_decl.schema._types import Problem
from wink_decl.schema._words import close_matches, describe

__all__ = ["PARAM_RULES", "check_param"]

_SCALARS: Final[dict[str, tuple[str, dict[str, Any]]]] = {
    "string": ("text", {"type": "string"}),
    "integer": ("a whole number", {"type": "integer"}),
    "number": ("a number", {"type": "number"}),
    "boolean": ("true or false", {"type": "boolean"}),
}


def _fits(kind: str, value: object) -> bool:
    if kind == "string":
        return isinstance(value, str)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "integer":
        return type(value) is int
    return type(value) in (int, float)


def _is_type(kind: str) -> dict[str, Any]:
    return {"properties": {"type": {"const": kind}}, "required": ["type"]}


def _rules() -> list[dict[str, Any]]:
    rules: list[dict[str, Any]] = [
        {
            "if": _is_type(kind),
            "then": {
                "properties": {"default": schema, "enum": {"items": schema}},
                "not": {"required": ["items"]},
            },
        }
        for kind, (_, schema) in _SCALARS.items()
    ]
    rules.append(
        {
            "if": _is_type("array"),
            "then": {
                "required": ["items"],
                "properties": {"default": {"type": "array"}},
                "not": {"required": ["enum"]},
            },
        }
    )
    rules.extend(
        {
            "if": {
                "properties": {"items": {"properties": {"type": {"const": kind}}}},
                "required": ["items"],
            },
            "then": {"properties": {"default": {"items": schema}}},
        }
        for kind, (_, schema) in _SCALARS.items()
    )
    return rules


PARAM_RULES: Final[list[dict[str, Any]]] = _rules()


def check_param(
    kind: str, item_kind: str | None, default: object, enum: tuple[object, ...] | None
) -> list[Problem]:
    """Every inconsistency between a param's type, items, default and enum."""
    problems: list[Problem] = []
    if kind == "array":
        if item_kind is None:
            problems.append(
                Problem(
                    "An array param needs 'items', such as {type: string}.",
                    code="missing-key",
                    at=("type",),
                )
            )
        if enum is not None:
            problems.append(
                Problem(
                    "'enum' is for string, integer, number and boolean params, not arrays.",
                    at=("enum",),
                    key=True,
                )
            )
    elif item_kind is not None:
        problems.append(
            Problem(
                f"'items' is only for array params; this one is {kind}.",
                code="unknown-key",
                at=("items",),
                key=True,
            )
        )
    if default is not None:
        problems.extend(_check_default(kind, item_kind, default, enum))
    if enum is not None and kind != "array":
        words = _SCALARS[kind][0]
        problems.extend(
            Problem(
                f"'enum' values must be {words}, as 'type' is {kind}; found {describe(value)}",
                code="type",
                at=("enum", index),
            )
            for index, value in enumerate(enum)
            if not _fits(kind, value)
        )
    return problems


def _check_default(
    kind: str, item_kind: str | None, default: object, enum: tuple[object, ...] | None
) -> list[Problem]:
    if kind == "array":
        if not isinstance(default, tuple):
            return [_wrong_default("a list", kind, default)]
        if item_kind is None:
            return []
        values: tuple[object, ...] = default  # pyright: ignore[reportUnknownVariableType]
        words = _SCALARS[item_kind][0]
        return [
            Problem(
                f"Item {index + 1} of 'default' must be {words}, as 'items' is {item_kind}; "
                f"found {describe(value)}",
                code="type",
                at=("default", index),
            )
            for index, value in enumerate(values)
            if not _fits(item_kind, value)
        ]
    if not _fits(kind, default):
        return [_wrong_default(_SCALARS[kind][0], kind, default)]
    if enum is not None and not any(_fits(kind, v) and v == default for v in enum):
        allowed = [v for v in enum if isinstance(v, str)]
        suggestions = close_matches(default, allowed)
        return [
            Problem(
                "'default' must be one of the 'enum' values "
                f"{', '.join(describe(v) for v in enum)}; found {describe(default)}",
                code="enum",
                at=("default",),
                hint=f"did you mean '{suggestions[0]}'?" if suggestions else None,
                suggestions=suggestions,
            )
        ]
    return []


def _wrong_default(words: str, kind: str, value: object) -> Problem:
    return Problem(
        f"'default' must be {words}, as 'type' is {kind}; found {describe(value)}",
        code="type",
        at=("default",),
    )
