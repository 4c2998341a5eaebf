"""Declared params become real dataclasses, so the runtime binds, defaults and checks them."""

from __future__ import annotations

import dataclasses
import keyword
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Literal, cast

__all__ = ["FieldSpec", "make_dataclass_for", "python_type", "spec_from_data"]

_SCALARS: dict[str, type] = {"string": str, "integer": int, "number": float, "boolean": bool}


@dataclasses.dataclass(slots=True, frozen=True)
class FieldSpec:
    """One declared field, hashable so generated classes can be shared by equal declarations."""

    name: str
    type: str
    description: str = ""
    has_default: bool = False
    default: Any = None
    enum: tuple[Any, ...] = ()
    items: str = ""

    @property
    def required(self) -> bool:
        """Required unless a default is given."""
        return not self.has_default


def spec_from_data(name: str, data: Mapping[str, Any]) -> FieldSpec:
    """A ``FieldSpec`` from a validated param declaration."""
    items = data.get("items")
    default: Any = data.get("default")
    enum: Any = data.get("enum", ())
    return FieldSpec(
        name=name,
        type=str(data["type"]),
        description=str(data.get("description", "")),
        has_default="default" in data,
        default=tuple(cast("list[Any]", default)) if isinstance(default, list) else default,
        enum=tuple(cast("list[Any]", enum)),
        items=str(cast("Mapping[str, Any]", items)["type"]) if isinstance(items, Mapping) else "",
    )


def python_type(spec: FieldSpec) -> Any:
    """The annotation for a field: scalars, ``Literal`` for enums, ``tuple[X, ...]`` for arrays."""
    if spec.enum:
        return Literal[spec.enum]  # pyright: ignore[reportInvalidTypeForm]  # built at run time
    if spec.type == "array":
        item = _SCALARS[spec.items or "string"]
        return tuple[item, ...]  # pyright: ignore[reportInvalidTypeForm]  # built at run time
    return _SCALARS[spec.type]


def make_dataclass_for(class_name: str, specs: tuple[FieldSpec, ...]) -> type:
    """A frozen dataclass for ``specs``; equal declarations share one (classes are costly)."""
    return _make(class_name, specs)


@lru_cache(maxsize=4096)
def _make(class_name: str, specs: tuple[FieldSpec, ...]) -> type:
    # kw_only keeps the author's order: a required field may follow a defaulted one.
    fields = [(_field_name(spec.name), python_type(spec), _field(spec)) for spec in specs]
    made = dataclasses.make_dataclass(class_name, fields, frozen=True, kw_only=True)
    made.__module__ = __name__
    return made


def _field_name(name: str) -> str:
    if keyword.iskeyword(name):  # the schema refuses keywords; this keeps the generator total
        raise ValueError(f"'{name}' cannot be a field name: it is a Python keyword.")
    return name


def _field(spec: FieldSpec) -> Any:
    metadata = {"description": spec.description} if spec.description else {}
    if spec.has_default:
        return dataclasses.field(default=spec.default, metadata=metadata)
    return dataclasses.field(metadata=metadata)
