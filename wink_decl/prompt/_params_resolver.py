"""Which params instance a section renders with: bound, its default, the template's, or built."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import cast

from wink_decl.errors import PromptRenderError
from wink_decl.prompt._tree import Node

__all__ = ["ParamsResolver"]


class ParamsResolver:
    """Resolves params for one render, building a no-argument default at most once per type."""

    __slots__ = ("_bound", "_built", "_defaults")

    def __init__(self, bound: Mapping[type, object], defaults: Mapping[type, object]) -> None:
        """``bound`` from ``Prompt.bind``; ``defaults`` the template's first default per type."""
        self._bound = bound
        self._defaults = defaults
        self._built: dict[type, object] = {}

    def instance(self, node: Node) -> object:
        """The params for ``node``: bound, section default, template default, then ``T()``."""
        kind = cast("type", node.params_type)  # only nodes with a params type are asked
        found = self._bound.get(kind)
        if found is None:
            found = node.section.default_params
        if found is None:
            found = self._defaults.get(kind)
        if found is None:
            found = self._built.get(kind)
        if found is None:
            found = self._built[kind] = _construct(kind, node)
        return found


def _construct(kind: type, node: Node) -> object:
    missing = [
        field.name
        for field in dataclasses.fields(kind)
        if field.init
        and field.default is dataclasses.MISSING
        and field.default_factory is dataclasses.MISSING
    ]
    name = kind.__qualname__
    if missing:
        listed = ", ".join(f"'{field}'" for field in missing)
        noun = "parameter" if len(missing) == 1 else "parameters"
        raise PromptRenderError(
            f"Missing required {noun} {listed} of {name} for section '{node.dotted}': "
            f"bind a {name} or give the field a default.",
            section_path=node.path,
            dataclass_type=kind,
            placeholder=missing[0],
        )
    try:
        return kind()
    except (TypeError, ValueError) as error:
        raise PromptRenderError(
            f"Could not build default {name}() for section '{node.dotted}': {error}",
            section_path=node.path,
            dataclass_type=kind,
        ) from error
