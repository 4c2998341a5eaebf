"""Temporary: the raw file data a typed compiler part needs, validated into its model.

The policy compiler takes the schema's models; the parts that call it still walk the raw
data. Until they hand over the models of the validated document (and this module goes), each
call site validates its piece here. A piece without the shape the schema requires
stops the checks, as the other shape checks do (``_readable.UnreadableData``).
"""

from __future__ import annotations

import functools
from typing import Any, Literal

from pydantic import TypeAdapter, ValidationError

from wink_decl.compiler._readable import UnreadableData
from wink_decl.schema import PolicyDoc

__all__ = ["typed"]

_MODELS: dict[str, Any] = {"policy": PolicyDoc}
"""The pieces validated here, by name: a type checker cannot follow an alias passed as a value."""


def typed(model: Literal["policy"], raw: object) -> PolicyDoc:
    """``raw`` validated as the named model; ``UnreadableData`` when it has another shape."""
    try:
        return _adapter(model).validate_python(raw)
    except ValidationError as error:
        raise UnreadableData from error


@functools.cache
def _adapter(model: str) -> TypeAdapter[Any]:
    """One adapter per model: building one costs far more than validating a small piece."""
    return TypeAdapter(_MODELS[model])
