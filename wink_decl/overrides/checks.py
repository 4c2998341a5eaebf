"""Every tag's override file of one prompt checked against it: ``overrides check``, validate."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from wink_decl.diagnostics import Diagnostic, sort_diagnostics
from wink_decl.overrides.tagged import applied

if TYPE_CHECKING:
    from wink_decl.overrides.store import OverrideStore
    from wink_decl.prompt.template import PromptTemplate

__all__ = ["override_problems"]


def override_problems(
    template: PromptTemplate[Any], store: OverrideStore, *, strict: bool
) -> tuple[list[Diagnostic], dict[str, str], int]:
    """Every diagnostic of every tag's file of one prompt, the files' texts, how many files."""
    found: list[Diagnostic] = []
    sources: dict[str, str] = {}
    tags = store.tags(template.ns, template.key)
    for tag in tags:
        loaded = store.load(template.ns, template.key, tag)
        found.extend(loaded.diagnostics)
        sources.update(loaded.sources)
        if loaded.file is not None:
            found.extend(applied(template, loaded.file, strict=strict).diagnostics)
    return sort_diagnostics(found), sources, len(tags)
