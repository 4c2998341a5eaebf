from __future__ import annotations

import datetime
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum, IntEnum
from pathlib import PurePosixPath
from types import MappingProxyType
from typing import Annotated, Any, Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wink_decl.errors import ToolValidationError
from wink_decl.prompt.serde import dump, dumps, parse


class Color(Enum):
    RED = "red"
    GREEN = "green"


class Level(IntEnum):
    LOW = 1
    HIGH = 2


class Name(str):
    __slots__ = ()


class Opaque:
    pass


@dataclass(frozen=True)
class Step:
    title: str
    done: bool = False


@dataclass(frozen=True)
class Box:
    text: str = ""
    count: int = 0
    ratio: float = 0.0
    flag: bool = False
    nothing: None = None
    maybe: int | None = None
    mode: Literal["fast", "slow"] = "fast"
    one: Literal[1] = 1
    color: Color = Color.RED
    maybe_color: Color | None = None
    names: list[str] = field(default_factory=list[str])
    steps: tuple[Step, ...] = ()
    seq: Sequence[int] = ()
    tags: frozenset[str] = frozenset()
    ids: set[int] = field(default_factory=set[int])
    point: tuple[int, int] = (0, 0)
    single: tuple[str] = ("a",)
    labels: dict[str, int] = field(default_factory=dict[str, int])
    extras: Mapping[str, str] = field(default_factory=dict[str, str])
    step: Step | None = None
    note: Annotated[str, "a note"] = ""
    blob: Any = None
    raw: object = None


@dataclass(frozen=True)
class Query:
    entity_id: str
    limit: int
    include_related: bool = False


@dataclass(frozen=True)
class Range:
    start: int
    end: int

    def __post_init__(self) -> None:
        if self.start > self.end:
            raise ValueError("start must not exceed end")


@dataclass(frozen=True)
class Window:
    range: Range


@dataclass(frozen=True)
class Total:
    values: tuple[int, ...]
    total: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "total", sum(self.values))


@dataclass(frozen=True)
class Node:
    name: str
    children: tuple[Node, ...] = ()


@dataclass(frozen=True)
class Holder:
    items: list[object]
    when: datetime.date | None = None


@dataclass(frozen=True)
class Wrapper:
    result: Holder
    note: str | None = None


@dataclass(frozen=True)
class LiteralMember:
    level: Literal[Level.HIGH]


@dataclass(frozen=True)
class Unsupported:
    value: int | str


def _message(cls: type, data: object, **kwargs: Any) -> str:
    with pytest.raises(ToolValidationError) as info:
        parse(cls, data, **kwargs)
    assert info.value.dataclass_type is cls
    return info.value.message


# --- dump ---------------------------------------------------------------------------------------


def test_dump_turns_every_supported_value_into_json_data() -> None:
    value = {
        "box": Box(seq=(1, 2), tags=frozenset({"b", "a"}), ids={3, 1, 2}, step=Step("s")),
        "level": Level.HIGH,
        "day": datetime.date(2024, 5, 1),
        "moment": datetime.datetime(2024, 5, 1, 12, 30, tzinfo=datetime.UTC),
        "path": PurePosixPath("/srv/data.txt"),
        "name": Name("n"),
        "proxy": MappingProxyType({"k": [None, 1.5]}),
    }
    assert dump(value) == {
        "box": {
            "text": "",
            "count": 0,
            "ratio": 0.0,
            "flag": False,
            "nothing": None,
            "maybe": None,
            "mode": "fast",
            "one": 1,
            "color": "red",
            "maybe_color": None,
            "names": [],
            "steps": [],
            "seq": [1, 2],
            "tags": ["a", "b"],
            "ids": [1, 2, 3],
            "point": [0, 0],
            "single": ["a"],
            "labels": {},
            "extras": {},
            "step": {"title": "s", "done": False},
            "note": "",
            "blob": None,
            "raw": None,
        },
        "level": 2,
        "day": "2024-05-01",
        "moment": "2024-05-01T12:30:00+00:00",
        "path": "/srv/data.txt",
        "name": "n",
        "proxy": {"k": [None, 1.5]},
    }


def test_dump_exclude_none_drops_none_fields_at_every_depth_but_keeps_none_items() -> None:
    value = Wrapper(Holder([None, Holder([], None)], None), None)
    assert dump(value, exclude_none=True) == {"result": {"items": [None, {"items": []}]}}
    assert dump(value) == {
        "result": {"items": [None, {"items": [], "when": None}], "when": None},
        "note": None,
    }


def test_dump_includes_init_false_fields_and_parse_accepts_them_back() -> None:
    data = dump(Total((1, 2)))
    assert data == {"values": [1, 2], "total": 3}
    assert parse(Total, data) == Total((1, 2))


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (Opaque(), "cannot serialise object of type 'Opaque'"),
        (Step, "cannot serialise object of type 'type'"),
        (
            Wrapper(Holder([1, 2, Opaque()])),
            "cannot serialise object of type 'Opaque' at 'result.items[2]'",
        ),
        ({"a": {"b c": [Opaque()]}}, "cannot serialise object of type 'Opaque' at 'a.b c[0]'"),
        ({1: "x"}, "cannot serialise mapping key of type 'int' (keys must be strings)"),
        (
            [{"a": {2: "x"}}],
            "cannot serialise mapping key of type 'int' at '[0].a' (keys must be strings)",
        ),
        (Level, "cannot serialise object of type 'EnumType'"),
    ],
    ids=[
        "root",
        "a-class",
        "dataclass-path",
        "mapping-path",
        "root-key",
        "nested-key",
        "enum-class",
    ],
)
def test_dump_names_the_type_and_path_it_cannot_serialise(value: object, message: str) -> None:
    with pytest.raises(TypeError) as info:
        dump(value)
    assert str(info.value) == message


def test_dumps_is_compact_deterministic_text_without_nones_by_default() -> None:
    value = Wrapper(Holder(["é", {3, 1}]))
    assert dumps(value) == '{"result": {"items": ["é", [1, 3]]}}'
    assert dumps(value, exclude_none=False) == (
        '{"result": {"items": ["é", [1, 3]], "when": null}, "note": null}'
    )


# --- parse: success -----------------------------------------------------------------------------


def test_parse_converts_every_supported_annotation() -> None:
    data: dict[str, object] = {
        "text": "t",
        "count": 3,
        "ratio": 2,
        "flag": True,
        "nothing": None,
        "maybe": 4,
        "mode": "slow",
        "one": 1,
        "color": "green",
        "maybe_color": None,
        "names": ("a", "b"),
        "steps": [{"title": "x", "done": True}],
        "seq": [1, 2],
        "tags": ["a", "a", "b"],
        "ids": [1],
        "point": [1, 2],
        "single": ["s"],
        "labels": {"a": 1},
        "extras": MappingProxyType({"b": "c"}),
        "step": {"title": "y"},
        "note": "n",
        "blob": [1, {"x": None}],
        "raw": {"any": "thing"},
    }
    box = parse(Box, data)
    assert box == Box(
        text="t",
        count=3,
        ratio=2.0,
        flag=True,
        nothing=None,
        maybe=4,
        mode="slow",
        one=1,
        color=Color.GREEN,
        maybe_color=None,
        names=["a", "b"],
        steps=(Step("x", done=True),),
        seq=(1, 2),
        tags=frozenset({"a", "b"}),
        ids={1},
        point=(1, 2),
        single=("s",),
        labels={"a": 1},
        extras={"b": "c"},
        step=Step("y"),
        note="n",
        blob=[1, {"x": None}],
        raw={"any": "thing"},
    )
    assert type(box.ratio) is float
    assert type(box.names) is list
    assert type(box.seq) is tuple
    assert type(box.extras) is dict


def test_parse_applies_defaults_and_default_factories() -> None:
    assert parse(Box, {}) == Box()
    assert parse(Query, {"entity_id": "e", "limit": 1}) == Query("e", 1, include_related=False)


def test_parse_extra_ignore_drops_unknown_keys_at_every_depth() -> None:
    data: dict[str, object] = {"title": "t", "x": 1, "children": []}
    assert parse(Step, data, extra="ignore") == Step("t")
    nested = {"name": "a", "zzz": 0, "children": [{"name": "b", "extra": True}]}
    assert parse(Node, nested, extra="ignore") == Node("a", (Node("b"),))


def test_parse_handles_self_referential_dataclasses() -> None:
    data = {"name": "a", "children": [{"name": "b", "children": [{"name": "c"}]}]}
    assert parse(Node, data) == Node("a", (Node("b", (Node("c"),)),))


def test_parse_of_a_literal_enum_member_returns_the_member() -> None:
    assert parse(LiteralMember, {"level": 2}) == LiteralMember(Level.HIGH)


# --- parse: errors ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"text": 1}, "Field 'text' must be a string, got integer."),
        ({"text": (1,)}, "Field 'text' must be a string, got array."),
        ({"text": {"a": 1}}, "Field 'text' must be a string, got object."),
        ({"text": MappingProxyType({"k": "v"})}, "Field 'text' must be a string, got object."),
        ({"text": datetime.date(2024, 1, 1)}, "Field 'text' must be a string, got date."),
        ({"count": True}, "Field 'count' must be an integer, got boolean."),
        ({"count": 1.5}, "Field 'count' must be an integer, got number."),
        ({"ratio": "1"}, "Field 'ratio' must be a number, got string."),
        ({"ratio": False}, "Field 'ratio' must be a number, got boolean."),
        ({"flag": 0}, "Field 'flag' must be a boolean, got integer."),
        ({"nothing": 0}, "Field 'nothing' must be null, got integer."),
        ({"maybe": "x"}, "Field 'maybe' must be an integer or null, got string."),
        ({"mode": "medium"}, 'Field \'mode\' must be one of "fast", "slow", got "medium".'),
        ({"mode": ["fast"]}, 'Field \'mode\' must be one of "fast", "slow", got array.'),
        ({"one": True}, "Field 'one' must be one of 1, got true."),
        ({"color": "blue"}, 'Field \'color\' must be one of "red", "green", got "blue".'),
        (
            {"maybe_color": 1},
            'Field \'maybe_color\' must be one of "red", "green", null, got 1.',
        ),
        ({"names": "abc"}, "Field 'names' must be an array, got string."),
        (
            {"names": ["a", 2, None]},
            "Field 'names[1]' must be a string, got integer. "
            "Field 'names[2]' must be a string, got null.",
        ),
        (
            {"steps": [{"title": "a"}, {"title": None}]},
            "Field 'steps[1].title' must be a string, got null.",
        ),
        ({"steps": [dict[str, object]()]}, "Missing required field 'steps[0].title'."),
        (
            {"steps": [{"title": "a", "x": 1}]},
            "Unknown field 'steps[0].x' (allowed: title, done).",
        ),
        ({"steps": ["a"]}, "Field 'steps[0]' must be an object, got string."),
        ({"point": [1]}, "Field 'point' must be an array of 2 items, got 1 item."),
        ({"point": "ab"}, "Field 'point' must be an array of 2 items, got string."),
        ({"point": [1, "b"]}, "Field 'point[1]' must be an integer, got string."),
        ({"single": []}, "Field 'single' must be an array of 1 item, got 0 items."),
        ({"labels": []}, "Field 'labels' must be an object, got array."),
        ({"labels": {"a": "x"}}, "Field 'labels.a' must be an integer, got string."),
        ({"labels": {1: 2}}, "Field 'labels' must be an object with string keys, got key 1."),
        ({"step": "x"}, "Field 'step' must be an object or null, got string."),
        ({"step": {"title": 1}}, "Field 'step.title' must be a string, got integer."),
        ({"note": 5}, "Field 'note' must be a string, got integer."),
        (
            {1: "x"},
            "Unknown field '1' (allowed: text, count, ratio, flag, nothing, maybe, mode, one, "
            "color, maybe_color, names, steps, seq, tags, ids, point, single, labels, extras, "
            "step, note, blob, raw).",
        ),
    ],
    ids=[
        "str-int",
        "str-tuple",
        "str-dict",
        "str-mapping",
        "str-date",
        "int-bool",
        "int-float",
        "float-str",
        "float-bool",
        "bool-int",
        "null-int",
        "optional-str",
        "literal-value",
        "literal-unhashable",
        "literal-bool-vs-int",
        "enum-value",
        "optional-enum",
        "array-str",
        "array-items",
        "nested-item-field",
        "nested-item-missing",
        "nested-item-unknown",
        "nested-item-not-object",
        "tuple-short",
        "tuple-str",
        "tuple-item",
        "tuple-one",
        "mapping-array",
        "mapping-value",
        "mapping-key",
        "optional-object",
        "optional-object-field",
        "annotated",
        "non-str-key",
    ],
)
def test_parse_reports_the_field_and_the_expected_json_type(data: object, message: str) -> None:
    assert _message(Box, data) == message


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "Expected an object, got array."),
        ("x", "Expected an object, got string."),
        (None, "Expected an object, got null."),
        (
            {"limit": "10", "foo": 1, "include_related": "yes", "bar": 2},
            "Missing required field 'entity_id'. "
            "Field 'limit' must be an integer, got string. "
            "Field 'include_related' must be a boolean, got string. "
            "Unknown field 'foo' (allowed: entity_id, limit, include_related). "
            "Unknown field 'bar' (allowed: entity_id, limit, include_related).",
        ),
    ],
    ids=["array", "string", "null", "all-problems-in-field-order"],
)
def test_parse_reports_every_problem_of_the_root(data: object, message: str) -> None:
    assert _message(Query, data) == message


def test_parse_turns_post_init_errors_into_validation_errors() -> None:
    assert _message(Range, {"start": 2, "end": 1}) == "start must not exceed end"
    data = {"range": {"start": 2, "end": 1}}
    assert _message(Window, data) == "Field 'range': start must not exceed end"


def test_parse_rejects_init_false_fields_only_as_unknown_when_misspelt() -> None:
    assert _message(Total, {"values": [], "nope": 1}) == "Unknown field 'nope' (allowed: values)."


def test_parse_reports_deep_paths_in_self_referential_data() -> None:
    data = {"name": "a", "children": [{"name": "b", "children": [{"name": 1}]}]}
    assert (
        _message(Node, data)
        == "Field 'children[0].children[0].name' must be a string, got integer."
    )


@pytest.mark.parametrize(
    ("cls", "message"),
    [
        (int, "expected a dataclass type, got int"),
        (Unsupported, "field 'Unsupported.value': unsupported type annotation: int | str"),
    ],
    ids=["not-a-dataclass", "unsupported-annotation"],
)
def test_parse_raises_type_error_for_classes_it_cannot_build(cls: type, message: str) -> None:
    with pytest.raises(TypeError) as info:
        parse(cls, {})
    assert str(info.value) == message


# --- round trip ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Leaf:
    label: str
    weight: float
    color: Color
    note: str | None = None


@dataclass(frozen=True)
class Tree:
    name: str
    count: int
    leaves: tuple[Leaf, ...]
    tags: frozenset[str]
    scores: dict[str, int]
    mode: Literal["a", "b"]
    best: Leaf | None
    point: tuple[int, bool]


_leaves = st.builds(
    Leaf,
    label=st.text(),
    weight=st.floats(allow_nan=False, allow_infinity=False),
    color=st.sampled_from(Color),
    note=st.none() | st.text(),
)

_trees = st.builds(
    Tree,
    name=st.text(),
    count=st.integers(),
    leaves=st.lists(_leaves, max_size=4).map(tuple),
    tags=st.frozensets(st.text(), max_size=4),
    scores=st.dictionaries(st.text(), st.integers(), max_size=4),
    mode=st.sampled_from(["a", "b"]),
    best=st.none() | _leaves,
    point=st.tuples(st.integers(), st.booleans()),
)


@given(_trees)
def test_parse_of_dumped_json_gives_back_the_same_value(tree: Tree) -> None:
    assert parse(Tree, json.loads(dumps(tree, exclude_none=False))) == tree
