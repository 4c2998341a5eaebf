"""What the compiler's checks read: the typed document, or the parts of a refused one.

A file the schema accepted is read through its ``PromptDocument``. A file it refused is still
checked for reference mistakes (an unknown tool, a placeholder no param declares), so an
author fixes everything in one pass: each part is then validated on its own, with the model's
own types, and a part that does not validate is ``UNREADABLE`` (its schema diagnostics say
why). Either way the checks see typed values only; the raw data stays here.

The parts are the document's fields the checks read, each tool, each include, and each
section field by field (its ``children`` are entries of their own). docs/compiler.md says what
the checks do at an unreadable part.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal, NamedTuple, TypeVar, cast

from pydantic import ValidationError

from wink_decl.diagnostics import JSONPath
from wink_decl.schema._base import DeclaredToolName, DocModel
from wink_decl.schema._param_spec import ParamSpec
from wink_decl.schema._policies import PolicyDoc
from wink_decl.schema.model import KEYABLE, IncludeDoc, PromptDocument, SectionDoc, ToolDoc

if TYPE_CHECKING:
    from pydantic import TypeAdapter

__all__ = ["UNREADABLE", "Entry", "ReadableDocument", "Unreadable", "readable_parts"]


class _Unreadable(enum.Enum):
    UNREADABLE = "unreadable"


UNREADABLE = _Unreadable.UNREADABLE
"""A part of a refused document that does not validate on its own."""

Unreadable = Literal[_Unreadable.UNREADABLE]
"""The type of ``UNREADABLE``: ``value is UNREADABLE`` narrows it away."""


class Entry(NamedTuple):  # made for every section of every file: a tuple is the cheapest
    """One entry of a ``sections:`` or ``children:`` list, and where it is in the file.

    ``item`` is the section (its own ``children`` field is not read: ``children`` holds the
    entries below it) or the include; ``UNREADABLE`` when the entry does not validate.
    """

    path: JSONPath
    item: SectionDoc | IncludeDoc | Unreadable
    children: tuple[Entry, ...] | Unreadable = ()


@dataclass(frozen=True, slots=True)
class ReadableDocument:
    """A prompt document as the checks read it; ``model`` only when the schema accepted it."""

    model: PromptDocument | None
    ns: str | None | Unreadable
    params: Mapping[str, ParamSpec] | Unreadable
    tools: Mapping[str, ToolDoc | Unreadable] | Unreadable
    sections: tuple[Entry, ...] | Unreadable
    policies: tuple[PolicyDoc, ...] | Unreadable

    @classmethod
    def of(cls, model: PromptDocument) -> ReadableDocument:
        """The document the schema accepted: every part readable."""
        return cls(
            model=model,
            ns=model.ns,
            params=model.params,
            tools=model.tools,
            sections=_entries(model.sections, ("sections",)),
            policies=model.policies,
        )


def _entries(items: tuple[SectionDoc | IncludeDoc, ...], path: JSONPath) -> tuple[Entry, ...]:
    entries: list[Entry] = []
    for index, item in enumerate(items):
        here = (*path, index)
        if isinstance(item, IncludeDoc) or not item.children:  # most sections have none
            entries.append(Entry(here, item))
        else:
            entries.append(Entry(here, item, _entries(item.children, (*here, "children"))))
    return tuple(entries)


def readable_parts(data: Mapping[str, object]) -> ReadableDocument:
    """The parts of ``data`` (a mapping the schema refused) that validate on their own."""
    sections = data.get("sections", UNREADABLE)  # required: left out, nothing can be read
    return ReadableDocument(
        model=None,
        ns=cast("str | None | Unreadable", _field(data, "ns")),
        params=cast("Mapping[str, ParamSpec] | Unreadable", _field(data, "params")),
        tools=_tools(data.get("tools", {})),
        sections=_entry_list(sections, ("sections",)),
        policies=cast("tuple[PolicyDoc, ...] | Unreadable", _field(data, "policies")),
    )


def _field(data: Mapping[str, object], name: str) -> object:
    """``data[name]`` validated as the document's field ``name``; its default when left out."""
    if name not in data:
        field = PromptDocument.model_fields[name]
        return UNREADABLE if field.is_required() else field.get_default(call_default_factory=True)
    return _field_of(PromptDocument, data, name)


def _field_of(model: type[DocModel], data: Mapping[str, object], name: str) -> object:
    """``data[name]`` validated as the field ``name`` of ``model``, alone; else UNREADABLE."""
    if name not in model.model_fields:
        return UNREADABLE  # an unknown key: the schema reported it
    try:
        return _adapter(model, name).validate_python(data[name])
    except ValidationError:
        return UNREADABLE


@functools.cache
def _adapter(model: type[DocModel], name: str) -> TypeAdapter[object]:
    """A validator for one field, with its constraints (built once, for refused files only)."""
    from pydantic import TypeAdapter  # noqa: PLC0415  # a valid file (most) needs none

    field = model.model_fields[name]
    annotation: Any = field.annotation  # a type form built at run time: TypeAdapter takes Any
    if field.metadata:
        annotation = Annotated[annotation, *field.metadata]
    return TypeAdapter(annotation)


@functools.cache
def _tool_name() -> TypeAdapter[str]:
    from pydantic import TypeAdapter  # noqa: PLC0415  # see _adapter

    adapter: TypeAdapter[str] = TypeAdapter(DeclaredToolName)  # pyright: ignore[reportArgumentType, reportUnknownVariableType]  # an Annotated str
    return adapter


def _tools(value: object) -> Mapping[str, ToolDoc | Unreadable] | Unreadable:
    if not isinstance(value, dict):
        return UNREADABLE
    declared = cast("dict[str, object]", value)  # loaded data: every key is text
    return {
        name: _valid(ToolDoc, spec) if _valid_name(name) else UNREADABLE
        for name, spec in declared.items()
    }


def _valid_name(name: str) -> bool:
    try:
        _tool_name().validate_python(name)
    except ValidationError:
        return False
    return True


def _entry_list(value: object, path: JSONPath) -> tuple[Entry, ...] | Unreadable:
    if not isinstance(value, list):
        return UNREADABLE
    items = cast("list[object]", value)
    return tuple(_entry(item, (*path, index)) for index, item in enumerate(items))


def _entry(value: object, path: JSONPath) -> Entry:
    if not isinstance(value, dict):
        return Entry(path, UNREADABLE)
    fields = cast("dict[str, object]", value)
    if "include" in fields:
        return Entry(path, _valid(IncludeDoc, fields))
    head = {name: item for name, item in fields.items() if name != "children"}
    children = _entry_list(fields["children"], (*path, "children")) if "children" in fields else ()
    return Entry(path, _readable_section(head), children)


def _readable_section(head: dict[str, object]) -> SectionDoc | Unreadable:
    """The section (children aside) field by field; a refused field reads as its default.

    Unreadable when its key cannot be known (a refused key, or no key and a title that gives
    none): it would take part in the check that sibling keys differ. A refused title under a
    key that reads is left empty: it is only shown, and nothing is built from a refused file.
    """
    section = _valid(SectionDoc, head)
    if section is not UNREADABLE:
        return section
    fields = {
        name: value
        for name, value in ((name, _field_of(SectionDoc, head, name)) for name in head)
        if value is not UNREADABLE
    }
    if "key" not in fields and ("key" in head or not _gives_key(fields.get("title"))):
        return UNREADABLE
    fields.setdefault("title", "")
    return SectionDoc.model_construct(set(fields), **fields)  # each field validated alone above


_Model = TypeVar("_Model", bound=DocModel)


def _gives_key(title: object) -> bool:
    """Whether a title read from the file gives the section a key (letters or digits in it)."""
    return isinstance(title, str) and KEYABLE.search(title) is not None


def _valid(model: type[_Model], value: object) -> _Model | Unreadable:
    try:
        return model.model_validate(value)
    except ValidationError:
        return UNREADABLE
