"""Sections: keys, duplicates, tools, placeholders, and the runtime's own checks as a safety net."""

from __future__ import annotations

from pathlib import Path

from compiler_support import compile_in, compiled, report, write

from wink_decl import SectionVisibility
from wink_decl.compiler import make_params
from wink_decl.compiler._context import CompileContext
from wink_decl.compiler._sections import SectionScope, compile_sections
from wink_decl.diagnostics import render_text
from wink_decl.loader import load_text
from wink_decl.plugins import PluginCatalog
from wink_decl.prompt.policy import ToolPolicy
from wink_decl.schema import SectionDoc
from wink_decl.schema.readable import Entry

LOOKUP = """\
tools:
  lookup:
    description: Look up a rule.
    handler: test.lookup
"""


def test_keys_from_titles_nesting_summaries_and_suffixes(
    here: Path, catalog: PluginCatalog
) -> None:
    text = (
        "key: sections\n"
        "params:\n"
        "  language: {type: string, default: Python}\n"
        "sections:\n"
        "  - title: Project Context!\n"
        "    template: Review ${language} code; it costs $$5.\n"
        "    summary: Context for $language.\n"
        '    summary_suffix: Call read_section with "${section_key}" for ${language} details.\n'
        "    visibility: summary\n"
        "    accepts_overrides: false\n"
        "    children:\n"
        "      - title: Details\n"
        "        template: Details.\n"
        "        tools: [lookup]\n" + LOOKUP
    )
    result = compile_in(here, text, catalog=catalog)
    assert report(result) == ""
    prompt = compiled(result)
    params = make_params(prompt, {})
    assert prompt.template.render(*params).text == (
        "## 1. Project Context! (project-context)\n\n"
        "Context for Python.\n\n"
        "---\n"
        'Call read_section with "project-context" for Python details.'
    )
    opened = {("project-context",): SectionVisibility.FULL}
    rendered = prompt.template.render(*params, visibility_overrides=opened)
    assert rendered.text == (
        "## 1. Project Context! (project-context)\n\n"
        "Review Python code; it costs $5.\n\n"
        "### 1.1. Details (project-context.details)\n\n"
        "Details."
    )
    assert rendered.tool_names == ("lookup",)  # nothing is summarized now
    (outer, inner) = prompt.template.nodes
    assert not outer.section.accepts_overrides
    assert inner.section.accepts_overrides
    assert prompt.artifact["tools"]["lookup"]["section"] == "project-context.details"


def test_a_title_without_letters_or_digits_needs_a_key(here: Path, catalog: PluginCatalog) -> None:
    text = "key: sections\nsections:\n  - title: '***'\n    template: Stars.\n"
    assert report(compile_in(here, text, catalog=catalog)) == (
        "prompt.wink.yaml:3:12: error: The title '***' gives no usable key.\n"
        "   3 |   - title: '***'\n"
        "     |            ^^^^^\n"
        "  hint: add a 'key' such as 'intro'"
    )


def test_sibling_keys_must_differ_whether_written_derived_or_included(
    here: Path, catalog: PluginCatalog
) -> None:
    write(here, "common.wink.yaml", "key: common\nsections:\n  - title: Task\n")
    text = """\
key: sections
sections:
  - key: task
    title: First
    children:
      - {key: task, title: Child keys may repeat their parent's}
  - title: Task
  - include: common.wink.yaml#task
  - key: TASK
    title: Fourth
  - key: task
    title: Fifth
"""
    # The schema refuses 'TASK' (keys are lowercase): that section is not read further, so
    # its key is reported once, as refused, not again as a duplicate.
    assert report(compile_in(here, text, catalog=catalog)) == (
        "prompt.wink.yaml:7:12: error: Two sections here have the key 'task'.\n"
        "   7 |   - title: Task\n"
        "     |            ^^^^\n"
        "  hint: the first is on line 3; give each sibling its own key\n"
        "prompt.wink.yaml:8:14: error: Two sections here have the key 'task'.\n"
        "   8 |   - include: common.wink.yaml#task\n"
        "     |              ^^^^^^^^^^^^^^^^^^^^^\n"
        "  hint: the first is on line 3; give each sibling its own key\n"
        "prompt.wink.yaml:9:10: error: 'TASK' is not a valid key\n"
        "  expected: 1-64 lowercase letters, digits, '_' or '-', starting with a letter or digit\n"
        "   9 |   - key: TASK\n"
        "     |          ^^^^\n"
        "  hint: did you mean 'task'?\n"
        "prompt.wink.yaml:11:10: error: Two sections here have the key 'task'.\n"
        "  11 |   - key: task\n"
        "     |          ^^^^\n"
        "  hint: the first is on line 3; give each sibling its own key"
    )


def test_a_tool_belongs_to_one_section_and_is_listed_once(
    here: Path, catalog: PluginCatalog
) -> None:
    text = (
        "key: sections\n"
        "sections:\n"
        "  - key: a\n"
        "    title: A\n"
        "    tools: [lookup, lookup, broken]\n"
        "    children:\n"
        "      - {key: b, title: B, tools: [lookup, lokup]}\n"
        "tools:\n"
        "  lookup: {description: Look up a rule., handler: test.lookup}\n"
        "  broken: {description: Broken., handler: test.lokup}\n"
        "  spare: {description: Never offered., handler: test.lookup}\n"
    )
    assert report(compile_in(here, text, catalog=catalog)) == (
        "prompt.wink.yaml:5:21: error: Tool 'lookup' is listed twice in this section.\n"
        "   5 |     tools: [lookup, lookup, broken]\n"
        "     |                     ^^^^^^\n"
        "  hint: list each tool once\n"
        "prompt.wink.yaml:7:36: error: Tool 'lookup' is already offered by section 'a'.\n"
        "   7 |       - {key: b, title: B, tools: [lookup, lokup]}\n"
        "     |                                    ^^^^^^\n"
        "  hint: a tool belongs to one section; keep it where the model reads about it\n"
        "prompt.wink.yaml:7:44: error: Tool 'lokup' is not declared under tools:.\n"
        "  expected: a declared tool (lookup, broken, spare)\n"
        "   7 |       - {key: b, title: B, tools: [lookup, lokup]}\n"
        "     |                                            ^^^^^\n"
        "  hint: did you mean 'lookup'?\n"
        "prompt.wink.yaml:10:43: error: No handler named 'test.lokup' is installed.\n"
        "  10 |   broken: {description: Broken., handler: test.lokup}\n"
        "     |                                           ^^^^^^^^^^\n"
        "  hint: did you mean 'test.lookup', 'test.untyped' or 'shared.lookup'? "
        "Run 'wink-decl plugins' to list what is installed\n"
        "prompt.wink.yaml:11:3: warning: Tool 'spare' is declared but no section offers it.\n"
        "  11 |   spare: {description: Never offered., handler: test.lookup}\n"
        "     |   ^^^^^\n"
        "  hint: list it under tools: in the section that explains when to use it"
    )


def test_a_lone_warning_still_gives_a_prompt(here: Path, catalog: PluginCatalog) -> None:
    text = (
        "key: sections\n"
        "sections:\n"
        "  - {key: a, title: A}\n"
        "tools:\n"
        "  spare: {description: Never offered., handler: test.lookup}\n"
    )
    result = compile_in(here, text, catalog=catalog)
    assert [d.severity for d in result.diagnostics] == ["warning"]
    prompt = compiled(result)
    assert list(prompt.tools) == []
    assert prompt.artifact["tools"] == {}


def test_a_stray_dollar_is_pointed_at_inside_its_own_value(
    here: Path, catalog: PluginCatalog
) -> None:
    text = (
        "key: sections\n"
        "sections:\n"
        "  - key: a\n"
        "    title: A\n"
        "    template: |\n"
        "      Costs $$5 for $name and ${name}.\n"
        "      Some $ stray.\n"
        "  - key: b\n"
        "    title: B\n"
        '    template: "Written as an escape: \\x24 here."\n'
        "  - {key: c, title: C, template: This $ comes later.}\n"
    )
    assert report(compile_in(here, text, catalog=catalog)) == (
        "prompt.wink.yaml:7:12: error: A '$' here does not start a placeholder.\n"
        "  expected: $name or ${name} for a param, $$ for a literal '$'\n"
        "   7 |       Some $ stray.\n"
        "     |            ^\n"
        "prompt.wink.yaml:10:15: error: A '$' here does not start a placeholder.\n"
        "  expected: $name or ${name} for a param, $$ for a literal '$'\n"
        '  10 |     template: "Written as an escape: \\x24 here."\n'
        "     |               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "prompt.wink.yaml:11:39: error: A '$' here does not start a placeholder.\n"
        "  expected: $name or ${name} for a param, $$ for a literal '$'\n"
        "  11 |   - {key: c, title: C, template: This $ comes later.}\n"
        "     |                                       ^"
    )


def test_unknown_placeholders_in_summaries_and_suffixes(here: Path, catalog: PluginCatalog) -> None:
    text = (
        "key: sections\n"
        "params:\n"
        "  language: {type: string, default: Python}\n"
        "sections:\n"
        "  - key: a\n"
        "    title: A\n"
        "    template: The key is ${section_key}.\n"
        "    summary: Context for ${langauge}.\n"
        '    summary_suffix: Read "${section_key}" for $more.\n'
    )
    result = compile_in(here, text, catalog=catalog)
    assert report(result) == (
        "prompt.wink.yaml:7:26: error: Placeholder '${section_key}' is not a declared param.\n"
        "  expected: a declared param (language)\n"
        "   7 |     template: The key is ${section_key}.\n"
        "     |                          ^^^^^^^^^^^^^^\n"
        "  hint: '${section_key}' is filled in only in summary_suffix; write the key here\n"
        "prompt.wink.yaml:8:26: error: Placeholder '${langauge}' is not a declared param.\n"
        "  expected: a declared param (language)\n"
        "   8 |     summary: Context for ${langauge}.\n"
        "     |                          ^^^^^^^^^^^\n"
        "  hint: did you mean 'language'?\n"
        "prompt.wink.yaml:9:47: error: Placeholder '$more' is not a declared param.\n"
        "  expected: a declared param (language)\n"
        '   9 |     summary_suffix: Read "${section_key}" for $more.\n'
        "     |                                               ^^^^^\n"
        "  hint: declare 'more' under params:"
    )
    assert [d.suggestions for d in result.diagnostics] == [(), ("language",), ()]


def test_placeholders_without_any_params(here: Path, catalog: PluginCatalog) -> None:
    text = "key: sections\nsections:\n  - {key: a, title: A, template: Hi $who.}\n"
    assert report(compile_in(here, text, catalog=catalog)) == (
        "prompt.wink.yaml:3:37: error: Placeholder '$who' is not a declared param.\n"
        "  expected: a declared param (none are declared)\n"
        "   3 |   - {key: a, title: A, template: Hi $who.}\n"
        "     |                                     ^^^^\n"
        "  hint: declare 'who' under params:"
    )


def test_blank_titles_and_summaries_count_unicode_spaces_as_the_runtime_does(
    here: Path, catalog: PluginCatalog
) -> None:
    # The runtime strips with str.strip(), so the schema's "not blank" counts no-break spaces.
    text = (
        "key: sections\n"
        "sections:\n"
        "  - key: a\n"
        '    title: "\\u00a0"\n'
        "  - key: b\n"
        "    title: B\n"
        '    summary: "\\u3000"\n'
        "    visibility: summary\n"
    )
    assert report(compile_in(here, text, catalog=catalog)) == (
        "prompt.wink.yaml:4:12: error: '\\xa0' is not a valid title\n"
        "  expected: one line of text\n"
        '   4 |     title: "\\u00a0"\n'
        "     |            ^^^^^^^^\n"
        "prompt.wink.yaml:7:14: error: '\\u3000' is not valid text\n"
        "  expected: some text, not only spaces\n"
        '   7 |     summary: "\\u3000"\n'
        "     |              ^^^^^^^^"
    )


def _nothing(*_args: object) -> None:
    """Predicates and includes for a scope that has none."""


def _no_policies(*_args: object) -> list[ToolPolicy]:
    return []


def test_the_runtime_refusal_of_a_section_is_reported_at_the_section() -> None:
    # A safety net for data the schema let through by mistake: fed past the schema on purpose.
    loaded = load_text(
        "sections:\n  - {key: a, title: ' '}\n", path="prompt.wink.yaml", format="yaml"
    ).file
    assert loaded is not None
    ctx = CompileContext(loaded)
    scope = SectionScope(
        params={},
        params_type=None,
        tools={},
        policies=_no_policies,
        predicates=_nothing,
        include=_nothing,
    )
    past_the_schema = SectionDoc.model_construct(key="a", title=" ")  # built unchecked
    entries = (Entry(("sections", 0), past_the_schema),)
    assert compile_sections(ctx, entries, scope) is None
    assert render_text(ctx.bag.items, {loaded.path: loaded.text}) == (
        "prompt.wink.yaml:2:5: error: Section title ' ' is invalid: give one non-empty line of "
        "text.\n"
        "   2 |   - {key: a, title: ' '}\n"
        "     |     ^^^^^^^^^^^^^^^^^^^^"
    )


def test_a_placeholder_after_a_unicode_line_separator_falls_back_to_its_value(
    here: Path, catalog: PluginCatalog
) -> None:
    # The YAML reader counts U+2028 as a line break; the file's text has one '\n' fewer, so the
    # placeholder cannot be placed inside the value and the value's own span is used.
    text = 'key: sections\nsections:\n  - key: a\n    title: "A\u2028B"\n    template: Hi $who.'
    assert report(compile_in(here, text, catalog=catalog)) == (
        "prompt.wink.yaml:6:15: error: Placeholder '$who' is not a declared param.\n"
        "  expected: a declared param (none are declared)\n"
        "   6 |     template: Hi $who.\n"
        "     |               ^^^^^^^^\n"
        "  hint: declare 'who' under params:"
    )


def test_a_placeholder_is_looked_for_only_inside_its_own_value(
    here: Path, catalog: PluginCatalog
) -> None:
    text = (
        "key: sections\n"
        "sections:\n"
        '  - {key: a, title: A, template: "Hi \\x24{who}."}\n'
        '  - {key: b, title: B, template: "Bye ${who}."}\n'
    )
    assert report(compile_in(here, text, catalog=catalog)) == (
        "prompt.wink.yaml:3:34: error: Placeholder '${who}' is not a declared param.\n"
        "  expected: a declared param (none are declared)\n"
        '   3 |   - {key: a, title: A, template: "Hi \\x24{who}."}\n'
        "     |                                  ^^^^^^^^^^^^^^^\n"
        "  hint: declare 'who' under params:\n"
        "prompt.wink.yaml:4:39: error: Placeholder '${who}' is not a declared param.\n"
        "  expected: a declared param (none are declared)\n"
        '   4 |   - {key: b, title: B, template: "Bye ${who}."}\n'
        "     |                                       ^^^^^^\n"
        "  hint: declare 'who' under params:"
    )
