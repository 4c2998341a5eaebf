"""Shape checks for reading a file the schema refused, so its reference mistakes show too."""

from __future__ import annotations

import keyword
from collections.abc import Mapping
from typing import Any, cast

from wink_decl.errors import WinkDeclError

__all__ = [
    "UnreadableData",
    "param_declarations",
    "readable_list",
    "readable_mapping",
    "required",
]

_PARAM_TYPES = frozenset({"string", "integer", "number", "boolean", "array"})
_ITEM_TYPES = frozenset({"string", "integer", "number", "boolean"})


class UnreadableData(WinkDeclError):  # noqa: N818  # a signal to stop, not an error anyone sees
    """The data at hand lacks the shape the schema requires, so checking stops here.

    Only a file the schema refused gets this far: its schema diagnostics say what is wrong,
    and the reference mistakes found before this point are still reported
    (``compile_loaded``). It never leaves the compiler.
    """


def readable_mapping(value: object) -> Mapping[str, Any]:
    """``value`` when it is a mapping, as the schema requires here."""
    if not isinstance(value, dict):
        raise UnreadableData
    return value  # pyright: ignore[reportUnknownVariableType]  # file data: any values


def readable_list(value: object) -> list[Any]:
    """``value`` when it is a list, as the schema requires here."""
    if not isinstance(value, list):
        raise UnreadableData
    return value  # pyright: ignore[reportUnknownVariableType]  # file data: any items


def required(data: Mapping[str, Any], key: str) -> Any:
    """``data[key]``, which the schema requires."""
    if key not in data:
        raise UnreadableData
    return data[key]


def param_declarations(value: object) -> Mapping[str, Mapping[str, Any]]:
    """``value`` when a params (or result) declaration can become a dataclass.

    Names must be identifiers that are not keywords and start with a letter (``__slots__``
    would clash with the class's machinery), types known, and every default and enum value
    hashable (generated classes are shared by their exact declaration).
    """
    declared = readable_mapping(value)
    for name, spec in declared.items():
        if not (_field_name(name) and _buildable(spec)):
            raise UnreadableData
    return declared


def _field_name(name: str) -> bool:
    return name.isidentifier() and name[0].isalpha() and not keyword.iskeyword(name)


def _buildable(spec: object) -> bool:
    fields = readable_mapping(spec)
    items: object = fields.get("items")
    enum: object = fields.get("enum", [])
    return (
        _one_of(fields.get("type"), _PARAM_TYPES)
        and (items is None or _one_of(readable_mapping(items).get("type"), _ITEM_TYPES))
        and isinstance(enum, list)
        and all(_hashable(value) for value in cast("list[object]", enum))
        and _hashable(fields.get("default"), allow_list=True)
    )


def _one_of(value: object, names: frozenset[str]) -> bool:
    return isinstance(value, str) and value in names


def _hashable(value: object, *, allow_list: bool = False) -> bool:
    """File data is hashable unless it holds a mapping or a list (a default list is a tuple)."""
    if isinstance(value, list) and allow_list:
        return all(_hashable(item) for item in cast("list[object]", value))
    return not isinstance(value, dict | list)
