"""The prompt an eval file names: a prompt file relative to it, or an address ``ns/key``.

The prompt root is found as every front end finds one (``wink_decl.inputs.RootSearch``, with
the eval file's folder as the base): ``root`` when given (the prompt file must lie inside it);
else ``configured_root`` (the ``[tool.wink-decl] root`` setting) when it holds the prompt file;
else the prompt file's folder, which must lie in the working folder. An address is looked up
under ``root``, else under ``configured_root``, else under the eval file's folder. The prompt
is compiled (no plugin code imported): its diagnostics are the eval
file's too.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from wink_decl.compiler import PROMPT_SUFFIXES, compile_file
from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, DiagnosticError, Span, clip
from wink_decl.evals._nearby import nearby
from wink_decl.inputs import RootSearch
from wink_decl.loader import read_bytes
from wink_decl.suggestions import close_matches

if TYPE_CHECKING:
    from wink_decl.compiler import CompiledPrompt, CompileResult, PromptRegistry
    from wink_decl.limits import Limits
    from wink_decl.plugins import PluginCatalog

__all__ = ["FoundPrompt", "PromptSearch", "find_prompt"]

_ADDRESS: Final = re.compile(r"[a-z0-9][a-z0-9_-]*(?:/[a-z0-9][a-z0-9_-]*)+")
"""``ns/key``: keys separated by '/', at least two of them."""


@dataclass(frozen=True, slots=True)
class PromptSearch:
    """Where to look for the prompt, and what compiling it may cost."""

    limits: Limits
    catalog: PluginCatalog
    root: str | None = None
    configured_root: str | None = None

    def roots(self, eval_file: str) -> RootSearch:
        """The root rules for a prompt the eval file at ``eval_file`` names."""
        base = os.path.dirname(eval_file) or os.curdir  # noqa: PTH120
        return RootSearch(self.root, self.configured_root, base, confined=True)


@dataclass(frozen=True, slots=True)
class FoundPrompt:
    """The compiled prompt (None when it was not found or has errors), and where it is."""

    prompt: CompiledPrompt | None
    path: str
    root: str
    diagnostics: tuple[Diagnostic, ...] = ()
    sources: Mapping[str, str] = field(default_factory=dict[str, str])


def find_prompt(written: str, span: Span, eval_file: str, search: PromptSearch) -> FoundPrompt:
    """The prompt ``written`` (the eval file's ``prompt`` value, at ``span``) names."""
    roots = search.roots(eval_file)
    if written.lower().endswith(PROMPT_SUFFIXES):
        return _by_path(written, span, roots, search)
    if _ADDRESS.fullmatch(written):
        return _by_address(written, span, roots, search)
    problem = Diagnostic(
        f"'{clip(written)}' names no prompt: it is neither a prompt file nor an address.",
        span,
        DiagnosticCode.UNKNOWN_PROMPT,
        expected="a prompt file relative to this file, ending in .wink.yaml, .wink.yml or "
        ".wink.toml, or an address ns/key",
    )
    return FoundPrompt(None, "", "", (problem,))


def _by_path(written: str, span: Span, roots: RootSearch, search: PromptSearch) -> FoundPrompt:
    path = roots.path(written)
    if not os.path.lexists(path):
        return FoundPrompt(None, path, "", (_no_file(written, path, span),))
    # An untrusted eval file chooses the path, so it may not lead (links resolved) out of
    # --root; without one, out of the configured root holding it, or else the working folder.
    root, bound = roots.file_root(path)
    if bound is not None:
        problem = Diagnostic(
            f"The prompt file '{path}' lies outside {bound}, so it is not read.",
            span,
            DiagnosticCode.OUTSIDE_ROOT,
            expected=f"a prompt file inside {bound} (links included)",
            hint="pass a --root that holds it",
        )
        return FoundPrompt(None, path, root, (problem,))
    result = compile_file(path, root=root, limits=search.limits, catalog=search.catalog)
    return _compiled(result, path, root, span)


def _no_file(written: str, path: str, span: Span) -> Diagnostic:
    return Diagnostic(
        f"There is no prompt file '{path}' (the path is relative to this eval file).",
        span,
        DiagnosticCode.UNKNOWN_PROMPT,
        expected="a prompt file relative to this eval file",
        hint=nearby(written, path, PROMPT_SUFFIXES),
    )


def _compiled(
    result: CompileResult, path: str, root: str, span: Span, named: str | None = None
) -> FoundPrompt:
    """The prompt of ``result`` (at ``path``), or its errors and one saying so at ``span``."""
    if result.prompt is not None:
        return FoundPrompt(result.prompt, path, root, result.diagnostics, result.sources)
    problem = _invalid(named or path, span)
    return FoundPrompt(None, path, root, (problem, *result.diagnostics), result.sources)


def _invalid(prompt: str, span: Span) -> Diagnostic:
    return Diagnostic(
        f"The prompt '{prompt}' has errors (listed with it), so the cases cannot be checked "
        "against it.",
        span,
        DiagnosticCode.PROMPT_INVALID,
        hint="fix the prompt's errors first",
    )


def _by_address(address: str, span: Span, roots: RootSearch, search: PromptSearch) -> FoundPrompt:
    # Imported here: a prompt named by its path (most) needs no registry.
    from wink_decl.compiler import PromptRegistry  # noqa: PLC0415

    root = roots.address_root()
    registry = PromptRegistry(root, catalog=search.catalog, limits=search.limits)
    try:
        prompt = registry.get(address)
    except DiagnosticError:
        broken = _claimed_by(address, registry, search.limits)
        if broken is not None:
            return _compiled(broken[1], broken[0], root, span, address)
        return FoundPrompt(None, "", root, (_no_address(address, span, root, registry),))
    return _compiled(registry.compile(prompt.source), prompt.source, root, span)


def _claimed_by(
    address: str, registry: PromptRegistry, limits: Limits
) -> tuple[str, CompileResult] | None:
    """A file that claims ``address`` but does not compile, and its result; None: none does."""
    from wink_decl.compiler import claimed_address  # noqa: PLC0415  # see _by_address

    for path in registry.files():
        try:
            content = read_bytes(path, limits)
        except OSError:
            continue  # not a prompt anyone can use: the address is unknown, not broken
        if claimed_address(content, os.fspath(path), registry.root) == address:
            return os.fspath(path), registry.compile(path)
    return None


def _no_address(address: str, span: Span, root: str, registry: PromptRegistry) -> Diagnostic:
    known = sorted(registry.addresses())
    suggestions = close_matches(address, known)
    return Diagnostic(
        f"No prompt under '{root}' has the address '{address}'.",
        span,
        DiagnosticCode.UNKNOWN_PROMPT,
        expected=", ".join(known) if known else "no prompt was found under it",
        hint=f"did you mean '{suggestions[0]}'?"
        if suggestions
        else "pass --root to look "
        "elsewhere, or write the prompt file's path relative to this eval file",
        suggestions=suggestions,
    )
