"""Construction-time validation: every rule refuses with PromptValidationError naming the path."""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from wink_decl import (
    MarkdownSection,
    PromptTemplate,
    PromptValidationError,
    Section,
    SectionPath,
    SectionVisibility,
    Tool,
    ToolContext,
    ToolExample,
    ToolResult,
)
from wink_decl.prompt.tool import BuiltinToolHandler

KEY_RULE = "1-64 lowercase letters, digits, '_' or '-', starting with a letter or digit"
DOLLAR_HINT = "write $name or ${name}, and $$ for a literal '$'."
PREDICATE_SHAPES = "(), (params), (*, session) or (params, *, session)"


@dataclass(frozen=True)
class Params:
    name: str = "world"
    count: int = 0


@dataclass(frozen=True)
class Other:
    value: str = ""


@dataclass(frozen=True)
class Result:
    ok: bool = True


def loose(value: object) -> Any:
    """Hand a deliberately wrong value to a typed parameter."""
    return value


def plain(*, title: str = "T", **kwargs: Any) -> MarkdownSection[Any]:
    """A section without a params type (its key is "t" unless given)."""
    return MarkdownSection(title=title, **kwargs)


def template(*sections: Section[Any]) -> PromptTemplate[Any]:
    return PromptTemplate(ns="tests", key="validation", sections=sections)


def section(key: str, *children: Section[Any], **kwargs: Any) -> MarkdownSection[Any]:
    return MarkdownSection(title=key.title(), key=key, children=children, **kwargs)


def tool(name: str, description: str = "Do the thing.") -> Tool[Params, Result]:
    return Tool[Params, Result](name=name, description=description)


def keyword_tool(**kwargs: Any) -> Tool[Any, Any]:
    """``Tool(params_type=...)``, as code that builds its types at run time writes it."""
    return Tool(**kwargs)


def handle(params: Params, *, context: ToolContext) -> ToolResult[Result]:
    return ToolResult.ok(Result(), "done")


def context_not_keyword_only(params: Params, context: ToolContext) -> None:
    return None


class BuiltinReadSection(BuiltinToolHandler):
    def __call__(self, params: Params, *, context: ToolContext) -> ToolResult[Result]:
        return ToolResult.ok(Result(), "read")


@dataclass(frozen=True)
class Refused:
    """One declaration that must fail, the whole message, and the error's context fields."""

    case_id: str
    build: Callable[[], object]
    message: str
    section_path: SectionPath = ()
    placeholder: str | None = None
    dataclass_type: type | None = None


def check_refused(case: Refused) -> None:
    with pytest.raises(PromptValidationError) as excinfo:
        case.build()
    error = excinfo.value
    assert type(error) is PromptValidationError
    assert str(error) == case.message
    assert error.section_path == case.section_path
    assert error.placeholder == case.placeholder
    assert error.dataclass_type is case.dataclass_type


# --- keys: sections, prompt key, namespace ---------------------------------------------------

KEYS = [
    Refused(
        "space-in-key",
        lambda: plain(key="Bad Key"),
        f"Section key 'Bad Key' is invalid: use {KEY_RULE}.",
        section_path=("bad key",),
    ),
    Refused(
        "dot-in-key",
        lambda: plain(key="intro.part"),
        "Section key 'intro.part' contains '.', which separates section paths; use '-' or '_'.",
        section_path=("intro.part",),
    ),
    Refused(
        "empty-key",
        lambda: plain(key=""),
        f"Section key '' is invalid: use {KEY_RULE}.",
        section_path=("",),
    ),
    Refused(
        "leading-hyphen",
        lambda: plain(key="-intro"),
        f"Section key '-intro' is invalid: use {KEY_RULE}.",
        section_path=("-intro",),
    ),
    Refused(
        "leading-underscore",
        lambda: plain(key="_intro"),
        f"Section key '_intro' is invalid: use {KEY_RULE}.",
        section_path=("_intro",),
    ),
    Refused(
        "65-chars",
        lambda: plain(key="k" * 65),
        f"Section key '{'k' * 65}' is invalid: use {KEY_RULE}.",
        section_path=("k" * 65,),
    ),
    Refused(
        "trailing-newline",
        lambda: plain(key="intro\n"),
        f"Section key 'intro\n' is invalid: use {KEY_RULE}.",
        section_path=("intro\n",),
    ),
    Refused(
        "non-ascii",
        lambda: plain(key="caf\u00e9"),
        f"Section key 'caf\u00e9' is invalid: use {KEY_RULE}.",
        section_path=("caf\u00e9",),
    ),
    Refused(
        "title-gives-no-key",
        lambda: plain(title="!!!"),
        "Section title '!!!' gives no usable key: pass key= explicitly.",
    ),
    Refused(
        "empty-title",
        lambda: plain(title="  "),
        "Section title '  ' is invalid: give one non-empty line of text.",
    ),
    Refused(
        "two-line-title",
        lambda: plain(title="One\nTwo"),
        "Section title 'One\\nTwo' is invalid: give one non-empty line of text.",
    ),
    Refused(
        "prompt-key-dot",
        lambda: PromptTemplate(ns="tests", key="review.v2"),
        "Prompt key 'review.v2' contains '.', which separates section paths; use '-' or '_'.",
        section_path=("review.v2",),
    ),
    Refused(
        "prompt-key-invalid",
        lambda: PromptTemplate(ns="tests", key="Review!"),
        f"Prompt key 'Review!' is invalid: use {KEY_RULE}.",
        section_path=("review!",),
    ),
    Refused(
        "ns-empty",
        lambda: PromptTemplate(ns="", key="review"),
        "Prompt ns must be a non-empty string such as 'agents/review'.",
    ),
    Refused(
        "ns-empty-segment",
        lambda: PromptTemplate(ns="agents//review", key="review"),
        f"Prompt ns 'agents//review' has an invalid segment '': each segment needs {KEY_RULE}.",
    ),
    Refused(
        "ns-trailing-slash",
        lambda: PromptTemplate(ns="agents/", key="review"),
        f"Prompt ns 'agents/' has an invalid segment '': each segment needs {KEY_RULE}.",
    ),
    Refused(
        "ns-dot",
        lambda: PromptTemplate(ns="agents.v2", key="review"),
        f"Prompt ns 'agents.v2' has an invalid segment 'agents.v2': each segment needs {KEY_RULE}.",
    ),
    Refused(
        "ns-trailing-newline",
        lambda: PromptTemplate(ns="agents\n", key="review"),
        f"Prompt ns 'agents\n' has an invalid segment 'agents\n': each segment needs {KEY_RULE}.",
    ),
    Refused(
        "duplicate-top-level",
        lambda: template(section("intro"), section("intro")),
        "Duplicate section key 'intro': sibling keys must be unique.",
        section_path=("intro",),
    ),
    Refused(
        "duplicate-after-lowering",
        lambda: template(section("intro"), plain(title="Other", key="INTRO")),
        "Duplicate section key 'intro': sibling keys must be unique.",
        section_path=("intro",),
    ),
    Refused(
        "duplicate-derived-from-titles",
        lambda: template(plain(title="Project Context"), plain(title="project context")),
        "Duplicate section key 'project-context': sibling keys must be unique.",
        section_path=("project-context",),
    ),
    Refused(
        "duplicate-nested",
        lambda: template(section("guide", section("step"), section("step"))),
        "Duplicate section key 'guide.step': sibling keys must be unique.",
        section_path=("guide", "step"),
    ),
    Refused(
        "not-a-section",
        lambda: template(section("guide"), loose("text")),
        "Expected a Section at the top level, got str.",
    ),
]


@pytest.mark.parametrize("case", KEYS, ids=[case.case_id for case in KEYS])
def test_key_rules(case: Refused) -> None:
    check_refused(case)


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("k" * 64, "k" * 64),
        ("Intro", "intro"),
        ("MIXED_Case-2", "mixed_case-2"),
        ("0start", "0start"),
        ("a", "a"),
    ],
    ids=["64-chars", "upper-lowered", "mixed-lowered", "digit-first", "one-char"],
)
def test_valid_section_keys(given: str, expected: str) -> None:
    assert plain(key=given).key == expected


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("Project Context", "project-context"),
        ("  Step 2: Review!  ", "step-2-review"),
        ("snake_case title", "snake_case-title"),
        ("x" * 70, "x" * 64),
        ("a" * 63 + " b", "a" * 63),
    ],
    ids=["words", "punctuation", "underscore-kept", "truncated-to-64", "no-trailing-hyphen"],
)
def test_key_is_derived_from_title(title: str, expected: str) -> None:
    assert plain(title=title).key == expected


def test_same_key_under_different_parents_is_allowed() -> None:
    built = template(section("a", section("notes")), section("b", section("notes")))
    assert [node.path for node in built.nodes] == [("a",), ("a", "notes"), ("b",), ("b", "notes")]


@pytest.mark.parametrize(
    ("ns", "key", "label"),
    [
        ("agents", "review", "agents/review"),
        ("Agents/Code-Review/V2", "Review_Full", "agents/code-review/v2/review_full"),
        ("a" * 64, "k" * 64, f"{'a' * 64}/{'k' * 64}"),
    ],
    ids=["one-segment", "segments-lowered", "64-char-segment-and-key"],
)
def test_valid_ns_and_prompt_key(ns: str, key: str, label: str) -> None:
    assert PromptTemplate(ns=ns, key=key).label == label


# --- tools: names, descriptions, types, examples, handlers, uniqueness -------------------------

TOOLS = [
    Refused(
        "name-upper-case",
        lambda: tool("Lookup"),
        "Tool name 'Lookup' is invalid: use 1-64 lowercase letters, digits, '_' or '-'.",
    ),
    Refused(
        "name-empty",
        lambda: tool(""),
        "Tool name '' is invalid: use 1-64 lowercase letters, digits, '_' or '-'.",
    ),
    Refused(
        "name-65-chars",
        lambda: tool("t" * 65),
        f"Tool name '{'t' * 65}' is invalid: use 1-64 lowercase letters, digits, '_' or '-'.",
    ),
    Refused(
        "name-dot",
        lambda: tool("files.read"),
        "Tool name 'files.read' is invalid: use 1-64 lowercase letters, digits, '_' or '-'.",
    ),
    Refused(
        "name-trailing-newline",
        lambda: tool("lookup\n"),
        "Tool name 'lookup\n' is invalid: use 1-64 lowercase letters, digits, '_' or '-'.",
    ),
    Refused(
        "name-reserved",
        lambda: tool("read_section"),
        "Tool name 'read_section' is reserved by wink-decl: choose another name.",
    ),
    Refused(
        "description-blank",
        lambda: tool("lookup", " \n\t "),
        "Tool 'lookup' description must be 1-200 characters after stripping; it has 0.",
    ),
    Refused(
        "description-201-chars",
        lambda: tool("lookup", "d" * 201),
        "Tool 'lookup' description must be 1-200 characters after stripping; it has 201.",
    ),
    Refused(
        "description-non-ascii",
        lambda: tool("lookup", "Look up a caf\u00e9."),
        "Tool 'lookup' description must be ASCII; it contains '\u00e9'.",
    ),
    Refused(
        "params-type-conflict",
        lambda: Tool[Params, Result](name="lookup", description="d", params_type=loose(Other)),
        "Tool 'lookup' declares params type Params in Tool[...] but params_type=Other: give one.",
    ),
    Refused(
        "result-type-conflict",
        lambda: Tool[Params, Result](name="lookup", description="d", result_type=loose(Other)),
        "Tool 'lookup' declares result type Result in Tool[...] but result_type=Other: give one.",
    ),
    Refused(
        "params-type-missing",
        lambda: Tool(name="lookup", description="d", result_type=Result),
        "Tool 'lookup' has no params type: write Tool[Params, Result](...) or pass params_type= "
        "(Tool[None, Result] for a tool that takes no arguments).",
    ),
    Refused(
        "params-type-not-dataclass",
        lambda: keyword_tool(name="lookup", description="d", params_type=dict),
        "Tool 'lookup' params type must be a dataclass, got dict.",
        dataclass_type=dict,
    ),
    Refused(
        "result-type-not-dataclass",
        lambda: Tool[Params, str](name="lookup", description="d"),
        "Tool 'lookup' result type must be a dataclass, got str.",
        dataclass_type=str,
    ),
    Refused(
        "example-input-type",
        lambda: Tool[Params, Result](
            name="lookup",
            description="d",
            examples=[ToolExample("wrong input", loose(Other()), Result())],
        ),
        "Tool 'lookup' example 1: input must be a Params, got Other.",
        dataclass_type=Params,
    ),
    Refused(
        "example-output-type",
        lambda: Tool[Params, Result](
            name="lookup",
            description="d",
            examples=[
                ToolExample("fine", Params(), Result()),
                ToolExample("wrong output", Params(), loose(Other())),
            ],
        ),
        "Tool 'lookup' example 2: output must be a Result, got Other.",
        dataclass_type=Result,
    ),
    Refused(
        "handler-signature",
        lambda: Tool[Params, Result](
            name="lookup", description="d", handler=loose(context_not_keyword_only)
        ),
        "Tool 'lookup' handler must have the signature (params, *, context); "
        "context_not_keyword_only has (params: 'Params', context: 'ToolContext') -> 'None'.",
    ),
    Refused(
        "duplicate-in-one-section",
        lambda: template(section("tools", tools=[tool("lookup"), tool("lookup")])),
        "Duplicate tool name 'lookup' twice in section 'tools': "
        "tool names must be unique across the prompt.",
        section_path=("tools",),
    ),
    Refused(
        "duplicate-across-sections",
        lambda: template(
            section("a", tools=[tool("lookup")]),
            section("b", section("c", tools=[tool("lookup")])),
        ),
        "Duplicate tool name 'lookup' in sections 'a' and 'b.c': "
        "tool names must be unique across the prompt.",
        section_path=("b", "c"),
    ),
    Refused(
        "duplicate-in-disabled-section",
        lambda: template(
            section("a", tools=[tool("lookup")]),
            section("b", enabled=False, tools=[tool("lookup")]),
        ),
        "Duplicate tool name 'lookup' in sections 'a' and 'b': "
        "tool names must be unique across the prompt.",
        section_path=("b",),
    ),
    Refused(
        "duplicate-under-dynamic-disabled-parent",
        lambda: template(
            section("a", tools=[tool("lookup")]),
            section("b", section("c", tools=[tool("lookup")]), enabled=lambda: False),
        ),
        "Duplicate tool name 'lookup' in sections 'a' and 'b.c': "
        "tool names must be unique across the prompt.",
        section_path=("b", "c"),
    ),
    Refused(
        "reserved-name-in-section",
        lambda: template(
            section(
                "a",
                section(
                    "b",
                    tools=[
                        Tool[Params, Result](
                            name="read_section", description="d", handler=BuiltinReadSection()
                        )
                    ],
                ),
            )
        ),
        "Tool name 'read_section' in section 'a.b' is reserved by wink-decl.",
        section_path=("a", "b"),
    ),
    Refused(
        "not-a-tool",
        lambda: section("a", tools=[loose("lookup")]),
        "Section 'a' was given a tool of type str; expected Tool.",
        section_path=("a",),
    ),
]


@pytest.mark.parametrize("case", TOOLS, ids=[case.case_id for case in TOOLS])
def test_tool_rules(case: Refused) -> None:
    check_refused(case)


def test_valid_tool_boundaries() -> None:
    name = "a-z_0" + "9" * 59
    description = "d" * 200
    long_tool = Tool[Params, Result](name=name, description=f"  {description}\n")
    assert (long_tool.name, long_tool.description) == (name, description)
    short = Tool[Params, Result](name="x", description="y", handler=handle)
    built = template(section("a", tools=[long_tool]), section("b", enabled=False, tools=[short]))
    assert built.all_tools() == (long_tool, short)


# --- placeholders, stray '$', summaries ------------------------------------------------------

PLACEHOLDERS = [
    Refused(
        "template-without-params-type",
        lambda: plain(template="Hello $name"),
        "Placeholder 'name' in the template of section 't' needs a params type: "
        "write MarkdownSection[YourParams](...).",
        section_path=("t",),
        placeholder="name",
    ),
    Refused(
        "summary-without-params-type",
        lambda: plain(summary="About ${name}"),
        "Placeholder 'name' in the summary of section 't' needs a params type: "
        "write MarkdownSection[YourParams](...).",
        section_path=("t",),
        placeholder="name",
    ),
    Refused(
        "suffix-without-params-type",
        lambda: plain(summary="s", summary_suffix="Open $section_key, $count left."),
        "Placeholder 'count' in the summary suffix of section 't' needs a params type: "
        "write MarkdownSection[YourParams](...).",
        section_path=("t",),
        placeholder="count",
    ),
    Refused(
        "template-typo",
        lambda: MarkdownSection[Params](title="T", key="t", template="Hello $nmae"),
        "Placeholder 'nmae' in the template of section 't' is not a field of Params. "
        "Did you mean 'name'?",
        section_path=("t",),
        placeholder="nmae",
        dataclass_type=Params,
    ),
    Refused(
        "template-unknown",
        lambda: MarkdownSection[Params](title="T", key="t", template="Hello ${zzz}"),
        "Placeholder 'zzz' in the template of section 't' is not a field of Params.",
        section_path=("t",),
        placeholder="zzz",
        dataclass_type=Params,
    ),
    Refused(
        "summary-typo",
        lambda: MarkdownSection[Params](title="T", key="t", summary="About ${nam}"),
        "Placeholder 'nam' in the summary of section 't' is not a field of Params. "
        "Did you mean 'name'?",
        section_path=("t",),
        placeholder="nam",
        dataclass_type=Params,
    ),
    Refused(
        "suffix-typo",
        lambda: MarkdownSection[Params](
            title="T", key="t", summary="s", summary_suffix="${section_key}: $cout left"
        ),
        "Placeholder 'cout' in the summary suffix of section 't' is not a field of Params. "
        "Did you mean 'count'?",
        section_path=("t",),
        placeholder="cout",
        dataclass_type=Params,
    ),
    Refused(
        "section-key-reserved-only-in-suffix",
        lambda: MarkdownSection[Params](title="T", key="t", template="In ${section_key}"),
        "Placeholder 'section_key' in the template of section 't' is not a field of Params.",
        section_path=("t",),
        placeholder="section_key",
        dataclass_type=Params,
    ),
    Refused(
        "stray-dollar-before-digit",
        lambda: plain(template="It costs $5."),
        f"Invalid placeholder in the template of section 't' at line 1, column 10: {DOLLAR_HINT}",
        section_path=("t",),
    ),
    Refused(
        "stray-dollar-at-end",
        lambda: plain(template="Pay $"),
        f"Invalid placeholder in the template of section 't' at line 1, column 5: {DOLLAR_HINT}",
        section_path=("t",),
    ),
    Refused(
        "unclosed-brace",
        lambda: plain(template="a ${name"),
        f"Invalid placeholder in the template of section 't' at line 1, column 3: {DOLLAR_HINT}",
        section_path=("t",),
    ),
    Refused(
        "stray-dollar-dedented-line-2",
        lambda: plain(template="\n    First line.\n    Costs $ 5.\n    "),
        f"Invalid placeholder in the template of section 't' at line 2, column 7: {DOLLAR_HINT}",
        section_path=("t",),
    ),
    Refused(
        "stray-dollar-in-summary",
        lambda: plain(summary="Short.\n50$ off"),
        f"Invalid placeholder in the summary of section 't' at line 2, column 3: {DOLLAR_HINT}",
        section_path=("t",),
    ),
    Refused(
        "stray-dollar-in-suffix",
        lambda: plain(summary="s", summary_suffix="$-"),
        "Invalid placeholder in the summary suffix of section 't' at line 1, column 1: "
        f"{DOLLAR_HINT}",
        section_path=("t",),
    ),
    Refused(
        "template-not-a-string",
        lambda: plain(template=loose(3)),
        "The template of section 't' must be a string, got int.",
        section_path=("t",),
    ),
    Refused(
        "summary-visibility-without-summary",
        lambda: plain(visibility=SectionVisibility.SUMMARY),
        "Section 't' is summarized but has no summary: add summary=.",
        section_path=("t",),
    ),
    Refused(
        "empty-summary",
        lambda: plain(summary="  \n  "),
        "Section 't' has an empty summary: write one or leave it out.",
        section_path=("t",),
    ),
]


@pytest.mark.parametrize("case", PLACEHOLDERS, ids=[case.case_id for case in PLACEHOLDERS])
def test_placeholder_and_summary_rules(case: Refused) -> None:
    check_refused(case)


def test_valid_placeholders() -> None:
    with_params = MarkdownSection[Params](
        title="T",
        key="t",
        template="Hello $name, ${count} left; costs $$5.",
        summary="About $name.",
        summary_suffix="Read ${section_key} for $count more.",
        visibility=SectionVisibility.SUMMARY,
    )
    assert with_params.compiled_body.placeholders == {"name", "count"}
    bare = plain(template="Costs $$5.", summary="s", summary_suffix="${section_key}")
    assert (bare.compiled_body.pieces, bare.compiled_suffix is not None) == (("Costs $5.",), True)


# --- enabled / visibility callables, default_params, params type -----------------------------


def two_positional(params: Params, other: object) -> bool:
    return True


def star_args(*args: object) -> bool:
    return True


def wrong_keyword(*, sess: object) -> bool:
    return True


def extra_keyword(params: Params, *, session: object, other: object) -> bool:
    return True


def var_keyword(**kwargs: object) -> bool:
    return True


def params_only(params: Params) -> bool:
    return params.count > 0


def params_visibility(params: Params, *, session: object) -> SectionVisibility:
    return SectionVisibility.SUMMARY if params.count else SectionVisibility.FULL


PREDICATES = [
    Refused(
        "enabled-two-positional",
        lambda: MarkdownSection[Params](title="T", key="t", enabled=two_positional),
        "The enabled callable of section 't' must take "
        f"{PREDICATE_SHAPES}; it takes (params: 'Params', "
        "other: 'object') -> 'bool'.",
        section_path=("t",),
    ),
    Refused(
        "enabled-star-args",
        lambda: plain(enabled=star_args),
        f"The enabled callable of section 't' must take {PREDICATE_SHAPES}; "
        "it takes (*args: 'object') -> 'bool'.",
        section_path=("t",),
    ),
    Refused(
        "visibility-wrong-keyword",
        lambda: plain(visibility=loose(wrong_keyword)),
        f"The visibility callable of section 't' must take {PREDICATE_SHAPES}; "
        "it takes (*, sess: 'object') -> 'bool'.",
        section_path=("t",),
    ),
    Refused(
        "visibility-extra-keyword",
        lambda: MarkdownSection[Params](title="T", key="t", visibility=loose(extra_keyword)),
        f"The visibility callable of section 't' must take {PREDICATE_SHAPES}; it takes "
        "(params: 'Params', *, session: 'object', other: 'object') -> 'bool'.",
        section_path=("t",),
    ),
    Refused(
        "enabled-var-keyword",
        lambda: plain(enabled=var_keyword),
        f"The enabled callable of section 't' must take {PREDICATE_SHAPES}; "
        "it takes (**kwargs: 'object') -> 'bool'.",
        section_path=("t",),
    ),
    Refused(
        "enabled-params-without-params-type",
        lambda: plain(enabled=params_only),
        "The enabled callable of section 't' takes params, but the section declares no "
        "params type: write MarkdownSection[YourParams](...).",
        section_path=("t",),
    ),
    Refused(
        "visibility-params-without-params-type",
        lambda: plain(
            summary="s",
            visibility=params_visibility,
        ),
        "The visibility callable of section 't' takes params, but the section declares no "
        "params type: write MarkdownSection[YourParams](...).",
        section_path=("t",),
    ),
    Refused(
        "enabled-builtin",
        lambda: MarkdownSection[Params](title="T", key="t", enabled=bool),
        f"The enabled callable of section 't' is the builtin 'bool'; wrap it in a Python "
        f"function that takes {PREDICATE_SHAPES}.",
        section_path=("t",),
    ),
    Refused(
        "visibility-builtin-in-a-partial",
        lambda: plain(visibility=functools.partial(getattr, SectionVisibility, "FULL")),
        f"The visibility callable of section 't' is the builtin 'getattr'; wrap it in a Python "
        f"function that takes {PREDICATE_SHAPES}.",
        section_path=("t",),
    ),
    Refused(
        "enabled-builtin-object",
        lambda: MarkdownSection[Params](title="T", key="t", enabled=operator.attrgetter("count")),
        f"The enabled callable of section 't' is the builtin 'attrgetter'; wrap it in a Python "
        f"function that takes {PREDICATE_SHAPES}.",
        section_path=("t",),
    ),
    Refused(
        "enabled-not-bool",
        lambda: plain(enabled=loose("yes")),
        "The enabled of section 't' must be a bool or a callable, got str.",
        section_path=("t",),
    ),
    Refused(
        "visibility-not-enum",
        lambda: plain(visibility=loose("full")),
        "The visibility of section 't' must be a SectionVisibility or a callable, got str.",
        section_path=("t",),
    ),
    Refused(
        "default-params-wrong-type",
        lambda: MarkdownSection[Params](title="T", key="t", default_params=loose(Other())),
        "default_params of section 't' must be a Params, got Other.",
        section_path=("t",),
        dataclass_type=Params,
    ),
    Refused(
        "default-params-without-params-type",
        lambda: plain(default_params=Params()),
        "Section 't' declares no params type, so it takes no default_params; got Params. "
        "Write MarkdownSection[YourParams](...).",
        section_path=("t",),
    ),
    Refused(
        "params-type-not-dataclass",
        lambda: MarkdownSection[int](title="T", key="t"),
        "Section 't' params type must be a dataclass, got <class 'int'>.",
        section_path=("t",),
    ),
]


@pytest.mark.parametrize("case", PREDICATES, ids=[case.case_id for case in PREDICATES])
def test_predicate_and_params_rules(case: Refused) -> None:
    check_refused(case)


def no_arguments() -> bool:
    return True


def session_only(*, session: object) -> bool:
    return session is not None


def params_and_session(params: Params, /, *, session: object = None) -> bool:
    return True


@pytest.mark.parametrize(
    ("function", "takes"),
    [
        (no_arguments, (False, False)),
        (params_only, (True, False)),
        (session_only, (False, True)),
        (params_and_session, (True, True)),
    ],
    ids=["()", "(params)", "(*, session)", "(params, /, *, session=None)"],
)
def test_accepted_predicate_shapes(function: Callable[..., bool], takes: tuple[bool, bool]) -> None:
    built = MarkdownSection[Params](
        title="T",
        key="t",
        summary="s",
        enabled=function,
        visibility=lambda: SectionVisibility.SUMMARY,
    )
    predicate = built.enabled_predicate
    assert predicate is not None
    assert (predicate.takes_params, predicate.takes_session) == takes
    visibility = built.visibility_predicate
    assert visibility is not None
    assert (visibility.takes_params, visibility.takes_session) == (False, False)


def test_session_only_predicate_needs_no_params_type() -> None:
    built = plain(enabled=session_only)
    predicate = built.enabled_predicate
    assert predicate is not None
    assert (predicate.takes_params, predicate.takes_session) == (False, True)


def test_default_params_of_the_section_type_is_kept() -> None:
    default = Params(name="x")
    assert MarkdownSection[Params](title="T", default_params=default).default_params is default


def test_summary_visibility_with_summary_is_allowed() -> None:
    built = plain(title="T", summary="Short.", visibility=SectionVisibility.SUMMARY)
    assert built.visibility is SectionVisibility.SUMMARY
