"""The first render of a template whose every section is at FULL takes no plan, same answer.

And a namespace checked once is kept: the same answer again."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from concurrency import run_threads
from hypothesis import given, settings
from hypothesis import strategies as st

from wink_decl import (
    MarkdownSection,
    ParamHint,
    PromptRenderError,
    PromptTemplate,
    PromptValidationError,
    RenderedPrompt,
    Section,
    SectionVisibility,
    Tool,
    ToolContext,
    ToolResult,
)
from wink_decl.prompt import keys

FULL = SectionVisibility.FULL


class Value:
    """A param value that says when it is made a string: the walk must ask in the plan's order."""

    def __init__(self, text: str, name: str, log: list[str]) -> None:
        self.text = text
        self.name = name
        self.log = log

    def __str__(self) -> str:
        self.log.append(self.name)
        return self.text


@dataclass(frozen=True)
class First:
    x: object = ""
    y: object = "y"


@dataclass(frozen=True)
class Second:
    x: object = "second"


@dataclass(frozen=True)
class Needed:
    x: object  # no default: rendering it unbound fails


@dataclass(frozen=True)
class Query:
    query: str


def _handler(params: Query, *, context: ToolContext) -> ToolResult[None]:
    return ToolResult.ok(None, params.query)


def _shown(rendered: RenderedPrompt) -> tuple[object, ...]:
    """Everything a render gives, the visibilities in their order too."""
    return (
        rendered.text,
        rendered.tools,
        dict(rendered.tool_param_descriptions),
        list(rendered.section_visibility.items()),
        list(rendered.visibility_overrides.items()),
    )


def _template(*sections: Section[Any]) -> PromptTemplate[None]:
    return PromptTemplate(ns="t", key="t", sections=sections)


def _plans(template: PromptTemplate[None]) -> dict[object, object]:
    engine: Any = template.engine
    return engine._plans  # what the first render did not build


def test_the_first_render_of_an_all_full_template_builds_no_plan_and_the_second_does() -> None:
    template = _template(
        MarkdownSection(title="Task", template="About ${x}.", params_type=First),
        MarkdownSection(title="Empty", template="${x}", params_type=First),
        MarkdownSection(title="Bare"),
    )
    first = template.render(First(x="caching"))
    assert first.text == (
        "## 1. Task (task)\n\nAbout caching.\n\n## 2. Empty (empty)\n\ncaching\n\n## 3. Bare (bare)"
    )
    assert _plans(template) == {}
    assert _shown(template.render(First(x="caching"))) == _shown(first)
    assert list(_plans(template)) == [()]
    assert (
        template.render().text
        == "## 1. Task (task)\n\nAbout .\n\n## 2. Empty (empty)\n\n## 3. Bare (bare)"
    )


def test_a_template_with_a_section_not_at_full_builds_its_plan_at_once() -> None:
    template = _template(
        MarkdownSection(title="Shown", template="Shown."),
        MarkdownSection(title="Off", template="Off.", enabled=False),
    )
    assert template.render().text == "## 1. Shown (shown)\n\nShown."
    assert list(_plans(template)) == [()]


def test_overridden_tool_hints_are_what_the_first_render_describes() -> None:
    tool = Tool[Query, None](name="lookup", description="Look up.", handler=_handler)
    template = _template(MarkdownSection(title="Tools", tools=[tool]))
    hint = ParamHint(description="Changed.", type="string", default=None)
    template.engine.param_hints = {"lookup": {"query": hint}}
    rendered = template.render()
    assert _plans(template) == {}
    assert rendered.tools == (tool,)
    assert dict(rendered.tool_param_descriptions) == {"lookup": {"query": hint}}


def test_a_missing_param_is_refused_by_the_first_render_as_by_the_plan() -> None:
    template = _template(MarkdownSection(title="Task", template="${x}", params_type=Needed))
    with pytest.raises(PromptRenderError) as walked:
        template.render()
    with pytest.raises(PromptRenderError) as planned:
        template.render()
    assert str(walked.value) == str(planned.value)
    assert str(walked.value).startswith(
        "Missing required parameter 'x' of Needed for section 'task'"
    )


def test_threads_rendering_a_new_template_at_once_all_get_its_text() -> None:
    # Several may walk (the first render's flag is not locked); the rest build or find the plan.
    for _ in range(20):
        template = _template(
            *(MarkdownSection(title=f"S{n}", template="${x}!", params_type=First) for n in range(9))
        )

        def render(thread: int, template: PromptTemplate[None] = template) -> str:
            return template.render(First(x=f"user-{thread}")).text

        texts = run_threads(render, threads=8)
        assert texts == [
            "\n\n".join(f"## {n + 1}. S{n} (s{n})\n\nuser-{t}!" for n in range(9)) for t in range(8)
        ]


# -- the walk against the plan, on generated trees ---------------------------------------------

_PIECES = st.sampled_from(["a", " ", "$$", "\n", "${x}", "${y}"])
_KINDS = st.sampled_from([None, First, Second, Needed])


@st.composite
def _section(draw: st.DrawFn, key: str, depth: int, tools: list[int]) -> Section[Any]:
    kind = draw(_KINDS)
    names: set[str] = {"x", "y"} if kind is First else {"x"} if kind is not None else set()
    pieces = draw(st.lists(_PIECES, max_size=5))
    template = "".join(p for p in pieces if not p.startswith("${") or p[2] in names)
    default: Any = None
    if kind is not None and kind is not Needed and draw(st.booleans()):
        default = kind(x="default")
    children = (
        [draw(_section(f"{key}-{n}", depth + 1, tools)) for n in range(draw(st.integers(0, 2)))]
        if depth < 2
        else []
    )
    offered: list[Tool[Any, Any]] = []
    if draw(st.booleans()):
        tools.append(len(tools))
        offered.append(
            Tool[Query, None](name=f"tool-{len(tools)}", description="A tool.", handler=_handler)
        )
    return MarkdownSection(
        title=key,
        template=template,
        params_type=kind,
        default_params=default,
        children=children,
        tools=offered,
    )


@st.composite
def _sections(draw: st.DrawFn) -> list[Section[Any]]:
    tools: list[int] = []
    return [draw(_section(f"s{n}", 0, tools)) for n in range(draw(st.integers(0, 3)))]


@settings(deadline=None, max_examples=200)  # a busy 2-core CI machine is not what this measures
@given(
    sections=_sections(),
    bound=st.lists(st.sampled_from([First, Second, Needed]), unique=True),
    texts=st.lists(st.sampled_from(["", "v"]), min_size=3, max_size=3),
)
def test_the_first_render_gives_what_the_plan_gives(
    sections: list[Section[Any]], bound: list[type], texts: list[str]
) -> None:
    template = _template(*sections)
    log: list[str] = []
    params = [
        kind(x=Value(texts[n], kind.__name__, log))
        for n, kind in enumerate(bound)
        if kind in template.params_types  # a type no section takes is refused at bind
    ]
    outcomes: list[object] = []
    for _ in range(2):  # walked, then planned
        log.clear()
        try:
            outcomes.append((_shown(template.render(*params)), list(log)))
        except PromptRenderError as error:
            outcomes.append((str(error), list(log)))  # no value made a string before it
    walked, planned = outcomes
    assert walked == planned


# -- namespaces, kept once checked ---------------------------------------------------------------


def _ns_outcome(check: Callable[[str], str], ns: str) -> str:
    try:
        return check(ns)
    except PromptValidationError as error:
        return f"refused: {error}"


@settings(deadline=None, max_examples=200)  # as above
@given(st.lists(st.sampled_from(["A", "b", "/", ".", "-", "\n", "7"]), max_size=6).map("".join))
def test_a_namespace_checked_again_is_what_a_first_check_gives(ns: str) -> None:
    unkept = keys._checked_ns.__wrapped__  # pyright: ignore[reportPrivateUsage]
    first = _ns_outcome(keys.normalise_ns, ns)
    assert _ns_outcome(keys.normalise_ns, ns) == first  # kept when good, refused every time
    assert first == ("refused: " if not ns else "") + (
        "Prompt ns must be a non-empty string such as 'agents/review'."
        if not ns
        else _ns_outcome(unkept, ns)
    )
