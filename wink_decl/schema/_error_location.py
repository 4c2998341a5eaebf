"""Follow a pydantic error location through the model's types.

A location mixes data keys, list indexes, union tags (``("sections", 0, "section", "title")``)
and ``[key]`` for a mapping's key. Walking the types tells which parts are tags, which model
holds a field, and what type sits at the end.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Literal, Union, get_args, get_origin

from pydantic import Tag
from typing_extensions import TypeAliasType, TypeIs

from wink_decl.schema._base import DocModel

__all__ = ["Place", "Step", "place_of"]

Step = Literal["field", "key", "index"]

KEY_MARK = "[key]"


@dataclass(frozen=True, slots=True)
class Place:
    """Where an error is, in the data and in the model."""

    path: tuple[str | int, ...]
    """The JSON path in the data: tags removed."""
    steps: tuple[Step, ...]
    """For each element of ``path``: a model's field, a mapping's key, or a list index."""
    on_key: bool
    """The error is about the mapping key at ``path`` (not its value)."""
    parent: type[DocModel] | None
    """The model holding the last path element as a field, if any."""
    target: object
    """The type expected at the end, unwrapped (a model class, a ``Literal``, ...)."""
    choices: tuple[str, ...]
    """The allowed values when the type at the end is a ``Literal``."""


def place_of(root: type[DocModel], loc: tuple[str | int, ...]) -> Place:
    """Split ``loc`` into the data path, and find the model and type around its end."""
    # The last element is not remembered: it is the one that differs from error to error.
    state = _step(_walked(root, loc[:-1]), loc[-1]) if loc else _walked(root, loc)
    path, steps, current, parent, on_key = state
    final = _unwrap(current)
    choices = get_args(final) if get_origin(final) is Literal else ()
    return Place(path, steps, on_key, parent, final, tuple(str(c) for c in choices))


_State = tuple[tuple[str | int, ...], tuple[Step, ...], object, type[DocModel] | None, bool]
"""A walk so far: the data path, its steps, the type reached, the model around it, on a key."""


@functools.lru_cache(maxsize=4096)
def _walked(root: type[DocModel], loc: tuple[str | int, ...]) -> _State:
    """The walk along ``loc``, remembered: errors come many to a place.

    Each unknown key of one mapping shares all of its location but the last element.
    """
    if not loc:
        return (), (), root, None, False
    return _step(_walked(root, loc[:-1]), loc[-1])


def _step(state: _State, element: str | int) -> _State:
    """One element further: a union tag, a mapping's ``[key]``, or a step in the data."""
    path, steps, current, parent, on_key = state
    current = _unwrap(current)
    member = _tagged(current, element)
    if member is not None:  # a union tag: not part of the data's path
        return path, steps, member, parent, on_key
    if element == KEY_MARK:
        return path, steps, _child(current, element), parent, True
    parent = current if _is_model(current) else None
    step: Step = "field" if parent else "index" if isinstance(element, int) else "key"
    return (*path, element), (*steps, step), _child(current, element), parent, on_key


def _is_model(tp: object) -> TypeIs[type[DocModel]]:
    return isinstance(tp, type) and issubclass(tp, DocModel)


def _unwrap(tp: object) -> object:
    """Strip aliases, ``Annotated`` and ``| None`` until a model, container or union is left."""
    while True:
        if isinstance(tp, TypeAliasType):
            tp = tp.__value__
        elif get_origin(tp) is Annotated:
            tp = get_args(tp)[0]
        elif get_origin(tp) in (Union, types.UnionType) and type(None) in get_args(tp):
            rest = [arg for arg in get_args(tp) if arg is not type(None)]
            tp = rest[0] if len(rest) == 1 else Union[tuple(rest)]  # noqa: UP007  # built at run time
        else:
            return tp


def _tagged(tp: object, element: str | int) -> object:
    """The member of a tagged union whose ``Tag`` is ``element``, else None."""
    if get_origin(tp) not in (Union, types.UnionType):
        return None
    for member in get_args(tp):
        if get_origin(member) is Annotated and Tag(str(element)) in get_args(member)[1:]:
            return member
    return None


def _child(tp: object, element: str | int) -> object:
    """The type one step down: a model's field, a list's item, a mapping's key or value."""
    if _is_model(tp):
        tp.model_rebuild()  # a model built on first use: its fields' types resolved now
        for name, info in tp.model_fields.items():
            if (info.alias or name) == element:
                return info.annotation
        return None
    origin = get_origin(tp)
    args = get_args(tp)
    if origin in (tuple, list):
        return args[0]
    if origin in (dict, Mapping):
        return args[0] if element == KEY_MARK else args[1]
    return None
