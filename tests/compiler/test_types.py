"""Declared fields become dataclasses: scalars, arrays, enums, defaults, and the keyword guard."""

from __future__ import annotations

import dataclasses
from typing import Any, Literal

import pytest
from compiler_support import declared_spec

from wink_decl.compiler._params_dataclass import (
    FieldSpec,
    make_dataclass_for,
    python_type,
)


def test_a_declaration_becomes_a_field_spec() -> None:
    spec = declared_spec(
        "tags",
        {"type": "array", "items": {"type": "integer"}, "default": [1, 2], "description": "Tags."},
    )
    assert spec == FieldSpec(
        name="tags",
        type="array",
        description="Tags.",
        has_default=True,
        default=(1, 2),
        items="integer",
    )
    assert not spec.required
    assert declared_spec("name", {"type": "string"}).required


@pytest.mark.parametrize(
    ("data", "annotation"),
    [
        ({"type": "string"}, str),
        ({"type": "integer"}, int),
        ({"type": "number"}, float),
        ({"type": "boolean"}, bool),
        ({"type": "array", "items": {"type": "number"}}, tuple[float, ...]),
        ({"type": "string", "enum": ["low", "high"]}, Literal["low", "high"]),
        ({"type": "integer", "enum": [1, 2]}, Literal[1, 2]),
    ],
    ids=["string", "integer", "number", "boolean", "array", "enum", "int-enum"],
)
def test_python_types(data: dict[str, Any], annotation: object) -> None:
    assert python_type(declared_spec("x", data)) == annotation


def test_an_array_made_in_code_without_an_item_type_holds_text() -> None:
    # A file cannot declare one: the schema requires an array's items.
    assert python_type(FieldSpec(name="x", type="array")) == tuple[str, ...]


def test_the_dataclass_keeps_order_defaults_and_descriptions() -> None:
    specs = (
        declared_spec("level", {"type": "string", "enum": ["low", "high"], "default": "low"}),
        declared_spec("name", {"type": "string", "description": "Who."}),
    )
    made = make_dataclass_for("Params", specs)
    fields = dataclasses.fields(made)
    assert [(f.name, f.type, f.kw_only) for f in fields] == [
        ("level", Literal["low", "high"], True),
        ("name", str, True),
    ]
    assert fields[0].default == "low"
    assert fields[1].default is dataclasses.MISSING
    assert dict(fields[1].metadata) == {"description": "Who."}
    assert dict(fields[0].metadata) == {}
    assert made.__module__ == "wink_decl.compiler._params_dataclass"
    assert repr(made(name="Ada")) == "Params(level='low', name='Ada')"
    with pytest.raises(dataclasses.FrozenInstanceError):
        made(name="Ada").name = "Bob"  # pyright: ignore[reportAttributeAccessIssue]


def test_equal_declarations_share_one_class() -> None:
    specs = (declared_spec("name", {"type": "string"}),)
    assert make_dataclass_for("Params", specs) is make_dataclass_for("Params", specs)
    assert make_dataclass_for("Other", specs) is not make_dataclass_for("Params", specs)


def test_a_python_keyword_cannot_be_a_field_name() -> None:
    message = r"^'class' cannot be a field name: it is a Python keyword\.$"
    with pytest.raises(ValueError, match=message):
        make_dataclass_for("Params", (declared_spec("class", {"type": "string"}),))
