"""What the page shows for one prompt file, as plain data: no server and no browser needed."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal, cast

from wink_decl.compiler import CompiledPrompt, compile_file, default_catalog
from wink_decl.diagnostics import Diagnostic, sort_diagnostics
from wink_decl.errors import WinkDeclError
from wink_decl.inputs import Location, PromptRequest, prepare
from wink_decl.overrides import check_tag
from wink_decl.plugins import PluginCallError
from wink_decl.preview._runtime import (
    Prompt,
    ReadSectionParams,
    ReadSectionResult,
    RenderedPrompt,
    SectionVisibility,
    Session,
    SetVisibilityOverride,
    ToolContext,
    anthropic_tools,
    to_openai_tools,
)
from wink_decl.preview.files import PromptFolder

if TYPE_CHECKING:
    from wink_decl.schema import ParamSpec

__all__ = [
    "MISSING_HINT",
    "Action",
    "Field",
    "PageState",
    "PageStateError",
    "PromptView",
    "Read",
    "SectionRow",
    "form_fields",
    "prompt_view",
    "state_from_json",
]

MISSING_HINT = "fill it in on the form, or give it a default in the file"
"""How a missing param is given on the page (the command line names its options instead)."""

_SECTION_SEPARATOR = "\n\n"
"""What a render puts between two sections (``wink_decl.runtime``'s plan does the same)."""


FieldKind = Literal["text", "number", "checkbox", "choice", "list"]
Shown = Literal["full", "summary", "not shown"]


@dataclass(frozen=True)
class Action:
    """One thing done on the page, replayed in order on a fresh session for every view.

    ``show``: a session visibility override of the section ``key`` (``visibility`` is
    ``full`` or ``summary``); ``read``: the model's ``read_section`` call on ``key``.
    """

    kind: Literal["show", "read"]
    key: str
    visibility: Literal["full", "summary"] | None = None


@dataclass(frozen=True)
class PageState:
    """What the page sends: the form's values (text, or booleans for checkboxes) and actions."""

    values: Mapping[str, str | bool] = field(default_factory=dict[str, "str | bool"])
    actions: tuple[Action, ...] = ()
    tag: str | None = None
    """The overrides tag chosen on the page; None renders the prompt as written."""


@dataclass(frozen=True)
class Field:
    """One param on the form, from its declaration."""

    name: str
    kind: FieldKind
    value: str | bool
    """The page's value, else the declared default (a list as JSON), else empty."""
    required: bool
    """Declared without a default: the render needs a value."""
    description: str = ""
    choices: tuple[str, ...] = ()
    whole: bool = False
    """A number that must be whole (type integer)."""


@dataclass(frozen=True)
class SectionRow:
    """One section of the prompt: where it is, how it is shown now, and its size."""

    key: str
    """The dotted key, as ``read_section`` takes it."""
    heading: str
    depth: int
    shown: Shown
    """``not shown``: disabled, or inside a section that is summarized or not shown."""
    summarizable: bool
    """It has a summary, so it can be switched to summary."""
    size: int
    """Characters of its own part of the text (heading included, children not); 0 unshown."""


@dataclass(frozen=True)
class Read:
    """What ``read_section`` answered for one read on the page."""

    key: str
    ok: bool
    message: str
    content: str = ""
    revealed: tuple[str, ...] = ()
    """The names of the tools the read revealed."""


@dataclass(frozen=True)
class PromptView:
    """Everything the page shows for one prompt file; ``text`` is None when it cannot render."""

    name: str
    problems: tuple[Diagnostic, ...]
    sources: Mapping[str, str]
    fields: tuple[Field, ...] | None = None
    """None when the file does not compile (the page keeps its form as it was)."""
    form_key: str = ""
    """Changes when the params' declarations change, and only then."""
    text: str | None = None
    sections: tuple[SectionRow, ...] = ()
    tools: Mapping[str, Sequence[Mapping[str, object]]] = field(
        default_factory=dict[str, Sequence[Mapping[str, object]]]
    )
    """The tools offered, by format: ``openai`` and ``anthropic``."""
    reads: tuple[Read, ...] = ()
    tags: tuple[str, ...] = ()
    """The tags the prompt has override files for (none when the file does not compile)."""
    tag: str | None = None
    """The tag applied: the page's, when the prompt has a file for it; else None."""

    @property
    def ok(self) -> bool:
        """True when the prompt rendered (warnings allowed)."""
        return self.text is not None


def prompt_view(folder: PromptFolder, path: Path, state: PageState) -> PromptView:
    """Compile ``path``, bind its plugins and the page's params, apply the tag, replay, render.

    Prepared as every front end prepares a prompt (``wink_decl.inputs``): the form's values
    are read as ``--param`` reads them, and binding imports the plugin code a render needs,
    as ``wink-decl render`` does. Plugins installed or removed while the preview runs are
    seen (``refresh``).
    """
    default_catalog().refresh()
    name = folder.name_of(path)
    result = compile_file(path, root=folder.root, display_path=str(path), limits=folder.limits)
    compiled = result.prompt
    if compiled is None:
        return PromptView(name, result.diagnostics, result.sources)
    declared = compiled.model.params
    tags = tuple(folder.override_store().tags(compiled.template.ns, compiled.template.key))
    tag = state.tag if state.tag in tags else None  # what the picker shows as chosen
    request = PromptRequest(
        str(path),
        root=str(folder.root),
        limits=folder.limits,
        params=tuple(_texts(declared, state.values).items()),
        # As --tag: a tag without a file here (deleted while the page shows it) is a warning.
        tag=state.tag,
        strict=folder.strict,
        missing_hint=MISSING_HINT,
    )
    location = Location(request, path, folder.root, folder.overrides_root)
    prepared = prepare(request, location=location, compiled=result)
    fields = form_fields(declared, state.values)
    form_key = _form_key(declared)
    sources = prepared.sources
    problems = list(prepared.diagnostics)
    failed = PromptView(name, (), sources, fields, form_key, tags=tags, tag=tag)
    prompt = prepared.prompt
    if prompt is None or not prepared.ok:
        return dataclasses.replace(failed, problems=tuple(sort_diagnostics(problems)))
    params = prepared.params
    session = Session()
    try:
        reads = _replay(prompt, params, session, state.actions)
        rendered = Prompt(prompt.template).bind(*params).render(session=session)
    except PluginCallError as error:  # a predicate raised: the plugin is at fault, not the file
        problems.append(error.to_diagnostic(path=prompt.source))
        return dataclasses.replace(failed, problems=tuple(sort_diagnostics(problems)))
    openai = to_openai_tools(rendered.tools)
    return PromptView(
        name,
        tuple(sort_diagnostics(problems)),
        sources,
        fields,
        form_key,
        rendered.text,
        _rows(prompt, rendered),
        {"openai": openai, "anthropic": anthropic_tools(openai)},
        reads,
        tags,
        tag,
    )


def form_fields(
    declared: Mapping[str, ParamSpec], values: Mapping[str, str | bool]
) -> tuple[Field, ...]:
    """A field per declared param, in declaration order, holding the page's value if any."""
    return tuple(_field(name, spec, values.get(name)) for name, spec in declared.items())


def _field(name: str, spec: ParamSpec, given: str | bool | None) -> Field:
    kind = spec.type
    choices = () if spec.enum is None else tuple(str(v) for v in spec.enum)
    form: FieldKind
    if kind == "boolean":
        form = "checkbox"
    elif choices:
        form = "choice"
    elif kind in ("integer", "number"):
        form = "number"
    else:
        form = "list" if kind == "array" else "text"
    default = spec.default
    value: str | bool
    if given is not None:
        value = given if form == "checkbox" else str(given)
    elif form == "checkbox":
        value = default is True
    elif default is None:
        value = ""
    else:
        value = json.dumps(default) if kind == "array" else str(default)
    return Field(
        name,
        form,
        value,
        required=default is None,
        description=spec.description or "",
        choices=choices,
        whole=kind == "integer",
    )


def _texts(declared: Mapping[str, ParamSpec], values: Mapping[str, str | bool]) -> dict[str, str]:
    """The page's values as ``--param`` texts; an empty field leaves a param to its default.

    Empty text is a value only for a text param; a param that is not declared (the file
    changed since the page sent it) is dropped.
    """
    texts: dict[str, str] = {}
    for name, value in values.items():
        spec = declared.get(name)
        if spec is None:
            continue
        if isinstance(value, bool):
            texts[name] = "true" if value else "false"
        elif value or (spec.type == "string" and spec.enum is None):
            texts[name] = value
    return texts


def _form_key(declared: Mapping[str, ParamSpec]) -> str:
    written = {name: spec.as_written() for name, spec in declared.items()}
    params = json.dumps(written, sort_keys=True)
    return hashlib.sha256(params.encode()).hexdigest()[:16]


def _replay(
    prompt: CompiledPrompt, params: tuple[object, ...], session: Session, actions: Sequence[Action]
) -> tuple[Read, ...]:
    """Apply the page's actions to ``session`` as a run would; sections gone are skipped."""
    template = prompt.template
    reads: list[Read] = []
    for action in actions:
        node = template.find(action.key)
        if node is None:
            continue
        if action.kind == "read":
            reads.append(_read(prompt, params, session, node.dotted))
        elif action.visibility == "full" or node.section.summary is not None:
            visibility = SectionVisibility(action.visibility)
            session.dispatch(SetVisibilityOverride(node.path, visibility))
    return tuple(reads)


def _read(prompt: CompiledPrompt, params: tuple[object, ...], session: Session, key: str) -> Read:
    """Call ``read_section`` as the model would; the sections it opens stay open, as in a run."""
    bound = Prompt(prompt.template).bind(*params)
    rendered = bound.render(session=session)
    tool = prompt.template.engine.read_section_tool
    if tool is None or tool not in rendered.tools:
        return Read(key, ok=False, message="read_section is not offered: no section is summarized.")
    assert tool.handler is not None  # noqa: S101  # read_section always has its handler
    context = ToolContext(prompt=bound, rendered_prompt=rendered, adapter=None, session=session)
    result = tool.handler(ReadSectionParams(section_key=key), context=context)
    value = result.value
    if not isinstance(value, ReadSectionResult):
        return Read(key, ok=False, message=result.message)
    for path in value.expanded_sections:
        session.dispatch(SetVisibilityOverride(path, SectionVisibility.FULL))
    revealed = tuple(tool.name for tool in value.expanded_tools)
    return Read(key, result.success, result.message, value.content, revealed)


def _rows(prompt: CompiledPrompt, rendered: RenderedPrompt) -> tuple[SectionRow, ...]:
    """Each section, with the size of its part of the text, found between shown headings."""
    nodes = prompt.template.nodes
    shown = rendered.section_visibility
    text = rendered.text
    starts: list[tuple[int, int]] = []
    for node in nodes:
        if node.path in shown:
            starts.append((node.index, text.find(node.heading, starts[-1][1] if starts else 0)))
    # A section's part ends where the blank line before the next heading starts.
    ends = [start - len(_SECTION_SEPARATOR) for _, start in starts[1:]] + [len(text)]
    sizes = {index: end - start for (index, start), end in zip(starts, ends, strict=True)}
    return tuple(
        SectionRow(
            node.dotted,
            node.heading,
            node.depth,
            _shown(shown.get(node.path)),
            node.section.summary is not None,
            sizes.get(node.index, 0),
        )
        for node in nodes
    )


def _shown(visibility: SectionVisibility | None) -> Shown:
    if visibility is None:
        return "not shown"
    return "full" if visibility is SectionVisibility.FULL else "summary"


class PageStateError(WinkDeclError, ValueError):
    """A request body that is not a page state; the message says what is wrong."""


def state_from_json(data: object) -> PageState:
    """The page's request body as a state; ``PageStateError`` names what is wrong with it."""
    if not isinstance(data, dict):
        raise PageStateError("the body must be a JSON object")
    body = cast("dict[str, object]", data)
    values = body.get("values", {})
    actions = body.get("actions", [])
    tag = body.get("tag")
    if not isinstance(values, dict) or not all(
        isinstance(v, str | bool) for v in cast("dict[str, object]", values).values()
    ):
        raise PageStateError("values must map names to text or true/false")
    if not isinstance(actions, list):
        raise PageStateError("actions must be a list")
    return PageState(
        cast("dict[str, str | bool]", values),
        tuple(_action(item) for item in cast("list[object]", actions)),
        _tag(tag),
    )


def _tag(tag: object) -> str | None:
    if tag is None:
        return None
    if not isinstance(tag, str):
        raise PageStateError(f"tag must be text or null, not {json.dumps(tag)}")
    try:
        return check_tag(tag)
    except ValueError as error:
        raise PageStateError(f"tag: {error}") from None


def _action(item: object) -> Action:
    if isinstance(item, list):
        parts = cast("list[object]", item)
        if len(parts) == 2 and parts[0] == "read" and isinstance(parts[1], str):  # noqa: PLR2004
            return Action("read", parts[1])
        if (
            len(parts) == 3  # noqa: PLR2004
            and parts[0] == "show"
            and isinstance(parts[1], str)
            and parts[2] in ("full", "summary")
        ):
            return Action("show", parts[1], parts[2])
    raise PageStateError(
        f'an action must be ["show", KEY, "full" or "summary"] or ["read", KEY], '
        f"not {json.dumps(item)}"
    )
