"""Templates with a tag's overrides applied, built once per template, file and strictness.

``apply_tag`` is where a tag is applied, for every caller: the commands' ``--tag``, the
preview page and ``wink_decl.load(tag=)`` (through ``with_overrides``).
"""

from __future__ import annotations

import threading
import warnings
import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeAlias, TypeVar

from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, DiagnosticError, render_text, some_of
from wink_decl.overrides._apply import Applied, apply_overrides
from wink_decl.overrides.store import check_tag
from wink_decl.suggestions import did_you_mean

if TYPE_CHECKING:
    from collections.abc import Sequence

    from wink_decl.overrides._file import OverrideFile
    from wink_decl.overrides.store import OverrideStore
    from wink_decl.prompt.template import PromptTemplate

__all__ = ["Tagged", "applied", "apply_tag", "with_overrides"]

_OutputT = TypeVar("_OutputT")

_Kept: TypeAlias = "Applied[Any] | tuple[Diagnostic, ...]"
"""A result, or only its diagnostics when the file changed nothing (its template is the key).

One cache holds templates of every output type, so their type parameter is left open."""

_applied: weakref.WeakKeyDictionary[PromptTemplate[Any], dict[tuple[OverrideFile, bool], _Kept]] = (
    weakref.WeakKeyDictionary()
)
_lock = threading.Lock()


def applied(
    template: PromptTemplate[_OutputT], file: OverrideFile, *, strict: bool
) -> Applied[_OutputT]:
    """``apply_overrides``, kept: the same template and file give the same template back.

    A file that changes nothing gives ``template`` itself; that result is kept without it
    (only its diagnostics), since a value holding its own weak key would never let it go.
    """
    kept = _applied.get(template)
    found = None if kept is None else kept.get((file, strict))
    if found is None:
        result = apply_overrides(template, file, strict=strict)
        unchanged = result.template is template
        with _lock:
            entries = _applied.setdefault(template, {})
            found = entries.setdefault((file, strict), result.diagnostics if unchanged else result)
    return found if isinstance(found, Applied) else Applied(template, found)


@dataclass(frozen=True, slots=True)
class Tagged(Generic[_OutputT]):
    """A template as a tag has it, and what applying the tag found.

    ``template`` is the base where the tag could not be applied (no file for it, or a file
    that cannot be used); use it only when ``ok``.
    """

    template: PromptTemplate[_OutputT]
    diagnostics: tuple[Diagnostic, ...] = ()
    sources: Mapping[str, str] = field(default_factory=dict[str, str])
    """The override file's text by display path, to quote lines in reports."""

    @property
    def ok(self) -> bool:
        """True when no diagnostic is an error."""
        return all(d.severity == "warning" for d in self.diagnostics)


def apply_tag(
    template: PromptTemplate[_OutputT],
    overrides: OverrideStore,
    tag: str,
    *,
    strict: bool = False,
    source: str | None = None,
) -> Tagged[_OutputT]:
    """``template`` with tag ``tag`` of ``overrides`` applied, and every diagnostic.

    A tag the prompt has no file for is a warning (``unknown-tag``, an error with ``strict``)
    and leaves the template as it is; so is a stale entry, which keeps its base text. A file
    that cannot be used, and unknown, refused or invalid entries, are errors. ``source`` is
    the prompt's file as reports name it, for the diagnostic of an unknown tag.
    """
    loaded = overrides.load(template.ns, template.key, check_tag(tag))
    if loaded.file is None:
        if loaded.diagnostics:
            return Tagged(template, loaded.diagnostics, loaded.sources)
        known = overrides.tags(template.ns, template.key)
        unknown = _unknown_tag(template.label, tag, known, strict=strict, source=source)
        return Tagged(template, (unknown,))
    result = applied(template, loaded.file, strict=strict)
    return Tagged(result.template, (*loaded.diagnostics, *result.diagnostics), loaded.sources)


def _unknown_tag(
    label: str,
    tag: str,
    known: Sequence[str],
    *,
    strict: bool,
    source: str | None,
) -> Diagnostic:
    """The diagnostic of a tag prompt ``label`` has no override file for; ``known``: its tags."""
    return Diagnostic(
        message=f"Prompt '{label}' has no override file for tag '{tag}', so it is used as written.",
        span=None,
        code=DiagnosticCode.UNKNOWN_TAG,
        severity="error" if strict else "warning",
        expected=f"one of its tags: {some_of(known) if known else 'it has none'}",
        hint=did_you_mean(tag, known)
        or f"check the tag, or write its file: wink-decl overrides seed {source or 'FILE'} "
        f"--tag {tag}",
        path=source,
    )


def with_overrides(
    template: PromptTemplate[_OutputT],
    overrides: OverrideStore,
    tag: str,
    *,
    strict: bool = False,
    source: str | None = None,
) -> PromptTemplate[_OutputT]:
    """``template`` as tag ``tag`` of ``overrides`` has it (docs/overrides.md).

    The overrides are applied once per template and file: render the template returned as
    often as needed, at the cost of rendering the base. Errors (a file that cannot be read,
    unknown or refused entries, and with ``strict`` stale entries and a tag the prompt has no
    file for) raise ``DiagnosticError``. Warnings (a stale entry, which keeps its base text; a
    tag without a file, which leaves the template as it is) are reported with one
    ``UserWarning`` holding the report. ``source`` names the prompt's file in reports.
    """
    tagged = apply_tag(template, overrides, tag, strict=strict, source=source)
    if not tagged.ok:
        raise DiagnosticError(tagged.diagnostics, sources=tagged.sources)
    if tagged.diagnostics:
        warnings.warn(render_text(tagged.diagnostics, tagged.sources), UserWarning, stacklevel=2)
    return tagged.template
