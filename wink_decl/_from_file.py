"""From prompt files to the runtime: ``wink_decl.load`` and ``wink_decl.validate``.

What ``wink-decl render`` and ``wink-decl validate`` do, as functions: no command line, no
exit status, the same checks (docs/security.md says what each one imports and reads).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from wink_decl.compiler import bind_plugins, compile_file, find_prompt_files
from wink_decl.diagnostics import Diagnostic, DiagnosticError, sort_diagnostics
from wink_decl.limits import DEFAULT_LIMITS, Limits
from wink_decl.prompt.template import PromptTemplate

__all__ = ["load", "validate"]

StrPath = str | os.PathLike[str]


def load(
    path: StrPath, *, root: StrPath | None = None, limits: Limits | None = None
) -> PromptTemplate[Any]:
    """Load, check and compile one prompt file, its plugins imported and checked.

    ``root`` is the prompt root: includes resolve against it and the default ns is the
    file's folder below it (default: the file's folder). ``limits`` bound the work the file
    may cause (docs/security.md). Any error raises one ``DiagnosticError`` carrying every
    diagnostic, of the file and of its plugins, whose text is the report with the lines
    quoted, as ``wink-decl render`` prints it.
    """
    shown = os.fspath(path)
    prompt_root = None if root is None else os.fspath(root)
    result = compile_file(
        shown, root=prompt_root, display_path=shown, limits=limits or DEFAULT_LIMITS
    )
    prompt = result.prompt
    if prompt is None:
        raise DiagnosticError(result.diagnostics, sources=result.sources)
    problems = bind_plugins(prompt)
    if problems:
        raise DiagnosticError([*result.diagnostics, *problems], sources=result.sources)
    return prompt.template


def validate(
    paths: Iterable[StrPath], *, root: StrPath | None = None, limits: Limits | None = None
) -> list[Diagnostic]:
    """Every diagnostic of every prompt file named or found under a folder, sorted.

    As ``wink-decl validate``: hidden folders are skipped, a file named twice is checked once,
    and no plugin code is imported (plugins are looked up in package metadata). ``root`` is
    the prompt root of every file (default: the folder given, or the file's folder). A path
    that does not exist is reported as a file that cannot be read.
    """
    bounds = limits or DEFAULT_LIMITS
    seen: set[str] = set()
    found: list[Diagnostic] = []
    for given in paths:
        target = Path(given)
        folder = target.is_dir()
        prompt_root = Path(root) if root is not None else (target if folder else target.parent)
        for file in find_prompt_files(target) if folder else [target]:
            key = os.path.realpath(file)
            if key in seen:
                continue
            seen.add(key)
            shown = str(file)
            result = compile_file(shown, root=prompt_root, display_path=shown, limits=bounds)
            found.extend(result.diagnostics)
    return sort_diagnostics(found)
