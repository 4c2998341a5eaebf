"""``Section[Params]`` and ``Tool[P, R]``: one class per arguments, and no class kept forever."""

from __future__ import annotations

import gc
import weakref
from dataclasses import make_dataclass
from typing import TypeVar

from wink_decl.prompt.section import MarkdownSection
from wink_decl.prompt.tool import Tool

KEPT = 4096
"""How many specialised classes a process keeps (``prompt/_generic.py``)."""


def _params_class(number: int) -> type:
    return make_dataclass(f"Params{number}", [("topic", str)], frozen=True)


def test_the_same_arguments_give_the_same_class() -> None:
    params = _params_class(0)
    assert MarkdownSection[params] is MarkdownSection[params]
    assert Tool[params, params] is Tool[params, params]
    assert MarkdownSection[params].params_type is params
    assert MarkdownSection[params].__qualname__ == "MarkdownSection[Params0]"


def test_a_class_is_named_after_its_arguments_names_or_else_their_reprs() -> None:
    params = _params_class(2)
    assert MarkdownSection[None].__qualname__ == "MarkdownSection[None]"
    assert Tool[params, None].__qualname__ == "Tool[Params2, None]"


def test_a_long_lived_process_does_not_keep_every_params_class_it_saw() -> None:
    first = _params_class(0)
    section_class = MarkdownSection[first]
    gone = weakref.ref(first)
    for number in range(1, KEPT + 1):  # as many other declarations as are kept
        _ = MarkdownSection[type(f"Other{number}", (), {})]
    del first, section_class
    gc.collect()
    assert gone() is None


def test_a_class_forgotten_is_made_again_when_asked_for() -> None:
    params = _params_class(1)
    before = MarkdownSection[params]
    for number in range(KEPT):
        _ = MarkdownSection[type(f"Other{number}", (), {})]
    again = MarkdownSection[params]
    assert again is not before
    assert again.params_type is params
    assert MarkdownSection[params] is again


def test_a_specialised_class_has_what_generic_would_have_given_it() -> None:
    # specialise() sets Generic's one result in the namespace and skips Generic's work.
    params = _params_class(3)
    by_generic = type("ByGeneric", (MarkdownSection,), {"params_type": params, "__slots__": ()})
    assert MarkdownSection[params].__parameters__ == by_generic.__parameters__ == ()  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]
    tool_by_generic = type("ToolByGeneric", (Tool,), {})
    assert Tool[params, None].__parameters__ == tool_by_generic.__parameters__ == ()  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]


def test_a_generic_subclass_still_takes_its_type_variables() -> None:
    item = TypeVar("item")

    class Mine(MarkdownSection[item]):  # pyright: ignore[reportGeneralTypeIssues]
        pass

    class MyTool(Tool[item, None]):  # pyright: ignore[reportGeneralTypeIssues]
        pass

    assert Mine.__parameters__ == (item,)  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]
    assert MyTool.__parameters__ == (item,)  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]
    params = _params_class(4)
    assert Mine[params].params_type is params
    assert Mine[params].__parameters__ == ()  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]
