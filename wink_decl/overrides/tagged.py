"""Templates with a tag's overrides applied, built once per template, file and strictness."""

from __future__ import annotations

import threading
import warnings
import weakref
from typing import TYPE_CHECKING, Any

from wink_decl.diagnostics import DiagnosticError, render_text
from wink_decl.overrides._apply import Applied, apply_overrides
from wink_decl.overrides.store import check_tag

if TYPE_CHECKING:
    from wink_decl.overrides._file import OverrideFile
    from wink_decl.overrides.store import OverrideStore
    from wink_decl.prompt.template import PromptTemplate

__all__ = ["applied", "with_overrides"]

_applied: weakref.WeakKeyDictionary[
    PromptTemplate[Any], dict[tuple[OverrideFile, bool], Applied]
] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def applied(template: PromptTemplate[Any], file: OverrideFile, *, strict: bool) -> Applied:
    """``apply_overrides``, kept: the same template and file give the same result object."""
    kept = _applied.get(template)
    found = None if kept is None else kept.get((file, strict))
    if found is not None:
        return found
    result = apply_overrides(template, file, strict=strict)
    with _lock:
        return _applied.setdefault(template, {}).setdefault((file, strict), result)


def with_overrides(
    template: PromptTemplate[Any], overrides: OverrideStore, tag: str, *, strict: bool = False
) -> PromptTemplate[Any]:
    """``template`` as tag ``tag`` of ``overrides`` has it (docs/overrides.md).

    The overrides are applied once per template and file: render the template returned as
    often as needed, at the cost of rendering the base. A prompt without a file for the tag
    is returned as it is. Errors (a file that cannot be read, unknown or refused entries, and
    stale ones with ``strict``) raise ``DiagnosticError``; a stale entry otherwise keeps its
    base text and is reported with a ``UserWarning``.
    """
    loaded = overrides.load(template.ns, template.key, check_tag(tag))
    if loaded.file is None:
        if loaded.diagnostics:
            raise DiagnosticError(loaded.diagnostics, sources=loaded.sources)
        return template
    problems = list(loaded.diagnostics)
    result = applied(template, loaded.file, strict=strict)
    problems.extend(result.diagnostics)
    if not result.ok:
        raise DiagnosticError(problems, sources=loaded.sources)
    if problems:
        warnings.warn(render_text(problems, loaded.sources), UserWarning, stacklevel=2)
    return result.template
