"""``Section`` and ``MarkdownSection``: one titled node of a prompt, checked when built."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Self, TypeVar

from wink_decl.errors import PromptValidationError
from wink_decl.prompt._generic import is_specialised, specialise
from wink_decl.prompt._predicates import Predicate, adapt_predicate
from wink_decl.prompt.keys import key_from_title, normalise_key
from wink_decl.prompt.policy import ToolPolicy
from wink_decl.prompt.text_template import CompiledText, compile_text, compiled_or_none
from wink_decl.prompt.tool import Tool
from wink_decl.prompt.visibility import SectionVisibility
from wink_decl.suggestions import did_you_mean_sentence

__all__ = ["EnabledSpec", "MarkdownSection", "Section", "VisibilitySpec"]

if TYPE_CHECKING:  # PEP 696 defaults exist for checkers only before Python 3.13
    from typing_extensions import TypeVar as TypeVarWithDefault

    ParamsT = TypeVarWithDefault("ParamsT", default=None)
else:
    ParamsT = TypeVar("ParamsT")
ItemT = TypeVar("ItemT")

VisibilitySpec = SectionVisibility | Callable[..., SectionVisibility]
"""A constant visibility, or a callable of ``(params)``, ``(*, session)`` or both."""

EnabledSpec = bool | Callable[..., bool]
"""A constant, or a callable of ``(params)``, ``(*, session)`` or both."""

SECTION_KEY_PLACEHOLDER = "section_key"

TreeParts = tuple[
    str,
    "tuple[Section[Any], ...]",
    "tuple[Tool[Any, Any], ...]",
    type | None,
    bool,
    SectionVisibility,
    Predicate | None,
    Predicate | None,
]
"""Title, children, tools, params type, constant enablement and visibility, and predicates."""


class _ParamsTypeAttribute:
    """``params_type``: a section's own; on a class, the type ``Section[Params]`` binds.

    A section carries its params type itself (``params_type=``), so the compiler builds
    plain ``MarkdownSection``s and makes no ``Section[Params]`` class per declaration
    (docs/runtime.md); code written by hand still binds it with ``Section[Params]``.
    """

    __slots__ = ()

    def __get__(self, section: Section[Any] | None, owner: type[Section[Any]]) -> type | None:
        if section is None:  # Section[Params].params_type: the class's
            return owner._bound_params_type  # noqa: SLF001  # pyright: ignore[reportPrivateUsage]
        return section._params_type  # noqa: SLF001  # pyright: ignore[reportPrivateUsage]


class Section(Generic[ParamsT]):
    """A node of the prompt tree: heading, body template, summary, children and tools.

    The params dataclass whose fields the templates use is bound by ``Section[Params]`` or
    given as ``params_type=`` (the compiler's way: no class is made for it).
    Everything that can be checked without params is checked here, at construction.
    """

    # Slots, not an instance dict: every new params type used to make a new
    # ``Section[Params]`` class, and an instance dict would build that class's shared key
    # table on its first section. Subclasses without ``__slots__`` (MarkdownSection) still
    # take extra attributes.
    __slots__ = (
        "__weakref__",
        "_accepts_overrides",
        "_body",
        "_children",
        "_default_params",
        "_enabled",
        "_enabled_predicate",
        "_key",
        "_params_type",
        "_policies",
        "_suffix",
        "_summary",
        "_summary_text",
        "_template",
        "_title",
        "_tools",
        "_visibility",
        "_visibility_predicate",
    )

    _bound_params_type: ClassVar[type | None] = None
    """The type ``Section[Params]`` binds: the default of ``params_type=``."""
    params_type = _ParamsTypeAttribute()
    """The params dataclass this section's templates use, or None."""

    def __init_subclass__(cls, **kwargs: Any) -> None:  # noqa: D105
        if not is_specialised(cls):  # Section[Params] has Generic's work done (_generic.py)
            super().__init_subclass__(**kwargs)

    def __class_getitem__(cls, item: object) -> object:  # noqa: D105
        if isinstance(item, TypeVar):  # a generic subclass, not a concrete params type
            return super().__class_getitem__(item)  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType, reportUnknownVariableType]
        return specialise(cls, ("_bound_params_type",), (item,))

    def __init__(
        self,
        *,
        title: str,
        key: str | None = None,
        template: str = "",
        summary: str | None = None,
        summary_suffix: str | None = None,
        visibility: VisibilitySpec = SectionVisibility.FULL,
        enabled: EnabledSpec = True,
        children: Sequence[Section[Any]] = (),
        tools: Sequence[Tool[Any, Any]] = (),
        policies: Sequence[ToolPolicy] = (),
        default_params: ParamsT | None = None,
        accepts_overrides: bool = True,
        params_type: type[ParamsT] | None = None,
    ) -> None:
        """Build and validate a section; a mistake raises ``PromptValidationError``.

        ``params_type`` defaults to the type ``Section[Params]`` binds; given with a
        ``Section[Params]`` that binds another, it is refused.
        """
        self._fill(
            title=title,
            key=key,
            template=template,
            summary=summary,
            summary_suffix=summary_suffix,
            visibility=visibility,
            enabled=enabled,
            children=children,
            tools=tools,
            policies=policies,
            default_params=default_params,
            accepts_overrides=accepts_overrides,
            params_type=params_type,
            compiled=False,
        )

    @classmethod
    def prechecked(
        cls,
        *,
        title: str,
        key: str,
        template: str,
        summary: str | None,
        summary_suffix: str | None,
        visibility: VisibilitySpec,
        enabled: EnabledSpec,
        children: list[Section[Any]],
        tools: list[Tool[Any, Any]],
        policies: list[ToolPolicy],
        accepts_overrides: bool,
        params_type: type | None = None,
    ) -> Self:
        """The section ``cls(...)`` builds, for a caller that has made some checks already.

        The caller (wink-decl's compiler) has matched every placeholder against the params it
        declared (the fields of the params type it generated, given as ``params_type``) and
        built the lists of children, tools and policies itself; those checks are skipped,
        every other one is made, so a mistake is refused with the constructor's error.
        """
        section = cls.__new__(cls)
        section._fill(  # noqa: SLF001 - the same class
            title=title,
            key=key,
            template=template,
            summary=summary,
            summary_suffix=summary_suffix,
            visibility=visibility,
            enabled=enabled,
            children=children,
            tools=tools,
            policies=policies,
            default_params=None,
            accepts_overrides=accepts_overrides,
            params_type=params_type,
            compiled=True,
        )
        return section

    def _fill(
        self,
        *,
        title: str,
        key: str | None,
        template: str,
        summary: str | None,
        summary_suffix: str | None,
        visibility: VisibilitySpec,
        enabled: EnabledSpec,
        children: Sequence[Section[Any]],
        tools: Sequence[Tool[Any, Any]],
        policies: Sequence[ToolPolicy],
        default_params: ParamsT | None,
        accepts_overrides: bool,
        params_type: type | None,
        compiled: bool,
    ) -> None:
        """Check and set every attribute; ``compiled`` skips what the compiler checked."""
        self._title = _check_title(title)
        self._key = normalise_key(key) if key is not None else key_from_title(self._title)
        if params_type is None:
            params_type = type(self).params_type
        elif not compiled:
            _check_bound_params_type(type(self), params_type, self._key)
        if not compiled:
            _check_params_type(params_type, self._key)
        self._params_type = params_type
        self._template = template
        self._body = self._compile(template, "template", fields=not compiled)
        self._summary_text = summary
        self._summary = (
            None if summary is None else self._compile(summary, "summary", fields=not compiled)
        )
        if self._summary is not None and self._summary.is_empty:
            raise PromptValidationError(
                f"Section '{self._key}' has an empty summary: write one or leave it out.",
                section_path=(self._key,),
            )
        self._suffix = (
            None
            if summary_suffix is None
            else self._compile(
                summary_suffix,
                "summary suffix",
                reserved=SECTION_KEY_PLACEHOLDER,
                fields=not compiled,
            )
        )
        self._visibility = visibility
        self._visibility_predicate = self._adapt(visibility, "visibility", SectionVisibility)
        self._enabled = enabled
        self._enabled_predicate = self._adapt(enabled, "enabled", bool)
        if compiled:
            self._children, self._tools = tuple(children), tuple(tools)
            self._policies = tuple(policies)
        else:
            self._children = _check_items(children, Section, "child", self._key)
            self._tools = _check_items(tools, Tool, "tool", self._key)
            self._policies = _check_items(policies, ToolPolicy, "policy", self._key)
        self._default_params = self._check_default(default_params)
        self._accepts_overrides = accepts_overrides

    # -- read-only attributes -------------------------------------------------

    @property
    def title(self) -> str:
        """The heading text."""
        return self._title

    @property
    def key(self) -> str:
        """The section's key, lower-cased; its path is the keys from the root down."""
        return self._key

    @property
    def template(self) -> str:
        """The body template as written."""
        return self._template

    @property
    def summary(self) -> CompiledText | None:
        """The compiled summary, or None when the section cannot be summarized."""
        return self._summary

    @property
    def summary_text(self) -> str | None:
        """The summary as written, or None."""
        return self._summary_text

    @property
    def visibility(self) -> VisibilitySpec:
        """The declared visibility: a constant or a callable."""
        return self._visibility

    @property
    def enabled(self) -> EnabledSpec:
        """The declared enablement: a constant or a callable."""
        return self._enabled

    @property
    def children(self) -> tuple[Section[Any], ...]:
        """Child sections in declaration order."""
        return self._children

    @property
    def policies(self) -> tuple[ToolPolicy, ...]:
        """Policies governing this section's tools."""
        return self._policies

    @property
    def default_params(self) -> ParamsT | None:
        """Params used when none of this type is bound."""
        return self._default_params

    @property
    def accepts_overrides(self) -> bool:
        """Whether override pipelines may rewrite this section's text."""
        return self._accepts_overrides

    def tools(self) -> tuple[Tool[Any, Any], ...]:
        """The tools this section offers, in declaration order."""
        return self._tools

    def overridden(
        self,
        *,
        template: str | None = None,
        summary: str | None = None,
        visibility: SectionVisibility | None = None,
        children: Sequence[Section[Any]] | None = None,
        tools: Sequence[Tool[Any, Any]] | None = None,
    ) -> Self:
        """A copy with the parts given replaced, each checked as the constructor checks it.

        Override files use it (docs/overrides.md); a mistake raises ``PromptValidationError``.
        """
        clone = copy.copy(self)
        if template is not None:
            clone._template = template  # noqa: SLF001 - the same class
            clone._body = clone._compile(template, "template")  # noqa: SLF001
        if summary is not None:
            clone._summary_text = summary  # noqa: SLF001
            clone._summary = clone._compile(summary, "summary")  # noqa: SLF001
        if visibility is not None:
            clone._visibility = visibility  # noqa: SLF001
            clone._visibility_predicate = clone._adapt(visibility, "visibility", SectionVisibility)  # noqa: SLF001
        if children is not None:
            clone._children = tuple(children)  # noqa: SLF001
        if tools is not None:
            clone._tools = tuple(tools)  # noqa: SLF001
        return clone

    # -- compiled pieces the renderer reads -----------------------------------

    @property
    def compiled_body(self) -> CompiledText:
        """The body template, compiled."""
        return self._body

    @property
    def compiled_suffix(self) -> CompiledText | None:
        """A custom summary suffix, compiled; None means the default suffix."""
        return self._suffix

    def tree_parts(self) -> TreeParts:
        """What a template's node copies of this section, in one call (``prompt/_tree.py``).

        The constant enablement is True and the constant visibility FULL when a callable
        decides them (the callable is then given too).
        """
        enabled, visibility = self._enabled, self._visibility
        return (
            self._title,
            self._children,
            self._tools,
            self._params_type,
            enabled if isinstance(enabled, bool) else True,
            visibility if isinstance(visibility, SectionVisibility) else SectionVisibility.FULL,
            self._enabled_predicate,
            self._visibility_predicate,
        )

    @property
    def visibility_predicate(self) -> Predicate | None:
        """The adapted visibility callable, or None for a constant."""
        return self._visibility_predicate

    @property
    def enabled_predicate(self) -> Predicate | None:
        """The adapted enablement callable, or None for a constant."""
        return self._enabled_predicate

    def __repr__(self) -> str:  # noqa: D105
        return f"{type(self).__qualname__}(key={self._key!r}, title={self._title!r})"

    # -- construction helpers -------------------------------------------------

    def _compile(
        self, text: str, what: str, *, reserved: str | None = None, fields: bool = True
    ) -> CompiledText:
        """``text`` compiled; with ``fields``, its placeholders checked against the params."""
        if not isinstance(text, str):  # pyright: ignore[reportUnnecessaryIsInstance]  # untyped callers
            raise PromptValidationError(
                f"The {what} of section '{self._key}' must be a string, got {type(text).__name__}.",
                section_path=(self._key,),
            )
        compiled = compiled_or_none(text) or compile_text(  # the second only raises
            text, where=f"the {what} of section '{self._key}'", section_path=(self._key,)
        )
        if fields:
            wanted = compiled.placeholders - {reserved} if reserved else compiled.placeholders
            _check_placeholders(sorted(wanted), self._params_type, self._key, what)
        return compiled

    def _adapt(self, spec: object, what: str, constant: type) -> Predicate | None:
        if isinstance(spec, constant):
            if spec is SectionVisibility.SUMMARY and self._summary is None:
                raise PromptValidationError(
                    f"Section '{self._key}' is summarized but has no summary: add summary=.",
                    section_path=(self._key,),
                )
            return None
        if callable(spec):
            return adapt_predicate(
                spec, what=what, key=self._key, has_params=self._params_type is not None
            )
        raise PromptValidationError(
            f"The {what} of section '{self._key}' must be a {constant.__name__} or a callable, "
            f"got {type(spec).__name__}.",
            section_path=(self._key,),
        )

    def _check_default(self, value: ParamsT | None) -> ParamsT | None:
        if value is None:
            return None
        params_type = self._params_type
        if params_type is None:
            raise PromptValidationError(
                f"Section '{self._key}' declares no params type, so it takes no default_params; "
                f"got {type(value).__qualname__}. Write MarkdownSection[YourParams](...).",
                section_path=(self._key,),
            )
        if not isinstance(value, params_type):
            raise PromptValidationError(
                f"default_params of section '{self._key}' must be a "
                f"{params_type.__qualname__}, got {type(value).__qualname__}.",
                section_path=(self._key,),
                dataclass_type=params_type,
            )
        return value


class MarkdownSection(Section[ParamsT]):
    """A section whose body is a Markdown ``string.Template`` (``$name``, ``${name}``, ``$$``)."""


def _check_title(title: str) -> str:
    text = title.strip() if isinstance(title, str) else ""  # pyright: ignore[reportUnnecessaryIsInstance]
    if not text or "\n" in text:
        raise PromptValidationError(
            f"Section title {title!r} is invalid: give one non-empty line of text."
        )
    return text


def _check_bound_params_type(cls: type[Section[Any]], given: type, key: str) -> None:
    """Refuse ``params_type=`` that differs from the type ``Section[Params]`` binds."""
    bound = cls.params_type
    if bound is not None and given is not bound:
        raise PromptValidationError(
            f"Section '{key}' declares params type {bound.__qualname__} in {cls.__qualname__} "
            f"but params_type={getattr(given, '__qualname__', repr(given))}: give one.",
            section_path=(key,),
        )


def _check_params_type(params_type: type | None, key: str) -> None:
    if params_type is not None and not (
        isinstance(params_type, type) and dataclasses.is_dataclass(params_type)  # pyright: ignore[reportUnnecessaryIsInstance]
    ):
        raise PromptValidationError(
            f"Section '{key}' params type must be a dataclass, got {params_type!r}.",
            section_path=(key,),
        )


def _check_placeholders(names: list[str], params_type: type | None, key: str, what: str) -> None:
    if not names:
        return
    if params_type is None:
        raise PromptValidationError(
            f"Placeholder '{names[0]}' in the {what} of section '{key}' needs a params type: "
            "write MarkdownSection[YourParams](...).",
            section_path=(key,),
            placeholder=names[0],
        )
    fields = [f.name for f in dataclasses.fields(params_type)]
    for name in names:
        if name not in fields:
            raise PromptValidationError(
                f"Placeholder '{name}' in the {what} of section '{key}' is not a field of "
                f"{params_type.__qualname__}.{did_you_mean_sentence(name, fields)}",
                section_path=(key,),
                dataclass_type=params_type,
                placeholder=name,
            )


def _check_items(items: Sequence[ItemT], kind: type, what: str, key: str) -> tuple[ItemT, ...]:
    checked = tuple(items)
    for item in checked:
        if not isinstance(item, kind):
            raise PromptValidationError(
                f"Section '{key}' was given a {what} of type {type(item).__qualname__}; "
                f"expected {kind.__name__}.",
                section_path=(key,),
            )
    return checked
