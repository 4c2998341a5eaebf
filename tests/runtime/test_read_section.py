"""The read_section tool (spec 03): content, expanded tools, errors and normalisation."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from wink_decl import (
    MarkdownSection,
    Prompt,
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
class Project:
    name: str = "wink"
    hide_history: bool = False


@dataclass(frozen=True)
class Search:
    query: str


def _handler(params: Search, *, context: ToolContext) -> ToolResult[None]:
    return ToolResult.ok(None, params.query)


def make_tool(name: str) -> Tool[Search, None]:
    return Tool[Search, None](name=name, description=f"The {name} tool.", handler=_handler)


def section(key: str, template: str, **kwargs: Any) -> MarkdownSection[Any]:
    return MarkdownSection(title=key.title(), key=key, template=template, **kwargs)


def history_enabled(params: Project) -> bool:
    return not params.hide_history


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


def build_template() -> PromptTemplate[None]:
    """task (FULL) | context (SUMMARY) > [examples (SUMMARY) > [snippets], history, legacy]."""
    return PromptTemplate(
        ns="tests/read",
        key="prompt",
        sections=[
            section("task", "Do the task.", tools=[make_tool("task_tool")]),
            MarkdownSection[Project](
                title="Context",
                key="context",
                template="Everything about $name.",
                summary="Context for $name.",
                visibility=SUMMARY,
                tools=[make_tool("context_a"), make_tool("context_b")],
                children=[
                    section(
                        "examples",
                        "All examples.",
                        summary="Some examples.",
                        visibility=SUMMARY,
                        tools=[make_tool("examples_tool")],
                        children=[
                            section("snippets", "Snippets.", tools=[make_tool("snippets_tool")])
                        ],
                    ),
                    MarkdownSection[Project](
                        title="History",
                        key="history",
                        template="History of $name.",
                        enabled=history_enabled,
                        tools=[make_tool("history_tool")],
                    ),
                    section("legacy", "Legacy.", enabled=False, tools=[make_tool("legacy_tool")]),
                ],
            ),
            section("closing", "Be brief.", tools=[make_tool("closing_tool")]),
        ],
    )


CONTEXT_CONTENT = (
    "## 2. Context (context)\n"
    "\n"
    "Everything about wink.\n"
    "\n"
    "### 2.1. Examples (context.examples)\n"
    "\n"
    "Some examples.\n"
    "\n"
    f"{suffix('context.examples', 'snippets')}\n"
    "\n"
    "### 2.2. History (context.history)\n"
    "\n"
    "History of wink."
)


def read(
    prompt: Prompt[Any],
    key: str,
    *,
    overrides: Mapping[Any, SectionVisibility] | None = None,
    session: Session | None = None,
) -> ToolResult[Any]:
    session = Session() if session is None else session
    rendered = prompt.render(visibility_overrides=overrides, session=session)
    return call(prompt, rendered, key, session)


def call(
    prompt: Prompt[Any], rendered: RenderedPrompt, key: str, session: SessionProtocol
) -> ToolResult[Any]:
    tool = rendered.tools[-1]
    assert tool.name == "read_section"
    assert tool.handler is not None
    context = ToolContext(prompt=prompt, rendered_prompt=rendered, adapter=None, session=session)
    return tool.handler(ReadSectionParams(section_key=key), context=context)


def value_of(result: ToolResult[Any]) -> ReadSectionResult:
    assert isinstance(result.value, ReadSectionResult)
    return result.value


def tool_names(result: ToolResult[Any]) -> list[str]:
    return [tool.name for tool in value_of(result).expanded_tools]


def expanded(result: ToolResult[Any]) -> list[str]:
    return [".".join(path) for path in value_of(result).expanded_sections]


def offered_after(prompt: Prompt[Any], result: ToolResult[Any]) -> set[str]:
    """The tools a fresh render offers once the session shows the expanded sections at FULL."""
    session = Session()
    for path in value_of(result).expanded_sections:
        session.dispatch(SetVisibilityOverride(path=path, visibility=FULL))
    return {tool.name for tool in prompt.render(session=session).tools}


@pytest.fixture
def prompt() -> Prompt[None]:
    return Prompt(build_template())


# -- unknown keys ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "message"),
    [
        ("contxt", "Unknown section key: 'contxt'. Did you mean 'context'?"),
        (
            "context.exampels",
            "Unknown section key: 'context.exampels'. Did you mean 'context.examples'?",
        ),
        ("Contxt ", "Unknown section key: 'Contxt '. Did you mean 'context'?"),
        ("weather", "Unknown section key: 'weather'"),
        ("", "Unknown section key: ''"),
        ("examples", "Unknown section key: 'examples'. Did you mean 'context.examples'?"),
    ],
    ids=[
        "suggestion",
        "nested-suggestion",
        "raw-key-quoted",
        "no-suggestion",
        "empty",
        "bare-child",
    ],
)
def test_unknown_key_is_a_failed_result(prompt: Prompt[None], key: str, message: str):
    result = read(prompt, key)

    assert result == ToolResult(message=message, value=None, success=False)
    assert result.render() == ""


@pytest.mark.parametrize(
    ("key", "message"),
    [
        (
            "context.legacy",
            "Unknown section key: 'context.legacy'. Did you mean 'context.examples'?",
        ),
        ("context.legac", "Unknown section key: 'context.legac'. Did you mean 'context'?"),
        ("context.history", "Unknown section key: 'context.history'. Did you mean 'context'?"),
        ("context.histry", "Unknown section key: 'context.histry'. Did you mean 'context'?"),
    ],
    ids=["constant-disabled", "near-constant-disabled", "callable-disabled", "near-callable"],
)
def test_a_disabled_section_is_unknown_and_never_suggested(
    prompt: Prompt[None], key: str, message: str
):
    prompt.bind(Project(hide_history=True))

    result = read(prompt, key)

    assert result == ToolResult(message=message, value=None, success=False)


def test_an_enabled_section_is_suggested_where_a_disabled_one_is_not(prompt: Prompt[None]):
    prompt.bind(Project(hide_history=False))

    result = read(prompt, "context.histry")

    assert result == ToolResult.error(
        "Unknown section key: 'context.histry'. Did you mean 'context.history'?"
    )


def test_sections_under_a_disabled_parent_are_unknown():
    tree = PromptTemplate(
        ns="tests/read",
        key="prompt",
        sections=[
            section("notes", "Notes.", summary="Notes summary.", visibility=SUMMARY),
            section("archive", "Archive.", enabled=False, children=[section("old", "Old.")]),
        ],
    )
    prompt = Prompt(tree)

    assert read(prompt, "archive.old") == ToolResult.error("Unknown section key: 'archive.old'")
    assert read(prompt, "archive.ol") == ToolResult.error("Unknown section key: 'archive.ol'")


# -- summarized sections ------------------------------------------------------------------------


def test_reading_a_summarized_section_returns_its_content_and_tools(prompt: Prompt[None]):
    result = read(prompt, "context")

    assert result == ToolResult(
        message="Content of section 'context':",
        value=ReadSectionResult(
            content=CONTEXT_CONTENT,
            expanded_tools=value_of(result).expanded_tools,
            expanded_sections=(("context",),),
        ),
        success=True,
    )
    # The tools of what the read shows at full, in declaration order: the summarized child
    # keeps its own (and its child's) until it is read; the disabled child's never appear.
    assert tool_names(result) == ["context_a", "context_b", "history_tool"]
    assert offered_after(prompt, result) == {
        "task_tool",
        "context_a",
        "context_b",
        "history_tool",
        "closing_tool",
        "read_section",
    }


def test_a_disabled_descendant_is_neither_shown_nor_its_tools_expanded(prompt: Prompt[None]):
    prompt.bind(Project(name="decl", hide_history=True))

    result = read(prompt, "context")

    assert result.value == ReadSectionResult(
        content=(
            "## 2. Context (context)\n"
            "\n"
            "Everything about decl.\n"
            "\n"
            "### 2.1. Examples (context.examples)\n"
            "\n"
            "Some examples.\n"
            "\n"
            f"{suffix('context.examples', 'snippets')}"
        ),
        expanded_tools=value_of(result).expanded_tools,
        expanded_sections=(("context",),),
    )
    assert tool_names(result) == ["context_a", "context_b"]


def test_reading_a_nested_section_of_a_summarized_parent_keeps_its_depth_number_and_path(
    prompt: Prompt[None],
):
    result = read(prompt, "context.examples")

    assert result.message == "Content of section 'context.examples':"
    assert value_of(result).content == (
        "### 2.1. Examples (context.examples)\n"
        "\n"
        "All examples.\n"
        "\n"
        "#### 2.1.1. Snippets (context.examples.snippets)\n"
        "\n"
        "Snippets."
    )
    # Showing the child needs its summarized parent open too: the parent's tools and its
    # other open child's come along, exactly as a fresh render of that state offers them.
    assert expanded(result) == ["context", "context.examples"]
    assert tool_names(result) == [
        "context_a",
        "context_b",
        "examples_tool",
        "snippets_tool",
        "history_tool",
    ]
    assert offered_after(prompt, result) == {
        "task_tool",
        *tool_names(result),
        "closing_tool",
    }


def test_reading_a_deeply_nested_section_under_two_summaries(prompt: Prompt[None]):
    result = read(prompt, "context.examples.snippets")

    assert result == ToolResult(
        message="Content of section 'context.examples.snippets':",
        value=ReadSectionResult(
            content="#### 2.1.1. Snippets (context.examples.snippets)\n\nSnippets.",
            expanded_tools=value_of(result).expanded_tools,
            expanded_sections=(
                ("context",),
                ("context", "examples"),
                ("context", "examples", "snippets"),
            ),
        ),
    )
    assert tool_names(result) == [
        "context_a",
        "context_b",
        "examples_tool",
        "snippets_tool",
        "history_tool",
    ]


def test_a_section_without_tools_expands_none():
    tree = PromptTemplate(
        ns="tests/read",
        key="prompt",
        sections=[section("notes", "All notes.", summary="Notes summary.", visibility=SUMMARY)],
    )

    assert read(Prompt(tree), "notes") == ToolResult(
        message="Content of section 'notes':",
        value=ReadSectionResult(content="## 1. Notes (notes)\n\nAll notes.", expanded_tools=()),
    )


def test_descendants_keep_their_current_visibility_in_the_content(prompt: Prompt[None]):
    opened = read(prompt, "context", overrides={("context", "examples"): FULL})

    assert value_of(opened).content == (
        "## 2. Context (context)\n"
        "\n"
        "Everything about wink.\n"
        "\n"
        "### 2.1. Examples (context.examples)\n"
        "\n"
        "All examples.\n"
        "\n"
        "#### 2.1.1. Snippets (context.examples.snippets)\n"
        "\n"
        "Snippets.\n"
        "\n"
        "### 2.2. History (context.history)\n"
        "\n"
        "History of wink."
    )
    assert tool_names(opened) == [
        "context_a",
        "context_b",
        "examples_tool",
        "snippets_tool",
        "history_tool",
    ]


def test_a_child_summarized_by_a_callable_shows_its_summary_in_the_content():
    def brief(params: Project) -> SectionVisibility:
        return SUMMARY if params.name == "brief" else FULL

    tree = PromptTemplate(
        ns="tests/read",
        key="prompt",
        sections=[
            section(
                "outer",
                "Outer.",
                summary="Outer summary.",
                visibility=SUMMARY,
                children=[
                    MarkdownSection[Project](
                        title="Inner",
                        key="inner",
                        template="Inner for $name.",
                        summary="Inner summary for $name.",
                        visibility=brief,
                    )
                ],
            )
        ],
    )

    brief_result = read(Prompt(tree).bind(Project(name="brief")), "outer")
    full_result = read(Prompt(tree).bind(Project(name="long")), "outer")

    assert value_of(brief_result).content == (
        "## 1. Outer (outer)\n"
        "\n"
        "Outer.\n"
        "\n"
        "### 1.1. Inner (outer.inner)\n"
        "\n"
        "Inner summary for brief.\n"
        "\n"
        f"{suffix('outer.inner')}"
    )
    assert value_of(full_result).content == (
        "## 1. Outer (outer)\n\nOuter.\n\n### 1.1. Inner (outer.inner)\n\nInner for long."
    )


# -- already expanded ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "overrides", "content"),
    [
        ("task", {}, "## 1. Task (task)\n\nDo the task."),
        ("context", {("context",): FULL}, CONTEXT_CONTENT),
        (
            "context.history",
            {"context": FULL},
            "### 2.2. History (context.history)\n\nHistory of wink.",
        ),
    ],
    ids=["always-full", "opened-by-override", "child-of-opened-section"],
)
def test_a_section_already_shown_at_full_returns_its_content_without_tools(
    prompt: Prompt[None], key: str, overrides: Mapping[Any, SectionVisibility], content: str
):
    result = read(prompt, key, overrides=overrides)

    assert result == ToolResult(
        message="Section is already expanded.",
        value=ReadSectionResult(content=content, expanded_tools=()),
        success=True,
    )


def test_a_full_section_under_a_summarized_parent_is_not_already_expanded(prompt: Prompt[None]):
    result = read(prompt, "context.history")

    assert result.message == "Content of section 'context.history':"
    assert value_of(result).content == "### 2.2. History (context.history)\n\nHistory of wink."
    assert expanded(result) == ["context", "context.history"]
    assert tool_names(result) == ["context_a", "context_b", "history_tool"]


# -- keys --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "message"),
    [
        ("  context  ", "Content of section 'context':"),
        ("CONTEXT", "Content of section 'context':"),
        ("\tContext.Examples\n", "Content of section 'context.examples':"),
    ],
    ids=["whitespace", "upper-case", "mixed"],
)
def test_keys_are_stripped_and_lower_cased(prompt: Prompt[None], key: str, message: str):
    result = read(prompt, key)
    normalised = read(prompt, key.strip().lower())

    assert result.success
    assert result.message == message
    assert result == normalised


# -- context checks and session ------------------------------------------------------------------


def test_the_handler_refuses_a_prompt_of_another_template(prompt: Prompt[None]):
    other = Prompt(
        PromptTemplate(
            ns="tests/other",
            key="elsewhere",
            sections=[section("notes", "Notes.", summary="Summary.", visibility=SUMMARY)],
        )
    )
    session = Session()
    rendered = prompt.render(session=session)

    result = call(other, rendered, "context", session)

    assert result == ToolResult(
        message=(
            "read_section belongs to prompt 'tests/read/prompt', not to 'tests/other/elsewhere'."
        ),
        value=None,
        success=False,
    )


def test_session_overrides_are_respected_by_the_read(prompt: Prompt[None]):
    session = Session()
    session.dispatch(SetVisibilityOverride(path=("context", "examples"), visibility=FULL))

    opened = read(prompt, "context", session=session)

    assert opened.message == "Content of section 'context':"
    assert value_of(opened).content == (
        "## 2. Context (context)\n"
        "\n"
        "Everything about wink.\n"
        "\n"
        "### 2.1. Examples (context.examples)\n"
        "\n"
        "All examples.\n"
        "\n"
        "#### 2.1.1. Snippets (context.examples.snippets)\n"
        "\n"
        "Snippets.\n"
        "\n"
        "### 2.2. History (context.history)\n"
        "\n"
        "History of wink."
    )

    session.dispatch(SetVisibilityOverride(path=("context",), visibility=FULL))
    session.dispatch(SetVisibilityOverride(path=("context", "examples"), visibility=SUMMARY))

    again = read(prompt, "context", session=session)

    assert again == ToolResult(
        message="Section is already expanded.",
        value=ReadSectionResult(content=CONTEXT_CONTENT, expanded_tools=()),
    )


def test_session_overrides_beat_the_render_overrides_in_the_read(prompt: Prompt[None]):
    session = Session()
    rendered = prompt.render(visibility_overrides={("context",): FULL}, session=session)
    overrides: dict[SectionPath, SectionVisibility] = {("context",): SUMMARY}
    for path, visibility in overrides.items():
        session.dispatch(SetVisibilityOverride(path=path, visibility=visibility))

    result = call(prompt, rendered, "context", session)

    assert result.message == "Content of section 'context':"
    assert expanded(result) == ["context"]
    assert tool_names(result) == ["context_a", "context_b", "history_tool"]


def test_the_read_uses_the_params_bound_to_the_prompt(prompt: Prompt[None]):
    prompt.bind(Project(name="decl"))

    result = read(prompt, "context.history")

    assert value_of(result).content == "### 2.2. History (context.history)\n\nHistory of decl."


# -- rendering results -------------------------------------------------------------------------


def test_read_section_result_renders_as_its_content(prompt: Prompt[None]):
    result = read(prompt, "context")

    assert value_of(result).render() == CONTEXT_CONTENT
    assert result.render() == CONTEXT_CONTENT
    assert ReadSectionResult(content="Just text.").render() == "Just text."


def test_read_section_tool_is_a_builtin_that_refuses_overrides():
    rendered = Prompt(build_template()).render()
    tool = rendered.tools[-1]

    assert tool.name == "read_section"
    assert tool.description == "Read the full content of a summarized section."
    assert tool.params_type is ReadSectionParams
    assert tool.result_type is ReadSectionResult
    assert tool.accepts_overrides is False
