"""Which params decide the tools a render offers; the others may stand in with any value.

``wink-decl tools`` prints tools, not text: a param that only fills a template cannot change
them, so it need not be given. The params that can are those read by a condition
(``enabled``, ``summary_when``) of a section that offers tools, holds one that does, or may be
summarized (a summary adds ``read_section``). An include brings a section compiled from another
file: it decides nothing when neither it nor any section below it offers a tool or a summary.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from wink_decl.errors import WinkDeclError
from wink_decl.schema import (
    AllCondition,
    AnyCondition,
    EqualsCondition,
    EqualsSpec,
    IncludeDoc,
    NotCondition,
    ParamCondition,
    SummaryWhen,
)

if TYPE_CHECKING:
    from wink_decl.prompt.section import Section
    from wink_decl.schema import Condition, ParamSpec, PromptDocument, SectionItem

__all__ = ["deciding_params", "stand_in"]

_STAND_INS: dict[str, object] = {"string": "", "integer": 0, "number": 0.0, "boolean": False}


class _EveryParam(WinkDeclError):  # noqa: N818  # a signal inside this module, never raised out
    """A predicate or an include decides: it may read any param."""


def deciding_params(
    document: PromptDocument, sections: Sequence[Section[Any]]
) -> frozenset[str] | None:
    """The params that can change which tools are offered; None when any of them can.

    ``sections`` are the compiled sections of ``document``, one for each of its entries (a
    prompt that compiled has no entry left out). Any param can decide when such a condition
    calls a predicate (it is given every param) or when an included section, or one below it,
    offers a tool or a summary (its conditions are in another file).
    """
    found: set[str] = set()
    try:
        _sections(document.sections, sections, found)
    except _EveryParam:
        return None
    return frozenset(found)


def stand_in(spec: ParamSpec) -> object:
    """A value of the declared type for a param that cannot change the tools offered."""
    if spec.enum:
        return spec.enum[0]
    return _STAND_INS.get(spec.type, [])


def _sections(
    items: Iterable[SectionItem], compiled: Sequence[Section[Any]], found: set[str]
) -> bool:
    """Add the params the conditions of ``items`` read; True when any of them offers tools."""
    offers = False
    for item, section in zip(items, compiled, strict=True):
        if isinstance(item, IncludeDoc):
            if _may_change_tools(section):
                raise _EveryParam
            continue
        below = _sections(item.children, section.children, found)
        visibility = item.visibility
        if item.tools or below or visibility != "full":
            _condition(item.enabled, found)
            if isinstance(visibility, SummaryWhen):
                _condition(visibility.summary_when, found)
            offers = True
    return offers


def _may_change_tools(section: Section[Any]) -> bool:
    """Whether ``section`` or one below it offers a tool or can be summarized."""
    if section.tools() or section.summary is not None:
        return True
    return any(_may_change_tools(child) for child in section.children)


def _condition(condition: Condition, found: set[str]) -> None:
    match condition:
        case bool():
            return  # true or false: no param decides
        case ParamCondition(param=name) | EqualsCondition(equals=EqualsSpec(param=name)):
            found.add(name)
        case NotCondition(not_=inner):
            _condition(inner, found)
        case AllCondition(all_=parts) | AnyCondition(any_=parts):
            for part in parts:
                _condition(part, found)
        case _:  # a predicate: it is given every param
            raise _EveryParam
