from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum, IntEnum
from typing import Annotated, Any, Generic, Literal, TypeVar, cast

import pytest

from wink_decl.prompt._typeinfo import Kind, TypeNode, classify
from wink_decl.prompt.tool_schema import (
    ToolSpecSource,
    field_descriptions,
    params_json_schema,
    to_anthropic_tools,
    to_openai_tools,
)

T = TypeVar("T")


class Color(Enum):
    RED = "red"
    GREEN = "green"


class Level(IntEnum):
    LOW = 1
    HIGH = 2


class Mixed(Enum):
    TEXT = "text"
    NUMBER = 1


class Empty(Enum):
    pass


class Shape(Enum):
    SQUARE = (1, 2)


@dataclass(frozen=True)
class Filter:
    field_name: str = field(metadata={"description": "The field to match."})
    value: str | None = None


@dataclass(frozen=True)
class Search:
    query: str = field(metadata={"description": "What to look for."})
    limit: int = field(default=10, metadata={"description": "How many results."})
    ratio: float = 0.5
    exact: bool = False
    nothing: None = None
    mode: Literal["fast", "slow"] = "fast"
    mixed: Literal["a", 1] = "a"
    color: Color = Color.RED
    level: Level | None = None
    mixed_enum: Mixed = Mixed.TEXT
    empty: Empty | None = None
    tags: tuple[str, ...] = ()
    names: list[str] = field(default_factory=lambda: ["a"])
    seq: Sequence[int] = (1, 2)
    ids: frozenset[int] = frozenset({3})
    point: tuple[int, str] = (0, "x")
    labels: Mapping[str, float] = field(default_factory=dict[str, float])
    filters: tuple[Filter, ...] = ()
    main_filter: Filter | None = None
    note: Annotated[str, "metadata"] = ""
    blob: Any = None
    raw: object = field(default_factory=object)


_FILTER_SCHEMA: dict[str, object] = {
    "type": "object",
    "properties": {
        "field_name": {"type": "string", "description": "The field to match."},
        "value": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
    },
    "required": ["field_name"],
    "additionalProperties": False,
}


def test_params_json_schema_covers_every_annotation() -> None:
    assert params_json_schema(Search) == {
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "What to look for."},
            "limit": {"type": "integer", "description": "How many results.", "default": 10},
            "ratio": {"type": "number", "default": 0.5},
            "exact": {"type": "boolean", "default": False},
            "nothing": {"type": "null", "default": None},
            "mode": {"type": "string", "enum": ["fast", "slow"], "default": "fast"},
            "mixed": {"enum": ["a", 1], "default": "a"},
            "color": {"type": "string", "enum": ["red", "green"], "default": "red"},
            "level": {
                "anyOf": [{"type": "integer", "enum": [1, 2]}, {"type": "null"}],
                "default": None,
            },
            "mixed_enum": {"enum": ["text", 1], "default": "text"},
            "empty": {"anyOf": [{"enum": []}, {"type": "null"}], "default": None},
            "tags": {"type": "array", "items": {"type": "string"}, "default": []},
            "names": {"type": "array", "items": {"type": "string"}, "default": ["a"]},
            "seq": {"type": "array", "items": {"type": "integer"}, "default": [1, 2]},
            "ids": {"type": "array", "items": {"type": "integer"}, "default": [3]},
            "point": {
                "type": "array",
                "items": [{"type": "integer"}, {"type": "string"}],
                "minItems": 2,
                "maxItems": 2,
                "default": [0, "x"],
            },
            "labels": {
                "type": "object",
                "additionalProperties": {"type": "number"},
                "default": {},
            },
            "filters": {"type": "array", "items": _FILTER_SCHEMA, "default": []},
            "main_filter": {"anyOf": [_FILTER_SCHEMA, {"type": "null"}], "default": None},
            "note": {"type": "string", "default": ""},
            "blob": {"default": None},
            "raw": {},
        },
        "required": ["query"],
        "additionalProperties": False,
    }


@dataclass(frozen=True)
class NoArgsNeeded:
    verbose: bool = False


def test_params_json_schema_omits_required_when_every_field_has_a_default() -> None:
    assert params_json_schema(NoArgsNeeded) == {
        "type": "object",
        "properties": {"verbose": {"type": "boolean", "default": False}},
        "additionalProperties": False,
    }


def test_params_json_schema_returns_a_fresh_copy_each_call() -> None:
    first = params_json_schema(Filter)
    first["additionalProperties"] = True
    cast("dict[str, object]", first["properties"]).clear()
    assert params_json_schema(Filter) == _FILTER_SCHEMA


@dataclass(frozen=True)
class Node:
    name: str
    children: tuple[Node, ...] = ()


@dataclass(frozen=True)
class Outer:
    tree: Node


@dataclass(frozen=True)
class Ping:
    pong: Pong | None


@dataclass(frozen=True)
class Pong:
    ping: Ping


@dataclass(frozen=True)
class Unsupported:
    value: int | str


@dataclass(frozen=True)
class UnsupportedOptionalUnion:
    value: int | str | None


@dataclass(frozen=True)
class UnsupportedClass:
    value: bytes


@dataclass(frozen=True)
class UnsupportedGeneric:
    value: Callable[[int], int]


@dataclass(frozen=True)
class UnsupportedTypeVar(Generic[T]):
    value: T


@dataclass(frozen=True)
class UnsupportedLiteral:
    value: Literal[b"x"]


@dataclass(frozen=True)
class UnsupportedEnum:
    value: Shape


@dataclass(frozen=True)
class UnsupportedKeys:
    value: dict[int, str]


@dataclass(frozen=True)
class BadDescription:
    value: int = field(metadata={"description": 5})


@pytest.mark.parametrize(
    ("cls", "message"),
    [
        (int, "expected a dataclass type, got int"),
        (Filter("x"), "expected a dataclass type, got Filter(field_name='x', value=None)"),
        (
            Node,
            "cannot build a JSON schema for recursive dataclass 'Node' "
            "(Node.children -> Node); inlined schemas cannot refer to themselves",
        ),
        (
            Outer,
            "cannot build a JSON schema for recursive dataclass 'Node' "
            "(Outer.tree -> Node.children -> Node); inlined schemas cannot refer to themselves",
        ),
        (
            Ping,
            "cannot build a JSON schema for recursive dataclass 'Ping' "
            "(Ping.pong -> Pong.ping -> Ping); inlined schemas cannot refer to themselves",
        ),
        (Unsupported, "field 'Unsupported.value': unsupported type annotation: int | str"),
        (
            UnsupportedOptionalUnion,
            "field 'UnsupportedOptionalUnion.value': unsupported type annotation: int | str | None",
        ),
        (UnsupportedClass, "field 'UnsupportedClass.value': unsupported type annotation: bytes"),
        (
            UnsupportedGeneric,
            "field 'UnsupportedGeneric.value': "
            "unsupported type annotation: collections.abc.Callable[[int], int]",
        ),
        (UnsupportedTypeVar, "field 'UnsupportedTypeVar.value': unsupported type annotation: ~T"),
        (
            UnsupportedLiteral,
            "field 'UnsupportedLiteral.value': choice values must be JSON scalars, got b'x'",
        ),
        (
            UnsupportedEnum,
            "field 'UnsupportedEnum.value': "
            "choice values must be JSON scalars, got <Shape.SQUARE: (1, 2)>",
        ),
        (UnsupportedKeys, "field 'UnsupportedKeys.value': mapping keys must be str, got int"),
        (BadDescription, "field 'BadDescription.value': description must be a string"),
    ],
    ids=[
        "not-a-class",
        "an-instance",
        "self-reference",
        "nested-self-reference",
        "mutual-reference",
        "union",
        "optional-union",
        "class",
        "generic",
        "typevar",
        "literal-bytes",
        "enum-tuple-value",
        "int-keys",
        "description-not-str",
    ],
)
def test_params_json_schema_raises_type_error_for_what_it_cannot_describe(
    cls: object, message: str
) -> None:
    with pytest.raises(TypeError) as info:
        params_json_schema(cast("type", cls))
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("annotation", "node"),
    [
        (list, TypeNode(Kind.ARRAY, args=(TypeNode(Kind.ANY),), target=list)),
        (tuple, TypeNode(Kind.ARRAY, args=(TypeNode(Kind.ANY),), target=tuple)),
        (Sequence, TypeNode(Kind.ARRAY, args=(TypeNode(Kind.ANY),), target=tuple)),
        (frozenset, TypeNode(Kind.ARRAY, args=(TypeNode(Kind.ANY),), target=frozenset)),
        (set, TypeNode(Kind.ARRAY, args=(TypeNode(Kind.ANY),), target=set)),
        (dict, TypeNode(Kind.MAPPING, args=(TypeNode(Kind.ANY),))),
        (Mapping, TypeNode(Kind.MAPPING, args=(TypeNode(Kind.ANY),))),
        (tuple[()], TypeNode(Kind.TUPLE)),
        (None, TypeNode(Kind.NONE)),
        (Filter, TypeNode(Kind.DATACLASS, target=Filter)),
    ],
    ids=[
        "list",
        "tuple",
        "sequence",
        "frozenset",
        "set",
        "dict",
        "mapping",
        "empty-tuple",
        "none",
        "dataclass",
    ],
)
def test_classify_reads_bare_generics_as_containers_of_any(
    annotation: object, node: TypeNode
) -> None:
    assert classify(annotation) == node


def test_field_descriptions_lists_only_described_fields() -> None:
    assert field_descriptions(Search) == {
        "query": "What to look for.",
        "limit": "How many results.",
    }
    assert field_descriptions(NoArgsNeeded) == {}


@dataclass(frozen=True)
class FakeTool:
    name: str
    description: str
    params_type: type | None


_TOOLS: tuple[ToolSpecSource, ...] = (
    FakeTool("filter", "Filter the results.", Filter),
    FakeTool("reset", "Start over.", None),
)

_NO_PARAMS: dict[str, object] = {"type": "object", "properties": {}, "additionalProperties": False}


def test_to_openai_tools_wraps_each_tool_as_a_function() -> None:
    assert to_openai_tools(_TOOLS) == [
        {
            "type": "function",
            "function": {
                "name": "filter",
                "description": "Filter the results.",
                "parameters": _FILTER_SCHEMA,
            },
        },
        {
            "type": "function",
            "function": {"name": "reset", "description": "Start over.", "parameters": _NO_PARAMS},
        },
    ]


def test_to_anthropic_tools_gives_each_tool_an_input_schema() -> None:
    assert to_anthropic_tools(iter(_TOOLS)) == [
        {"name": "filter", "description": "Filter the results.", "input_schema": _FILTER_SCHEMA},
        {"name": "reset", "description": "Start over.", "input_schema": _NO_PARAMS},
    ]
