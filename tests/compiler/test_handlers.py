"""Handlers import their plugin on first use; bind_plugins checks them all up front."""

from __future__ import annotations

from pathlib import Path

import compiler_plugins
import pytest
from compiler_support import (
    call,
    compile_in,
    compiled,
    executor,
    lazy,
    make_catalog_distributions,
    one_tool,
)

from wink_decl.compiler import bind_plugins
from wink_decl.diagnostics import render_text
from wink_decl.plugins import PluginCatalog, PluginEntry


def test_a_lazy_handler_runs_the_plugin_on_the_first_call(
    here: Path, catalog: PluginCatalog
) -> None:
    text = one_tool(
        "    description: Look up a rule.\n"
        "    handler: test.lookup\n"
        "    params:\n"
        "      rule_id: {type: string}\n"
    )
    prompt = compiled(compile_in(here, text, catalog=catalog))
    handler = lazy(prompt.tools["lookup"].handler)
    assert handler.target is None
    outcome = call(executor(prompt), "lookup", rule_id="E501")
    assert outcome.success
    assert outcome.result.value == compiler_plugins.LookupResult("E501", "Rule E501.")
    assert handler.target is compiler_plugins.lookup


def test_a_handler_that_cannot_be_imported_fails_its_call_not_the_compile(
    here: Path, catalog: PluginCatalog
) -> None:
    text = one_tool(
        "    description: Look up a rule.\n"
        "    handler: test.unimportable\n"
        "    params:\n"
        "      rule_id: {type: string}\n"
    )
    prompt = compiled(compile_in(here, text, catalog=catalog))
    runner = executor(prompt)
    problem = (
        "Could not import handler 'test.unimportable' (test-plugins 1.0, value "
        "'no_such_module_for_tests:handler'): ModuleNotFoundError: No module named "
        "'no_such_module_for_tests'"
    )
    for _ in range(2):  # the second call reuses the remembered problem
        outcome = call(runner, "lookup", rule_id="E501")
        assert not outcome.success
        assert outcome.result.message == problem
    assert lazy(prompt.tools["lookup"].handler).target is None


class CountingCatalog(PluginCatalog):
    """Counts imports: plugin code should be imported (or tried) once, not on every call."""

    __slots__ = ("imports",)

    def __init__(self) -> None:
        super().__init__(distributions=make_catalog_distributions())
        self.imports: list[str] = []

    def load(self, entry: PluginEntry) -> object:
        self.imports.append(entry.name)
        return super().load(entry)


@pytest.mark.parametrize("handler", ["test.lookup", "test.unimportable"])
def test_a_lazy_handler_imports_its_plugin_once(here: Path, handler: str) -> None:
    text = one_tool(
        "    description: Look up a rule.\n"
        f"    handler: {handler}\n"
        "    params:\n"
        "      rule_id: {type: string}\n"
    )
    counting = CountingCatalog()
    prompt = compiled(compile_in(here, text, catalog=counting))
    assert counting.imports == []
    runner = executor(prompt)
    outcomes = [call(runner, "lookup", rule_id="E1").success for _ in range(3)]
    assert bind_plugins(prompt) == bind_plugins(prompt)
    assert outcomes == [handler == "test.lookup"] * 3
    assert counting.imports == [handler]


def test_bind_plugins_finds_nothing_wrong_with_good_handlers(
    here: Path, catalog: PluginCatalog
) -> None:
    text = one_tool(
        "    description: Look up a rule.\n"
        "    handler: test.lookup\n"
        "    params:\n"
        "      rule_id: {type: string}\n"
        "      verbose: {type: boolean, default: true}\n"
    )
    prompt = compiled(compile_in(here, text, catalog=catalog))
    assert bind_plugins(prompt) == []
    assert lazy(prompt.tools["lookup"].handler).target is compiler_plugins.lookup


def test_bind_plugins_skips_the_built_in_read_section(here: Path, catalog: PluginCatalog) -> None:
    text = (
        "key: plain\nsections:\n  - {key: a, title: A, summary: In short., visibility: summary}\n"
    )
    prompt = compiled(compile_in(here, text, catalog=catalog))
    assert list(prompt.tools) == ["read_section"]
    assert bind_plugins(prompt) == []


def test_bind_plugins_of_a_prompt_naming_no_tool_nor_plugin_finds_nothing(
    here: Path, catalog: PluginCatalog
) -> None:
    text = "key: bare\nsections:\n  - {key: a, title: A, template: Hello.}\n"
    prompt = compiled(compile_in(here, text, catalog=catalog))
    assert (dict(prompt.tools), prompt.plugins) == ({}, ())
    assert bind_plugins(prompt) == []


def test_bind_plugins_reports_every_handler_that_does_not_fit(
    here: Path, catalog: PluginCatalog
) -> None:
    text = """\
key: bind
sections:
  - key: task
    title: Task
    tools: [mismatch, shape, gone, untyped]
tools:
  mismatch:
    description: Mismatch.
    handler: test.lookup
    params:
      rule: {type: integer}
      verbose: {type: string}
  shape:
    description: Bad signature.
    handler: test.wrong_shape
    params:
      rule_id: {type: string}
  gone:
    description: Gone.
    handler: test.unimportable
    params:
      rule_id: {type: string}
  untyped:
    description: Untyped handler, declared params.
    handler: test.untyped
    params:
      rule_id: {type: string}
"""
    result = compile_in(here, text, catalog=catalog)
    prompt = compiled(result)
    assert render_text(bind_plugins(prompt), result.sources) == (
        "prompt.wink.yaml:9:14: error: Tool 'mismatch' cannot use handler 'test.lookup': "
        "Field 'rule' is declared in the prompt file but LookupParams has no such field. "
        "Field 'verbose' is declared as str in the prompt file but LookupParams.verbose is bool. "
        "Field 'rule_id' is required by LookupParams but the prompt file does not declare it.\n"
        "   9 |     handler: test.lookup\n"
        "     |              ^^^^^^^^^^^\n"
        "  hint: check that the plugin's version matches this prompt, or name another entry point\n"
        "prompt.wink.yaml:15:14: error: Tool 'shape' cannot use handler 'test.wrong_shape': "
        "Handler 'test.wrong_shape' (test-plugins 1.0, value 'compiler_plugins:wrong_shape') "
        "for tool 'shape' must have the signature (params, *, context); wrong_shape has "
        "(params: 'LookupParams') -> 'ToolResult[LookupResult]'.\n"
        "  15 |     handler: test.wrong_shape\n"
        "     |              ^^^^^^^^^^^^^^^^\n"
        "  hint: check that the plugin's version matches this prompt, or name another entry point\n"
        "prompt.wink.yaml:20:14: error: Tool 'gone' cannot use handler 'test.unimportable': "
        "Could not import handler 'test.unimportable' (test-plugins 1.0, value "
        "'no_such_module_for_tests:handler'): ModuleNotFoundError: No module named "
        "'no_such_module_for_tests'\n"
        "  20 |     handler: test.unimportable\n"
        "     |              ^^^^^^^^^^^^^^^^^\n"
        "  hint: check that the plugin's version matches this prompt, or name another entry point"
    )
    assert [d.code for d in bind_plugins(prompt)] == ["handler"] * 3


def test_bind_plugins_checks_predicates_and_policies_where_the_file_names_them(
    here: Path, catalog: PluginCatalog
) -> None:
    text = """\
key: bind
sections:
  - key: task
    title: Task
    template: Work.
    tools: [lookup]
    enabled: {all: [{predicate: test.no_session}, {predicate: test.not_callable}]}
  - {key: gone, title: Gone, enabled: {predicate: test.unimportable}}
  - {key: builtin, title: Builtin, enabled: {predicate: test.builtin}}
  - {key: unreadable, title: Unreadable, enabled: {predicate: test.unreadable}}
  - {key: fine, title: Fine, enabled: {predicate: test.always}}
tools:
  lookup:
    description: Look up a rule.
    handler: test.lookup
policies:
  - plugin: {name: test.call_limit, config: {limit: 1}}
  - plugin: {name: test.call_limit, config: {limits: 1}}
  - plugin: {name: broken.no_methods}
  - plugin: {name: broken.not_callable}
  - plugin: {name: broken.unimportable}
"""
    result = compile_in(here, text, catalog=catalog)
    prompt = compiled(result)
    problems = bind_plugins(prompt)
    assert render_text(problems, result.sources) == (
        "prompt.wink.yaml:7:33: error: Predicate 'test.no_session' (test-plugins 1.0, value "
        "'compiler_plugins:no_session') must accept (params, *, session).\n"
        "   7 |     enabled: {all: [{predicate: test.no_session}, {predicate: test.not_callable}]}"
        "\n"
        "     |                                 ^^^^^^^^^^^^^^^\n"
        "  hint: check that the plugin's version matches this prompt, or name another entry point\n"
        "prompt.wink.yaml:7:63: error: Predicate 'test.not_callable' (test-plugins 1.0, value "
        "'compiler_plugins:NOT_CALLABLE') is a value of type 'int', not a function.\n"
        "   7 |     enabled: {all: [{predicate: test.no_session}, {predicate: test.not_callable}]}"
        "\n"
        "     |                                                               ^^^^^^^^^^^^^^^^^\n"
        "  hint: check that the plugin's version matches this prompt, or name another entry point\n"
        "prompt.wink.yaml:8:51: error: Could not import predicate 'test.unimportable' "
        "(test-plugins 1.0, value 'no_such_module_for_tests:predicate'): ModuleNotFoundError: "
        "No module named 'no_such_module_for_tests'\n"
        "   8 |   - {key: gone, title: Gone, enabled: {predicate: test.unimportable}}\n"
        "     |                                                   ^^^^^^^^^^^^^^^^^\n"
        "  hint: check that the plugin's version matches this prompt, or name another entry point\n"
        "prompt.wink.yaml:9:57: error: Predicate 'test.builtin' (test-plugins 1.0, value "
        "'builtins:bool') is the builtin 'bool', not a function that accepts "
        "(params, *, session).\n"
        "   9 |   - {key: builtin, title: Builtin, enabled: {predicate: test.builtin}}\n"
        "     |                                                         ^^^^^^^^^^^^\n"
        "  hint: check that the plugin's version matches this prompt, or name another entry point\n"
        "prompt.wink.yaml:10:63: error: Predicate 'test.unreadable' (test-plugins 1.0, value "
        "'compiler_plugins:UNREADABLE') has no signature that can be read; it must accept "
        "(params, *, session).\n"
        "  10 |   - {key: unreadable, title: Unreadable, enabled: {predicate: test.unreadable}}\n"
        "     |                                                               ^^^^^^^^^^^^^^^\n"
        "  hint: check that the plugin's version matches this prompt, or name another entry point\n"
        "prompt.wink.yaml:18:20: error: Policy 'test.call_limit' (test-plugins 1.0, value "
        "'compiler_plugins:call_limit') has no config setting 'limits'; it takes limit. "
        "Did you mean 'limit'?\n"
        "  18 |   - plugin: {name: test.call_limit, config: {limits: 1}}\n"
        "     |                    ^^^^^^^^^^^^^^^\n"
        "  hint: check that the plugin's version matches this prompt, or name another entry point\n"
        "prompt.wink.yaml:19:20: error: Policy 'broken.no_methods' (test-plugins 1.0, value "
        "'compiler_plugins:no_methods') built a dict, which has no check or on_result().\n"
        "  19 |   - plugin: {name: broken.no_methods}\n"
        "     |                    ^^^^^^^^^^^^^^^^^\n"
        "  hint: check that the plugin's version matches this prompt, or name another entry point\n"
        "prompt.wink.yaml:20:20: error: Policy 'broken.not_callable' (test-plugins 1.0, value "
        "'compiler_plugins:NOT_CALLABLE') is a value of type 'int', not a function.\n"
        "  20 |   - plugin: {name: broken.not_callable}\n"
        "     |                    ^^^^^^^^^^^^^^^^^^^\n"
        "  hint: check that the plugin's version matches this prompt, or name another entry point\n"
        "prompt.wink.yaml:21:20: error: Could not import policy 'broken.unimportable' "
        "(test-plugins 1.0, value 'no_such_module_for_tests:policy'): ModuleNotFoundError: "
        "No module named 'no_such_module_for_tests'\n"
        "  21 |   - plugin: {name: broken.unimportable}\n"
        "     |                    ^^^^^^^^^^^^^^^^^^^\n"
        "  hint: check that the plugin's version matches this prompt, or name another entry point"
    )
    assert [d.code for d in problems] == ["predicate"] * 5 + ["policy"] * 4
    assert bind_plugins(prompt) == problems  # each plugin is resolved once and remembered


def test_a_policy_that_cannot_be_built_denies_the_call_with_its_reason(
    here: Path, catalog: PluginCatalog
) -> None:
    text = (
        one_tool("    description: Look up a rule.\n    handler: test.lookup\n")
        + "policies:\n  - plugin: {name: broken.no_methods}\n"
    )
    prompt = compiled(compile_in(here, text, catalog=catalog))
    outcome = call(executor(prompt), "lookup", rule_id="E501")
    assert not outcome.success
    assert outcome.result.message == (
        "Policy 'broken.no_methods' could not check tool 'lookup': PluginLoadError: Policy "
        "'broken.no_methods' "
        "(test-plugins 1.0, value 'compiler_plugins:no_methods') built a dict, which has no "
        "check or on_result()."
    )
