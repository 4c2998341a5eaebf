"""Edges of the runtime core: accessors, rare refusals, the plan cache bound."""

# pyright: reportPrivateUsage=false

from __future__ import annotations

import typing
from dataclasses import dataclass
from typing import Any

import pytest

from wink_decl import (
    MarkdownSection,
    Prompt,
    PromptRenderError,
    PromptTemplate,
    PromptValidationError,
    RenderedPrompt,
    SectionVisibility,
    Tool,
)
from wink_decl.prompt import _renderer
from wink_decl.runtime.budget import Budget, BudgetTracker


def summarized(key: str) -> MarkdownSection[Any]:
    return MarkdownSection(
        title=key.upper(),
        key=key,
        template=f"{key} in full.",
        summary=f"{key} in short.",
        visibility=SectionVisibility.SUMMARY,
    )


def test_template_and_section_accessors() -> None:
    section = MarkdownSection(title="Intro", template="  Hello.  ")
    template = PromptTemplate(ns="Agents/Review", key="Code-Review", sections=[section])
    assert (template.ns, template.key, template.name, template.label) == (
        "agents/review",
        "code-review",
        "code-review",
        "agents/review/code-review",
    )
    assert template.sections == (section,)
    assert template.policies == ()
    assert repr(template) == "PromptTemplate('agents/review/code-review', sections=1)"
    assert repr(section) == "MarkdownSection(key='intro', title='Intro')"
    assert section.template == "  Hello.  "
    node = template.find("intro")
    assert node is not None
    assert node.section is section
    assert template.find(("missing",)) is None
    assert template.all_tools() == ()


def test_a_rendered_prompt_built_by_hand_has_empty_maps() -> None:
    rendered = RenderedPrompt(text="Hi.")
    assert (rendered.tools, dict(rendered.tool_param_descriptions)) == ((), {})
    assert dict(rendered.section_visibility) == {}
    assert len(rendered.visibility_overrides) == 0


def test_prompt_policies_must_be_policies() -> None:
    with pytest.raises(PromptValidationError) as info:
        PromptTemplate(ns="a", key="b", policies=[object()])  # pyright: ignore[reportArgumentType]
    assert (
        str(info.value) == "Prompt 'a/b' was given a policy of type object; expected a ToolPolicy."
    )


def test_keys_must_be_strings() -> None:
    with pytest.raises(PromptValidationError) as info:
        MarkdownSection(title="T", key=7)  # pyright: ignore[reportArgumentType]
    assert str(info.value) == "Section key must be a string, got int."


class Opaque:
    """A callable whose signature cannot be read."""

    __signature__ = "not a signature"

    def __call__(self) -> bool:
        return True


def test_predicates_need_an_inspectable_signature() -> None:
    with pytest.raises(PromptValidationError) as info:
        MarkdownSection(title="T", key="t", enabled=Opaque())
    assert str(info.value) == (
        "The enabled callable of section 't' has no signature that can be read; it must take "
        "(), (params), (*, session) or (params, *, session)."
    )


@dataclass(frozen=True)
class Strict:
    limit: int = 0

    def __post_init__(self) -> None:
        if self.limit < 1:
            raise ValueError("limit must be at least 1")


def test_a_default_that_cannot_be_built_names_the_section() -> None:
    template = PromptTemplate(
        ns="t", key="t", sections=[MarkdownSection[Strict](title="S", key="s", template="${limit}")]
    )
    with pytest.raises(PromptRenderError) as info:
        template.render()
    assert str(info.value) == (
        "Could not build default Strict() for section 's': limit must be at least 1"
    )
    assert (info.value.section_path, info.value.dataclass_type) == (("s",), Strict)


def test_override_keys_of_other_types_are_unknown_sections() -> None:
    template = PromptTemplate(ns="t", key="t", sections=[summarized("a")])
    with pytest.raises(PromptRenderError) as info:
        template.render(visibility_overrides={7: SectionVisibility.FULL})  # pyright: ignore[reportArgumentType]
    assert str(info.value) == "visibility_overrides names an unknown section '7'."


def test_predicates_under_a_disabled_parent_are_never_called() -> None:
    calls: list[str] = []

    def visible() -> SectionVisibility:
        calls.append("visible")
        return SectionVisibility.FULL

    child = MarkdownSection(title="Child", key="child", template="c", visibility=visible)
    parent = MarkdownSection(title="Parent", key="parent", enabled=lambda: False, children=[child])
    template = PromptTemplate(
        ns="t", key="t", sections=[parent, MarkdownSection(title="Tail", key="tail")]
    )
    assert template.render().text == "## 2. Tail (tail)"
    assert calls == []


def test_the_plan_cache_is_bounded() -> None:
    keys = [f"s{i}" for i in range(9)]
    template = PromptTemplate(ns="t", key="t", sections=[summarized(k) for k in keys])
    engine = template.engine
    for mask in range(_renderer._PLAN_CACHE_SIZE + 2):
        overrides = {
            (key,): SectionVisibility.FULL for bit, key in enumerate(keys) if mask & (1 << bit)
        }
        template.render(visibility_overrides=overrides)
    assert len(engine._plans) == _renderer._PLAN_CACHE_SIZE
    assert () not in engine._plans  # the oldest state was evicted first


def test_generic_subclasses_keep_type_variables() -> None:
    params = typing.TypeVar("params")
    result = typing.TypeVar("result")
    alias: Any = Tool[params, result]  # pyright: ignore[reportGeneralTypeIssues]
    assert typing.get_origin(alias) is Tool
    assert typing.get_args(alias) == (params, result)


def test_budget_tracker_exposes_its_counts() -> None:
    budget = Budget(max_turns=3)
    tracker = BudgetTracker(budget)
    tracker.record_turn()
    assert (tracker.budget, tracker.turns, tracker.tool_calls) == (budget, 1, 0)
    assert tracker.exhausted() is None


def test_prompt_exposes_its_name_and_params() -> None:
    @dataclass(frozen=True)
    class Who:
        name: str

    template = PromptTemplate(
        ns="t",
        key="t",
        name="Greeter",
        sections=[MarkdownSection[Who](title="Hi", template="Hi $name")],
    )
    prompt = Prompt(template).bind(Who("Ada"))
    assert prompt.name == "Greeter"
    assert dict(prompt.params) == {Who: Who("Ada")}
    assert prompt.render().text == "## 1. Hi (hi)\n\nHi Ada"
