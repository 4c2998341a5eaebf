"""The parse half of serde: per-class plans that build dataclasses from JSON-like data."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, cast

from wink_decl.errors import ToolValidationError, WinkDeclError
from wink_decl.json_path import PathSegment, format_path
from wink_decl.prompt._typeinfo import (
    TYPE_CACHE_LIMIT,
    Kind,
    TypeNode,
    choice_value,
    dataclass_info,
    json_type_name,
)

__all__ = ["build"]

_PLAIN: frozenset[type] = frozenset({str, int, float, bool, type(None)})

_Extra = Literal["forbid", "ignore"]
_Convert = Callable[[object], object]


@dataclass(frozen=True, slots=True)
class _Problem:
    kind: Literal["missing", "unknown", "type", "invalid"]
    text: str = ""
    """Expected (type), the allowed fields (unknown), the message (invalid)."""
    got: str = ""
    path: tuple[PathSegment, ...] = ()

    def under(self, segment: PathSegment) -> _Problem:
        return dataclasses.replace(self, path=(segment, *self.path))

    def render(self) -> str:
        return _RENDERERS[self.kind](format_path(self.path), self)


_RENDERERS: dict[str, Callable[[str, _Problem], str]] = {
    "missing": lambda path, _p: f"Missing required field '{path}'.",
    "unknown": lambda path, p: f"Unknown field '{path}' (allowed: {p.text}).",
    "type": lambda path, p: (
        f"Field '{path}' must be {p.text}, got {p.got}."
        if path
        else f"Expected {p.text}, got {p.got}."
    ),
    "invalid": lambda path, p: f"Field '{path}': {p.text}" if path else p.text,
}


class _Invalid(WinkDeclError):  # noqa: N818  # internal control flow, never escapes parse()
    """Unwinds to the enclosing object, carrying every problem found below it."""

    def __init__(self, problems: list[_Problem]) -> None:
        super().__init__()
        self.problems = problems


def _mismatch(expected: str, value: object, got: str | None = None) -> _Invalid:
    return _Invalid([_Problem("type", expected, got or json_type_name(value))])


def build(cls: type, data: object, extra: _Extra) -> object:
    """Build ``cls`` from ``data``; raise ToolValidationError naming every problem."""
    plan = _plan(cls, extra)
    try:
        return plan.build(data)
    except _Invalid as error:
        message = " ".join(problem.render() for problem in error.problems)
        raise ToolValidationError(message, dataclass_type=cls) from None


@dataclass(frozen=True, slots=True)
class _Plan:
    """How to build one dataclass: each init field's converter, and the keys it knows."""

    factory: Callable[..., object]
    fields: tuple[tuple[str, _Convert, bool], ...]
    known: frozenset[str]
    allowed: str
    forbid: bool

    def build(self, data: object) -> object:
        if not isinstance(data, Mapping):
            raise _mismatch("an object", data)
        mapping = cast("Mapping[object, object]", data)
        kwargs, problems = self._convert_fields(mapping)
        if self.forbid:
            problems += [
                _Problem("unknown", self.allowed, path=(str(key),))
                for key in mapping
                if key not in self.known
            ]
        if problems:
            raise _Invalid(problems)
        try:
            return self.factory(**kwargs)
        except (ValueError, TypeError) as error:
            raise _Invalid([_Problem("invalid", str(error))]) from error

    def _convert_fields(
        self, data: Mapping[object, object]
    ) -> tuple[dict[str, object], list[_Problem]]:
        kwargs: dict[str, object] = {}
        problems: list[_Problem] = []
        for name, convert, required in self.fields:
            if name in data:
                try:
                    kwargs[name] = convert(data[name])
                except _Invalid as error:
                    problems += [problem.under(name) for problem in error.problems]
            elif required:
                problems.append(_Problem("missing", path=(name,)))
            # A missing optional field is left out so the dataclass applies its own default.
        return kwargs, problems


@functools.lru_cache(maxsize=TYPE_CACHE_LIMIT)
def _plan(cls: type, extra: _Extra) -> _Plan:
    info = dataclass_info(cls)
    names = [field.name for field in info.fields]
    return _Plan(
        factory=cls,
        fields=tuple((f.name, _converter(f.node, extra), f.required) for f in info.fields),
        # init=False fields are accepted and ignored, so dumped data parses back.
        known=frozenset(names) | info.derived,
        allowed=", ".join(names) or "none",
        forbid=extra == "forbid",
    )


def _converter(node: TypeNode, extra: _Extra) -> _Convert:
    return _CONVERTER_BUILDERS[node.kind](node, extra)


def _to_str(value: object) -> object:
    if isinstance(value, str):
        return value
    raise _mismatch("a string", value)


def _to_int(value: object) -> object:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise _mismatch("an integer", value)


def _to_float(value: object) -> object:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    raise _mismatch("a number", value)


def _to_bool(value: object) -> object:
    if isinstance(value, bool):
        return value
    raise _mismatch("a boolean", value)


def _to_none(value: object) -> object:
    if value is None:
        return value
    raise _mismatch("null", value)


def _as_is(value: object) -> object:
    return value


def _optional(node: TypeNode, extra: _Extra) -> _Convert:
    inner = _converter(node.args[0], extra)

    def convert(value: object) -> object:
        if value is None:
            return None
        try:
            return inner(value)
        except _Invalid as error:
            raise _or_null(error) from None

    return convert


def _or_null(error: _Invalid) -> _Invalid:
    # Only a type error of the value itself widens to "... or null"; nested problems stay.
    match error.problems:
        case [_Problem(kind="type", path=()) as problem]:
            joint = ", " if problem.text.startswith("one of ") else " or "
            return _Invalid([dataclasses.replace(problem, text=f"{problem.text}{joint}null")])
        case _:
            return error


def _choice(node: TypeNode, _extra: _Extra) -> _Convert:
    # Keys carry the type so that True never matches Literal[1] (True == 1 in Python).
    table = {_choice_key(choice_value(member)): member for member in node.values}
    expected = "one of " + ", ".join(json.dumps(value) for _, value in table)

    def convert(value: object) -> object:
        try:
            return table[type(value), value]
        except (KeyError, TypeError):  # TypeError: an unhashable value such as a list
            got = json.dumps(value) if type(value) in _PLAIN else None
            raise _mismatch(expected, value, got) from None

    return convert


def _choice_key(value: object) -> tuple[type, object]:
    return (type(value), value)


def _nested(node: TypeNode, extra: _Extra) -> _Convert:
    cls = node.target
    # Looked up on each call, not now: a dataclass may refer to itself.
    return lambda value: _plan(cls, extra).build(value)


def _convert_each(items: Iterable[tuple[PathSegment, _Convert, object]]) -> list[object]:
    out: list[object] = []
    problems: list[_Problem] = []
    for segment, convert, value in items:
        try:
            out.append(convert(value))
        except _Invalid as error:
            problems += [problem.under(segment) for problem in error.problems]
    if problems:
        raise _Invalid(problems)
    return out


_CONTAINERS: dict[type, Callable[[list[object]], object]] = {
    list: list,
    tuple: tuple,
    frozenset: frozenset,
    set: set,
}


def _array(node: TypeNode, extra: _Extra) -> _Convert:
    item = _converter(node.args[0], extra)
    container = _CONTAINERS[node.target]

    def convert(value: object) -> object:
        if not isinstance(value, list | tuple):
            raise _mismatch("an array", value)
        items = cast("Sequence[object]", value)
        return container(_convert_each(zip(itertools.count(), itertools.repeat(item), items)))

    return convert


def _fixed_tuple(node: TypeNode, extra: _Extra) -> _Convert:
    items = tuple(_converter(arg, extra) for arg in node.args)
    expected = f"an array of {_count(len(items))}"

    def convert(value: object) -> object:
        if not isinstance(value, list | tuple):
            raise _mismatch(expected, value)
        values = cast("Sequence[object]", value)
        if len(values) != len(items):
            raise _mismatch(expected, values, _count(len(values)))
        return tuple(_convert_each(zip(itertools.count(), items, values)))

    return convert


def _count(n: int) -> str:
    return f"{n} item" if n == 1 else f"{n} items"


def _mapping(node: TypeNode, extra: _Extra) -> _Convert:
    item = _converter(node.args[0], extra)

    def convert(value: object) -> object:
        if not isinstance(value, Mapping):
            raise _mismatch("an object", value)
        data = cast("Mapping[object, object]", value)
        keys = list(data)
        bad = [key for key in keys if not isinstance(key, str)]
        if bad:
            raise _mismatch("an object with string keys", data, f"key {bad[0]!r}")
        str_keys = cast("list[str]", keys)
        values = _convert_each((key, item, data[key]) for key in str_keys)
        return dict(zip(str_keys, values, strict=True))

    return convert


def _fixed(convert: _Convert) -> Callable[[TypeNode, _Extra], _Convert]:
    return lambda _node, _extra: convert


_CONVERTER_BUILDERS: dict[Kind, Callable[[TypeNode, _Extra], _Convert]] = {
    Kind.STR: _fixed(_to_str),
    Kind.INT: _fixed(_to_int),
    Kind.FLOAT: _fixed(_to_float),
    Kind.BOOL: _fixed(_to_bool),
    Kind.NONE: _fixed(_to_none),
    Kind.ANY: _fixed(_as_is),
    Kind.OPTIONAL: _optional,
    Kind.CHOICE: _choice,
    Kind.DATACLASS: _nested,
    Kind.ARRAY: _array,
    Kind.TUPLE: _fixed_tuple,
    Kind.MAPPING: _mapping,
}
