"""Fast paths in the runtime give exactly what the general paths give."""

from __future__ import annotations

import dataclasses
import functools
import inspect
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wink_decl import (
    MarkdownSection,
    Prompt,
    PromptTemplate,
    PromptValidationError,
    RenderedPrompt,
    Section,
    SectionVisibility,
    WinkDeclError,
)
from wink_decl.compiler import compile_file
from wink_decl.prompt._predicates import code_shape, signature_shape
from wink_decl.prompt._tree import Node
from wink_decl.prompt.read_section import (
    READ_SECTION_DESCRIPTION,
    ReadSectionParams,
    ReadSectionResult,
)
from wink_decl.prompt.text_template import (
    CompiledText,
    Slot,
    _braced_only,  # pyright: ignore[reportPrivateUsage]
    _pattern_split,  # pyright: ignore[reportPrivateUsage]
    compile_text,
    compiled_or_none,
)
from wink_decl.prompt.tool import Tool


def _none() -> bool:
    return True


def _params(params: object) -> bool:
    return bool(params)


def _session(*, session: object) -> bool:
    return bool(session)


def _both(params: object, *, session: object) -> bool:
    return bool(params) and bool(session)


def _defaults(params: object = None, *, session: object = None) -> bool:
    return params is session


def _positional_only(params: object, /) -> bool:
    return bool(params)


def _two(a: object, b: object) -> bool:
    return a is b


def _star(*args: object) -> bool:
    return bool(args)


def _star_star(**kwargs: object) -> bool:
    return bool(kwargs)


def _keyword(*, other: object, session: object) -> bool:
    return other is session


def _locals(params: object) -> bool:
    inner = [params]  # locals come after the parameters in co_varnames
    return bool(inner)


SHAPES: list[Callable[..., Any]] = [
    _none,
    _params,
    _session,
    _both,
    _defaults,
    _positional_only,
    _two,
    _star,
    _star_star,
    _keyword,
    _locals,
    lambda p, *, session: (p, session),  # pyright: ignore[reportUnknownLambdaType]
]


@pytest.mark.parametrize("function", SHAPES, ids=lambda f: f.__name__)
def test_a_plain_function_has_the_shape_inspect_finds(function: Callable[..., Any]) -> None:
    assert code_shape(function) == signature_shape(inspect.signature(function))


@functools.wraps(_params)
def _wrapped(params: object, other: object) -> bool:
    return params is other


def _with_attribute(params: object) -> bool:
    return bool(params)


_with_attribute.note = "set"  # type: ignore[attr-defined]  # pyright: ignore[reportFunctionMemberAccess]


class _Class:
    def __call__(self, params: object) -> bool:
        return bool(params)


@pytest.mark.parametrize(
    "function",
    [_wrapped, _with_attribute, functools.partial(_two, 1), len, _Class, _Class()],
    ids=["wrapped", "attribute", "partial", "builtin", "class", "instance"],
)
def test_anything_but_a_plain_function_is_left_to_inspect(function: object) -> None:
    assert code_shape(function) is None


def test_a_node_cannot_be_changed() -> None:
    node = _a_node()
    with pytest.raises(AttributeError):
        node.index = 1  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]
    assert (node.index, node.path, node.number, node.heading) == (0, ("t",), "1", "## 1. T (t)")


def test_each_templates_read_section_tool_is_the_checked_one_with_its_own_handler() -> None:
    def summarized(key: str) -> PromptTemplate[None]:
        section = MarkdownSection(
            title="T", key="t", template="x", summary="s", visibility=SectionVisibility.SUMMARY
        )
        return PromptTemplate(ns="t", key=key, sections=[section])

    engines = [summarized("a").engine, summarized("b").engine]
    tools = [engine.read_section_tool for engine in engines]
    handlers = [None if tool is None else tool.handler for tool in tools]
    built = Tool[ReadSectionParams, ReadSectionResult](
        name="read_section",
        description=READ_SECTION_DESCRIPTION,
        handler=handlers[0],
        accepts_overrides=False,
    )
    assert repr(tools[0]) == repr(built)
    assert [getattr(handler, "_engine", None) for handler in handlers] == engines


def _a_node() -> Node:
    template = PromptTemplate(
        ns="t",
        key="t",
        sections=[MarkdownSection(title="T", key="t", template="x", enabled=lambda: True)],
    )
    return template.nodes[0]


@dataclasses.dataclass(frozen=True)
class _Params:
    language: str = "Python"
    strict: bool = False


def _summarize_when_strict(params: _Params, *, session: object) -> SectionVisibility:
    del session
    return SectionVisibility.SUMMARY if params.strict else SectionVisibility.FULL


_CHILD = MarkdownSection[_Params](title="Child", key="child", template="Use ${language}.")

SECTIONS: list[dict[str, Any]] = [
    {"title": "Task", "key": "task", "template": "Review the ${language} change."},
    {
        "title": "Reference",
        "key": "reference",
        "template": "Rules.",
        "summary": "Rules for ${language}.",
        "summary_suffix": "Open ${section_key}.",
        "visibility": SectionVisibility.SUMMARY,
        "children": [_CHILD],
    },
    {
        "title": "  Padded title  ",
        "key": "Mixed-Case",
        "template": "",
        "summary": "Short.",
        "visibility": _summarize_when_strict,
        "enabled": lambda params: params.strict,  # pyright: ignore[reportUnknownLambdaType, reportUnknownMemberType]
        "accepts_overrides": False,
    },
]


@pytest.mark.parametrize("arguments", SECTIONS, ids=["plain", "summarized", "callables"])
def test_the_compilers_section_path_builds_what_the_constructor_builds(
    arguments: dict[str, Any],
) -> None:
    given: dict[str, Any] = {
        "summary": None,
        "summary_suffix": None,
        "visibility": SectionVisibility.FULL,
        "enabled": True,
        "children": [],
        "tools": [],
        "policies": [],
        "accepts_overrides": True,
        **arguments,
    }
    cls = MarkdownSection[_Params]
    public = cls(**given)
    compiled = cls.prechecked(**given)
    assert type(compiled) is type(public)
    assert _state(compiled) == _state(public)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"title": " "}, "Section title ' ' is invalid: give one non-empty line of text."),
        ({"key": "a.b"}, "Section key 'a.b' contains '.', which separates section paths"),
        ({"summary": "  "}, "Section 't' has an empty summary: write one or leave it out."),
        ({"summary": 5}, "The summary of section 't' must be a string, got int."),
        (
            {"visibility": SectionVisibility.SUMMARY},
            "Section 't' is summarized but has no summary: add summary=.",
        ),
        ({"template": "$"}, "Invalid placeholder in the template of section 't'"),
    ],
    ids=["title", "key", "empty-summary", "summary-type", "summary-missing", "stray-dollar"],
)
def test_the_compilers_section_path_refuses_what_the_constructor_refuses(
    arguments: dict[str, Any], message: str
) -> None:
    given: dict[str, Any] = {
        "title": "T",
        "key": "t",
        "template": "",
        "summary": None,
        "summary_suffix": None,
        "visibility": SectionVisibility.FULL,
        "enabled": True,
        "children": [],
        "tools": [],
        "policies": [],
        "accepts_overrides": True,
        **arguments,
    }
    with pytest.raises(PromptValidationError) as public:
        MarkdownSection(**given)
    with pytest.raises(PromptValidationError) as compiled:
        MarkdownSection.prechecked(**given)
    assert str(compiled.value) == str(public.value)
    assert str(public.value).startswith(message)


def test_compiled_sections_equal_sections_built_in_code(tmp_path: Path) -> None:
    source = tmp_path / "review.wink.yaml"
    source.write_text(
        "key: review\n"
        "params:\n"
        "  language: {type: string}\n"
        "  strict: {type: boolean, default: false}\n"
        "sections:\n"
        "  - {key: task, title: Task, template: 'Review the ${language} change.'}\n"
        "  - key: reference\n"
        "    title: Reference\n"
        "    visibility: {summary_when: {param: strict}}\n"
        "    summary: Rules for ${language}.\n"
        "    summary_suffix: Open ${section_key}.\n"
        "    template: Rules.\n"
        "    children:\n"
        "      - {title: Errors, enabled: {not: {param: strict}}, template: Narrow.}\n"
    )
    prompt = compile_file(source).prompt
    assert prompt is not None
    for node in prompt.template.nodes:
        section = node.section
        assert type(section) is MarkdownSection  # no class is made per declaration
        rebuilt: MarkdownSection[Any] = MarkdownSection(
            title=section.title,
            key=section.key,
            template=section.template,
            summary=None if section.summary is None else _text(section.summary),
            summary_suffix=None if section.compiled_suffix is None else "Open ${section_key}.",
            visibility=section.visibility,
            enabled=section.enabled,
            children=section.children,
            tools=section.tools(),
            policies=section.policies,
            accepts_overrides=section.accepts_overrides,
            params_type=section.params_type,
        )
        assert _state(rebuilt) == _state(section)


def _state(section: Section[Any]) -> dict[str, object]:
    """Everything a section holds: its slots (``prompt/section.py``) and its instance dict."""
    slots = {name: getattr(section, name) for name in Section.__slots__ if name != "__weakref__"}
    return {**slots, **vars(section)}


def _text(compiled: CompiledText) -> str:
    return "".join(p if isinstance(p, str) else "${" + p.name + "}" for p in compiled.pieces)


@settings(deadline=None)  # a busy 2-core CI machine under coverage is not what this measures
@given(
    st.text(alphabet=st.sampled_from(" \t\r\x0b\x0c\u2028\u3000a$"), max_size=12)
    | st.text(max_size=40)
)
def test_a_text_of_one_line_needs_no_dedent(text: str) -> None:
    # compile_text strips a text of one line without textwrap.dedent, which gives the same.
    one_line = text.replace("\n", " ")
    assert one_line.strip() == textwrap.dedent(one_line).strip()


def test_texts_of_one_line_and_of_several_are_dedented_and_stripped() -> None:
    assert compile_text(" \t Review $topic. \t", where="text").pieces == (
        "Review ",
        Slot("topic"),
        ".",
    )
    several = compile_text("\n    Review\n      $topic.\n  ", where="text")
    assert several.pieces == ("Review\n  ", Slot("topic"), ".")


def _scanned(text: str) -> CompiledText:
    """``text`` compiled by the scan alone: a '$$' escape added, then taken out again."""
    compiled = compile_text(f"$${text}", where="text")
    first, *rest = compiled.pieces
    assert isinstance(first, str)
    assert first.startswith("$")
    head = first[1:]
    return CompiledText((head, *rest) if head else tuple(rest), compiled.placeholders)


@settings(deadline=None)  # as above
@given(st.text(alphabet=st.sampled_from(" \n\tab{}"), max_size=20) | st.text(max_size=40))
def test_a_text_without_a_dollar_compiles_as_the_scan_would(text: str) -> None:
    # A text with no '$' is one literal run, found without the placeholder scan.
    source = textwrap.dedent(text).strip() if "\n" in text else text.strip()
    if "$" in source:
        return
    compiled = compile_text(text, where="text")
    assert compiled.pieces == ((source,) if source else ())
    assert compiled.placeholders == frozenset()
    assert compiled == _scanned(source)


@pytest.mark.parametrize("arguments", SECTIONS, ids=["plain", "summarized", "callables"])
def test_a_sections_tree_parts_are_what_its_properties_give(arguments: dict[str, Any]) -> None:
    section = MarkdownSection[_Params](**arguments)
    enabled, visibility = section.enabled, section.visibility
    assert section.tree_parts() == (
        section.title,
        section.children,
        section.tools(),
        section.params_type,
        enabled if isinstance(enabled, bool) else True,
        visibility if isinstance(visibility, SectionVisibility) else SectionVisibility.FULL,
        section.enabled_predicate,
        section.visibility_predicate,
    )


def test_a_section_keeps_its_state_in_slots_not_in_a_dict_of_its_class() -> None:
    section = MarkdownSection[_Params](title="T", template="About ${language}.")
    assert vars(section) == {}
    assert section.compiled_body.pieces == ("About ", Slot("language"), ".")


def _template() -> PromptTemplate[None]:
    return PromptTemplate(
        ns="t",
        key="t",
        sections=[
            MarkdownSection[_Params](**arguments)
            for arguments in SECTIONS
            if arguments["key"] != "Mixed-Case"  # its enabled callable needs the session
        ],
    )


@pytest.mark.parametrize(
    ("params", "overrides"),
    [
        ((), None),
        ((_Params(language="Go"),), None),
        ((_Params(language="Go", strict=True),), {"reference": SectionVisibility.FULL}),
        ((_Params,), None),
        ((_Params(), _Params()), None),
        ((Path("x"),), None),
        ((_CHILD.summary,), None),
        ((), {"nowhere": SectionVisibility.FULL}),
    ],
    ids=["none", "bound", "overridden", "a-class", "two", "not-a-dataclass", "foreign", "unknown"],
)
def test_a_templates_render_is_what_a_prompt_bound_and_rendered_gives(
    params: tuple[object, ...], overrides: dict[str, SectionVisibility] | None
) -> None:
    template = _template()

    def outcome(render: Callable[[], RenderedPrompt]) -> object:
        try:
            rendered = render()
        except WinkDeclError as error:
            return (type(error), str(error))
        return (rendered, dict(rendered.section_visibility), rendered.visibility_overrides)

    direct = outcome(lambda: template.render(*params, visibility_overrides=overrides))
    through = outcome(lambda: Prompt(template).bind(*params).render(visibility_overrides=overrides))
    assert direct == through


@settings(deadline=None)  # as above
@given(st.text(alphabet=st.sampled_from(" \n$a{}_"), max_size=12) | st.text(max_size=30))
def test_a_text_compiled_or_none_is_what_compile_text_gives_or_refuses(text: str) -> None:
    try:
        expected: CompiledText | None = compile_text(text, where="text")
    except PromptValidationError:
        expected = None
    assert compiled_or_none(text) == expected


_BRACED_TEXT = st.lists(
    st.sampled_from(["${", "}", "$", "a", "Z", "_", "9", "é", "-", " ", "\n", "$$", "${name}"]),
    max_size=12,
).map("".join)


@settings(deadline=None)  # as above
@given(_BRACED_TEXT | st.text(max_size=30))
def test_a_text_found_by_the_braced_scan_is_what_the_pattern_finds(source: str) -> None:
    # The str.find scan answers only for texts whose every '$' opens a ${name}; the
    # pattern's scan must then give the same pieces and names.
    braced = _braced_only(source)
    if braced is not None:
        assert braced == _pattern_split(source)


def test_the_braced_scan_answers_for_braced_names_only() -> None:
    assert _braced_only("Write ${topic} for ${Who_2}.") == CompiledText(
        ("Write ", Slot("topic"), " for ", Slot("Who_2"), "."), frozenset({"topic", "Who_2"})
    )
    assert _braced_only("${a}${a}") == CompiledText((Slot("a"), Slot("a")), frozenset({"a"}))
    refused = ["$$", "$name", "${", "${}", "${1a}", "${é}", "${a b}", "$ {a}", "${a}$"]
    assert [text for text in refused if _braced_only(text) is not None] == []
    assert compile_text("${a} costs $$1", where="text").pieces == (Slot("a"), " costs $1")


def test_a_rendered_prompt_is_what_its_constructor_gives() -> None:
    # PromptTemplate.render sets a RenderedPrompt's slots straight, in the order of its fields.
    assert [f.name for f in dataclasses.fields(RenderedPrompt)] == [
        "text",
        "tools",
        "tool_param_descriptions",
        "section_visibility",
        "visibility_overrides",
    ]
    template = _template()
    params = _Params(language="Go")
    overrides = {"reference": SectionVisibility.FULL}
    rendered = template.render(params, visibility_overrides=overrides)
    built = RenderedPrompt(
        text=rendered.text,
        tools=rendered.tools,
        tool_param_descriptions=rendered.tool_param_descriptions,
        section_visibility=rendered.section_visibility,
        visibility_overrides=overrides,
    )
    assert rendered == built
    assert repr(rendered) == repr(built)
    assert rendered.visibility_overrides is overrides
    assert dict(rendered.section_visibility) == dict(built.section_visibility)
    assert template.render(params).visibility_overrides == {}


def test_a_node_has_every_field_of_its_named_tuple() -> None:
    # flatten makes nodes with tuple.__new__, which checks no count: a node short of a field
    # would fail only where that field is read.
    template = _template()
    fields = Node._fields
    assert [len(node) for node in template.nodes] == [len(fields)] * len(template.nodes)
    assert [node.number for node in template.nodes] == [
        f"{node.index + 1}" if node.depth == 0 else node.number for node in template.nodes
    ]
    first = template.nodes[0]
    assert first == Node(*first)
    assert first.heading == f"## 1. {first.section.title} ({first.dotted})"


def test_the_engine_finds_the_dynamic_nodes_is_dynamic_names() -> None:
    # The engine reads the predicates of each node itself, not through the property.
    template: PromptTemplate[None] = PromptTemplate(
        ns="t", key="t", sections=[MarkdownSection[_Params](**arguments) for arguments in SECTIONS]
    )
    dynamic = [node.index for node in template.nodes if node.is_dynamic]
    assert dynamic
    assert list(template.engine.dynamic) == dynamic
