"""``ParamHint``: what a model is told about one tool parameter (docs/overrides.md)."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING

from wink_decl.prompt._typeinfo import FieldInfo, Kind, TypeNode, choice_value, dataclass_info
from wink_decl.prompt.serde import dump

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["ParamHint", "param_hints"]


@dataclass(frozen=True, slots=True)
class ParamHint:
    """One parameter's description, type and default as the model reads them.

    ``type`` is in JSON words (``string``, ``array of integer``, ``string or null``);
    ``default`` is the default as JSON text, or None when the parameter is required.
    Override files may replace any of the three (docs/overrides.md).
    """

    description: str
    type: str
    default: str | None = None


@lru_cache(maxsize=1024)
def param_hints(params_type: type) -> Mapping[str, ParamHint]:
    """Every parameter of ``params_type`` in order; one read-only view per type, shared."""
    if params_type is type(None):  # Tool[None, R] takes no params
        return MappingProxyType({})
    return MappingProxyType(
        {field.name: _hint(field) for field in dataclass_info(params_type).fields}
    )


def _hint(field: FieldInfo) -> ParamHint:
    return ParamHint(field.description or "", type_words(field.node), _default_text(field))


def type_words(node: TypeNode) -> str:
    """A classified annotation in JSON words, as ``ParamHint.type`` writes it."""
    kind = node.kind
    if kind is Kind.OPTIONAL:
        return f"{type_words(node.args[0])} or null"
    if kind is Kind.CHOICE:
        values = ", ".join(json.dumps(choice_value(v), ensure_ascii=False) for v in node.values)
        return f"one of {values}"
    if kind is Kind.ARRAY:
        return f"array of {type_words(node.args[0])}"
    if kind is Kind.TUPLE:
        return f"array of [{', '.join(type_words(arg) for arg in node.args)}]"
    if kind is Kind.MAPPING:
        return f"object of {type_words(node.args[0])}"
    return _SIMPLE_WORDS[kind]


_SIMPLE_WORDS: Mapping[Kind, str] = {
    Kind.STR: "string",
    Kind.INT: "integer",
    Kind.FLOAT: "number",
    Kind.BOOL: "boolean",
    Kind.NONE: "null",
    Kind.ANY: "any",
    Kind.DATACLASS: "object",
}


def _default_text(field: FieldInfo) -> str | None:
    if field.default_factory is not None:
        value = field.default_factory()
    elif field.default is not dataclasses.MISSING:
        value = field.default
    else:
        return None
    try:
        return json.dumps(dump(value), ensure_ascii=False)
    except TypeError:
        return repr(value)  # a default with no JSON form is still a default
