"""Policies: tool names checked, read_before_write warnings, and plugin policies at run time."""

# pyright: reportPrivateUsage=false

from __future__ import annotations

from pathlib import Path

import compiler_plugins
from compiler_support import call, compile_in, compiled, executor, report

from wink_decl import ReadBeforeWritePolicy, SequentialDependencyPolicy
from wink_decl.compiler._lazy import LazyPolicy
from wink_decl.plugins import PluginCatalog

TOOLS = """\
tools:
  lookup:
    description: Look up a rule.
    handler: test.lookup
  read_file:
    description: Read a file.
    handler: test.lookup
"""


def test_declared_policies_compile_to_runtime_policies(here: Path, catalog: PluginCatalog) -> None:
    text = (
        "key: policies\n"
        "sections:\n"
        "  - key: task\n"
        "    title: Task\n"
        "    tools: [lookup, read_file]\n"
        "    policies:\n"
        "      - read_before_write: {read_tools: [read_file], write_tools: [lookup]}\n"
        "policies:\n"
        "  - sequential: {lookup: [read_file]}\n" + TOOLS
    )
    result = compile_in(here, text, catalog=catalog)
    assert report(result) == ""
    template = compiled(result).template
    (sequential,) = template.policies
    assert isinstance(sequential, SequentialDependencyPolicy)
    (section_policy, prompt_policy) = template.policies_for("lookup")
    assert isinstance(section_policy, ReadBeforeWritePolicy)
    assert section_policy.read_tools == frozenset({"read_file"})
    assert section_policy.write_tools == frozenset({"lookup"})
    assert prompt_policy is sequential


def test_sequential_names_unknown_tools_as_keys_and_as_dependencies(
    here: Path, catalog: PluginCatalog
) -> None:
    text = (
        "key: policies\n"
        "sections:\n"
        "  - {key: task, title: Task, tools: [lookup, read_file]}\n"
        "policies:\n"
        "  - sequential: {lokup: [read_file], read_file: [lookpu, nothing]}\n" + TOOLS
    )
    result = compile_in(here, text, catalog=catalog)
    assert report(result) == (
        "prompt.wink.yaml:5:18: error: Policy names tool 'lokup', which is not declared under "
        "tools:.\n"
        "  expected: a declared tool (lookup, read_file)\n"
        "   5 |   - sequential: {lokup: [read_file], read_file: [lookpu, nothing]}\n"
        "     |                  ^^^^^\n"
        "  hint: did you mean 'lookup'?\n"
        "prompt.wink.yaml:5:50: error: Policy names tool 'lookpu', which is not declared under "
        "tools:.\n"
        "  expected: a declared tool (lookup, read_file)\n"
        "   5 |   - sequential: {lokup: [read_file], read_file: [lookpu, nothing]}\n"
        "     |                                                  ^^^^^^\n"
        "  hint: did you mean 'lookup'?\n"
        "prompt.wink.yaml:5:58: error: Policy names tool 'nothing', which is not declared under "
        "tools:.\n"
        "  expected: a declared tool (lookup, read_file)\n"
        "   5 |   - sequential: {lokup: [read_file], read_file: [lookpu, nothing]}\n"
        "     |                                                          ^^^^^^^"
    )
    assert [d.suggestions for d in result.diagnostics] == [("lookup",), ("lookup",), ()]


def test_read_before_write_with_unknown_tools_is_an_error(
    here: Path, catalog: PluginCatalog
) -> None:
    text = (
        "key: policies\n"
        "sections:\n"
        "  - key: task\n"
        "    title: Task\n"
        "    tools: [lookup, read_file]\n"
        "    policies:\n"
        "      - read_before_write: {read_tools: [read_fil], write_tools: [save]}\n" + TOOLS
    )
    assert report(compile_in(here, text, catalog=catalog)) == (
        "prompt.wink.yaml:7:42: error: Policy names tool 'read_fil', which is not declared "
        "under tools:.\n"
        "  expected: a declared tool (lookup, read_file)\n"
        "   7 |       - read_before_write: {read_tools: [read_fil], write_tools: [save]}\n"
        "     |                                          ^^^^^^^^\n"
        "  hint: did you mean 'read_file'?\n"
        "prompt.wink.yaml:7:67: error: Policy names tool 'save', which is not declared under "
        "tools:.\n"
        "  expected: a declared tool (lookup, read_file)\n"
        "   7 |       - read_before_write: {read_tools: [read_fil], write_tools: [save]}\n"
        "     |                                                                   ^^^^"
    )


def test_read_before_write_watching_undeclared_tools_is_a_warning(
    here: Path, catalog: PluginCatalog
) -> None:
    text = (
        "key: policies\n"
        "sections:\n"
        "  - {key: task, title: Task, tools: [lookup]}\n"
        "policies:\n"
        "  - read_before_write: {}\n"
        "  - read_before_write: {read_tools: [], write_tools: []}\n"
        "tools:\n"
        "  lookup: {description: Look up a rule., handler: test.lookup}\n"
    )
    result = compile_in(here, text, catalog=catalog)
    assert report(result) == (
        "prompt.wink.yaml:5:5: warning: read_before_write watches tools this prompt does not "
        "declare: edit_file, read_file, write_file.\n"
        "   5 |   - read_before_write: {}\n"
        "     |     ^^^^^^^^^^^^^^^^^\n"
        "  hint: name your file tools with read_tools: and write_tools:, or give each one "
        "reads: or writes:\n"
        "prompt.wink.yaml:6:5: warning: read_before_write watches no tools.\n"
        "   6 |   - read_before_write: {read_tools: [], write_tools: []}\n"
        "     |     ^^^^^^^^^^^^^^^^^\n"
        "  hint: name your file tools with read_tools: and write_tools:, or give each one "
        "reads: or writes:"
    )
    assert result.ok  # warnings come with a prompt
    assert len(compiled(result).template.policies) == 2


def test_read_before_write_watching_no_tool_that_writes_is_a_warning(
    here: Path, catalog: PluginCatalog
) -> None:
    text = (
        "key: policies\n"
        "sections:\n"
        "  - {key: task, title: Task, tools: [lookup, read_file]}\n"
        "policies:\n"
        "  - read_before_write: {write_tools: []}\n"
        "  - read_before_write: {write_tools: [lookup]}\n" + TOOLS
    )
    result = compile_in(here, text, catalog=catalog)
    assert report(result) == (
        "prompt.wink.yaml:5:5: warning: read_before_write watches no tool that writes: this "
        "policy never refuses a call.\n"
        "   5 |   - read_before_write: {write_tools: []}\n"
        "     |     ^^^^^^^^^^^^^^^^^\n"
        "  hint: name the tools that change files with write_tools:, or give each one writes:"
    )
    assert result.ok  # warnings come with a prompt


def test_a_sequential_policy_that_makes_no_tool_wait_is_a_warning(
    here: Path, catalog: PluginCatalog
) -> None:
    text = (
        "key: policies\n"
        "sections:\n"
        "  - {key: task, title: Task, tools: [lookup, read_file]}\n"
        "policies:\n"
        "  - sequential: {lookup: []}\n"
        "  - sequential: {}\n"
        "  - sequential: {read_file: [], lookup: [read_file]}\n" + TOOLS
    )
    result = compile_in(here, text, catalog=catalog)
    assert report(result) == (
        "prompt.wink.yaml:5:5: warning: sequential makes no tool wait for another: this "
        "policy never refuses a call.\n"
        "   5 |   - sequential: {lookup: []}\n"
        "     |     ^^^^^^^^^^\n"
        "  hint: list what each tool waits for, such as {deploy: [build, test]}, or remove "
        "the policy\n"
        "prompt.wink.yaml:6:5: warning: sequential makes no tool wait for another: this "
        "policy never refuses a call.\n"
        "   6 |   - sequential: {}\n"
        "     |     ^^^^^^^^^^\n"
        "  hint: list what each tool waits for, such as {deploy: [build, test]}, or remove "
        "the policy\n"
        "prompt.wink.yaml:7:18: warning: Tool 'read_file' waits for no tool here: this entry "
        "does nothing.\n"
        "   7 |   - sequential: {read_file: [], lookup: [read_file]}\n"
        "     |                  ^^^^^^^^^\n"
        "  hint: list the tools 'read_file' must wait for, such as {read_file: [...]}, or "
        "remove the entry"
    )
    assert result.ok  # warnings come with a prompt
    assert len(compiled(result).template.policies) == 3


def test_an_unknown_plugin_policy(here: Path, catalog: PluginCatalog) -> None:
    text = (
        "key: policies\n"
        "sections:\n"
        "  - {key: task, title: Task, tools: [lookup]}\n"
        "policies:\n"
        "  - plugin: {name: test.call_limt}\n"
        "tools:\n"
        "  lookup: {description: Look up a rule., handler: test.lookup}\n"
    )
    assert report(compile_in(here, text, catalog=catalog)) == (
        "prompt.wink.yaml:5:20: error: No policy named 'test.call_limt' is installed.\n"
        "   5 |   - plugin: {name: test.call_limt}\n"
        "     |                    ^^^^^^^^^^^^^^\n"
        "  hint: did you mean 'test.call_limit'? Run 'wink-decl plugins' to list what is "
        "installed"
    )


def test_a_plugin_policy_is_built_from_its_config_on_first_use(
    here: Path, catalog: PluginCatalog
) -> None:
    text = (
        "key: policies\n"
        "sections:\n"
        "  - key: task\n"
        "    title: Task\n"
        "    tools: [lookup]\n"
        "    policies:\n"
        "      - plugin: {name: test.call_limit, config: {limit: 2}}\n"
        "policies:\n"
        "  - plugin: {name: test.call_limit, config: {limit: 1}}\n"
        "tools:\n"
        "  lookup: {description: Look up a rule., handler: test.lookup}\n"
    )
    prompt = compiled(compile_in(here, text, catalog=catalog))
    section_policy, prompt_policy = prompt.template.policies_for("lookup")
    assert isinstance(section_policy, LazyPolicy)
    assert isinstance(prompt_policy, LazyPolicy)
    assert (section_policy.name, prompt_policy.name) == ("test.call_limit", "test.call_limit")
    runner = executor(prompt)
    first = call(runner, "lookup", rule_id="E1")
    assert first.success
    assert first.result.value == compiler_plugins.LookupResult("E1", "Rule E1.")
    second = call(runner, "lookup", rule_id="E2")
    assert not second.success
    assert second.result.message == "'lookup' may succeed 1 time(s)."
    # Both policies were built from their own config, and both saw the one success.
    assert prompt_policy._policy() == compiler_plugins.CallLimit(limit=1, calls=1)
    assert section_policy._policy() == compiler_plugins.CallLimit(limit=2, calls=1)
