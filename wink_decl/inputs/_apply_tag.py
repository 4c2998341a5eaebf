"""A tag's overrides applied to a compiled prompt: one way, for every front end."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, NamedTuple

from wink_decl.inputs._report import Report
from wink_decl.overrides.tagged import applied

if TYPE_CHECKING:
    from wink_decl.compiler import CompiledPrompt
    from wink_decl.overrides import OverrideStore

__all__ = ["Tagged", "apply_tag"]


class Tagged(NamedTuple):
    """The prompt with the tag's overrides (None when an error stops it) and the reports."""

    prompt: CompiledPrompt | None
    reports: tuple[Report, ...]


def apply_tag(prompt: CompiledPrompt, tag: str, store: OverrideStore, *, strict: bool) -> Tagged:
    """``prompt`` as tag ``tag`` of ``store`` has it (docs/overrides.md).

    Reading the override file and applying it are two reports, in that order. A file that
    cannot be read, or entries refused (stale ones too with ``strict``), give None.
    """
    template = prompt.template
    loaded = store.load(template.ns, template.key, tag)
    read = Report(loaded.diagnostics, loaded.sources)
    if loaded.file is None:
        return Tagged(None if read.diagnostics else prompt, (read,))
    result = applied(template, loaded.file, strict=strict)
    reports = (read, Report(result.diagnostics, loaded.sources))
    if not result.ok:
        return Tagged(None, reports)
    return Tagged(dataclasses.replace(prompt, template=result.template), reports)
