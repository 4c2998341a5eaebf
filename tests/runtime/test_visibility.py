"""Visibility: read_section registration, suffixes, precedence, callables and overrides."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from wink_decl import (
    MarkdownSection,
    Prompt,
    PromptRenderError,
    PromptTemplate,
    ReadSectionParams,
    ReadSectionResult,
    RenderedPrompt,
    SectionPath,
    SectionVisibility,
    Session,
    SessionProtocol,
    SetVisibilityOverride,
    Tool,
    ToolContext,
    ToolResult,
)

FULL = SectionVisibility.FULL
SUMMARY = SectionVisibility.SUMMARY


@dataclass(frozen=True)
class Flags:
    brief: bool = False
    name: str = "wink"


@dataclass(frozen=True)
class Marker:
    """An event no reducer handles: dispatching it logs it, which callables can query."""


@dataclass(frozen=True)
class Search:
    query: str


def _handler(params: Search, *, context: ToolContext) -> ToolResult[None]:
    return ToolResult.ok(None, params.query)


def make_tool(name: str) -> Tool[Search, None]:
    return Tool[Search, None](name=name, description=f"The {name} tool.", handler=_handler)


def section(key: str, template: str, **kwargs: Any) -> MarkdownSection[Any]:
    return MarkdownSection(title=key.title(), key=key, template=template, **kwargs)


def flags_section(key: str, template: str, **kwargs: Any) -> MarkdownSection[Flags]:
    return MarkdownSection[Flags](title=key.title(), key=key, template=template, **kwargs)


def template_of(*sections: MarkdownSection[Any]) -> PromptTemplate[None]:
    return PromptTemplate(ns="tests/visibility", key="prompt", sections=sections)


def suffix(key: str, children: str = "") -> str:
    if children:
        return (
            "---\n[This section is summarized. Call `read_section` with key "
            f'"{key}" to view full content including subsections: {children}.]'
        )
    return (
        "---\n[This section is summarized. To view full content, call `read_section` with key "
        f'"{key}".]'
    )


def session_with(overrides: Mapping[SectionPath, SectionVisibility]) -> Session:
    session = Session()
    for path, visibility in overrides.items():
        session.dispatch(SetVisibilityOverride(path=path, visibility=visibility))
    return session


def read(prompt: Prompt[Any], rendered: RenderedPrompt, key: str, session: Session) -> Any:
    tool = rendered.tools[-1]
    assert tool.name == "read_section"
    assert tool.handler is not None
    context = ToolContext(prompt=prompt, rendered_prompt=rendered, adapter=None, session=session)
    return tool.handler(ReadSectionParams(section_key=key), context=context)


def disclosure_template() -> PromptTemplate[None]:
    return template_of(
        section("task", "Do the task.", tools=[make_tool("task_tool")]),
        section(
            "context",
            "Full context.",
            summary="Context is available.",
            visibility=SUMMARY,
            tools=[make_tool("context_tool")],
            children=[
                section(
                    "examples",
                    "Full examples.",
                    summary="Examples are available.",
                    visibility=SUMMARY,
                    tools=[make_tool("examples_tool")],
                ),
                section("history", "Full history."),
            ],
        ),
        section("closing", "Be brief.", tools=[make_tool("closing_tool")]),
    )


ALL_OPEN = (
    "## 1. Task (task)\n"
    "\n"
    "Do the task.\n"
    "\n"
    "## 2. Context (context)\n"
    "\n"
    "Full context.\n"
    "\n"
    "### 2.1. Examples (context.examples)\n"
    "\n"
    "Full examples.\n"
    "\n"
    "### 2.2. History (context.history)\n"
    "\n"
    "Full history.\n"
    "\n"
    "## 3. Closing (closing)\n"
    "\n"
    "Be brief."
)


# -- read_section registration ------------------------------------------------------------------


def test_read_section_is_appended_after_every_section_tool_when_a_section_is_summarized():
    rendered = disclosure_template().render()

    assert rendered.text == (
        "## 1. Task (task)\n"
        "\n"
        "Do the task.\n"
        "\n"
        "## 2. Context (context)\n"
        "\n"
        "Context is available.\n"
        "\n"
        f"{suffix('context', 'examples, history')}\n"
        "\n"
        "## 3. Closing (closing)\n"
        "\n"
        "Be brief."
    )
    assert rendered.tool_names == ("task_tool", "closing_tool", "read_section")


def test_read_section_stays_while_a_nested_section_is_still_summarized():
    rendered = disclosure_template().render(visibility_overrides={("context",): FULL})

    assert rendered.text == (
        "## 1. Task (task)\n"
        "\n"
        "Do the task.\n"
        "\n"
        "## 2. Context (context)\n"
        "\n"
        "Full context.\n"
        "\n"
        "### 2.1. Examples (context.examples)\n"
        "\n"
        "Examples are available.\n"
        "\n"
        f"{suffix('context.examples')}\n"
        "\n"
        "### 2.2. History (context.history)\n"
        "\n"
        "Full history.\n"
        "\n"
        "## 3. Closing (closing)\n"
        "\n"
        "Be brief."
    )
    assert rendered.tool_names == ("task_tool", "context_tool", "closing_tool", "read_section")


@pytest.mark.parametrize(
    ("overrides", "session_overrides"),
    [
        ({("context",): FULL, ("context", "examples"): FULL}, {}),
        ({"context": FULL, "context.examples": FULL}, {}),
        ({}, {("context",): FULL, ("context", "examples"): FULL}),
        ({("context",): FULL}, {("context", "examples"): FULL}),
    ],
    ids=["render-overrides", "dotted-render-overrides", "session-overrides", "both"],
)
def test_read_section_is_absent_when_overrides_open_every_summarized_section(
    overrides: Mapping[Any, SectionVisibility],
    session_overrides: Mapping[SectionPath, SectionVisibility],
):
    rendered = Prompt(disclosure_template()).render(
        visibility_overrides=overrides, session=session_with(session_overrides)
    )

    assert rendered.text == ALL_OPEN
    assert rendered.tool_names == ("task_tool", "context_tool", "examples_tool", "closing_tool")
    assert list(rendered.tool_param_descriptions) == list(rendered.tool_names)


@pytest.mark.parametrize(
    ("extra", "text"),
    [
        ([], ""),
        (
            [section("ready", "Ready.", summary="Ready summary.")],
            "\n\n## 2. Ready (ready)\n\nReady.",
        ),
        ([section("off", "Off.", summary="Off summary.", visibility=SUMMARY, enabled=False)], ""),
        (
            [
                section(
                    "off",
                    "Off.",
                    enabled=False,
                    children=[section("inner", "In.", summary="In summary.", visibility=SUMMARY)],
                )
            ],
            "",
        ),
    ],
    ids=["no-summaries", "summary-at-full", "summarized-but-disabled", "under-a-disabled-parent"],
)
def test_read_section_is_absent_when_nothing_renders_summarized(
    extra: list[MarkdownSection[Any]], text: str
):
    tree = template_of(section("plain", "Plain.", tools=[make_tool("plain_tool")]), *extra)

    rendered = tree.render()

    assert rendered.text == "## 1. Plain (plain)\n\nPlain." + text
    assert rendered.tool_names == ("plain_tool",)


# -- suffixes ---------------------------------------------------------------------------------


def test_default_suffix_without_children():
    tree = template_of(section("notes", "Full notes.", summary="Some notes.", visibility=SUMMARY))

    assert tree.render().text == (
        "## 1. Notes (notes)\n"
        "\n"
        "Some notes.\n"
        "\n"
        "---\n"
        "[This section is summarized. To view full content, call `read_section` with key "
        '"notes".]'
    )


def test_default_suffix_lists_enabled_direct_children_only():
    tree = template_of(
        section(
            "reference",
            "Full reference.",
            summary="Reference material.",
            visibility=SUMMARY,
            children=[
                section("api", "API.", children=[section("deep", "Deep.")]),
                section("legacy", "Legacy.", enabled=False),
                section("style", "Style.", enabled=lambda: True),
                section("drafts", "Drafts.", enabled=lambda: False),
                section("faq", "FAQ."),
            ],
        )
    )

    assert tree.render().text == (
        "## 1. Reference (reference)\n"
        "\n"
        "Reference material.\n"
        "\n"
        "---\n"
        '[This section is summarized. Call `read_section` with key "reference" to view full '
        "content including subsections: api, style, faq.]"
    )


def test_nested_summary_suffix_uses_the_dotted_path_and_child_keys():
    tree = template_of(
        section(
            "outer",
            "Outer.",
            children=[
                section(
                    "inner",
                    "Inner.",
                    summary="Inner summary.",
                    visibility=SUMMARY,
                    children=[section("leaf-one", "Leaf."), section("leaf_two", "Leaf.")],
                )
            ],
        )
    )

    assert tree.render().text == (
        "## 1. Outer (outer)\n"
        "\n"
        "Outer.\n"
        "\n"
        "### 1.1. Inner (outer.inner)\n"
        "\n"
        "Inner summary.\n"
        "\n"
        "---\n"
        '[This section is summarized. Call `read_section` with key "outer.inner" to view full '
        "content including subsections: leaf-one, leaf_two.]"
    )


def test_all_children_disabled_gives_the_no_children_suffix():
    tree = template_of(
        section(
            "reference",
            "Full reference.",
            summary="Reference material.",
            visibility=SUMMARY,
            children=[
                section("legacy", "Legacy.", enabled=False),
                section("drafts", "Drafts.", enabled=lambda: False),
            ],
        )
    )

    assert tree.render().text == (
        "## 1. Reference (reference)\n"
        "\n"
        "Reference material.\n"
        "\n"
        "---\n"
        "[This section is summarized. To view full content, call `read_section` with key "
        '"reference".]'
    )


def test_custom_suffix_replaces_the_text_after_the_rule():
    tree = template_of(
        section(
            "outer",
            "Outer.",
            children=[
                flags_section(
                    "api",
                    "Full API for $name.",
                    summary="APIs of ${name}.",
                    summary_suffix="""
                        Call `read_section` with key '${section_key}' for $name's
                        signatures ($$0, ${name}).
                    """,
                    visibility=SUMMARY,
                    children=[section("child", "Child.")],
                )
            ],
        )
    )

    assert tree.render(Flags(name="wink")).text == (
        "## 1. Outer (outer)\n"
        "\n"
        "Outer.\n"
        "\n"
        "### 1.1. Api (outer.api)\n"
        "\n"
        "APIs of wink.\n"
        "\n"
        "---\n"
        "Call `read_section` with key 'outer.api' for wink's\n"
        "signatures ($0, wink)."
    )


def test_custom_suffix_key_is_data_and_not_substituted_again():
    tree = template_of(
        flags_section(
            "notes",
            "Notes.",
            summary="Summary.",
            summary_suffix="Open $section_key for $name.",
            visibility=SUMMARY,
        )
    )

    assert tree.render(Flags(name="${section_key}")).text == (
        "## 1. Notes (notes)\n\nSummary.\n\n---\nOpen notes for ${section_key}."
    )


# -- precedence ---------------------------------------------------------------------------------


def always_summary() -> SectionVisibility:
    return SUMMARY


PRECEDENCE: list[tuple[Any, SectionVisibility | None, SectionVisibility | None, str]] = [
    (FULL, None, None, "full"),
    (SUMMARY, None, None, "summary"),
    (always_summary, None, None, "summary"),
    (SUMMARY, FULL, None, "full"),
    (FULL, SUMMARY, None, "summary"),
    (always_summary, FULL, None, "full"),
    (SUMMARY, None, FULL, "full"),
    (FULL, None, SUMMARY, "summary"),
    (always_summary, None, FULL, "full"),
    (FULL, FULL, SUMMARY, "summary"),
    (SUMMARY, SUMMARY, FULL, "full"),
    (always_summary, SUMMARY, FULL, "full"),
    (FULL, SUMMARY, FULL, "full"),
]


@pytest.mark.parametrize(
    ("own", "render_override", "session_override", "expected"),
    PRECEDENCE,
    ids=[
        "section-full",
        "section-summary",
        "section-callable",
        "render-beats-section-summary",
        "render-beats-section-full",
        "render-beats-callable",
        "session-beats-section-summary",
        "session-beats-section-full",
        "session-beats-callable",
        "session-beats-render-full",
        "session-beats-render-summary",
        "session-beats-render-and-callable",
        "session-full-over-render-summary-over-section-full",
    ],
)
def test_visibility_precedence(
    own: Any,
    render_override: SectionVisibility | None,
    session_override: SectionVisibility | None,
    expected: str,
):
    tree = template_of(section("notes", "Full notes.", summary="Some notes.", visibility=own))
    overrides = {} if render_override is None else {("notes",): render_override}
    session = session_with({} if session_override is None else {("notes",): session_override})

    rendered = Prompt(tree).render(visibility_overrides=overrides, session=session)

    texts = {
        "full": "## 1. Notes (notes)\n\nFull notes.",
        "summary": f"## 1. Notes (notes)\n\nSome notes.\n\n{suffix('notes')}",
    }
    assert rendered.text == texts[expected]
    assert rendered.tool_names == (("read_section",) if expected == "summary" else ())


def test_overrides_of_a_section_hidden_by_its_summarized_parent_do_not_reveal_it():
    tree = template_of(
        section(
            "outer",
            "Outer.",
            summary="Outer summary.",
            visibility=SUMMARY,
            children=[section("inner", "Inner.", tools=[make_tool("inner_tool")])],
        )
    )

    rendered = tree.render(visibility_overrides={("outer", "inner"): FULL})

    assert rendered.text == (f"## 1. Outer (outer)\n\nOuter summary.\n\n{suffix('outer', 'inner')}")
    assert rendered.tool_names == ("read_section",)


# -- callables ----------------------------------------------------------------------------------


def marked(session: SessionProtocol | None) -> bool:
    return session is not None and bool(session.query(Marker))


def vis_none() -> SectionVisibility:
    return SUMMARY


def vis_params(params: Flags) -> SectionVisibility:
    return SUMMARY if params.brief else FULL


def vis_session(*, session: SessionProtocol | None) -> SectionVisibility:
    return SUMMARY if marked(session) else FULL


def vis_both(params: Flags, *, session: SessionProtocol | None) -> SectionVisibility:
    return SUMMARY if params.brief and marked(session) else FULL


@pytest.mark.parametrize(
    ("callable_", "brief", "mark", "expected"),
    [
        (vis_none, False, False, SUMMARY),
        (vis_params, True, False, SUMMARY),
        (vis_params, False, True, FULL),
        (vis_session, False, True, SUMMARY),
        (vis_session, True, False, FULL),
        (vis_both, True, True, SUMMARY),
        (vis_both, True, False, FULL),
        (vis_both, False, True, FULL),
    ],
    ids=[
        "no-args",
        "params-summary",
        "params-full",
        "session-summary",
        "session-full",
        "both-summary",
        "both-without-mark",
        "both-without-brief",
    ],
)
def test_visibility_callables_take_params_and_or_session(
    callable_: Callable[..., SectionVisibility],
    brief: bool,
    mark: bool,
    expected: SectionVisibility,
):
    tree = template_of(
        flags_section("notes", "Full notes for $name.", summary="Notes.", visibility=callable_)
    )
    session = Session()
    if mark:
        session.dispatch(Marker())

    rendered = Prompt(tree).bind(Flags(brief=brief)).render(session=session)

    if expected is SUMMARY:
        assert rendered.text == f"## 1. Notes (notes)\n\nNotes.\n\n{suffix('notes')}"
    else:
        assert rendered.text == "## 1. Notes (notes)\n\nFull notes for wink."


def test_visibility_callable_sees_no_session_when_render_has_none():
    seen: list[SessionProtocol | None] = []

    def visibility(*, session: SessionProtocol | None) -> SectionVisibility:
        seen.append(session)
        return FULL

    tree = template_of(section("notes", "Full.", summary="Notes.", visibility=visibility))

    assert tree.render().text == "## 1. Notes (notes)\n\nFull."
    assert seen == [None]


def on_none() -> bool:
    return False


def on_params(params: Flags) -> bool:
    return not params.brief


def on_session(*, session: SessionProtocol | None) -> bool:
    return not marked(session)


def on_both(params: Flags, *, session: SessionProtocol | None) -> bool:
    return not (params.brief and marked(session))


@pytest.mark.parametrize(
    ("callable_", "brief", "mark", "expected"),
    [
        (on_none, False, False, False),
        (on_params, True, False, False),
        (on_params, False, True, True),
        (on_session, False, True, False),
        (on_session, True, False, True),
        (on_both, True, True, False),
        (on_both, True, False, True),
        (on_both, False, True, True),
    ],
    ids=[
        "no-args",
        "params-disabled",
        "params-enabled",
        "session-disabled",
        "session-enabled",
        "both-disabled",
        "both-without-mark",
        "both-without-brief",
    ],
)
def test_enabled_callables_take_params_and_or_session(
    callable_: Callable[..., bool],
    brief: bool,
    mark: bool,
    expected: bool,
):
    tree = template_of(
        section("first", "First."),
        flags_section("maybe", "Maybe for $name.", enabled=callable_, tools=[make_tool("maybe")]),
        section("last", "Last."),
    )
    session = Session()
    if mark:
        session.dispatch(Marker())

    rendered = Prompt(tree).bind(Flags(brief=brief)).render(session=session)

    if expected:
        assert rendered.text == (
            "## 1. First (first)\n\nFirst.\n\n"
            "## 2. Maybe (maybe)\n\nMaybe for wink.\n\n"
            "## 3. Last (last)\n\nLast."
        )
        assert rendered.tool_names == ("maybe",)
    else:
        assert rendered.text == "## 1. First (first)\n\nFirst.\n\n## 3. Last (last)\n\nLast."
        assert rendered.tool_names == ()


def test_a_disabled_section_ignores_its_overrides():
    tree = template_of(
        section("off", "Off.", summary="Off summary.", enabled=False),
        section("on", "On."),
    )

    rendered = tree.render(visibility_overrides={("off",): SUMMARY})

    assert rendered.text == "## 2. On (on)\n\nOn."
    assert rendered.tool_names == ()


# -- errors ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("returned", "shown"),
    [("summary", "'summary'"), (None, "None"), (True, "True")],
    ids=["string", "none", "bool"],
)
def test_a_visibility_callable_must_return_a_section_visibility(returned: object, shown: str):
    def visibility() -> Any:
        return returned

    tree = template_of(
        section("outer", "Outer.", children=[section("inner", "Inner.", visibility=visibility)])
    )

    with pytest.raises(PromptRenderError) as excinfo:
        tree.render()

    assert str(excinfo.value) == (
        f"The visibility callable of section 'outer.inner' returned {shown}; "
        "return SectionVisibility.FULL or SectionVisibility.SUMMARY."
    )
    assert excinfo.value.section_path == ("outer", "inner")


def summary_without_summary() -> SectionVisibility:
    return SUMMARY


@pytest.mark.parametrize(
    ("visibility", "overrides", "session_overrides"),
    [
        (FULL, {("outer", "inner"): SUMMARY}, {}),
        (FULL, {"outer.inner": SUMMARY}, {}),
        (FULL, {}, {("outer", "inner"): SUMMARY}),
        (summary_without_summary, {}, {}),
    ],
    ids=["render-override", "dotted-render-override", "session-override", "callable"],
)
def test_summary_without_a_summary_fails_at_render(
    visibility: Any,
    overrides: Mapping[Any, SectionVisibility],
    session_overrides: Mapping[SectionPath, SectionVisibility],
):
    tree = template_of(
        section("outer", "Outer.", children=[section("inner", "Inner.", visibility=visibility)])
    )

    with pytest.raises(PromptRenderError) as excinfo:
        Prompt(tree).render(visibility_overrides=overrides, session=session_with(session_overrides))

    assert str(excinfo.value) == (
        "Section 'outer.inner' is summarized but has no summary: add a summary or keep it at "
        "full visibility."
    )
    assert excinfo.value.section_path == ("outer", "inner")


@pytest.mark.parametrize(
    ("key", "message", "path"),
    [
        (
            ("context", "exampels"),
            "visibility_overrides names an unknown section 'context.exampels'. "
            "Did you mean 'context.examples'?",
            ("context", "exampels"),
        ),
        (
            "contxt",
            "visibility_overrides names an unknown section 'contxt'. Did you mean 'context'?",
            ("contxt",),
        ),
        (
            ("zzz",),
            "visibility_overrides names an unknown section 'zzz'.",
            ("zzz",),
        ),
        (
            "context.history.deeper",
            "visibility_overrides names an unknown section 'context.history.deeper'. "
            "Did you mean 'context.history'?",
            ("context", "history", "deeper"),
        ),
    ],
    ids=["tuple-with-suggestion", "dotted-with-suggestion", "no-suggestion", "too-deep"],
)
def test_overrides_naming_an_unknown_section_fail(key: Any, message: str, path: SectionPath):
    with pytest.raises(PromptRenderError) as excinfo:
        disclosure_template().render(visibility_overrides={key: FULL})

    assert str(excinfo.value) == message
    assert excinfo.value.section_path == path


def test_an_override_value_must_be_a_section_visibility():
    overrides: Any = {"context": "full"}

    with pytest.raises(PromptRenderError) as excinfo:
        disclosure_template().render(visibility_overrides=overrides)

    assert str(excinfo.value) == (
        "visibility_overrides['context'] must be a SectionVisibility, got 'full'."
    )


@pytest.mark.parametrize(
    "key",
    ["context.examples", "Context.Examples", ("context", "examples")],
    ids=["dotted", "dotted-upper-case", "tuple"],
)
def test_override_keys_may_be_dotted_strings(key: Any):
    rendered = disclosure_template().render(
        visibility_overrides={"context": FULL, key: FULL},
    )

    assert rendered.text == ALL_OPEN
    assert rendered.tool_names == ("task_tool", "context_tool", "examples_tool", "closing_tool")


def test_session_overrides_for_unknown_paths_are_ignored():
    tree = disclosure_template()
    session = session_with({("nowhere",): FULL, ("context", "nothing"): FULL})

    rendered = Prompt(tree).render(session=session)

    assert rendered == tree.render()
    assert rendered.tool_names == ("task_tool", "closing_tool", "read_section")


# -- the whole flow -------------------------------------------------------------------------------


def test_full_flow_render_read_rerender_with_overrides():
    tree = disclosure_template()
    prompt = Prompt(tree)
    session = Session()
    first = prompt.render(session=session)
    assert first.tool_names == ("task_tool", "closing_tool", "read_section")

    result = read(prompt, first, "context", session)

    assert result == ToolResult(
        message="Content of section 'context':",
        value=ReadSectionResult(
            content=(
                "## 2. Context (context)\n"
                "\n"
                "Full context.\n"
                "\n"
                "### 2.1. Examples (context.examples)\n"
                "\n"
                "Examples are available.\n"
                "\n"
                f"{suffix('context.examples')}\n"
                "\n"
                "### 2.2. History (context.history)\n"
                "\n"
                "Full history."
            ),
            expanded_tools=result.value.expanded_tools,
            expanded_sections=(("context",),),
        ),
    )
    # The summarized child keeps its tool until it is read in turn.
    assert [tool.name for tool in result.value.expanded_tools] == ["context_tool"]

    second = prompt.render(visibility_overrides={("context",): FULL}, session=session)

    assert second.text == (
        "## 1. Task (task)\n"
        "\n"
        "Do the task.\n"
        "\n"
        f"{result.value.content}\n"
        "\n"
        "## 3. Closing (closing)\n"
        "\n"
        "Be brief."
    )
    assert second.tool_names == ("task_tool", "context_tool", "closing_tool", "read_section")
    assert set(second.tools) == {*first.tools, *result.value.expanded_tools}
    assert read(prompt, second, "context", session) == ToolResult(
        message="Section is already expanded.",
        value=ReadSectionResult(content=result.value.content, expanded_tools=()),
    )


def test_full_flow_through_session_overrides():
    prompt = Prompt(disclosure_template())
    session = Session()
    first = prompt.render(session=session)
    result = read(prompt, first, "context.examples", session)
    assert result.message == "Content of section 'context.examples':"

    session.dispatch(SetVisibilityOverride(path=("context",), visibility=FULL))
    session.dispatch(SetVisibilityOverride(path=("context", "examples"), visibility=FULL))
    second = prompt.render(session=session)

    assert second.text == (
        "## 1. Task (task)\n"
        "\n"
        "Do the task.\n"
        "\n"
        "## 2. Context (context)\n"
        "\n"
        "Full context.\n"
        "\n"
        f"{result.value.content}\n"
        "\n"
        "### 2.2. History (context.history)\n"
        "\n"
        "Full history.\n"
        "\n"
        "## 3. Closing (closing)\n"
        "\n"
        "Be brief."
    )
    assert second.tool_names == ("task_tool", "context_tool", "examples_tool", "closing_tool")
