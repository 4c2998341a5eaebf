"""Classify type annotations once, for both the serde parser and the JSON Schema builder."""

from __future__ import annotations

import dataclasses
import functools
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Any, Literal, TypeGuard, Union, get_args, get_origin, get_type_hints

__all__ = [
    "TYPE_CACHE_LIMIT",
    "DataclassInfo",
    "FieldInfo",
    "Kind",
    "TypeNode",
    "choice_value",
    "classify",
    "dataclass_info",
    "json_type_name",
]

TYPE_CACHE_LIMIT = 4096
"""Classes each cache keyed by a class keeps (LRU); past this, the least recently used goes.

Prompt files make classes (their params, ``Section[Params]``): a process that compiles new
declarations for ever must not keep every class it saw. A class in use that was forgotten
is classified again on its next use, which costs microseconds (docs/runtime.md).
"""

_NONE_TYPE = type(None)
_SCALARS = (str, int, float, bool, _NONE_TYPE)


class Kind(Enum):
    """What an annotation means to serde and to the schema builder."""

    STR = "str"
    INT = "int"
    FLOAT = "float"
    BOOL = "bool"
    NONE = "none"
    ANY = "any"
    OPTIONAL = "optional"
    """``X | None``; ``args`` holds X."""
    CHOICE = "choice"
    """``Literal[...]`` or an Enum; ``values`` holds the literals or the members."""
    DATACLASS = "dataclass"
    """A nested dataclass; ``target`` is the class (its fields are classified lazily)."""
    ARRAY = "array"
    """``list[X]``, ``tuple[X, ...]``, ``Sequence[X]``, ``frozenset[X]``, ``set[X]``."""
    TUPLE = "tuple"
    """A fixed-length ``tuple[X, Y]``; ``args`` holds one node per position."""
    MAPPING = "mapping"
    """``dict[str, X]`` or ``Mapping[str, X]``; ``args`` holds X."""


@dataclass(frozen=True, slots=True)
class TypeNode:
    """A classified annotation."""

    kind: Kind
    args: tuple[TypeNode, ...] = ()
    values: tuple[object, ...] = ()
    target: type = object
    """The dataclass (DATACLASS) or the Python container the array becomes (ARRAY)."""


@dataclass(frozen=True, slots=True)
class FieldInfo:
    """One ``init`` field of a dataclass, classified."""

    name: str
    node: TypeNode
    required: bool
    description: str | None
    default: object
    """The field's default, or ``dataclasses.MISSING``."""
    default_factory: Callable[[], object] | None


@dataclass(frozen=True, slots=True)
class DataclassInfo:
    """A dataclass's ``init`` fields in order, and the names of its derived fields."""

    cls: type
    fields: tuple[FieldInfo, ...]
    derived: frozenset[str]
    """Fields with ``init=False``: dumped, but never passed to the constructor."""


_SIMPLE: dict[object, Kind] = {
    str: Kind.STR,
    int: Kind.INT,
    float: Kind.FLOAT,
    bool: Kind.BOOL,
    _NONE_TYPE: Kind.NONE,
    None: Kind.NONE,
    Any: Kind.ANY,
    object: Kind.ANY,
}

# Arrays become these Python containers; Sequence becomes a tuple so results stay immutable.
_ARRAY_CONTAINERS: dict[object, type] = {
    list: list,
    Sequence: tuple,
    frozenset: frozenset,
    set: set,
}

# What a bare (unsubscripted) generic means.
_BARE_ARGS: dict[object, tuple[object, ...]] = {
    tuple: (Any, ...),
    dict: (str, Any),
    Mapping: (str, Any),
}


def _text(annotation: object) -> str:
    if annotation is _NONE_TYPE:
        return "None"
    if isinstance(annotation, type):
        return annotation.__name__
    return repr(annotation)


def _unsupported(annotation: object) -> TypeError:
    return TypeError(f"unsupported type annotation: {_text(annotation)}")


def classify(annotation: object) -> TypeNode:
    """Classify one annotation; raise TypeError for annotations serde cannot handle."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return classify(get_args(annotation)[0])
    if origin is not None:
        return _classify_generic(annotation, origin, get_args(annotation))
    simple = _SIMPLE.get(annotation)
    if simple is not None:
        return TypeNode(simple)
    if isinstance(annotation, type):
        return _classify_class(annotation)
    raise _unsupported(annotation)


def _classify_class(cls: type[object]) -> TypeNode:
    if issubclass(cls, Enum):
        return _choice(tuple(cls))
    if dataclasses.is_dataclass(cls):
        return TypeNode(Kind.DATACLASS, target=cls)
    return _classify_generic(cls, cls, _BARE_ARGS.get(cls, (Any,)))


def _classify_generic(annotation: object, origin: object, args: tuple[object, ...]) -> TypeNode:
    handler = _GENERIC_HANDLERS.get(origin)
    if handler is None:
        raise _unsupported(annotation)
    return handler(origin, args)


def _classify_union(_origin: object, args: tuple[object, ...]) -> TypeNode:
    others = [arg for arg in args if arg is not _NONE_TYPE]
    if len(others) != 1:  # typing collapses a one-member Union, so one other means X | None
        raise TypeError(f"unsupported type annotation: {' | '.join(map(_text, args))}")
    return TypeNode(Kind.OPTIONAL, args=(classify(others[0]),))


def _classify_literal(_origin: object, args: tuple[object, ...]) -> TypeNode:
    return _choice(args)


def _choice(values: tuple[object, ...]) -> TypeNode:
    for value in values:
        if type(choice_value(value)) not in _SCALARS:
            raise TypeError(f"choice values must be JSON scalars, got {value!r}")
    return TypeNode(Kind.CHOICE, values=values)


def _classify_tuple(_origin: object, args: tuple[object, ...]) -> TypeNode:
    if len(args) == 2 and args[1] is Ellipsis:  # noqa: PLR2004  # tuple[X, ...] has two args
        return TypeNode(Kind.ARRAY, args=(classify(args[0]),), target=tuple)
    return TypeNode(Kind.TUPLE, args=tuple(map(classify, args)))


def _classify_array(origin: object, args: tuple[object, ...]) -> TypeNode:
    return TypeNode(Kind.ARRAY, args=(classify(args[0]),), target=_ARRAY_CONTAINERS[origin])


def _classify_mapping(_origin: object, args: tuple[object, ...]) -> TypeNode:
    key, value = args
    if key is not str:
        raise TypeError(f"mapping keys must be str, got {_text(key)}")
    return TypeNode(Kind.MAPPING, args=(classify(value),))


_GENERIC_HANDLERS: dict[object, Callable[[object, tuple[object, ...]], TypeNode]] = {
    Union: _classify_union,
    types.UnionType: _classify_union,
    Literal: _classify_literal,
    tuple: _classify_tuple,
    dict: _classify_mapping,
    Mapping: _classify_mapping,
    **dict.fromkeys(_ARRAY_CONTAINERS, _classify_array),
}


def dataclass_info(cls: object) -> DataclassInfo:
    """Classify the fields of a dataclass once; raise TypeError for anything else."""
    if _is_dataclass_type(cls):
        return _dataclass_info(cls)
    raise TypeError(f"expected a dataclass type, got {_text(cls)}")


def _is_dataclass_type(value: object) -> TypeGuard[type]:
    # TypeGuard, not TypeIs: the negative branch keeps ``object`` for the error message.
    return isinstance(value, type) and dataclasses.is_dataclass(value)


@functools.lru_cache(maxsize=TYPE_CACHE_LIMIT)
def _dataclass_info(cls: type) -> DataclassInfo:
    hints = get_type_hints(cls, include_extras=True)
    all_fields = dataclasses.fields(cls)
    return DataclassInfo(
        cls=cls,
        fields=tuple(
            _field_info(cls, field, hints[field.name]) for field in all_fields if field.init
        ),
        derived=frozenset(field.name for field in all_fields if not field.init),
    )


def _field_info(cls: type, field: dataclasses.Field[object], annotation: object) -> FieldInfo:
    try:
        node = classify(annotation)
    except TypeError as error:
        raise TypeError(f"field '{cls.__name__}.{field.name}': {error}") from error
    description = field.metadata.get("description")
    if description is not None and not isinstance(description, str):
        raise TypeError(f"field '{cls.__name__}.{field.name}': description must be a string")
    factory = field.default_factory
    has_factory = factory is not dataclasses.MISSING
    return FieldInfo(
        name=field.name,
        node=node,
        required=field.default is dataclasses.MISSING and not has_factory,
        description=description,
        default=field.default,
        default_factory=factory if has_factory else None,
    )


def choice_value(value: object) -> object:
    """The JSON value of a Literal value or Enum member."""
    return value.value if isinstance(value, Enum) else value


_JSON_TYPE_NAMES: dict[type, str] = {
    str: "string",
    bool: "boolean",
    int: "integer",
    float: "number",
    _NONE_TYPE: "null",
    list: "array",
    tuple: "array",
    dict: "object",
}


def json_type_name(value: object) -> str:
    """The JSON name of a value's type (``string``, ``array``...); else the Python name."""
    for kind in type(value).__mro__:
        name = _JSON_TYPE_NAMES.get(kind)
        if name is not None:
            return name
    return "object" if isinstance(value, Mapping) else type(value).__name__
