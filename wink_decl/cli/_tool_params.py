"""Which params decide the tools a render offers; the others may stand in with any value.

``wink-decl tools`` prints tools, not text: a param that only fills a template cannot change
them, so it need not be given. The params that can are those read by a condition
(``enabled``, ``summary_when``) of a section that offers tools, holds one that does, or may be
summarized (a summary adds ``read_section``). An include brings a section compiled from another
file: it decides nothing when neither it nor any section below it offers a tool or a summary.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from wink_decl.errors import WinkDeclError

if TYPE_CHECKING:
    from wink_decl.prompt.section import Section

__all__ = ["deciding_params", "stand_in"]

_STAND_INS: dict[str, object] = {"string": "", "integer": 0, "number": 0.0, "boolean": False}


class _EveryParam(WinkDeclError):  # noqa: N818  # a signal inside this module, never raised out
    """A predicate or an include decides: it may read any param."""


def deciding_params(
    document: Mapping[str, Any], sections: Sequence[Section[Any]]
) -> frozenset[str] | None:
    """The params that can change which tools are offered; None when any of them can.

    ``sections`` are the compiled sections of ``document``, one for each of its entries (a
    prompt that compiled has no entry left out). Any param can decide when such a condition
    calls a predicate (it is given every param) or when an included section, or one below it,
    offers a tool or a summary (its conditions are in another file).
    """
    found: set[str] = set()
    items = cast("Iterable[Mapping[str, Any]]", document.get("sections", ()))
    try:
        _sections(items, sections, found)
    except _EveryParam:
        return None
    return frozenset(found)


def stand_in(spec: Mapping[str, Any]) -> object:
    """A value of the declared type for a param that cannot change the tools offered."""
    allowed = cast("list[object]", spec.get("enum", []))
    if allowed:
        return allowed[0]
    return _STAND_INS.get(cast("str", spec["type"]), [])


def _sections(
    items: Iterable[Mapping[str, Any]], compiled: Sequence[Section[Any]], found: set[str]
) -> bool:
    """Add the params the conditions of ``items`` read; True when any of them offers tools."""
    offers = False
    for item, section in zip(items, compiled, strict=True):
        if "include" in item:
            if _may_change_tools(section):
                raise _EveryParam
            continue
        children = cast("Iterable[Mapping[str, Any]]", item.get("children", ()))
        below = _sections(children, section.children, found)
        visibility = item.get("visibility", "full")
        if item.get("tools") or below or visibility != "full":
            _condition(item.get("enabled", True), found)
            if isinstance(visibility, Mapping):
                _condition(cast("Mapping[str, Any]", visibility)["summary_when"], found)
            offers = True
    return offers


def _may_change_tools(section: Section[Any]) -> bool:
    """Whether ``section`` or one below it offers a tool or can be summarized."""
    if section.tools() or section.summary is not None:
        return True
    return any(_may_change_tools(child) for child in section.children)


def _condition(condition: object, found: set[str]) -> None:
    if not isinstance(condition, Mapping):
        return  # true or false: no param decides
    ((kind, value),) = cast("Mapping[str, Any]", condition).items()
    if kind == "param":
        found.add(str(value))
    elif kind == "equals":
        found.add(str(cast("Mapping[str, Any]", value)["param"]))
    elif kind == "not":
        _condition(value, found)
    elif kind in ("all", "any"):
        for part in cast("list[object]", value):
            _condition(part, found)
    else:  # a predicate is given every param
        raise _EveryParam
