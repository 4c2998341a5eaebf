"""``ParamHint``: each parameter's description, type and default in the words a model reads."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from wink_decl import ParamHint
from wink_decl.prompt.param_hints import param_hints


class Colour(enum.Enum):
    RED = "red"


class Odd:
    def __repr__(self) -> str:
        return "Odd()"


@dataclass(frozen=True)
class Inner:
    value: int = 0


@dataclass(frozen=True)
class Every:
    text: str = field(metadata={"description": "Some text."})
    count: int = 3
    ratio: float = 0.5
    flag: bool = True
    nothing: None = None
    anything: Any = None
    maybe: str | None = None
    choice: Literal["a", 1] = "a"
    colour: Colour = Colour.RED
    inner: Inner = field(default_factory=Inner)
    items: list[str] = field(default_factory=list[str])
    pair: tuple[int, str] = (1, "x")
    table: Mapping[str, float] = field(default_factory=dict[str, float])
    odd: object = field(default_factory=Odd)


def test_every_kind_of_parameter_reads_in_json_words() -> None:
    assert param_hints(Every) == {
        "text": ParamHint("Some text.", "string"),
        "count": ParamHint("", "integer", "3"),
        "ratio": ParamHint("", "number", "0.5"),
        "flag": ParamHint("", "boolean", "true"),
        "nothing": ParamHint("", "null", "null"),
        "anything": ParamHint("", "any", "null"),
        "maybe": ParamHint("", "string or null", "null"),
        "choice": ParamHint("", 'one of "a", 1', '"a"'),
        "colour": ParamHint("", 'one of "red"', '"red"'),
        "inner": ParamHint("", "object", '{"value": 0}'),
        "items": ParamHint("", "array of string", "[]"),
        "pair": ParamHint("", "array of [integer, string]", '[1, "x"]'),
        "table": ParamHint("", "object of number", "{}"),
        "odd": ParamHint("", "any", "Odd()"),  # a default with no JSON form
    }
    assert param_hints(Every) is param_hints(Every)
    assert param_hints(type(None)) == {}
