"""The base of every document model, and the value types several models share."""

# Annotations are evaluated as the classes are made, not left as strings: pydantic would
# compile each string again to read it, which costs start-up time (names defined further
# down are quoted).
from typing import Annotated, ClassVar

from pydantic import BaseModel, ConfigDict, StrictStr, Tag
from pydantic.json_schema import WithJsonSchema
from typing_extensions import TypeAliasType

from wink_decl.schema import _unions as u
from wink_decl.schema._types import DECLARED_TOOL_NAME, ENTRY_POINT, KEY, PARAM_REF, TOOL_REF

__all__ = [
    "DeclaredToolName",
    "DocModel",
    "EntryPoint",
    "Key",
    "ParamRef",
    "Scalar",
    "ToolRef",
    "Value",
    "config_for",
]


class DocModel(BaseModel):
    """Frozen and closed: an unknown key is an error, never ignored."""

    model_config = ConfigDict(
        frozen=True,
        extra="forbid",
        validate_by_alias=True,
        validate_by_name=False,
        serialize_by_alias=True,
        defer_build=True,
    )
    noun: ClassVar[str] = "mapping"
    """What authors call this object in messages ("section", "tool")."""
    union_tag: ClassVar[str | None] = None
    """This model's tag when it is one alternative of a union."""
    one_key_of: ClassVar[u.OneOf | None] = None
    """The union of one-key mappings this model belongs to (conditions, policies)."""


def config_for(title: str, markdown: str) -> ConfigDict:
    """A model's schema title and its Markdown hover text."""
    return ConfigDict(title=title, json_schema_extra={"markdownDescription": markdown})


Key = Annotated[str, KEY]
ToolRef = Annotated[str, TOOL_REF]
DeclaredToolName = Annotated[str, DECLARED_TOOL_NAME]
ParamRef = Annotated[str, PARAM_REF]
EntryPoint = Annotated[str, ENTRY_POINT]

Scalar = TypeAliasType(
    "Scalar",
    Annotated[
        Annotated[StrictStr, Tag("string")]
        | Annotated[int, Tag("integer")]
        | Annotated[float, Tag("number")]
        | Annotated[bool, Tag("boolean")],
        u.SCALAR.discriminator(u.scalar_tag),
        WithJsonSchema({"type": ["string", "number", "boolean"]}),
    ],
)
"""Text, a whole number, a number, or true/false; chosen by the value's own type."""

Value = TypeAliasType(
    "Value",
    Annotated[
        Annotated[StrictStr, Tag("string")]
        | Annotated[int, Tag("integer")]
        | Annotated[float, Tag("number")]
        | Annotated[bool, Tag("boolean")]
        | Annotated[tuple[Scalar, ...], Tag("array")],
        u.VALUE.discriminator(u.value_tag),
        WithJsonSchema(
            {
                "type": ["string", "number", "boolean", "array"],
                "items": {"type": ["string", "number", "boolean"]},
            }
        ),
    ],
)
"""A scalar or a list of scalars: what a param default may be."""
