"""Dataclasses to JSON-compatible data and back, with short, exact validation messages."""

from __future__ import annotations

import dataclasses
import datetime
import functools
import json
import threading
from collections.abc import Callable, Iterable, Mapping
from enum import Enum
from pathlib import PurePath
from typing import Literal, TypeAlias, TypeVar, cast

from wink_decl.errors import WinkDeclError
from wink_decl.json_path import PathSegment, format_path
from wink_decl.prompt._parse import build
from wink_decl.prompt._typeinfo import TYPE_CACHE_LIMIT

__all__ = ["JSONValue", "dump", "dumps", "parse"]

JSONValue: TypeAlias = str | int | float | bool | None | list["JSONValue"] | dict[str, "JSONValue"]
"""A value ``json.dumps`` accepts and ``json.loads`` returns."""

T = TypeVar("T")

# --- dump -------------------------------------------------------------------------------------

_PLAIN: frozenset[type] = frozenset({str, int, float, bool, type(None)})


class _DumpError(WinkDeclError):
    """Unwinds to ``dump``, collecting the path on the way out (nothing is built on success)."""

    def __init__(self, what: str, note: str = "") -> None:
        super().__init__(what)
        self.what = what
        self.note = note
        self.path: tuple[PathSegment, ...] = ()

    def message(self) -> str:
        where = f" at '{format_path(self.path)}'" if self.path else ""
        return f"cannot serialise {self.what}{where}{self.note}"


_Dumper = Callable[[object, bool], JSONValue]


def dump(value: object, *, exclude_none: bool = False) -> JSONValue:
    """Turn dataclasses, enums, containers, dates and paths into JSON-compatible data.

    Raises:
        TypeError: a value (or a mapping key) has no JSON form; the message names its path.
    """
    try:
        return _dump(value, exclude_none)
    except _DumpError as error:
        raise TypeError(error.message()) from None


def dumps(value: object, *, exclude_none: bool = True) -> str:
    """Deterministic JSON text of ``value``: the default ``render()`` of tool results."""
    return json.dumps(
        dump(value, exclude_none=exclude_none), ensure_ascii=False, separators=(", ", ": ")
    )


def _dump(value: object, exclude_none: bool) -> JSONValue:
    kind = type(value)
    if kind in _PLAIN:
        return cast("JSONValue", value)
    dumper = _DUMPERS.get(kind)
    if dumper is None:
        dumper = _keep_dumper(kind, _pick_dumper(kind))
    return dumper(value, exclude_none)


def _keep_dumper(kind: type, dumper: _Dumper) -> _Dumper:
    """Keep ``dumper`` for ``kind``; past ``TYPE_CACHE_LIMIT`` types, forget the oldest.

    Under a lock, so two threads never evict at once; readers take none (``_dump``).
    """
    with _dumpers_lock:
        if len(_DUMPERS) >= TYPE_CACHE_LIMIT and kind not in _DUMPERS:
            del _DUMPERS[next(iter(_DUMPERS))]
        return _DUMPERS.setdefault(kind, dumper)


def _pick_dumper(kind: type) -> _Dumper:
    if dataclasses.is_dataclass(kind):
        return _dump_dataclass
    for base, dumper in _DUMPERS_BY_BASE:
        if issubclass(kind, base):
            return dumper
    return _dump_unsupported


@functools.lru_cache(maxsize=TYPE_CACHE_LIMIT)
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(field.name for field in dataclasses.fields(cls))


def _dump_dataclass(value: object, exclude_none: bool) -> JSONValue:
    out: dict[str, JSONValue] = {}
    for name in _field_names(type(value)):
        item = getattr(value, name)
        if item is None and exclude_none:
            continue
        try:
            out[name] = _dump(item, exclude_none)
        except _DumpError as error:
            error.path = (name, *error.path)
            raise
    return out


def _dump_mapping(value: object, exclude_none: bool) -> JSONValue:
    out: dict[str, JSONValue] = {}
    for key, item in cast("Mapping[object, object]", value).items():
        if not isinstance(key, str):
            raise _DumpError(
                f"mapping key of type '{type(key).__name__}'", " (keys must be strings)"
            )
        try:
            out[key] = _dump(item, exclude_none)
        except _DumpError as error:
            error.path = (key, *error.path)
            raise
    return out


def _dump_sequence(value: object, exclude_none: bool) -> list[JSONValue]:
    out: list[JSONValue] = []
    for index, item in enumerate(cast("Iterable[object]", value)):
        try:
            out.append(_dump(item, exclude_none))
        except _DumpError as error:
            error.path = (index, *error.path)
            raise
    return out


def _dump_set(value: object, exclude_none: bool) -> JSONValue:
    # Set order varies between runs; sorting by JSON text makes the output deterministic.
    return sorted(_dump_sequence(value, exclude_none), key=_json_text)


def _json_text(value: JSONValue) -> str:
    return json.dumps(value, ensure_ascii=False)


def _dump_enum(value: object, exclude_none: bool) -> JSONValue:
    return _dump(cast("Enum", value).value, exclude_none)


def _dump_isoformat(value: object, _exclude_none: bool) -> JSONValue:
    return cast("datetime.date", value).isoformat()


def _dump_as_is(value: object, _exclude_none: bool) -> JSONValue:
    return cast("JSONValue", value)


def _dump_str(value: object, _exclude_none: bool) -> JSONValue:
    return str(value)


def _dump_unsupported(value: object, _exclude_none: bool) -> JSONValue:
    raise _DumpError(f"object of type '{type(value).__name__}'")


# Order matters: IntEnum is an int and datetime is a date; the first match wins.
_DUMPERS_BY_BASE: tuple[tuple[type | tuple[type, ...], _Dumper], ...] = (
    (Enum, _dump_enum),
    (datetime.date, _dump_isoformat),
    (PurePath, _dump_str),
    (Mapping, _dump_mapping),
    ((list, tuple), _dump_sequence),
    ((set, frozenset), _dump_set),
    ((str, int, float), _dump_as_is),
)

_DUMPERS: dict[type, _Dumper] = {}
"""Dumpers by exact type, filled on first sight of each type; read without a lock."""
_dumpers_lock = threading.Lock()
"""Taken only to add a dumper (see ``_keep_dumper``)."""


def parse(cls: type[T], data: object, *, extra: Literal["forbid", "ignore"] = "forbid") -> T:
    """Build a ``cls`` dataclass from JSON-like data, checking every field's type.

    ``extra="forbid"`` rejects keys that name no field; ``"ignore"`` drops them. Missing
    fields take their defaults.

    Raises:
        ToolValidationError: every problem of the data, in field order, in one message.
        TypeError: ``cls`` is not a dataclass, or has an annotation serde does not handle.
    """
    return cast("T", build(cls, data, extra))
