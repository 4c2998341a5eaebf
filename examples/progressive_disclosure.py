"""A code-review prompt built with the runtime API: render, read a summarized section, re-render.

Run it with ``python3 examples/progressive_disclosure.py``. Until the ``wink-decl`` command
arrives, this is the quickest way to see what a model receives.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from wink_decl import (
    MarkdownSection,
    Prompt,
    PromptTemplate,
    ReadSectionParams,
    SectionVisibility,
    Session,
    SetVisibilityOverride,
    Tool,
    ToolContext,
    ToolExample,
    ToolResult,
    to_openai_tools,
)


@dataclass(frozen=True)
class ReviewParams:
    """What the review is about."""

    language: str
    change: str


@dataclass(frozen=True)
class RuleQuery:
    """Arguments of ``lookup_rule``."""

    rule_id: str = field(metadata={"description": "Rule id such as E501."})


@dataclass(frozen=True)
class Rule:
    """One style rule."""

    rule_id: str
    text: str


RULES = {"E501": "Lines are at most 100 characters.", "D100": "Modules have a docstring."}


def lookup_rule(params: RuleQuery, *, context: ToolContext) -> ToolResult[Rule]:
    """Find a rule by id."""
    del context
    text = RULES.get(params.rule_id)
    if text is None:
        return ToolResult.error(f"No rule '{params.rule_id}'. Known: {', '.join(sorted(RULES))}.")
    return ToolResult.ok(Rule(params.rule_id, text), f"Rule {params.rule_id}.")


LOOKUP_RULE = Tool[RuleQuery, Rule](
    name="lookup_rule",
    description="Look up one style rule by id.",
    handler=lookup_rule,
    examples=[ToolExample("Line length", RuleQuery("E501"), Rule("E501", RULES["E501"]))],
)

TEMPLATE = PromptTemplate(
    ns="agents/review",
    key="code-review",
    name="Code review",
    sections=[
        MarkdownSection[ReviewParams](
            title="Task",
            key="task",
            template="Review the ${language} change below.\n\n${change}",
        ),
        MarkdownSection[ReviewParams](
            title="Reference",
            key="reference",
            visibility=SectionVisibility.SUMMARY,
            summary="Style rules for ${language} are available.",
            template="Cite rules by id; look each one up before citing it.",
            tools=[LOOKUP_RULE],
            children=[
                MarkdownSection(title="Naming", key="naming", template="Use snake_case."),
                MarkdownSection(title="Layout", key="layout", template="Keep functions short."),
            ],
        ),
    ],
)


def main() -> None:
    """Show the three steps of progressive disclosure."""
    session = Session()
    prompt = Prompt(TEMPLATE).bind(ReviewParams(language="Python", change="def f(): pass"))
    first = prompt.render(session=session)
    print(f"{first.text}\n\ntools: {', '.join(first.tool_names)}\n")

    read_section = first.tools[-1]
    assert read_section.handler is not None  # noqa: S101  # built-in tools always have one
    context = ToolContext(prompt=prompt, rendered_prompt=first, adapter=None, session=session)
    result = read_section.handler(ReadSectionParams(section_key="reference"), context=context)
    print("read_section ->", result.message)
    print(f"{result.render()}\n")

    session.dispatch(SetVisibilityOverride(path=("reference",), visibility=SectionVisibility.FULL))
    second = prompt.render(session=session)
    print("after expansion, tools:", ", ".join(second.tool_names))
    print("OpenAI format of the first tool:", to_openai_tools(second.tools)[0])


if __name__ == "__main__":
    main()
