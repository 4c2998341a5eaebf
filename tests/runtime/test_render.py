"""Rendering: numbering, headings, templates, params lookup, tools and bind errors."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from wink_decl import (
    MarkdownSection,
    ParamHint,
    Prompt,
    PromptRenderError,
    PromptTemplate,
    PromptValidationError,
    SectionVisibility,
    Tool,
    ToolContext,
    ToolResult,
)

FULL = SectionVisibility.FULL
SUMMARY = SectionVisibility.SUMMARY


@dataclass(frozen=True)
class Text:
    value: str = "default"


@dataclass(frozen=True)
class Other:
    value: str = "other-built"


@dataclass(frozen=True)
class Query:
    query: str = field(metadata={"description": "What to look for."})
    limit: int = field(default=10, metadata={"description": "How many hits at most."})
    verbose: bool = False


def _handler(params: Query, *, context: ToolContext) -> ToolResult[None]:
    return ToolResult.ok(None, params.query)


def make_tool(name: str) -> Tool[Query, None]:
    return Tool[Query, None](name=name, description=f"The {name} tool.", handler=_handler)


def section(key: str, template: str = "", **kwargs: Any) -> MarkdownSection[Any]:
    return MarkdownSection(title=key.title(), key=key, template=template, **kwargs)


def text_section(key: str, template: str, **kwargs: Any) -> MarkdownSection[Text]:
    return MarkdownSection[Text](title=key.title(), key=key, template=template, **kwargs)


def template_of(*sections: MarkdownSection[Any]) -> PromptTemplate[None]:
    return PromptTemplate(ns="tests/render", key="prompt", sections=sections)


# -- numbering and headings ------------------------------------------------------------------


def test_sections_are_numbered_depth_first_with_one_hash_per_level():
    tree = template_of(
        section(
            "alpha",
            "Alpha body.",
            children=[
                section(
                    "beta",
                    "Beta body.",
                    children=[
                        section("gamma", "Gamma body.", children=[section("delta", "Delta body.")]),
                        section("epsilon", "Epsilon body."),
                    ],
                ),
                section("zeta", "Zeta body."),
            ],
        ),
        section("eta", "Eta body."),
    )

    assert tree.render().text == (
        "## 1. Alpha (alpha)\n"
        "\n"
        "Alpha body.\n"
        "\n"
        "### 1.1. Beta (alpha.beta)\n"
        "\n"
        "Beta body.\n"
        "\n"
        "#### 1.1.1. Gamma (alpha.beta.gamma)\n"
        "\n"
        "Gamma body.\n"
        "\n"
        "##### 1.1.1.1. Delta (alpha.beta.gamma.delta)\n"
        "\n"
        "Delta body.\n"
        "\n"
        "#### 1.1.2. Epsilon (alpha.beta.epsilon)\n"
        "\n"
        "Epsilon body.\n"
        "\n"
        "### 1.2. Zeta (alpha.zeta)\n"
        "\n"
        "Zeta body.\n"
        "\n"
        "## 2. Eta (eta)\n"
        "\n"
        "Eta body."
    )


def test_title_is_stripped_and_key_is_derived_from_it():
    tree = PromptTemplate(
        ns="tests/render",
        key="prompt",
        sections=[MarkdownSection(title="  Project Context ", template="Body.")],
    )

    assert tree.render().text == "## 1. Project Context (project-context)\n\nBody."


def test_disabled_sections_keep_their_numbers_and_hide_their_subtree():
    tree = template_of(
        section("first", "First.", enabled=False, children=[section("inner", "Inner.")]),
        section(
            "second",
            "Second.",
            children=[
                section("one", "One."),
                section("two", "Two.", enabled=False),
                section("three", "Three."),
            ],
        ),
        section("third", "Third.", enabled=False),
        section("fourth", "Fourth."),
    )

    assert tree.render().text == (
        "## 2. Second (second)\n"
        "\n"
        "Second.\n"
        "\n"
        "### 2.1. One (second.one)\n"
        "\n"
        "One.\n"
        "\n"
        "### 2.3. Three (second.three)\n"
        "\n"
        "Three.\n"
        "\n"
        "## 4. Fourth (fourth)\n"
        "\n"
        "Fourth."
    )


def test_nothing_enabled_renders_the_empty_text():
    tree = template_of(section("only", "Only.", enabled=False))

    assert tree.render().text == ""


# -- bodies and templates --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("template", "params"),
    [
        ("", ()),
        ("   \n\t\n  ", ()),
        ("${value}", (Text(""),)),
        ("$value${value}", (Text(""),)),
    ],
    ids=["no-template", "whitespace-template", "placeholder-with-empty-value", "two-empty-values"],
)
def test_an_empty_body_renders_the_heading_alone(template: str, params: tuple[object, ...]):
    tree = template_of(
        text_section("head", template),
        section("middle", "Middle.", children=[text_section("inner", template)]),
        text_section("tail", template),
    )

    assert Prompt(tree).bind(*params).render().text == (
        "## 1. Head (head)\n"
        "\n"
        "## 2. Middle (middle)\n"
        "\n"
        "Middle.\n"
        "\n"
        "### 2.1. Inner (middle.inner)\n"
        "\n"
        "## 3. Tail (tail)"
    )


def test_a_placeholder_only_body_with_a_value_renders_normally():
    tree = template_of(text_section("head", "${value}"), text_section("tail", "$value"))

    assert tree.render(Text("x")).text == "## 1. Head (head)\n\nx\n\n## 2. Tail (tail)\n\nx"


def test_templates_are_dedented_and_stripped():
    tree = template_of(
        text_section(
            "steps",
            """

            Do this for ${value}:
              - indented item
            - plain item

            """,
        )
    )

    assert tree.render(Text("wink")).text == (
        "## 1. Steps (steps)\n\nDo this for wink:\n  - indented item\n- plain item"
    )


def test_double_dollar_is_a_literal_dollar():
    tree = template_of(text_section("price", "Costs $$5, or $$$value; ${value}$$ too."))

    assert tree.render(Text("7")).text == "## 1. Price (price)\n\nCosts $5, or $7; 7$ too."


@pytest.mark.parametrize(
    "value",
    ["${value}", "$value", "$$", "{0}", "{value}", "}", "{", "{{}}", "%s", "\\n"],
    ids=[
        "braced-placeholder",
        "named-placeholder",
        "double-dollar",
        "format-index",
        "format-name",
        "closing-brace",
        "opening-brace",
        "doubled-braces",
        "percent",
        "backslash",
    ],
)
def test_values_are_data_and_never_substituted_again(value: str):
    tree = template_of(
        text_section("first", "A {0} } literal, then [${value}] and [$value]."),
        text_section("second", "Again: $value"),
    )

    assert tree.render(Text(value)).text == (
        "## 1. First (first)\n"
        "\n"
        f"A {{0}} }} literal, then [{value}] and [{value}].\n"
        "\n"
        "## 2. Second (second)\n"
        "\n"
        f"Again: {value}"
    )


def test_braces_in_titles_and_bodies_without_placeholders_are_kept():
    tree = template_of(
        MarkdownSection(title="Use {braces}", key="braces", template="Write {0}, } and {{x}}.")
    )

    assert tree.render().text == "## 1. Use {braces} (braces)\n\nWrite {0}, } and {{x}}."


def test_non_string_values_are_rendered_with_str():
    @dataclass(frozen=True)
    class Counts:
        total: int
        ratio: float
        tags: tuple[str, ...]

    tree = template_of(
        MarkdownSection[Counts](title="Counts", key="counts", template="$total $ratio $tags")
    )

    assert tree.render(Counts(3, 0.5, ("a", "b"))).text == (
        "## 1. Counts (counts)\n\n3 0.5 ('a', 'b')"
    )


# -- the spec 01 example flow ------------------------------------------------------------------


@dataclass
class TaskParams:
    objective: str


@dataclass
class ContextParams:
    project_name: str


def example_template() -> PromptTemplate[None]:
    return PromptTemplate(
        ns="agents/assistant",
        key="task-executor",
        name="task_executor",
        sections=[
            MarkdownSection[TaskParams](
                title="Task",
                template="Complete the following: ${objective}",
                key="task",
            ),
            MarkdownSection[ContextParams](
                title="Project Context",
                template="""
                Detailed documentation for ${project_name}:
                - Architecture overview
                - API reference
                - Code conventions
                - Historical decisions
                """,
                summary="Documentation for ${project_name} is available.",
                key="context",
                visibility=SectionVisibility.SUMMARY,
            ),
        ],
    )


def test_example_flow_initial_render_summarizes_the_context():
    rendered = example_template().render(
        TaskParams(objective="Refactor the authentication module"),
        ContextParams(project_name="WeakIncentives"),
    )

    assert rendered.text == (
        "## 1. Task (task)\n"
        "\n"
        "Complete the following: Refactor the authentication module\n"
        "\n"
        "## 2. Project Context (context)\n"
        "\n"
        "Documentation for WeakIncentives is available.\n"
        "\n"
        "---\n"
        "[This section is summarized. To view full content, call `read_section` with key "
        '"context".]'
    )
    assert rendered.tool_names == ("read_section",)
    assert rendered.tool_param_descriptions == {
        "read_section": {
            "section_key": ParamHint(
                "Key of the section to read, as shown in its summary. Nested sections use "
                "dot notation (e.g. 'context.examples').",
                "string",
            )
        }
    }


def test_example_flow_retry_with_overrides_shows_the_full_context():
    rendered = example_template().render(
        TaskParams(objective="Refactor the authentication module"),
        ContextParams(project_name="WeakIncentives"),
        visibility_overrides={("context",): SectionVisibility.FULL},
    )

    assert rendered.text == (
        "## 1. Task (task)\n"
        "\n"
        "Complete the following: Refactor the authentication module\n"
        "\n"
        "## 2. Project Context (context)\n"
        "\n"
        "Detailed documentation for WeakIncentives:\n"
        "- Architecture overview\n"
        "- API reference\n"
        "- Code conventions\n"
        "- Historical decisions"
    )
    assert rendered.tools == ()
    assert rendered.tool_param_descriptions == {}


# -- tools -------------------------------------------------------------------------------------


def test_tools_come_in_declaration_order_and_skip_disabled_and_hidden_sections():
    tree = template_of(
        section(
            "outer",
            "Outer.",
            tools=[make_tool("outer_a"), make_tool("outer_b")],
            children=[
                section("inner", "Inner.", tools=[make_tool("inner_a")]),
                section("off", "Off.", enabled=False, tools=[make_tool("off_a")]),
            ],
        ),
        section(
            "folded",
            "Folded.",
            summary="Folded summary.",
            visibility=SUMMARY,
            tools=[make_tool("folded_a")],
            children=[section("hidden", "Hidden.", tools=[make_tool("hidden_a")])],
        ),
        section("last", "Last.", tools=[make_tool("last_a")]),
    )

    rendered = tree.render()

    assert rendered.tool_names == ("outer_a", "outer_b", "inner_a", "last_a", "read_section")
    descriptions = {
        "query": ParamHint("What to look for.", "string"),
        "limit": ParamHint("How many hits at most.", "integer", "10"),
        "verbose": ParamHint("", "boolean", "false"),
    }
    assert rendered.tool_param_descriptions == {
        "outer_a": descriptions,
        "outer_b": descriptions,
        "inner_a": descriptions,
        "last_a": descriptions,
        "read_section": {
            "section_key": ParamHint(
                "Key of the section to read, as shown in its summary. Nested sections use "
                "dot notation (e.g. 'context.examples').",
                "string",
            )
        },
    }


def test_opened_sections_contribute_their_tools_in_declaration_order():
    tree = template_of(
        section("first", "First.", tools=[make_tool("first_a")]),
        section(
            "folded",
            "Folded.",
            summary="Folded summary.",
            visibility=SUMMARY,
            tools=[make_tool("folded_a")],
            children=[section("hidden", "Hidden.", tools=[make_tool("hidden_a")])],
        ),
        section("last", "Last.", tools=[make_tool("last_a")]),
    )

    rendered = tree.render(visibility_overrides={("folded",): FULL})

    assert rendered.tool_names == ("first_a", "folded_a", "hidden_a", "last_a")


# -- params lookup ------------------------------------------------------------------------------


def lookup_template() -> PromptTemplate[None]:
    return template_of(
        text_section("plain", "plain=$value"),
        text_section("own-a", "own-a=$value", default_params=Text("from-a")),
        text_section("own-b", "own-b=$value", default_params=Text("from-b")),
        MarkdownSection[Other](title="Other", key="other", template="other=$value"),
    )


@pytest.mark.parametrize(
    ("bound", "expected"),
    [
        (
            (),
            [
                "plain=from-a",  # the first default registered for the type
                "own-a=from-a",  # the section's own default
                "own-b=from-b",  # its own default beats the first registered one
                "other=other-built",  # nothing declared: the no-argument constructor
            ],
        ),
        (
            (Text("bound"),),
            ["plain=bound", "own-a=bound", "own-b=bound", "other=other-built"],
        ),
        (
            (Text("bound"), Other("other-bound")),
            ["plain=bound", "own-a=bound", "own-b=bound", "other=other-bound"],
        ),
    ],
    ids=["nothing-bound", "text-bound", "both-bound"],
)
def test_params_lookup_order(bound: tuple[object, ...], expected: list[str]):
    rendered = Prompt(lookup_template()).bind(*bound).render()

    headings = ["## 1. Plain (plain)", "## 2. Own-A (own-a)", "## 3. Own-B (own-b)"]
    headings.append("## 4. Other (other)")
    assert rendered.text == "\n\n".join(
        f"{heading}\n\n{body}" for heading, body in zip(headings, expected, strict=True)
    )


def test_first_default_is_first_in_declaration_order_including_children():
    tree = template_of(
        text_section("plain", "plain=$value"),
        section(
            "parent",
            "Parent.",
            children=[text_section("child", "child=$value", default_params=Text("from-child"))],
        ),
        text_section("later", "later=$value", default_params=Text("from-later")),
    )

    assert tree.render().text == (
        "## 1. Plain (plain)\n"
        "\n"
        "plain=from-child\n"
        "\n"
        "## 2. Parent (parent)\n"
        "\n"
        "Parent.\n"
        "\n"
        "### 2.1. Child (parent.child)\n"
        "\n"
        "child=from-child\n"
        "\n"
        "## 3. Later (later)\n"
        "\n"
        "later=from-later"
    )


def test_a_default_built_by_the_constructor_is_built_once_per_render_per_type():
    built: list[str] = []

    def next_stamp() -> str:
        built.append("built")
        return f"#{len(built)}"

    @dataclass(frozen=True)
    class Counted:
        stamp: str = field(default_factory=next_stamp)

    def visible(params: Counted) -> SectionVisibility:
        return FULL if params.stamp else SUMMARY

    def enabled(params: Counted) -> bool:
        return bool(params.stamp)

    tree = template_of(
        MarkdownSection[Counted](
            title="One", key="one", template="one $stamp", visibility=visible, enabled=enabled
        ),
        MarkdownSection[Counted](title="Two", key="two", template="two ${stamp}"),
    )

    first = tree.render()
    assert built == ["built"]
    assert first.text == "## 1. One (one)\n\none #1\n\n## 2. Two (two)\n\ntwo #1"

    second = Prompt(tree).render()
    assert built == ["built", "built"]
    assert second.text == "## 1. One (one)\n\none #2\n\n## 2. Two (two)\n\ntwo #2"


# -- missing required fields ------------------------------------------------------------------


@dataclass(frozen=True)
class Needs:
    first: str
    second: str
    optional: str = "fine"


@dataclass(frozen=True)
class NeedsOne:
    only: str
    optional: int = 0


def test_a_missing_required_field_fails_at_render_with_path_type_and_field():
    tree = template_of(
        section(
            "outer",
            "Outer.",
            children=[MarkdownSection[NeedsOne](title="Inner", key="inner", template="$only")],
        )
    )

    with pytest.raises(PromptRenderError) as excinfo:
        tree.render()

    assert str(excinfo.value) == (
        "Missing required parameter 'only' of NeedsOne for section 'outer.inner': "
        "bind a NeedsOne or give the field a default."
    )
    assert excinfo.value.section_path == ("outer", "inner")
    assert excinfo.value.dataclass_type is NeedsOne
    assert excinfo.value.placeholder == "only"


def test_several_missing_required_fields_are_all_named():
    tree = template_of(MarkdownSection[Needs](title="Form", key="form", template="$optional"))

    with pytest.raises(PromptRenderError) as excinfo:
        tree.render()

    assert str(excinfo.value) == (
        "Missing required parameters 'first', 'second' of Needs for section 'form': "
        "bind a Needs or give the field a default."
    )
    assert excinfo.value.section_path == ("form",)
    assert excinfo.value.dataclass_type is Needs
    assert excinfo.value.placeholder == "first"


def test_required_fields_are_fine_once_bound_or_defaulted():
    tree = template_of(
        MarkdownSection[Needs](title="Form", key="form", template="$first $second $optional"),
        MarkdownSection[NeedsOne](
            title="One", key="one", template="$only $optional", default_params=NeedsOne("dflt")
        ),
    )

    assert tree.render(Needs("a", "b")).text == (
        "## 1. Form (form)\n\na b fine\n\n## 2. One (one)\n\ndflt 0"
    )


# -- Prompt.bind errors -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "message", "dataclass_type"),
    [
        ((3,), "Params must be dataclass instances, got int.", int),
        (
            (Text,),
            "Params must be dataclass instances, got the class Text: bind Text(...) instead.",
            Text,
        ),
        (
            (Text("a"), Text("b")),
            "Two Text instances were bound at once; bind one per type.",
            Text,
        ),
        (
            (Text("a"), Needs("x", "y")),
            "Prompt 'tests/render/prompt' has no section that takes Needs "
            "(its sections take: Other, Text).",
            Needs,
        ),
    ],
    ids=["not-a-dataclass", "class-not-instance", "two-of-a-type", "type-no-section-takes"],
)
def test_bind_errors(params: tuple[object, ...], message: str, dataclass_type: type):
    prompt = Prompt(lookup_template())

    with pytest.raises(PromptValidationError) as excinfo:
        prompt.bind(*params)

    assert str(excinfo.value) == message
    assert excinfo.value.dataclass_type is dataclass_type
    assert prompt.params == {}


def test_bind_to_a_template_without_params_lists_none():
    with pytest.raises(PromptValidationError) as excinfo:
        Prompt(template_of(section("plain", "Plain."))).bind(Text())

    assert str(excinfo.value) == (
        "Prompt 'tests/render/prompt' has no section that takes Text (its sections take: none)."
    )


def test_a_later_bind_replaces_the_value_of_its_type():
    prompt = Prompt(lookup_template()).bind(Text("old"), Other("kept")).bind(Text("new"))

    assert prompt.params == {Text: Text("new"), Other: Other("kept")}
    assert prompt.render().text == (
        "## 1. Plain (plain)\n\nplain=new\n\n"
        "## 2. Own-A (own-a)\n\nown-a=new\n\n"
        "## 3. Own-B (own-b)\n\nown-b=new\n\n"
        "## 4. Other (other)\n\nother=kept"
    )


# -- repeatability and the plan cache -------------------------------------------------------


def test_render_is_repeatable():
    prompt = Prompt(example_template()).bind(TaskParams("Fix it"), ContextParams("Wink"))

    first = prompt.render()
    second = prompt.render()

    assert first == second
    assert first.text == second.text
    assert first.tools == second.tools


def test_cached_plans_do_not_leak_values_between_renders():
    def visible(params: Text) -> SectionVisibility:
        return SUMMARY if params.value.startswith("short") else FULL

    tree = template_of(
        text_section("task", "Task: $value"),
        text_section("notes", "Notes for $value.", summary="About $value.", visibility=visible),
    )
    suffix = (
        "---\n"
        '[This section is summarized. To view full content, call `read_section` with key "notes".]'
    )

    one = Prompt(tree).bind(Text("one")).render()
    two = Prompt(tree).bind(Text("two")).render()
    short_a = Prompt(tree).bind(Text("short-a")).render()
    short_b = Prompt(tree).bind(Text("short-b")).render()
    one_again = Prompt(tree).bind(Text("one")).render()

    assert one.text == "## 1. Task (task)\n\nTask: one\n\n## 2. Notes (notes)\n\nNotes for one."
    assert two.text == "## 1. Task (task)\n\nTask: two\n\n## 2. Notes (notes)\n\nNotes for two."
    assert short_a.text == (
        f"## 1. Task (task)\n\nTask: short-a\n\n## 2. Notes (notes)\n\nAbout short-a.\n\n{suffix}"
    )
    assert short_b.text == (
        f"## 1. Task (task)\n\nTask: short-b\n\n## 2. Notes (notes)\n\nAbout short-b.\n\n{suffix}"
    )
    assert one_again == one
    assert short_a.tool_names == short_b.tool_names == ("read_section",)
    assert one.tool_names == ()
