"""JSON Schemas for tool parameter dataclasses, and the tool formats providers expect."""

from __future__ import annotations

import copy
import dataclasses
import functools
from typing import TYPE_CHECKING, Protocol

from wink_decl.prompt._typeinfo import (
    TYPE_CACHE_LIMIT,
    FieldInfo,
    Kind,
    TypeNode,
    choice_value,
    dataclass_info,
    json_type_name,
)
from wink_decl.prompt.serde import dump

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

__all__ = [
    "ToolSpecSource",
    "field_descriptions",
    "params_json_schema",
    "to_anthropic_tools",
    "to_openai_tools",
]

_Schema = dict[str, object]
_Chain = tuple[tuple[type, str], ...]
"""The (dataclass, field) steps from the params class down to the current property."""

_NO_DEFAULT = object()


class ToolSpecSource(Protocol):
    """What the provider formats need from a tool; the runtime ``Tool`` satisfies it."""

    @property
    def name(self) -> str:
        """The tool's name as the model calls it."""
        ...

    @property
    def description(self) -> str:
        """The tool's one-line summary for the model."""
        ...

    @property
    def params_type(self) -> type | None:
        """The params dataclass; None or ``type(None)`` for a tool that takes no arguments."""
        ...


def params_json_schema(cls: type) -> dict[str, object]:
    """The closed JSON Schema (draft-07) of a params dataclass; a fresh copy on every call.

    Raises:
        TypeError: ``cls`` is not a dataclass, refers to itself, or has an unsupported field.
    """
    return copy.deepcopy(_cached_schema(cls))


def field_descriptions(cls: type) -> dict[str, str]:
    """Field name to ``field(metadata={"description": ...})`` for the fields that have one."""
    return {
        field.name: field.description
        for field in dataclass_info(cls).fields
        if field.description is not None
    }


def to_openai_tools(tools: Iterable[ToolSpecSource]) -> list[dict[str, object]]:
    """Tools in the OpenAI ``{"type": "function", "function": {...}}`` form, in order."""
    return [
        {
            "type": "function",
            "function": {
                "name": tool.name,
                "description": tool.description,
                "parameters": _tool_parameters(tool),
            },
        }
        for tool in tools
    ]


def to_anthropic_tools(tools: Iterable[ToolSpecSource]) -> list[dict[str, object]]:
    """Tools in the Anthropic ``{"name", "description", "input_schema"}`` form, in order."""
    return [
        {"name": tool.name, "description": tool.description, "input_schema": _tool_parameters(tool)}
        for tool in tools
    ]


def _tool_parameters(tool: ToolSpecSource) -> _Schema:
    params_type = tool.params_type
    if params_type is None or params_type is type(None):  # Tool[None, R] takes no params
        return {"type": "object", "properties": {}, "additionalProperties": False}
    return params_json_schema(params_type)


@functools.lru_cache(maxsize=TYPE_CACHE_LIMIT)
def _cached_schema(cls: type) -> _Schema:
    return _object_schema(cls, ())


def _object_schema(cls: type, chain: _Chain) -> _Schema:
    fields = dataclass_info(cls).fields
    schema: _Schema = {
        "type": "object",
        "properties": {
            field.name: _property(field, (*chain, (cls, field.name))) for field in fields
        },
    }
    required = [field.name for field in fields if field.required]
    if required:
        schema["required"] = required
    schema["additionalProperties"] = False
    return schema


def _property(field: FieldInfo, chain: _Chain) -> _Schema:
    schema = _node_schema(field.node, chain)
    if field.description is not None:
        schema["description"] = field.description
    default = _default(field)
    if default is not _NO_DEFAULT:
        schema["default"] = default
    return schema


def _default(field: FieldInfo) -> object:
    if field.default_factory is not None:
        value = field.default_factory()
    elif field.default is not dataclasses.MISSING:
        value = field.default
    else:
        return _NO_DEFAULT
    try:
        return dump(value)
    except TypeError:
        # A default with no JSON form is still a default; the schema just cannot show it.
        return _NO_DEFAULT


def _node_schema(node: TypeNode, chain: _Chain) -> _Schema:
    return _SCHEMA_BUILDERS[node.kind](node, chain)


def _simple(json_type: str) -> Callable[[TypeNode, _Chain], _Schema]:
    return lambda _node, _chain: {"type": json_type}


def _any(_node: TypeNode, _chain: _Chain) -> _Schema:
    return {}


def _optional(node: TypeNode, chain: _Chain) -> _Schema:
    return {"anyOf": [_node_schema(node.args[0], chain), {"type": "null"}]}


def _choice(node: TypeNode, _chain: _Chain) -> _Schema:
    values = [choice_value(value) for value in node.values]
    types = {json_type_name(value) for value in values}
    if len(types) == 1:
        return {"type": types.pop(), "enum": values}
    return {"enum": values}


def _dataclass(node: TypeNode, chain: _Chain) -> _Schema:
    cls = node.target
    if any(owner is cls for owner, _ in chain):
        steps = " -> ".join(f"{owner.__name__}.{name}" for owner, name in chain)
        raise TypeError(
            f"cannot build a JSON schema for recursive dataclass '{cls.__name__}' "
            f"({steps} -> {cls.__name__}); inlined schemas cannot refer to themselves"
        )
    return _object_schema(cls, chain)


def _array(node: TypeNode, chain: _Chain) -> _Schema:
    return {"type": "array", "items": _node_schema(node.args[0], chain)}


def _fixed_tuple(node: TypeNode, chain: _Chain) -> _Schema:
    count = len(node.args)
    return {
        "type": "array",
        "items": [_node_schema(arg, chain) for arg in node.args],
        "minItems": count,
        "maxItems": count,
    }


def _mapping(node: TypeNode, chain: _Chain) -> _Schema:
    return {"type": "object", "additionalProperties": _node_schema(node.args[0], chain)}


_SCHEMA_BUILDERS: dict[Kind, Callable[[TypeNode, _Chain], _Schema]] = {
    Kind.STR: _simple("string"),
    Kind.INT: _simple("integer"),
    Kind.FLOAT: _simple("number"),
    Kind.BOOL: _simple("boolean"),
    Kind.NONE: _simple("null"),
    Kind.ANY: _any,
    Kind.OPTIONAL: _optional,
    Kind.CHOICE: _choice,
    Kind.DATACLASS: _dataclass,
    Kind.ARRAY: _array,
    Kind.TUPLE: _fixed_tuple,
    Kind.MAPPING: _mapping,
}
