"""``include: file#section``: a section from another file under the same prompt root."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wink_decl.compiler._context import CompileContext, quotable
from wink_decl.compiler._policies import PolicyCompiler
from wink_decl.compiler._stamp import IncludeState, digest, stamp_of
from wink_decl.compiler._tools import compile_tool
from wink_decl.diagnostics import Diagnostic
from wink_decl.errors import PromptValidationError
from wink_decl.limits import DEFAULT_LIMITS, Limits
from wink_decl.loader import JSONPath, LoadedFile, load_file, read_stamped
from wink_decl.runtime._keys import did_you_mean, key_from_title
from wink_decl.schema.validate import validate_document

if TYPE_CHECKING:
    from wink_decl.compiler._sections import SectionScope
    from wink_decl.plugins import PluginCatalog
    from wink_decl.runtime.section import Section

__all__ = ["Includer"]


class Includer:
    """Resolves includes for one compilation: bounded to the root, cycles refused."""

    def __init__(
        self,
        root: Path,
        catalog: PluginCatalog,
        sources: dict[str, str],
        limits: Limits = DEFAULT_LIMITS,
    ) -> None:
        """Includes resolve relative to ``root`` and may not leave it.

        The text of each file read goes into ``sources``, for quoting and hashing; ``limits``
        bound each file read and how many and how deep includes may go.
        """
        self.limits = limits
        self._given_root = root
        self._resolved_root: Path | None = None
        self._catalog = catalog
        self._stack: list[str] = []
        self._files: dict[Path, LoadedFile | None] = {}
        self.sources = sources
        self.diagnostics: list[Diagnostic] = []
        self.named: dict[Path, None] = {}
        """Every file an include named, found or not, in order: the result depends on them."""
        self.states: dict[Path, IncludeState] = {}
        """Each named file as this compile found it: caches compare these, not the file later."""

    def include(
        self,
        ctx: CompileContext,
        path: JSONPath,
        reference: str,
        scope: SectionScope,
        parent: str = "",
    ) -> Section[Any] | None:
        """The referenced section compiled with this prompt's params, or None (reported).

        ``parent`` is the dotted path of the section the include sits in ("" at the top).
        """
        if self._resolved_root is None:  # resolved on first include: most prompts have none
            self._resolved_root = self._given_root.resolve()
        root = self._resolved_root
        file_part, _, section_part = reference.partition("#")
        span = ctx.span(path)
        if not file_part or not section_part:
            return None  # the schema reports a reference without a section after '#'.
        try:
            target = (root / file_part).resolve()
        except (OSError, ValueError):  # a NUL, say: the schema reports the reference
            return None
        if not target.is_relative_to(root):
            ctx.error(
                "include-outside-root",
                f"Include '{reference}' points outside the prompt root.",
                span,
                hint="included files must live under the folder the prompts are loaded from",
            )
            return None
        if reference in self._stack:
            chain = " -> ".join([*self._stack, reference])
            ctx.error("include-cycle", f"Includes form a cycle: {chain}.", span)
            return None
        loaded = self._load(ctx, path, target, file_part)
        if loaded is None:
            return None
        self._stack.append(reference)
        try:
            return self._compile(ctx, path, loaded, section_part, scope, parent)
        finally:
            self._stack.pop()

    def _load(
        self, ctx: CompileContext, path: JSONPath, target: Path, shown: str
    ) -> LoadedFile | None:
        self.named[target] = None
        if target not in self._files:
            # Stamped before it is read: an edit from here on shows as another stamp.
            before = stamp_of(target)
            if not target.is_file():
                self.states.setdefault(target, IncludeState(before, None))
                what = "is a folder, not a file" if target.is_dir() else "does not exist"
                ctx.error("include-missing", f"Included file '{shown}' {what}.", ctx.span(path))
                return None
            shown_path = _display(target)
            try:
                content, stamp = read_stamped(target, self.limits)
            except OSError:  # gone or unreadable since is_file(): load_file says which
                content, stamp = None, before
            self.states[target] = IncludeState(stamp, digest(content))
            result = load_file(target, display_path=shown_path, content=content, limits=self.limits)
            file = result.file
            problems = list(result.diagnostics)
            if file is None:
                self.sources.update(quotable(target, shown_path))  # its errors quote its lines
            else:
                self.sources[file.path] = file.text
                document, schema_problems = validate_document(file.data, file.source_map)
                problems.extend(schema_problems)
                file = file if document is not None and not schema_problems else None
            self.diagnostics.extend(problems)
            self._files[target] = file
        if self._files[target] is None:  # at every include of it, not only the first
            ctx.error(
                "include-invalid",
                f"Included file '{shown}' has errors (listed with it).",
                ctx.span(path),
            )
        return self._files[target]

    def _compile(
        self,
        ctx: CompileContext,
        path: JSONPath,
        file: LoadedFile,
        dotted: str,
        scope: SectionScope,
        parent: str,
    ) -> Section[Any] | None:
        from wink_decl.compiler._sections import (  # noqa: PLC0415  # cycle
            SectionScope,
            compile_sections,
        )

        data: Mapping[str, Any] = file.data  # pyright: ignore[reportAssignmentType]
        found = _find(data.get("sections", []), dotted.lower().split("."), ("sections",))
        if found is None:
            keys = list(_all_keys(data.get("sections", []), ""))
            suggestion = did_you_mean(dotted, keys)
            ctx.error(
                "include-section",
                f"'{file.path}' has no section '{dotted}'.",
                ctx.span(path),
                expected=f"one of {', '.join(keys)}" if keys else "a file with keyed sections",
                hint=suggestion.strip().lower() or None,
            )
            return None
        section_path, section_data = found
        sub = CompileContext(file)
        tools = dict(scope.tools)
        for name, spec in data.get("tools", {}).items():
            if name not in tools:
                tools[name] = compile_tool(sub, ("tools", name), name, spec, self._catalog)
        inner = SectionScope(
            params=scope.params,
            params_type=scope.params_type,
            tools=tools,
            policies=PolicyCompiler(self._catalog, tools).policies,  # its own tools count too
            predicates=scope.predicates,
            include=scope.include,
            tool_owner=scope.tool_owner,
        )
        compiled = compile_sections(sub, section_path[:-1], [section_data], inner, parent)
        self.diagnostics.extend(sub.bag.items)
        if compiled is None:
            ctx.error(
                "include-invalid",
                f"Included section '{dotted}' has errors (listed with it).",
                ctx.span(path),
            )
            return None
        return compiled[0]


def _key_of(section: Mapping[str, Any]) -> str:
    if "key" in section:
        return str(section["key"]).lower()
    try:
        return key_from_title(str(section.get("title", "")))
    except PromptValidationError:
        return ""


def _find(
    sections: list[Any], keys: list[str], path: JSONPath
) -> tuple[JSONPath, Mapping[str, Any]] | None:
    for index, section in enumerate(sections):
        if "include" in section or _key_of(section) != keys[0]:
            continue
        here = (*path, index)
        if len(keys) == 1:
            return here, section
        return _find(section.get("children", []), keys[1:], (*here, "children"))
    return None


def _all_keys(sections: list[Any], prefix: str) -> list[str]:
    keys: list[str] = []
    for section in sections:
        if "include" in section:
            continue
        dotted = f"{prefix}{_key_of(section)}"
        keys.append(dotted)
        keys.extend(_all_keys(section.get("children", []), f"{dotted}."))
    return keys


def _display(target: Path) -> str:
    try:
        return os.path.relpath(target)
    except ValueError:  # another drive on Windows
        return str(target)
