"""Apply one override file to a template: a new template, built once, and what was wrong."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from types import MemberDescriptorType
from typing import TYPE_CHECKING, Any, Generic, TypedDict, TypeVar

from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, sort_diagnostics
from wink_decl.errors import PromptValidationError
from wink_decl.overrides._bases import Bases, bases_of
from wink_decl.overrides._hashing import text_hash
from wink_decl.prompt.param_hints import ParamHint, param_hints
from wink_decl.prompt.template import PromptTemplate
from wink_decl.prompt.tool import Tool
from wink_decl.prompt.visibility import SectionVisibility
from wink_decl.suggestions import did_you_mean

if TYPE_CHECKING:
    from wink_decl.overrides._file import Entry, OverrideFile
    from wink_decl.prompt.section import Section

__all__ = ["Applied", "apply_overrides"]

_OutputT = TypeVar("_OutputT")
_ParamsT = TypeVar("_ParamsT")
_ResultT = TypeVar("_ResultT")


@dataclass(frozen=True, slots=True)
class Applied(Generic[_OutputT]):
    """The template with the file's valid, current entries applied, and every diagnostic.

    Unknown, refused and invalid entries are errors; a stale entry is a warning (an error
    with ``strict``). Each entry that is not applied leaves its base text in place.
    """

    template: PromptTemplate[_OutputT]
    diagnostics: tuple[Diagnostic, ...]

    @property
    def ok(self) -> bool:
        """True when no diagnostic is an error."""
        return all(d.severity == "warning" for d in self.diagnostics)


def apply_overrides(
    template: PromptTemplate[_OutputT], file: OverrideFile, *, strict: bool = False
) -> Applied[_OutputT]:
    """``template`` with ``file``'s entries applied; the base text where one cannot be."""
    bases = bases_of(template)
    problems: list[Diagnostic] = []
    accepted: list[Entry] = []
    for entry in file.entries:
        problem = _judge(entry, bases, template.label, strict=strict)
        if problem is not None:
            problems.append(problem)
        else:
            problem = _invalid_text(entry, template)
            if problem is not None:
                problems.append(problem)
            else:
                accepted.append(entry)
    return Applied(_build(template, accepted, bases), tuple(sort_diagnostics(problems)))


def _judge(entry: Entry, bases: Bases, label: str, *, strict: bool) -> Diagnostic | None:
    base = bases.parts.get(entry.path)
    if base is None:
        return _unknown(entry, bases, label)
    if base.refusal is not None:
        return Diagnostic(
            message=f"{base.refusal[:-1]}, so this entry is not applied.",
            span=entry.key_span,
            code=DiagnosticCode.OVERRIDE_REFUSED,
            expected="entries for sections and tools that accept overrides",
            hint="Remove the entry.",
        )
    current = text_hash(base.text)
    if entry.hash == current:
        return None
    return Diagnostic(
        message=f"The override of {entry.label} was written for another text: the base text "
        "has changed since, so the base text is used.",
        span=entry.hash_span,
        code=DiagnosticCode.OVERRIDE_STALE,
        severity="error" if strict else "warning",
        expected=f"hash: {current}",
        hint="Compare the override with the new base text, then re-pin it: wink-decl overrides "
        "repin FILE --tag TAG shows each stale entry's base text and, with --all or --entry, "
        "writes the new hashes and keeps your texts.",
    )


def _unknown(entry: Entry, bases: Bases, label: str) -> Diagnostic | None:
    kind, owner = entry.path[0], str(entry.path[1])
    if kind == "sections":
        if owner in bases.sections:
            message = f"Section '{owner}' has no summary to override."
            hint = "Remove the entry, or give the section a summary in the prompt file."
        else:
            message = f"Prompt '{label}' has no section '{owner}'."
            hint = did_you_mean(owner, bases.sections) or "Remove the entry."
        expected = "a section of the prompt, its dotted key from the top"
    elif owner not in bases.tools:
        message = f"Prompt '{label}' has no tool '{owner}'."
        hint = did_you_mean(owner, bases.tools) or "Remove the entry."
        expected = "a tool of the prompt"
    else:
        params = bases.params[owner]
        if params is None:
            return None  # checked once the handler that gives the params is imported
        param = str(entry.path[3])
        message = f"Tool '{owner}' has no param '{param}'."
        hint = did_you_mean(param, params) or "Remove the entry."
        expected = f"one of {', '.join(params)}" if params else "no params: the tool takes none"
    return Diagnostic(
        message=message,
        span=entry.key_span,
        code=DiagnosticCode.OVERRIDE_UNKNOWN,
        expected=expected,
        hint=hint,
    )


def _invalid_text(entry: Entry, template: PromptTemplate[Any]) -> Diagnostic | None:
    """Why the entry's text cannot stand where it goes (the runtime's own check), or None."""
    kind, owner, part = entry.path[0], str(entry.path[1]), entry.path[-1]
    try:
        if kind == "sections":
            node = template.find(owner)
            assert node is not None  # noqa: S101  # _judge found its base
            node.section.overridden(**_section_part(str(part), entry.text))
        elif len(entry.path) == 3:  # noqa: PLR2004  # a tool's description
            Tool[None, None](name=owner, description=entry.text)
    except PromptValidationError as error:
        return Diagnostic(
            message=f"The text of {entry.label} cannot be used: {error}",
            span=entry.text_span,
            code=DiagnosticCode.OVERRIDE_INVALID,
            expected="a text the prompt file could hold in its place",
            hint="Correct the text; the base text is used until then.",
        )
    return None


class _SectionParts(TypedDict, total=False):
    """The parts of a section an override file replaces, as ``Section.overridden`` takes them."""

    template: str
    summary: str
    visibility: SectionVisibility


def _section_part(part: str, text: str) -> _SectionParts:
    if part == "visibility":
        return {"visibility": SectionVisibility(text)}
    if part == "summary":
        return {"summary": text}
    return {"template": text}  # the last of SECTION_PARTS


# -- building ---------------------------------------------------------------------------------


class _Plan:
    """The accepted entries, grouped as the rebuild reads them."""

    def __init__(self, accepted: Sequence[Entry]) -> None:
        self.sections: dict[str, _SectionParts] = {}
        self.descriptions: dict[str, str] = {}
        self.params: dict[str, dict[str, dict[str, str]]] = {}
        for entry in accepted:
            path = entry.path
            if path[0] == "sections":
                parts = self.sections.setdefault(str(path[1]), {})
                parts.update(_section_part(str(path[2]), entry.text))
            elif path[2] == "description":
                self.descriptions[str(path[1])] = entry.text
            else:
                tool = self.params.setdefault(str(path[1]), {})
                tool.setdefault(str(path[3]), {})[str(path[4])] = entry.text

    def tool(self, tool: Tool[_ParamsT, _ResultT]) -> Tool[_ParamsT, _ResultT]:
        text = self.descriptions.get(tool.name)
        return tool if text is None else _with_description(tool, text)


def _build(
    template: PromptTemplate[_OutputT], accepted: Sequence[Entry], bases: Bases
) -> PromptTemplate[_OutputT]:
    if not accepted:
        return template
    plan = _Plan(accepted)
    built = PromptTemplate(
        ns=template.ns,
        key=template.key,
        name=template.name,
        sections=_rebuild(template.sections, "", plan),
        policies=template.policies,
        output_type=template.output_type,
    )
    if plan.params:
        built.engine.param_hints = {
            name: _hints(bases.tools[name].params_type, changes)
            for name, changes in plan.params.items()
        }
    return built


def _rebuild(sections: Sequence[Section[Any]], prefix: str, plan: _Plan) -> list[Section[Any]]:
    rebuilt: list[Section[Any]] = []
    for section in sections:
        dotted = f"{prefix}{section.key}"
        rebuilt.append(
            section.overridden(
                children=_rebuild(section.children, f"{dotted}.", plan),
                tools=[plan.tool(tool) for tool in section.tools()],
                **plan.sections.get(dotted, {}),
            )
        )
    return rebuilt


def _hints(params_type: type, changes: dict[str, dict[str, str]]) -> dict[str, ParamHint]:
    hints = dict(param_hints(params_type))
    for name, parts in changes.items():
        replaced: dict[str, str | None] = dict(parts)
        if "default" in parts:
            replaced["default"] = parts["default"] or None  # "" means required
        hints[name] = dataclasses.replace(hints[name], **replaced)  # pyright: ignore[reportArgumentType]
    return hints


def _with_description(tool: Tool[_ParamsT, _ResultT], text: str) -> Tool[_ParamsT, _ResultT]:
    """A copy of ``tool`` (of its own class, every slot) with another description.

    ``dataclasses.replace`` would run the class's ``__init__`` again, which a compiled
    tool whose types its handler gives (``LazyTool``) takes other arguments for.
    """
    clone = object.__new__(type(tool))
    for cls in type(tool).__mro__:
        for slot in vars(cls).values():
            if isinstance(slot, MemberDescriptorType):
                _copy_slot(slot, tool, clone)
    object.__setattr__(clone, "description", text)
    return clone


def _copy_slot(slot: MemberDescriptorType, source: object, target: object) -> None:
    # The slot itself, not the attribute: a LazyTool's params_type property would import.
    try:
        value = slot.__get__(source, type(source))
    except AttributeError:  # a slot the class leaves unset (LazyTool's typed fields)
        return
    slot.__set__(target, value)
