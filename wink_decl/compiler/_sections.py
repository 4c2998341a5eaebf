"""Sections compiled to runtime ``MarkdownSection``s, with every reference checked first."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias, TypeVar, cast

from wink_decl._nouns import noun_for
from wink_decl.compiler._condition_compiler import Check, compile_condition
from wink_decl.compiler._context import CompileContext
from wink_decl.compiler._foreign_syntax import check_foreign_syntax, may_hold_foreign
from wink_decl.compiler._readable import readable
from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import clip, some_of
from wink_decl.errors import PromptValidationError
from wink_decl.limits import DEFAULT_LIMITS
from wink_decl.loader import JSONPath
from wink_decl.prompt.keys import key_from_title
from wink_decl.prompt.text_template import compile_text
from wink_decl.prompt.visibility import SectionVisibility
from wink_decl.schema.model import IncludeDoc, PolicyDoc, SectionDoc, Visibility
from wink_decl.schema.readable import UNREADABLE, Entry
from wink_decl.suggestions import did_you_mean_sentence

# The runtime's section, tool and policy classes are imported only where a section is built:
# checking a file (``wink-decl validate``) never loads them.
if TYPE_CHECKING:
    from wink_decl.compiler._lazy import LazyPredicate
    from wink_decl.prompt.policy import ToolPolicy
    from wink_decl.prompt.section import EnabledSpec, MarkdownSection, Section, VisibilitySpec
    from wink_decl.prompt.tool import Tool

SECTION_KEY = "section_key"
"""The one placeholder wink-decl fills in itself, in ``summary_suffix`` only."""

__all__ = [
    "CheckedSection",
    "CompiledSection",
    "SectionBudget",
    "SectionScope",
    "compile_section",
    "compile_sections",
    "plain_sections",
]

_STRAY_DOLLAR = re.compile(
    r"(?:[^$]|\$\$|\$[_a-z][_a-z0-9]*|\$\{[_a-z][_a-z0-9]*\})*+(\$)", re.IGNORECASE | re.ASCII
)
"""Text up to the first '$' that starts no placeholder (``string.Template``'s own rules)."""

_SUMMARY = SectionVisibility.SUMMARY
_FULL = SectionVisibility.FULL
_VISIBILITIES = {visibility.value: visibility for visibility in SectionVisibility}


_MOST_CANDIDATES = 1_000
"""Names a did-you-mean search compares with at most; past this, no suggestion is made."""


class CheckedSection(NamedTuple):
    """A section that passed every check, standing in for it when nothing is built.

    ``wink-decl validate`` only needs to know that a section is right (and its key, to find
    two siblings with one); building the runtime section would cost as much as checking it.
    """

    key: str


CompiledSection: TypeAlias = "Section[Any] | CheckedSection"
"""A runtime section, or its stand-in when the scope only checks (``SectionScope.check_only``)."""


@dataclass
class SectionBudget:
    """The sections one prompt may still have, includes expanded (``Limits.max_sections``).

    Every entry of a ``sections:`` or ``children:`` list takes one, an include too (it stands
    for the section it brings), before any work is done for it: a file that includes another
    ten times, which includes a third ten times, stops at the limit instead of expanding all.
    """

    limit: int
    used: int = 0
    reported: bool = False
    """True once the diagnostic is written: one per prompt, where the limit was passed."""
    lookups: int = 100
    """Did-you-mean searches left: each compares a name with every candidate, so a file of
    thousands of unknown names among thousands of declared ones would take minutes."""

    def suggest(self, word: str, candidates: Collection[str]) -> str:
        """``did_you_mean_sentence``, while searches are left and among at most 1,000 candidates."""
        if self.lookups <= 0 or len(candidates) > _MOST_CANDIDATES:
            return ""
        self.lookups -= 1
        return did_you_mean_sentence(word, candidates)

    @property
    def spent(self) -> bool:
        """True when no section is left."""
        return self.used > self.limit

    def take(self) -> bool:
        """Count one section; False when that is one past the limit."""
        self.used += 1
        return self.used <= self.limit

    def report(self, ctx: CompileContext, path: JSONPath, *, include: bool) -> None:
        """Say once that the prompt has too many sections, at the entry at ``path``."""
        if self.reported:
            return
        self.reported = True
        limit = self.limit
        sections = f"{limit:,} {noun_for(limit, 'section')}"
        if include:
            message = f"This include takes the prompt past the limit of {sections}."
            hint = "include fewer sections, or raise the limit"
        else:
            message = f"This section is past the limit of {sections} per prompt."
            hint = "split the prompt, or raise the limit"
        ctx.error(
            DiagnosticCode.TOO_MANY_SECTIONS,
            message,
            ctx.span(path),
            expected=f"at most {sections}, includes expanded (max_sections)",
            hint=f"{hint}: --limit max_sections={limit * 2}",
        )


@dataclass
class SectionScope:
    """What sections of one prompt share: params, tools, and what has been used."""

    params: Mapping[str, object]
    params_type: type | None
    tools: Mapping[str, Tool[Any, Any] | None]
    """Compiled tools by name; None for a declared tool whose declaration has errors."""
    policies: Callable[[CompileContext, JSONPath, Iterable[PolicyDoc]], list[ToolPolicy] | None]
    predicates: Callable[[CompileContext, JSONPath, str], LazyPredicate | None]
    include: Callable[[CompileContext, JSONPath, str, SectionScope, str], CompiledSection | None]
    """``(ctx, path, reference, scope, parent)``: ``parent`` is the dotted path it lands under."""
    tool_owner: dict[str, str] = field(default_factory=dict[str, str])
    budget: SectionBudget = field(
        default_factory=lambda: SectionBudget(DEFAULT_LIMITS.max_sections)
    )
    """Shared by every scope of one prompt, included files' too."""
    included: bool = False
    """True for the sections of an included file (the limit is reported at the include)."""
    check_only: bool = False
    """Check every section but build none: each becomes a ``CheckedSection``."""


def compile_sections(
    ctx: CompileContext, entries: Sequence[Entry], scope: SectionScope, parent: str = ""
) -> list[CompiledSection] | None:
    """Compile a list of sections; None when any has errors (all are still checked).

    Each entry takes one section of the prompt's budget first; past it, nothing more is done.
    An entry the schema refused is skipped (its diagnostics say why).
    """
    sections: list[CompiledSection] = []
    keys: dict[str, JSONPath] = {}
    ok = True
    budget = scope.budget
    for entry in entries:
        here, item = entry.path, entry.item
        include = isinstance(item, IncludeDoc)
        if not budget.take():
            if not scope.included:  # inside an include, the include in this prompt says it
                budget.report(ctx, (*here, "include") if include else here, include=include)
            return None
        if isinstance(item, IncludeDoc):
            section = scope.include(ctx, (*here, "include"), item.include, scope, parent)
            key = None if section is None else section.key
        elif item is UNREADABLE:
            section = key = None
        else:
            key = section_key(item)
            section = _section(ctx, entry, item, scope, parent, key)
        if key is not None and keys.setdefault(key, here) is not here:
            _duplicate(ctx, key, keys[key], _where_key_is(here, item))
            ok = False
        if section is None:
            ok = False
        else:
            sections.append(section)
    return sections if ok else None


def plain_sections(
    items: Sequence[SectionDoc | IncludeDoc],
    params: Mapping[str, object],
    params_type: type | None,
    limit: int,
) -> list[Section[Any]] | None:
    """The runtime sections, built straight from the checked data, when every one is plain.

    Plain: a section with no include, children, tools, policies, summary suffix or condition,
    whose texts every check passes (no other template's syntax, no stray '$', every
    placeholder a declared param), under a key no sibling has, at most ``limit`` of them.
    ``compile_sections`` would find nothing to report in such a list; this skips its work for
    each section. None when any is not plain: ``compile_sections`` then checks and reports
    (nothing done here is reported or kept, but the caches both share).
    """
    if len(items) > limit:
        return None
    section_class: type[MarkdownSection[Any]] | None = None  # imported for the first section
    keys: set[str] = set()
    built: list[Section[Any]] = []
    for item in items:
        if not isinstance(item, SectionDoc) or not _is_plain(item, params):
            return None
        enabled, visibility = item.enabled, item.visibility
        if not isinstance(enabled, bool) or not isinstance(visibility, str):
            return None  # a condition: compiled by compile_sections
        key = section_key(item)
        if key in keys:
            return None
        keys.add(key)
        if section_class is None:
            section_class = _section_class()
        try:
            section = section_class.prechecked(
                title=item.title,
                key=key,
                template=item.template,
                summary=item.summary,
                summary_suffix=None,
                visibility=_VISIBILITIES[visibility],
                enabled=enabled,
                children=[],
                tools=[],
                policies=[],
                accepts_overrides=item.accepts_overrides,
                params_type=params_type,
            )
        except PromptValidationError:  # compile_sections reports it, where it is
            return None
        built.append(section)
    return built


def _is_plain(item: SectionDoc, params: Mapping[str, object]) -> bool:
    """True for a section ``plain_sections`` may build (its conditions aside): see there."""
    return (
        not item.children
        and not item.tools
        and not item.policies
        and item.summary_suffix is None
        and _is_clean(item.template, params)
        and (item.summary is None or _is_clean(item.summary, params))
    )


def _is_clean(text: str, params: Mapping[str, object]) -> bool:
    """True when ``_check_placeholders`` would find nothing in ``text`` (the params' names)."""
    if not text:
        return True
    if may_hold_foreign(text):
        return False
    try:
        compiled = compile_text(text, where="text")
    except PromptValidationError:
        return False
    return params.keys() >= compiled.placeholders


def _section_class() -> type[MarkdownSection[Any]]:
    """``MarkdownSection``; each section is given its params type, so no class is made for it."""
    from wink_decl.prompt.section import MarkdownSection  # noqa: PLC0415  # see the imports

    return MarkdownSection


def compile_section(
    ctx: CompileContext, entry: Entry, section: SectionDoc, scope: SectionScope, parent: str
) -> CompiledSection | None:
    """One section (not an include) at ``entry``, its budget already taken; None on errors."""
    return _section(ctx, entry, section, scope, parent, section_key(section))


def section_key(section: SectionDoc) -> str:
    """The section's key: as written, else derived from its title (the schema made sure one is)."""
    return section.key if section.key is not None else key_from_title(section.title)


def _where_key_is(here: JSONPath, item: object) -> JSONPath:
    """Where the key of the entry at ``here`` is written: its key, the title, or the include.

    Only an entry with a key gets here: a section, or an include (a refused entry has none).
    """
    if isinstance(item, SectionDoc):
        return (*here, "title" if item.key is None else "key")
    return (*here, "include")


def _duplicate(ctx: CompileContext, key: str, first: JSONPath, where: JSONPath) -> None:
    """Report a sibling's ``key`` (written at ``where``) that the entry at ``first`` has."""
    ctx.error(
        DiagnosticCode.DUPLICATE_SECTION,
        f"Two sections here have the key '{key}'.",
        ctx.span(where),
        hint=f"the first is on line {ctx.span(first).line}; give each sibling its own key",
    )


def _section(
    ctx: CompileContext,
    entry: Entry,
    section: SectionDoc,
    scope: SectionScope,
    parent: str,
    key: str,
) -> CompiledSection | None:
    path = entry.path
    dotted = f"{parent}.{key}" if parent else key
    ok = _check_texts(ctx, path, section, scope)
    visibility = _visibility(ctx, path, section.visibility, scope)
    condition = section.enabled
    enabled: bool | Check | None
    if isinstance(condition, bool):  # constants need no compiling
        enabled = condition
    else:
        enabled = compile_condition(
            ctx,
            (*path, "enabled"),
            condition,
            params=scope.params,
            predicates=lambda p, n: scope.predicates(ctx, p, n),
        )
    # Most sections have no tools, policies or children: skip building empty lists for them.
    tools = _tools(ctx, path, section.tools, scope, dotted) if section.tools else []
    policies = (
        scope.policies(ctx, (*path, "policies"), section.policies) if section.policies else []
    )
    children = (
        compile_sections(ctx, readable(entry.children), scope, dotted) if entry.children else []
    )
    if (  # a part with errors (each is a list, a constant or a check)
        not ok
        or visibility is None
        or enabled is None
        or tools is None
        or policies is None
        or children is None
    ):
        return None
    if scope.check_only:
        return CheckedSection(key)
    # Constants (most sections) go to the runtime as they are; a check is wrapped.
    try:
        return _section_class().prechecked(
            title=section.title,
            key=key,
            template=section.template,
            summary=section.summary,
            summary_suffix=section.summary_suffix,
            visibility=_visibility_runtime(visibility, scope)
            if callable(visibility)
            else visibility,
            enabled=_enabled_runtime(enabled, scope) if callable(enabled) else enabled,
            # Sections, not ``CheckedSection``: built only when not ``check_only``.
            children=cast("list[Section[Any]]", children),
            tools=tools,
            policies=policies,
            accepts_overrides=section.accepts_overrides,
            params_type=scope.params_type,
        )
    except PromptValidationError as error:  # a safety net: the checks above should catch it
        ctx.refused(DiagnosticCode.SECTION, error.message, ctx.span(path))
        return None


_DecisionT = TypeVar("_DecisionT", SectionVisibility, bool)
"""What a section's visibility or enablement is, or what a check of it answers."""


def _visibility_runtime(check: Check, scope: SectionScope) -> VisibilitySpec:
    """A check made a callable answering the visibility it picks."""

    def visibility_of(params: object, session: object) -> SectionVisibility:
        return _SUMMARY if check(params, session) else _FULL

    return _with_session(visibility_of, scope)


def _enabled_runtime(check: Check, scope: SectionScope) -> EnabledSpec:
    """A check made a callable (see ``_with_session``)."""
    return _with_session(check, scope)


def _with_session(
    decide: Callable[[object, object], _DecisionT], scope: SectionScope
) -> Callable[..., _DecisionT]:
    """``decide`` as the runtime calls it: ``(params, *, session)``, or ``(*, session)``."""
    if scope.params_type is None:

        def without_params(*, session: object) -> _DecisionT:
            return decide(None, session)

        return without_params

    def with_params(params: object, *, session: object) -> _DecisionT:
        return decide(params, session)

    return with_params


def _check_texts(
    ctx: CompileContext, path: JSONPath, section: SectionDoc, scope: SectionScope
) -> bool:
    ok = True  # every text is checked; an empty one has no placeholder
    if section.template:
        ok = _check_placeholders(ctx, path, "template", section.template, scope, _NO_EXTRA)
    if section.summary:
        ok = _check_placeholders(ctx, path, "summary", section.summary, scope, _NO_EXTRA) and ok
    if section.summary_suffix:
        suffix = section.summary_suffix
        ok = _check_placeholders(ctx, path, "summary_suffix", suffix, scope, _SUFFIX_EXTRA) and ok
    return ok


_NO_EXTRA: frozenset[str] = frozenset()
_SUFFIX_EXTRA = frozenset({SECTION_KEY})
"""The names a summary suffix may use beyond the params."""


def _check_placeholders(
    ctx: CompileContext,
    section_path: JSONPath,
    name: str,
    text: str,
    scope: SectionScope,
    extra: frozenset[str],
) -> bool:
    """Check the section's text ``name``; the path to it is made only to report a mistake."""
    if may_hold_foreign(text):  # most texts cannot: then nothing is built for the check
        check_foreign_syntax(ctx, (*section_path, name), text, (scope.params, extra))
    try:
        compiled = compile_text(text, where="text")
    except PromptValidationError:
        ctx.error(
            DiagnosticCode.PLACEHOLDER,
            "A '$' here does not start a placeholder.",
            ctx.find_in_value((*section_path, name), _STRAY_DOLLAR),
            expected="$name or ${name} for a param, $$ for a literal '$'",
        )
        return False
    params = scope.params
    if params.keys() >= compiled.placeholders:  # the common case: every name is declared
        return True
    unknown = [n for n in compiled.placeholders if n not in params and n not in extra]
    if not unknown:  # the common case
        return True
    unknown.sort()
    path = (*section_path, name)
    declared = some_of(list(params)) if params else "none are declared"
    for placeholder in unknown:
        suggestion = scope.budget.suggest(placeholder, params)
        braced = "${" + placeholder + "}"
        needle = braced if braced in text else "$" + placeholder
        ctx.error(
            DiagnosticCode.UNKNOWN_PARAM,
            f"Placeholder '{clip(needle)}' is not a declared param.",
            ctx.find_in_value(path, needle),
            expected=f"a declared param ({declared})",
            hint=suggestion.strip().lower() if suggestion else _declare_hint(placeholder),
            suggestions=[p for p in params if suggestion and f"'{p}'" in suggestion],
        )
    return False


def _declare_hint(name: str) -> str:
    if name == SECTION_KEY:  # reserved: it cannot be declared, only used where it is filled in
        return f"'${{{SECTION_KEY}}}' is filled in only in summary_suffix; write the key here"
    return f"declare '{clip(name)}' under params:"


def _visibility(
    ctx: CompileContext, path: JSONPath, value: Visibility, scope: SectionScope
) -> SectionVisibility | Check | None:
    if isinstance(value, str):
        visibility: SectionVisibility | Check | bool | None = _VISIBILITIES[value]
    else:
        visibility = compile_condition(
            ctx,
            (*path, "visibility", "summary_when"),
            value.summary_when,
            params=scope.params,
            predicates=lambda p, n: scope.predicates(ctx, p, n),
        )
        if isinstance(visibility, bool):
            visibility = _SUMMARY if visibility else _FULL
    return visibility  # a summarized section without summary: the schema reports it


def _tools(
    ctx: CompileContext, path: JSONPath, names: Sequence[str], scope: SectionScope, dotted: str
) -> list[Tool[Any, Any]] | None:
    tools: list[Tool[Any, Any]] = []
    listed: set[str] = set()
    ok = True
    for index, name in enumerate(names):
        here = (*path, "tools", index)
        if name in listed:  # the runtime refuses it too, but without a line to point at
            ctx.error(
                DiagnosticCode.DUPLICATE_TOOL,
                f"Tool '{name}' is listed twice in this section.",
                ctx.span(here),
                hint="list each tool once",
            )
            ok = False
            continue
        listed.add(name)
        if name not in scope.tools:
            suggestion = scope.budget.suggest(name, scope.tools)
            declared = some_of(list(scope.tools)) or "none are declared"
            ctx.error(
                DiagnosticCode.UNKNOWN_TOOL,
                f"Tool '{name}' is not declared under tools:.",
                ctx.span(here),
                expected=f"a declared tool ({declared})",
                hint=suggestion.strip().lower() if suggestion else f"declare '{name}' under tools:",
                suggestions=[t for t in scope.tools if suggestion and f"'{t}'" in suggestion],
            )
            ok = False
            continue
        owner = scope.tool_owner.setdefault(name, dotted)
        if owner != dotted:
            ctx.error(
                DiagnosticCode.DUPLICATE_TOOL,
                f"Tool '{name}' is already offered by section '{owner}'.",
                ctx.span(here),
                hint="a tool belongs to one section; keep it where the model reads about it",
            )
            ok = False
            continue
        tool = scope.tools[name]
        if tool is None:
            ok = False
            continue
        tools.append(tool)
    return tools if ok else None
