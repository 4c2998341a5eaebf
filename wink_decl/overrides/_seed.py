"""The data of a new override file: every part a tag may replace, its text and hash."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from wink_decl.overrides._bases import bases_of
from wink_decl.overrides._hashing import text_hash

if TYPE_CHECKING:
    from wink_decl.prompt.template import PromptTemplate

__all__ = ["seed_data"]


def seed_data(template: PromptTemplate[Any]) -> dict[str, object]:
    """Every part of ``template`` that accepts overrides, as entries holding the current texts."""
    data: dict[str, object] = {}
    for path, base in bases_of(template).parts.items():
        if base.refusal is not None:
            continue
        *parents, last = path
        folder = data
        for key in parents:
            folder = cast("dict[str, object]", folder.setdefault(str(key), {}))
        folder[str(last)] = {"hash": text_hash(base.text), "text": base.text}
    return data
