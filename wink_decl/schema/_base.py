"""The base of every document model: frozen, closed, and named for messages."""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, ConfigDict

from wink_decl.schema._unions import OneOf

__all__ = ["DocModel"]


class DocModel(BaseModel):
    """Frozen and closed: an unknown key is an error, never ignored."""

    model_config = ConfigDict(
        frozen=True,
        extra="forbid",
        validate_by_alias=True,
        validate_by_name=False,
        serialize_by_alias=True,
    )
    noun: ClassVar[str] = "mapping"
    """What authors call this object in messages ("section", "tool")."""
    union_tag: ClassVar[str | None] = None
    """This model's tag when it is one alternative of a union."""
    one_key_of: ClassVar[OneOf | None] = None
    """The union of one-key mappings this model belongs to (conditions, policies)."""
