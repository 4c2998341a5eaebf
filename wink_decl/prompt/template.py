"""``PromptTemplate``, ``Prompt`` and ``RenderedPrompt``: a validated tree, bound and rendered."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Generic, NoReturn, Self, SupportsIndex, TypeVar

from wink_decl.errors import PromptValidationError
from wink_decl.prompt._params_resolver import ParamsResolver
from wink_decl.prompt._renderer import Engine, Overrides
from wink_decl.prompt._tree import Node, flatten
from wink_decl.prompt.keys import normalise_key, normalise_ns
from wink_decl.prompt.policy import ToolPolicy
from wink_decl.prompt.read_section import make_read_section_tool
from wink_decl.prompt.resources import ResourceRegistry
from wink_decl.prompt.section import Section
from wink_decl.prompt.visibility import SectionPath, SectionVisibility

if TYPE_CHECKING:
    from wink_decl.prompt.context_protocols import SessionView
    from wink_decl.prompt.param_hints import ParamHint
    from wink_decl.prompt.tool import Tool

__all__ = ["Prompt", "PromptTemplate", "RenderedPrompt"]

if TYPE_CHECKING:  # PEP 696 defaults exist for checkers only before Python 3.13
    from typing_extensions import TypeVar as TypeVarWithDefault

    OutputT = TypeVarWithDefault("OutputT", default=None)
else:
    OutputT = TypeVar("OutputT")

_EMPTY: Mapping[Any, Any] = MappingProxyType({})


def _empty() -> Mapping[Any, Any]:
    return _EMPTY


@dataclass(slots=True, frozen=True)
class RenderedPrompt:
    """Exactly what a model receives: the text and the tools, in order."""

    text: str
    tools: tuple[Tool[Any, Any], ...] = ()
    tool_param_descriptions: Mapping[str, Mapping[str, ParamHint]] = field(default_factory=_empty)
    """Each tool's parameters: description, type and default hint, overrides applied."""
    section_visibility: Mapping[SectionPath, SectionVisibility] = field(
        default_factory=_empty, compare=False
    )
    """How each rendered section was shown (disabled and hidden sections are absent)."""
    visibility_overrides: Overrides = field(default_factory=_empty, compare=False)
    """The overrides this render was asked for; ``read_section`` reads with the same ones."""

    @property
    def tool_names(self) -> tuple[str, ...]:
        """The tools' names, in order."""
        return tuple(tool.name for tool in self.tools)


class PromptTemplate(Generic[OutputT]):
    """A validated, numbered tree of sections; render it directly or through ``Prompt``."""

    def __init__(
        self,
        *,
        ns: str,
        key: str,
        name: str | None = None,
        sections: Sequence[Section[Any]] = (),
        policies: Sequence[ToolPolicy] = (),
        output_type: type[OutputT] | None = None,
    ) -> None:
        """Validate keys, paths and tool names; a mistake raises ``PromptValidationError``.

        ``output_type`` (a dataclass) is the shape of the final answer: adapters ask the model
        for it and the loop parses the answer into it (``PromptResponse.output``).
        """
        self._ns = normalise_ns(ns)
        self._key = normalise_key(key, what="Prompt key")
        self._name = name if name is not None else self._key
        if output_type is not None and not (
            isinstance(output_type, type) and dataclasses.is_dataclass(output_type)  # pyright: ignore[reportUnnecessaryIsInstance]
        ):
            raise PromptValidationError(
                f"Prompt '{self._ns}/{self._key}' output type must be a dataclass, got "
                f"{output_type!r}.",
                dataclass_type=output_type if isinstance(output_type, type) else None,  # pyright: ignore[reportUnnecessaryIsInstance]
            )
        self._output_type: type[OutputT] | None = output_type
        self._sections = tuple(sections)
        self._policies = tuple(policies)
        for policy in self._policies:
            if not isinstance(policy, ToolPolicy):  # pyright: ignore[reportUnnecessaryIsInstance]
                raise PromptValidationError(
                    f"Prompt '{self.label}' was given a policy of type "
                    f"{type(policy).__qualname__}; expected a ToolPolicy."
                )
        nodes = flatten(self._sections)
        self._nodes = nodes
        defaults: dict[type, object] = {}
        params_types: set[type] = set()
        self._tool_policies: dict[str, tuple[ToolPolicy, ...]] = {}
        summarized = False
        for node in nodes:  # one pass gathers what the template keeps of its nodes
            section = node.section
            if node.params_type is not None:
                params_types.add(node.params_type)
                default = section.default_params
                if default is not None:
                    defaults.setdefault(node.params_type, default)
            if node.tools:
                governing = (*section.policies, *self._policies)
                for tool in node.tools:
                    self._tool_policies[tool.name] = governing
            summarized = summarized or section.summary is not None
        self._defaults: Mapping[type, object] = MappingProxyType(defaults)
        self._params_types = frozenset(params_types)
        self._engine = Engine(nodes, read_section=None)
        if summarized:
            self._engine.read_section_tool = make_read_section_tool(self._engine, self.label)

    def __reduce_ex__(self, protocol: SupportsIndex) -> NoReturn:
        """Refused: a template is not sent to another process (docs/runtime.md).

        A worker compiles the prompt file itself (the Ray executor sends ``TaggedPrompts``,
        docs/evals.md). The template's params classes are made in this process for its file:
        a copy elsewhere would carry classes of its own, not the ones the file compiles to
        there. Said here, by name, rather than left to whichever attribute fails to pickle.
        """
        raise TypeError("cannot pickle 'PromptTemplate' object: compile its file where it is used")

    def __copy__(self) -> Self:
        """A shallow copy, sharing every part (``copy.copy``; refusing to pickle would stop it)."""
        clone = object.__new__(type(self))
        clone.__dict__.update(vars(self))
        return clone

    @property
    def ns(self) -> str:
        """The namespace, such as ``agents/review``."""
        return self._ns

    @property
    def key(self) -> str:
        """The prompt's key within its namespace."""
        return self._key

    @property
    def name(self) -> str:
        """A display name (defaults to the key)."""
        return self._name

    @property
    def label(self) -> str:
        """``ns/key``: how registries and messages address the prompt."""
        return f"{self._ns}/{self._key}"

    @property
    def output_type(self) -> type[OutputT] | None:
        """The dataclass the final answer is parsed into, or None for free text."""
        return self._output_type

    @property
    def sections(self) -> tuple[Section[Any], ...]:
        """The top-level sections."""
        return self._sections

    @property
    def policies(self) -> tuple[ToolPolicy, ...]:
        """Policies that govern every tool of the prompt."""
        return self._policies

    @property
    def nodes(self) -> tuple[Node, ...]:
        """Every section in depth-first order with its number and path."""
        return self._nodes

    @property
    def params_types(self) -> frozenset[type]:
        """The params dataclasses the sections use."""
        return self._params_types

    @property
    def defaults(self) -> Mapping[type, object]:
        """The first ``default_params`` declared for each params type."""
        return self._defaults

    @property
    def engine(self) -> Engine:
        """The renderer (shared by every ``Prompt`` of this template)."""
        return self._engine

    def find(self, path: SectionPath | str) -> Node | None:
        """The node at ``path`` (a tuple or a dotted string), or None."""
        key = tuple(path.lower().split(".")) if isinstance(path, str) else path
        index = self._engine.by_path.get(key)
        return None if index is None else self._nodes[index]

    def policies_for(self, tool_name: str) -> tuple[ToolPolicy, ...]:
        """The policies governing a tool: its section's, then the prompt's."""
        return self._tool_policies.get(tool_name, self._policies)

    def all_tools(self) -> tuple[Tool[Any, Any], ...]:
        """Every tool of every section, enabled or not, in declaration order."""
        return tuple(tool for node in self._nodes for tool in node.tools)

    def render(
        self,
        *params: object,
        visibility_overrides: Overrides | None = None,
        session: SessionView | None = None,
    ) -> RenderedPrompt:
        """Shorthand for ``Prompt(self).bind(*params).render(...)``.

        Without the ``Prompt`` and its resources, which a render never reads.
        """
        return _render(self, _bound(self, {}, params), visibility_overrides, session)

    def __repr__(self) -> str:  # noqa: D105
        return f"PromptTemplate({self.label!r}, sections={len(self._nodes)})"


class Prompt(Generic[OutputT]):
    """A template with bound params and resources, ready to render."""

    __slots__ = ("_params", "_resources", "_template")

    def __init__(
        self,
        template: PromptTemplate[OutputT],
        *,
        resources: ResourceRegistry | Iterable[object] = (),
    ) -> None:
        """Wrap ``template``; ``resources`` are what tools reach through their context."""
        self._template = template
        self._params: dict[type, object] = {}
        self._resources = (
            resources if isinstance(resources, ResourceRegistry) else ResourceRegistry(resources)
        )

    @property
    def template(self) -> PromptTemplate[OutputT]:
        """The template this prompt renders."""
        return self._template

    @property
    def params(self) -> Mapping[type, object]:
        """The params bound now, by dataclass type (a later bind does not change this view)."""
        return MappingProxyType(self._params)

    @property
    def resources(self) -> ResourceRegistry:
        """The resources tools may use."""
        return self._resources

    @property
    def name(self) -> str:
        """The template's name."""
        return self._template.name

    def bind(self, *params: object) -> Self:
        """Bind params by dataclass type (a later bind of a type replaces it); returns self.

        The bound params are replaced whole, never changed in place: a render running in
        another thread meanwhile sees them as they were before the bind or after it.
        """
        self._params = _bound(self._template, self._params, params)
        return self

    def render(
        self,
        *,
        visibility_overrides: Overrides | None = None,
        session: SessionView | None = None,
    ) -> RenderedPrompt:
        """Render the text and tools; precedence: section, ``visibility_overrides``, session."""
        return _render(self._template, self._params, visibility_overrides, session)


def _bound(
    template: PromptTemplate[Any], bound: dict[type, object], params: tuple[object, ...]
) -> dict[type, object]:
    """``bound`` with ``params`` bound over it by type, each checked; a new dict."""
    seen: set[type] = set()
    for value in params:
        kind = type(value)
        _check_bindable(template, value, kind, seen)
        seen.add(kind)
    return {**bound, **{type(value): value for value in params}}


def _render(
    template: PromptTemplate[Any],
    bound: Mapping[type, object],
    visibility_overrides: Overrides | None,
    session: SessionView | None,
) -> RenderedPrompt:
    resolver = ParamsResolver(bound, template.defaults)
    plan = template.engine.plan_for(visibility_overrides, session, resolver)
    # What RenderedPrompt(...) builds, its slots set straight: the frozen dataclass's __init__
    # sets each field through object.__setattr__, which cost as much as the rest of a render.
    rendered = _new_rendered(RenderedPrompt)
    _set_text(rendered, plan.text(resolver))
    _set_tools(rendered, plan.tools)
    _set_descriptions(rendered, plan.tool_param_descriptions)
    _set_visibility(rendered, plan.section_visibility)
    _set_overrides(rendered, visibility_overrides or _EMPTY)
    return rendered


_new_rendered = object.__new__
_set_text, _set_tools, _set_descriptions, _set_visibility, _set_overrides = (
    getattr(RenderedPrompt, field.name).__set__ for field in dataclasses.fields(RenderedPrompt)
)


def _check_bindable(
    template: PromptTemplate[Any], value: object, kind: type, seen: set[type]
) -> None:
    if isinstance(value, type):
        raise PromptValidationError(
            f"Params must be dataclass instances, got the class {value.__qualname__}: "
            f"bind {value.__qualname__}(...) instead.",
            dataclass_type=value,
        )
    # A type the sections take is a dataclass (sections check theirs): asking first leaves a
    # compiled params class's fields unmade (``class_for_params``) when nothing reads them.
    if kind not in template.params_types and not dataclasses.is_dataclass(value):
        raise PromptValidationError(
            f"Params must be dataclass instances, got {kind.__qualname__}.",
            dataclass_type=kind,
        )
    if kind in seen:
        raise PromptValidationError(
            f"Two {kind.__qualname__} instances were bound at once; bind one per type.",
            dataclass_type=kind,
        )
    if kind not in template.params_types:
        expected = ", ".join(sorted(t.__qualname__ for t in template.params_types)) or "none"
        raise PromptValidationError(
            f"Prompt '{template.label}' has no section that takes {kind.__qualname__} "
            f"(its sections take: {expected}).",
            dataclass_type=kind,
        )
