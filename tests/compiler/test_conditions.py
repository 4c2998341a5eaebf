"""Conditions: every kind, constant folding, predicates with params and session, and mistakes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import compiler_plugins
import pytest
from compiler_support import compile_in, compiled, report

from wink_decl import PromptRenderError, Session
from wink_decl.compiler import CompiledPrompt, compile_file, make_params
from wink_decl.plugins import PluginCatalog

KINDS = """\
key: conditions
params:
  strict: {type: boolean, default: false}
  depth: {type: string, enum: [quick, thorough], default: quick}
  count: {type: integer, default: 0}
sections:
  - {key: param, title: Param, enabled: {param: strict}}
  - {key: equals, title: Equals, enabled: {equals: {param: depth, value: thorough}}}
  - {key: not, title: Not, enabled: {not: {param: strict}}}
  - key: all
    title: All
    enabled: {all: [{param: strict}, {equals: {param: depth, value: thorough}}]}
  - {key: any, title: Any, enabled: {any: [{param: strict}, {param: count}]}}
  - {key: never, title: Never, enabled: {predicate: test.never}}
  - {key: always, title: Always, enabled: {predicate: test.always}}
"""


def headings(prompt: CompiledPrompt, values: dict[str, Any]) -> str:
    """The rendered text: only headings, as every section here has an empty template."""
    return prompt.template.render(*make_params(prompt, values)).text


@pytest.fixture
def kinds(here: Path, catalog: PluginCatalog) -> CompiledPrompt:
    return compiled(compile_in(here, KINDS, catalog=catalog))


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ({}, "## 3. Not (not)\n\n## 7. Always (always)"),
        (
            {"strict": True},
            "## 1. Param (param)\n\n## 5. Any (any)\n\n## 7. Always (always)",
        ),
        (
            {"depth": "thorough"},
            "## 2. Equals (equals)\n\n## 3. Not (not)\n\n## 7. Always (always)",
        ),
        (
            {"strict": True, "depth": "thorough"},
            "## 1. Param (param)\n\n## 2. Equals (equals)\n\n## 4. All (all)\n\n"
            "## 5. Any (any)\n\n## 7. Always (always)",
        ),
        ({"count": 2}, "## 3. Not (not)\n\n## 5. Any (any)\n\n## 7. Always (always)"),
    ],
    ids=["defaults", "strict", "thorough", "strict-and-thorough", "count"],
)
def test_every_kind_of_condition(
    kinds: CompiledPrompt, values: dict[str, Any], expected: str
) -> None:
    assert headings(kinds, values) == expected


def test_every_condition_is_conditional_in_the_artifact(kinds: CompiledPrompt) -> None:
    assert {s["path"]: s["enabled"] for s in kinds.artifact["sections"]} == dict.fromkeys(
        ["param", "equals", "not", "all", "any", "never", "always"], "conditional"
    )


@pytest.mark.parametrize(
    ("condition", "folded", "shown"),
    [
        ("{all: [true, {param: strict}]}", "conditional", True),
        ("{all: [{param: strict}, false]}", False, False),
        ("{all: [true, true]}", True, True),
        ("{any: [{param: strict}, true]}", True, True),
        ("{any: [false, false]}", False, False),
        ("{any: [false, {param: strict}]}", "conditional", True),
        ("{not: true}", False, False),
        ("{not: {not: false}}", False, False),
        ("{not: {any: [false, {not: true}]}}", True, True),
        ("{not: {param: strict}}", "conditional", False),
        ("true", True, True),
    ],
)
def test_constants_fold_away(
    here: Path, catalog: PluginCatalog, condition: str, folded: object, shown: bool
) -> None:
    text = (
        "key: folding\n"
        "params:\n"
        "  strict: {type: boolean, default: true}\n"
        "sections:\n"
        f"  - {{key: a, title: A, template: Shown., enabled: {condition}}}\n"
    )
    prompt = compiled(compile_in(here, text, catalog=catalog))
    (section,) = prompt.artifact["sections"]
    assert section["enabled"] == folded
    assert headings(prompt, {}) == ("## 1. A (a)\n\nShown." if shown else "")


@pytest.mark.parametrize(
    ("summary_when", "visibility", "expected"),
    [
        (
            "true",
            "summary",
            "## 1. A (a)\n\nIn short.\n\n---\n[This section is summarized. "
            'To view full content, call `read_section` with key "a".]',
        ),
        ("false", "full", "## 1. A (a)\n\nIn full."),
        ("{param: brief}", "conditional", "## 1. A (a)\n\nIn full."),
    ],
    ids=["true", "false", "param"],
)
def test_summary_when(
    here: Path, catalog: PluginCatalog, summary_when: str, visibility: str, expected: str
) -> None:
    text = (
        "key: visibility\n"
        "params:\n"
        "  brief: {type: boolean, default: false}\n"
        "sections:\n"
        "  - key: a\n"
        "    title: A\n"
        "    template: In full.\n"
        "    summary: In short.\n"
        f"    visibility: {{summary_when: {summary_when}}}\n"
    )
    prompt = compiled(compile_in(here, text, catalog=catalog))
    assert prompt.artifact["sections"][0]["visibility"] == visibility
    assert headings(prompt, {}) == expected


def test_a_summary_when_param_summarizes_while_it_holds(here: Path, catalog: PluginCatalog) -> None:
    text = (
        "key: visibility\n"
        "params:\n"
        "  brief: {type: boolean, default: false}\n"
        "sections:\n"
        "  - {key: a, title: A, template: In full., summary: In short., "
        "visibility: {summary_when: {param: brief}}}\n"
    )
    prompt = compiled(compile_in(here, text, catalog=catalog))
    assert headings(prompt, {"brief": True}) == (
        "## 1. A (a)\n\nIn short.\n\n---\n[This section is summarized. "
        'To view full content, call `read_section` with key "a".]'
    )


def test_predicates_see_the_params_and_the_session(here: Path, catalog: PluginCatalog) -> None:
    text = (
        "key: predicates\n"
        "params:\n"
        "  strict: {type: boolean, default: false}\n"
        "sections:\n"
        "  - {key: a, title: A, template: Shown., enabled: {predicate: test.record}}\n"
    )
    prompt = compiled(compile_in(here, text, catalog=catalog))
    (params,) = make_params(prompt, {"strict": True})
    session = Session()
    rendered = prompt.template.render(params, session=session)
    assert rendered.text == "## 1. A (a)\n\nShown."
    assert compiler_plugins.recorded == [(params, session)]


def test_conditions_in_a_prompt_without_params(here: Path, catalog: PluginCatalog) -> None:
    text = (
        "key: plain\n"
        "sections:\n"
        "  - {key: a, title: A, template: Shown., enabled: {predicate: test.record}}\n"
        "  - {key: b, title: B, template: Hidden., enabled: {not: {predicate: test.always}}}\n"
        "  - key: c\n"
        "    title: C\n"
        "    template: In full.\n"
        "    summary: In short.\n"
        "    visibility: {summary_when: {predicate: test.record}}\n"
    )
    prompt = compiled(compile_in(here, text, catalog=catalog))
    assert prompt.params_type is None
    session = Session()
    assert prompt.template.render(session=session).text == (
        "## 1. A (a)\n\nShown.\n\n## 3. C (c)\n\nIn short.\n\n---\n[This section is "
        'summarized. To view full content, call `read_section` with key "c".]'
    )
    assert compiler_plugins.recorded == [(None, session), (None, session)]
    compiler_plugins.recorded.clear()
    prompt.template.render()
    assert compiler_plugins.recorded == [(None, None), (None, None)]


def test_unknown_params_and_predicates_in_conditions(here: Path, catalog: PluginCatalog) -> None:
    text = """\
key: mistakes
params:
  strict: {type: boolean, default: false}
  s: {type: boolean, default: false}
sections:
  - key: a
    title: A
    enabled: {not: {param: strcit}}
  - key: b
    title: B
    enabled: {all: [{equals: {param: level, value: high}}, {predicate: test.alway}]}
  - key: c
    title: C
    summary: Short.
    visibility: {summary_when: {any: [{predicate: nobody.knows}]}}
"""
    result = compile_in(here, text, catalog=catalog)
    assert report(result) == (
        "prompt.wink.yaml:8:28: error: Condition uses param 'strcit', which is not declared.\n"
        "  expected: a declared param (strict, s)\n"
        "   8 |     enabled: {not: {param: strcit}}\n"
        "     |                            ^^^^^^\n"
        "  hint: did you mean 'strict'?\n"
        "prompt.wink.yaml:11:38: error: Condition uses param 'level', which is not declared.\n"
        "  expected: a declared param (strict, s)\n"
        "  11 |     enabled: {all: [{equals: {param: level, value: high}}, "
        "{predicate: test.alway}]}\n"
        "     |                                      ^^^^^\n"
        "  hint: declare it under params:\n"
        "prompt.wink.yaml:11:72: error: No predicate named 'test.alway' is installed.\n"
        "  11 |     enabled: {all: [{equals: {param: level, value: high}}, "
        "{predicate: test.alway}]}\n"
        "     |                                                                        ^^^^^^^^^^\n"
        "  hint: did you mean 'test.always'? Run 'wink-decl plugins' to list what is "
        "installed\n"
        "prompt.wink.yaml:15:51: error: No predicate named 'nobody.knows' is installed.\n"
        "  15 |     visibility: {summary_when: {any: [{predicate: nobody.knows}]}}\n"
        "     |                                                   ^^^^^^^^^^^^\n"
        "  hint: run 'wink-decl plugins' to list what is installed"
    )
    (first, *_) = result.diagnostics
    assert first.suggestions == ("strict",)


SHAPES = (
    "true, false, or one of {param: ...}, {not: ...}, {all: [...]}, {any: [...]}, "
    "{equals: {param: ..., value: ...}}, {predicate: ...}"
)


@pytest.mark.parametrize(
    ("condition", "expected"),
    [
        (
            "{param: a, not: true}",
            "prompt.wink.yaml:3:44: error: A condition has exactly one key; found 'param' and "
            f"'not'.\n  expected: {SHAPES}\n"
            "   3 |   - {key: a, title: A, enabled: {param: a, not: true}}\n"
            "     |                                            ^^^",
        ),
        (
            "{bogus: 1}",
            f"prompt.wink.yaml:3:34: error: 'enabled' must be {SHAPES}; found 'bogus'\n"
            "   3 |   - {key: a, title: A, enabled: {bogus: 1}}\n"
            "     |                                  ^^^^^",
        ),
        (
            "3",
            f"prompt.wink.yaml:3:33: error: 'enabled' must be {SHAPES}; found 3\n"
            "   3 |   - {key: a, title: A, enabled: 3}\n"
            "     |                                 ^",
        ),
        (
            "{all: []}",
            "prompt.wink.yaml:3:39: error: 'all' needs at least 1 item; found none\n"
            "   3 |   - {key: a, title: A, enabled: {all: []}}\n"
            "     |                                       ^^",
        ),
    ],
    ids=["two-keys", "unknown-kind", "not-a-condition", "empty-all"],
)
def test_a_malformed_condition_is_reported_once_by_the_schema(
    here: Path, catalog: PluginCatalog, condition: str, expected: str
) -> None:
    text = f"key: bad\nsections:\n  - {{key: a, title: A, enabled: {condition}}}\n"
    result = compile_in(here, text, catalog=catalog)
    assert result.prompt is None
    assert report(result) == expected


def test_a_predicate_that_cannot_be_imported_fails_the_render_clearly(
    here: Path, catalog: PluginCatalog
) -> None:
    path = here / "broken.wink.yaml"
    path.write_text(
        "key: broken\n"
        "sections:\n"
        "  - {key: a, title: A, template: Shown., enabled: {predicate: test.unimportable}}\n"
    )
    result = compile_file(path, root=here, catalog=catalog)
    assert result.prompt is not None
    with pytest.raises(PromptRenderError) as info:
        result.prompt.template.render()
    assert str(info.value) == (
        "Could not import predicate 'test.unimportable' (test-plugins 1.0, value "
        "'no_such_module_for_tests:predicate'): ModuleNotFoundError: No module named "
        "'no_such_module_for_tests'"
    )
