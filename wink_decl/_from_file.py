"""From prompt files to the runtime: ``wink_decl.load`` and ``wink_decl.validate``.

What ``wink-decl render`` and ``wink-decl validate`` do, as functions: no command line, no
exit status, the same checks (docs/security.md says what each one imports and reads).
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wink_decl import inputs  # its names are imported on first use (PEP 562)
from wink_decl._checking import Job, Overrides, check_chunk, overrides_in, with_unserved
from wink_decl.compiler import find_prompt_files
from wink_decl.diagnostics import Diagnostic, DiagnosticError, render_text, sort_diagnostics
from wink_decl.limits import DEFAULT_LIMITS, Limits
from wink_decl.overrides import check_tag
from wink_decl.prompt.template import PromptTemplate

if TYPE_CHECKING:
    from wink_decl.overrides import OverrideStore

__all__ = ["load", "validate"]

StrPath = str | os.PathLike[str]


def load(
    path: StrPath,
    *,
    root: StrPath | None = None,
    limits: Limits | None = None,
    tag: str | None = None,
    overrides: OverrideStore | None = None,
    strict: bool = False,
) -> PromptTemplate[Any]:
    """Load, check and compile one prompt file, its plugins imported and checked.

    ``root`` is the prompt root: includes resolve against it and the default ns is the
    file's folder below it (default: the file's folder). ``limits`` bound the work the file
    may cause (docs/security.md). Any error raises one ``DiagnosticError`` carrying every
    diagnostic, of the file and of its plugins, whose text is the report with the lines
    quoted, as ``wink-decl render`` prints it.

    With ``tag``, the prompt comes with that tag's overrides applied (docs/overrides.md),
    read from ``overrides`` (default: a ``LocalOverrideStore`` of the folder ``overrides``
    beside the prompt root), as ``with_overrides`` applies them: a stale entry, and a tag the
    prompt has no file for, give one ``UserWarning`` holding the report (the base text is
    used); ``strict`` makes them errors, raised as ``DiagnosticError`` like the others.
    """
    shown = os.fspath(path)
    file_name = inputs.path_text(shown)
    # One look at the file: whether it is a folder (its root), then the compile's check and
    # read. Not at a name written otherwise than reports show it (``a.yaml/``): that one is
    # left to the compile, to look at the file as the name it is given.
    if root is None and file_name == shown:
        state = _looked_at(shown)
        # Its folder (or itself) is written as reports show it too: nothing to rewrite.
        prompt_root = inputs.RootSearch.own_folder(shown, state)
    else:
        state = None
        prompt_root = _prompt_root(shown, root)
    request = inputs.PromptRequest(
        shown,
        root=prompt_root,
        limits=limits or DEFAULT_LIMITS,
        tag=None if tag is None else check_tag(tag),
        strict=strict,
    )
    # Both names are written as reports show them already: not rewritten again.
    location = inputs.Location.of_names(
        request, file_name, prompt_root, store=overrides, state=state
    )
    prepared = inputs.prepare(request, plugins="all", bind_params=False, location=location)
    if not prepared.ok:
        raise DiagnosticError(prepared.diagnostics, sources=prepared.sources)
    # The compile's warnings are the file's own (validate shows them); the tag's are news.
    later = [d for report in prepared.reports[1:] for d in report.diagnostics]
    if later:
        warnings.warn(render_text(later, prepared.sources), UserWarning, stacklevel=2)
    return prepared.template


def validate(
    paths: Iterable[StrPath],
    *,
    root: StrPath | None = None,
    limits: Limits | None = None,
    overrides: StrPath | None = None,
    strict: bool = False,
) -> list[Diagnostic]:
    """Every diagnostic of every prompt file named or found under a folder, sorted.

    As ``wink-decl validate``, by the same code: hidden folders are skipped, a file named
    twice is checked once, no plugin code is imported (plugins are looked up in package
    metadata), and each valid prompt with override files is checked against them
    (docs/overrides.md). ``root`` is the prompt root of every file (default: the folder
    given, or the file's folder). ``overrides`` is the overrides folder (default: the folder
    ``overrides`` beside each prompt root); ``strict`` makes a stale override an error. A
    path that does not exist is reported as a file that cannot be read.
    """
    bounds = limits or DEFAULT_LIMITS
    found: dict[Path, Overrides | None] = {}
    seen: set[str] = set()
    jobs: list[Job] = []
    for given in paths:
        target = Path(given)
        folder = target.is_dir()
        prompt_root = Path(_prompt_root(os.fspath(given), root))
        if prompt_root not in found:
            where = inputs.overrides_or_default(_text(overrides), prompt_root)
            found[prompt_root] = overrides_in(where, strict=strict)
        for file in find_prompt_files(target) if folder else [target]:
            key = os.path.realpath(file)
            if key in seen:
                continue
            seen.add(key)
            jobs.append(
                Job(str(file), str(prompt_root), limits=bounds, overrides=found[prompt_root])
            )
    results = with_unserved(jobs, check_chunk(jobs))
    return sort_diagnostics(d for checked in results for d in checked.diagnostics)


def _prompt_root(given: str, root: StrPath | None) -> str:
    """``root``, else the folder given or the file's folder (``RootSearch``; no setting read).

    As ``str(Path(...))`` writes it.
    """
    chosen = inputs.RootSearch.own_folder(given) if root is None else os.fspath(root)
    return inputs.path_text(chosen)


def _looked_at(given: str) -> os.stat_result | None:
    """The ``os.lstat`` of the file at ``given``; None when it cannot be looked at."""
    try:
        return os.lstat(given)
    except OSError:
        return None


def _text(path: StrPath | None) -> str | None:
    return None if path is None else os.fspath(path)
