"""Params: ``ParamSpec``, and the rules its field types alone cannot say.

Items only and always for arrays; default and enum values of the param's type.

``PARAM_VARIANTS`` says the same in JSON Schema, as ``if``/``then`` rules per type, so
editors flag these mistakes too (and offer true/false for a boolean's default); only "the
default is one of the enum values" is left to the model.
"""

# Annotations are evaluated as the classes are made, not left as strings: pydantic would
# compile each string again to read it, which costs start-up time (names defined further
# down are quoted).
import json
import math
from typing import Annotated, Final, Literal, cast

from pydantic import ConfigDict, JsonValue, StrictStr, model_validator

from wink_decl.diagnostics import DiagnosticCode, close_matches
from wink_decl.schema._base import DocModel, Scalar, Value, config_for
from wink_decl.schema._types import EnumDocs, NotNull, Problem, doc, semantic_error
from wink_decl.schema._words import describe

__all__ = [
    "PARAM_VARIANTS",
    "ItemSpec",
    "ParamSpec",
    "check_param",
    "fits_type",
    "param_from_text",
    "param_misfit",
    "params_field",
    "type_words",
]

_SCALARS: Final[dict[str, tuple[str, dict[str, JsonValue]]]] = {
    "string": ("text", {"type": "string"}),
    "integer": ("a whole number", {"type": "integer"}),
    "number": ("a number", {"type": "number"}),
    "boolean": ("true or false", {"type": "boolean"}),
}


def type_words(kind: str) -> str:
    """A scalar param type as authors read it: "text", "a whole number", ..."""
    return _SCALARS[kind][0]


def fits_type(kind: str, value: object) -> bool:
    """True when ``value`` is of the scalar param type ``kind`` (a bool is not a number)."""
    if kind == "string":
        return isinstance(value, str)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "integer":
        return type(value) is int
    return type(value) in (int, float)


_ITEMS: Final = {
    "string": ("text", '["a", "b"]'),
    "integer": ("whole numbers", "[1, 2]"),
    "number": ("numbers", "[0.5, 2]"),
    "boolean": ("true or false values", "[true, false]"),
}
"""Each element type of an array param: its values in words, and a list of them in JSON."""


def param_from_text(spec: "ParamSpec", text: str) -> tuple[object, str | None]:
    """Text (``--param``, a CSV cell) as a value of the declared type, or what was expected.

    Booleans are ``true`` or ``false`` (any case), numbers as Python reads them, arrays JSON.
    """
    kind = spec.type
    value: object = text
    try:
        if kind == "boolean" and text.lower() in ("true", "false"):
            value = text.lower() == "true"
        elif kind == "integer":
            value = int(text)
        elif kind == "number":
            value = float(text)
        elif kind == "array":
            value = json.loads(text)
    except ValueError:  # json.JSONDecodeError is a ValueError too
        value = None
    expected = param_misfit(spec, value)
    if expected is not None and spec.items is not None:  # an array: only arrays have items
        expected += f", written as JSON such as {_ITEMS[spec.items.type][1]}"
    return value, expected


def param_misfit(spec: "ParamSpec", value: object) -> str | None:
    """What ``value`` should have been (``a whole number``), or None when it fits ``spec``."""
    kind = spec.type
    if spec.items is not None:  # an array: only arrays have items, and every array has them
        item = spec.items.type
        items = cast("list[object]", value) if isinstance(value, list) else None
        fits = items is not None and all(_fits_finite(item, v) for v in items)
        return None if fits else f"a list of {_ITEMS[item][0]}"
    allowed = spec.enum
    if allowed is not None:
        fits = _fits_finite(kind, value) and value in allowed
        return None if fits else "one of " + ", ".join(str(v) for v in allowed)
    return None if _fits_finite(kind, value) else type_words(kind)


def _fits_finite(kind: str, value: object) -> bool:
    # Finite only: NaN and infinity have no JSON form, so no model could be shown them.
    return fits_type(kind, value) and not (isinstance(value, float) and not math.isfinite(value))


def _when(condition: dict[str, JsonValue], rule: dict[str, JsonValue]) -> dict[str, JsonValue]:
    """``if`` the param matches ``condition`` (its ``type`` given), ``then`` ``rule`` holds."""
    return {"if": {"properties": condition, "required": list(condition)}, "then": rule}


def _variants() -> list[JsonValue]:
    """One rule per scalar type, one for arrays, and one per element type of an array.

    Each is ``if``/``then``, not one branch of a ``oneOf``: a misspelled type then matches no
    ``if`` and is reported once, by the enum on ``type``, instead of once more for every
    branch; a wrong default is reported at the default, by the one rule for its type.
    """
    variants: list[JsonValue] = [
        _when(
            {"type": {"const": kind}},
            {"properties": {"items": False, "default": schema, "enum": {"items": schema}}},
        )
        for kind, (_, schema) in _SCALARS.items()
    ]
    variants.append(
        _when({"type": {"const": "array"}}, {"required": ["items"], "properties": {"enum": False}})
    )
    variants.extend(
        _when(
            {
                "type": {"const": "array"},
                "items": {"properties": {"type": {"const": kind}}, "required": ["type"]},
            },
            {"properties": {"default": {"type": "array", "items": schema}}},
        )
        for kind, (_, schema) in _SCALARS.items()
    )
    return variants


PARAM_VARIANTS: Final[list[JsonValue]] = _variants()


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
                    code=DiagnosticCode.MISSING_KEY,
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
                code=DiagnosticCode.UNKNOWN_KEY,
                at=("items",),
                key=True,
            )
        )
    if default is not None:
        problems.extend(_check_default(kind, item_kind, default, enum))
    if enum is not None and kind != "array":
        words = type_words(kind)
        problems.extend(
            Problem(
                f"'enum' values must be {words}, as 'type' is {kind}; found {describe(value)}",
                code=DiagnosticCode.TYPE,
                at=("enum", index),
            )
            for index, value in enumerate(enum)
            if not fits_type(kind, value)
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
        words = type_words(item_kind)
        return [
            Problem(
                f"Item {index + 1} of 'default' must be {words}, as 'items' is {item_kind}; "
                f"found {describe(value)}",
                code=DiagnosticCode.TYPE,
                at=("default", index),
            )
            for index, value in enumerate(values)
            if not fits_type(item_kind, value)
        ]
    if not fits_type(kind, default):
        return [_wrong_default(type_words(kind), kind, default)]
    if enum is not None and not any(fits_type(kind, v) and v == default for v in enum):
        allowed = [v for v in enum if isinstance(v, str)]
        suggestions = close_matches(default, allowed)
        return [
            Problem(
                "'default' must be one of the 'enum' values "
                f"{', '.join(describe(v) for v in enum)}; found {describe(default)}",
                code=DiagnosticCode.ENUM,
                at=("default",),
                hint=f"did you mean '{suggestions[0]}'?" if suggestions else None,
                suggestions=suggestions,
            )
        ]
    return []


def _wrong_default(words: str, kind: str, value: object) -> Problem:
    return Problem(
        f"'default' must be {words}, as 'type' is {kind}; found {describe(value)}",
        code=DiagnosticCode.TYPE,
        at=("default",),
    )


# -- the models ------------------------------------------------------------------------------------

ItemType = Annotated[
    Literal["string", "integer", "number", "boolean"],
    EnumDocs(
        (
            ("string", "Text."),
            ("integer", "A whole number."),
            ("number", "A number, whole or decimal."),
            ("boolean", "`true` or `false`."),
        )
    ),
]
ParamType = Annotated[
    Literal["string", "integer", "number", "boolean", "array"],
    EnumDocs(
        (
            ("string", "Text."),
            ("integer", "A whole number."),
            ("number", "A number, whole or decimal."),
            ("boolean", "`true` or `false`."),
            ("array", "A list; `items` gives the type of its elements."),
        )
    ),
]


class ItemSpec(DocModel):
    """The type of each element of an array param."""

    model_config = config_for("Array items", "The type of each element of an array param.")
    noun = "'items'"
    type: ItemType = doc(description="The type of every element.", examples=["string"])


class ParamSpec(DocModel):
    """A typed input: required unless it has a default."""

    model_config = ConfigDict(
        title="Param",
        json_schema_extra={
            "markdownDescription": "A typed input; required unless `default` is given.",
            "allOf": PARAM_VARIANTS,
        },
    )
    noun = "param"
    type: ParamType = doc(
        description="The value's type: string, integer, number, boolean or array.",
        examples=["string", "boolean"],
    )
    description: Annotated[StrictStr | None, NotNull()] = doc(
        None,
        description="What the param means; tools show it to the model.",
        examples=["Language of the change"],
    )
    items: Annotated[ItemSpec | None, NotNull()] = doc(
        None,
        description="For an array: the type of its elements (required for arrays only).",
        markdown="For `type: array` only, and required there: `items: {type: string}`.",
        examples=[{"type": "string"}],
    )
    default: Annotated[Value | None, NotNull()] = doc(
        None,
        description="The value used when none is given; it makes the param optional.",
        examples=[False, [], "low"],
    )
    enum: Annotated[tuple[Scalar, ...] | None, NotNull()] = doc(
        None,
        description="The only values allowed (not for arrays); a default must be one of them.",
        examples=[["low", "high"]],
        min_length=1,
    )

    def as_written(self) -> dict[str, object]:
        """The declaration as JSON data with only the keys the file wrote: as artifacts show it.

        Keys come in field order, not the file's; artifacts are written with sorted keys.
        """
        return self.model_dump(mode="json", exclude_unset=True)

    @model_validator(mode="after")
    def _consistent(self) -> "ParamSpec":
        if (
            self.items is None
            and self.enum is None
            and self.type != "array"
            and (self.default is None or fits_type(self.type, self.default))
        ):
            return self  # the common case, checked without building a list
        problems = check_param(
            self.type, None if self.items is None else self.items.type, self.default, self.enum
        )
        if problems:
            raise semantic_error(*problems)
        return self


def params_field() -> dict[str, ParamSpec]:
    """The documented ``params:`` field of the document."""
    return doc(
        {},
        description="Typed inputs by name; each is required unless it has a default.",
        markdown="Typed inputs by name, used in templates as `${name}`; each is required unless it "
        "has a `default`.\n\n```yaml\nparams:\n  language: {type: string}\n"
        "  strict: {type: boolean, default: false}\n```",
        examples=[
            {"language": {"type": "string"}, "strict": {"type": "boolean", "default": False}}
        ],
    )
