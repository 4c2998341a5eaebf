"""``include: file#section``: a section from another file under the same prompt root.

Bounded for files written to hurt: includes nest at most ``max_include_depth`` deep, read at
most ``max_include_files`` files, and every section they bring counts against ``max_sections``
before it is compiled. Each file is read, checked and searched once, and each of its tools
compiled once, however often it is included.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from wink_decl._nouns import noun_for
from wink_decl.compiler._context import CompileContext, quotable
from wink_decl.compiler._numbers import number_problems
from wink_decl.compiler._policy_compiler import PolicyCompiler
from wink_decl.compiler._readable import readable
from wink_decl.compiler._sections import (
    CompiledSection,
    SectionBudget,
    SectionScope,
    compile_section,
    section_key,
)
from wink_decl.compiler._stamp import IncludeState, digest, stamp_of
from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, clip, some_of
from wink_decl.limits import DEFAULT_LIMITS, Limits
from wink_decl.loader import JSONPath, LoadedFile, NotAFileError, load_file, read_stamped
from wink_decl.schema.model import PromptDocument, SectionDoc
from wink_decl.schema.readable import Entry, ReadableDocument
from wink_decl.schema.validate import validate_document

if TYPE_CHECKING:
    from wink_decl.plugins import PluginCatalog
    from wink_decl.prompt.tool import Tool

__all__ = ["Includer"]


class _Missing(NamedTuple):
    """What an include of a section a file does not have reports (worked out once)."""

    expected: str
    hint: str | None


@dataclass(slots=True)
class _Included:
    """One included file, loaded and checked once per compilation."""

    file: LoadedFile
    ctx: CompileContext
    """Where every diagnostic found in the file's sections and tools goes."""
    document: PromptDocument
    """The file as the schema accepted it: only such a file is included."""
    sections: tuple[Entry, ...]
    """Its sections, each with its path in the file, to search by dotted key."""
    found: dict[str, tuple[Entry, SectionDoc] | _Missing]
    """Each dotted section path asked for: where the section is, or why it is not there."""
    tools: dict[str, Tool[Any, Any] | None]
    """The file's tools compiled so far, by name (None: it has errors, reported)."""
    scopes: dict[int, tuple[SectionScope, Mapping[str, object]]]
    """The scope its sections compile in, by the including scope's tools (kept alive here)."""


class Includer:
    """Resolves includes for one compilation: bounded to the root, cycles refused."""

    def __init__(
        self,
        root: str | Path,
        catalog: PluginCatalog,
        sources: dict[str, str],
        limits: Limits = DEFAULT_LIMITS,
    ) -> None:
        """Includes resolve relative to ``root`` and may not leave it.

        The text of each file read goes into ``sources``, for quoting and hashing; ``limits``
        bound each file read and how many and how deep includes may go.
        """
        self.limits = limits
        self.budget = SectionBudget(limits.max_sections)
        """The prompt's sections, shared with its own scope: includes count against it."""
        self._given_root = root
        self._resolved_root: Path | None = None
        self._catalog = catalog
        self._stack: list[tuple[tuple[Path, str], str]] = []
        """The includes being expanded: (file, section) and the reference as written."""
        self._files: dict[Path, _Included | None] = {}
        self._problems: list[Diagnostic] = []
        self.sources = sources
        self.named: dict[Path, None] = {}
        """Every file an include named, found or not, in order: the result depends on them."""
        self.states: dict[Path, IncludeState] = {}
        """Each named file as this compile found it: caches compare these, not the file later."""

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """Every problem found in the included files (not at the includes themselves)."""
        found = list(self._problems)
        for included in self._files.values():
            if included is not None:
                found.extend(included.ctx.bag.items)
        return found

    def include(
        self,
        ctx: CompileContext,
        path: JSONPath,
        reference: str,
        scope: SectionScope,
        parent: str = "",
    ) -> CompiledSection | None:
        """The referenced section compiled with this prompt's params, or None (reported).

        ``parent`` is the dotted path of the section the include sits in ("" at the top).
        """
        if self._resolved_root is None:  # resolved on first include: most prompts have none
            self._resolved_root = Path(self._given_root).resolve()
        root = self._resolved_root
        # The schema made sure of a file part, a section part, and no NUL or other control.
        file_part, _, section_part = reference.partition("#")
        # realpath, not Path.resolve: it leaves a loop of links in the path on every Python
        # (3.11 and 3.12's resolve raise RuntimeError), and stat() then names it.
        target = Path(os.path.realpath(root / file_part))
        here = (target, section_part.lower())
        if not self._may_enter(ctx, path, root, here, reference):
            return None
        included = self._load(ctx, path, target, file_part)
        if included is None:
            return None
        self._stack.append((here, reference))
        try:
            section = self._compile(ctx, path, included, section_part, scope, parent)
        finally:
            self._stack.pop()
        if section is None and self.budget.spent and not scope.included:
            self.budget.report(ctx, path, include=True)
        return section

    def _may_enter(
        self,
        ctx: CompileContext,
        path: JSONPath,
        root: Path,
        here: tuple[Path, str],
        reference: str,
    ) -> bool:
        """False, reported, when the include leaves the root, closes a cycle or nests too deep.

        The include's place is worked out for a mistake only: a file whose includes are
        fine never makes its source map.
        """
        if not here[0].is_relative_to(root):
            ctx.error(
                DiagnosticCode.INCLUDE_OUTSIDE_ROOT,
                f"Include '{clip(reference)}' points outside the prompt root.",
                ctx.span(path),
                hint="included files must live under the folder the prompts are loaded from",
            )
            return False
        chain = " -> ".join(clip(shown) for shown in [*(s for _, s in self._stack), reference])
        if any(key == here for key, _ in self._stack):
            ctx.error(
                DiagnosticCode.INCLUDE_CYCLE, f"Includes form a cycle: {chain}.", ctx.span(path)
            )
            return False
        limit = self.limits.max_include_depth
        if len(self._stack) >= limit:
            ctx.error(
                DiagnosticCode.INCLUDE_DEPTH,
                f"Includes nest more than {limit} deep here: {chain}.",
                ctx.span(path),
                expected=f"includes at most {limit} deep (max_include_depth)",
                hint="include the section from a file nearer the top, or raise the limit: "
                f"--limit max_include_depth={limit * 2}",
            )
            return False
        return True

    def _load(
        self, ctx: CompileContext, path: JSONPath, target: Path, shown: str
    ) -> _Included | None:
        if target not in self._files and not self._read(ctx, path, target, shown):
            return None
        included = self._files[target]
        if included is None:  # at every include of it, not only the first
            ctx.error(
                DiagnosticCode.INCLUDE_INVALID,
                f"Included file '{clip(shown)}' has errors (listed with it).",
                ctx.span(path),
            )
        return included

    def _read(self, ctx: CompileContext, path: JSONPath, target: Path, shown: str) -> bool:
        """Read, load and check ``target`` into ``_files``; False when it cannot be read."""
        if len(self._files) >= self.limits.max_include_files:
            limit = self.limits.max_include_files
            ctx.error(
                DiagnosticCode.INCLUDE_FILES,
                f"Included file '{clip(shown)}' would be file {limit + 1} that this prompt's "
                f"includes read, past the limit of {limit}.",
                ctx.span(path),
                expected=f"at most {limit} {noun_for(limit, 'file')} read through includes "
                "(max_include_files)",
                hint="include sections from fewer files, or raise the limit: "
                f"--limit max_include_files={limit * 2}",
            )
            return False
        self.named[target] = None
        # Stamped before it is read: an edit from here on shows as another stamp.
        before = stamp_of(target)
        if not target.is_file():
            self.states.setdefault(target, IncludeState(before, None))
            ctx.error(
                DiagnosticCode.INCLUDE_MISSING,
                f"Included file '{clip(shown)}' {_why(target)}.",
                ctx.span(path),
            )
            return False
        shown_path = _display(target)
        try:
            content, stamp = read_stamped(target, self.limits)
        except OSError:  # gone or unreadable since is_file(): load_file says which
            content, stamp = None, before
        self.states[target] = IncludeState(stamp, digest(content))
        result = load_file(target, display_path=shown_path, content=content, limits=self.limits)
        file = result.file
        problems = list(result.diagnostics)
        document = None
        if file is None:
            self.sources.update(quotable(result, shown_path))  # its errors quote its lines
        else:
            self.sources[file.path] = file.text
            numbers = number_problems(file)
            if numbers:  # refused before anything reads them (see compile_loaded)
                problems.extend(numbers)
                file = None
            else:
                document, schema_problems = validate_document(file.data, file.source_map)
                problems.extend(schema_problems)
        self._problems.extend(problems)
        self._files[target] = (
            None
            if file is None or document is None
            else _Included(file, CompileContext(file), document, _sections(document), {}, {}, {})
        )
        return True

    def _compile(
        self,
        ctx: CompileContext,
        path: JSONPath,
        included: _Included,
        dotted: str,
        scope: SectionScope,
        parent: str,
    ) -> CompiledSection | None:
        found = self._find(included, dotted)
        if isinstance(found, _Missing):
            ctx.error(
                DiagnosticCode.INCLUDE_SECTION,
                f"'{included.file.path}' has no section '{clip(dotted)}'.",
                ctx.span(path),
                expected=found.expected,
                hint=found.hint,
            )
            return None
        entry, section = found
        inner = self._scope(included, scope)
        compiled = compile_section(included.ctx, entry, section, inner, parent)
        if compiled is None and not self.budget.spent:
            ctx.error(
                DiagnosticCode.INCLUDE_INVALID,
                f"Included section '{clip(dotted)}' has errors (listed with it).",
                ctx.span(path),
            )
        return compiled

    def _find(self, included: _Included, dotted: str) -> tuple[Entry, SectionDoc] | _Missing:
        """Where the section ``dotted`` is in the file, or why not: searched once per path."""
        wanted = dotted.lower()
        found = included.found.get(wanted)
        if found is None:
            sections = included.sections
            found = _find(sections, wanted.split("."))
            if found is None:
                keys = _all_keys(sections, "")
                suggestion = self.budget.suggest(dotted, keys)
                found = _Missing(
                    expected=f"one of {some_of(keys)}" if keys else "a file with keyed sections",
                    hint=suggestion.strip().lower() or None,
                )
            included.found[wanted] = found
        return found

    def _scope(self, included: _Included, scope: SectionScope) -> SectionScope:
        """The scope an included section compiles in: the includer's tools, then the file's.

        One per file and including scope: the file's tools are compiled once, not at every
        include of it.
        """
        kept = included.scopes.get(id(scope.tools))
        if kept is not None:
            return kept[0]
        tools = dict(scope.tools)
        for name, spec in included.document.tools.items():
            if name not in tools:
                if name not in included.tools:
                    # Imported for a file with tools only: checking others never loads it.
                    from wink_decl.compiler._tool_compiler import compile_tool  # noqa: PLC0415

                    included.tools[name] = compile_tool(
                        included.ctx, ("tools", name), name, spec, self._catalog
                    )
                tools[name] = included.tools[name]
        inner = SectionScope(
            params=scope.params,
            params_type=scope.params_type,
            tools=tools,
            policies=PolicyCompiler(self._catalog, tools).policies,  # its own tools count too
            predicates=scope.predicates,
            include=scope.include,
            tool_owner=scope.tool_owner,
            budget=scope.budget,
            included=True,
            check_only=scope.check_only,
        )
        included.scopes[id(scope.tools)] = (inner, scope.tools)
        return inner


def _why(target: Path) -> str:
    """Why an included path is not a regular file (a FIFO or a device is never opened)."""
    if target.is_dir():
        return "is a folder, not a file"
    try:
        mode = target.stat().st_mode
    except OSError as error:
        if error.errno == errno.ELOOP:
            return "cannot be read: its path goes round a loop of symbolic links"
        return "does not exist"
    return f"cannot be read: {NotAFileError(target, mode).strerror}"


def _sections(document: PromptDocument) -> tuple[Entry, ...]:
    """The sections of a file the schema accepted (every part of it reads)."""
    return readable(ReadableDocument.of(document).sections)


def _find(entries: tuple[Entry, ...], keys: list[str]) -> tuple[Entry, SectionDoc] | None:
    for entry in entries:
        section = entry.item
        if not isinstance(section, SectionDoc) or section_key(section) != keys[0]:
            continue
        if len(keys) == 1:
            return entry, section
        return _find(readable(entry.children), keys[1:])
    return None


def _all_keys(entries: tuple[Entry, ...], prefix: str) -> list[str]:
    keys: list[str] = []
    for entry in entries:
        if not isinstance(entry.item, SectionDoc):
            continue
        dotted = f"{prefix}{section_key(entry.item)}"
        keys.append(dotted)
        keys.extend(_all_keys(readable(entry.children), f"{dotted}."))
    return keys


def _display(target: Path) -> str:
    try:
        return os.path.relpath(target)
    except ValueError:  # another drive on Windows
        return str(target)
