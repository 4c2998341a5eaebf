"""``reads:`` / ``writes:`` on a tool: compiled into the Tool, checked against its params."""

from __future__ import annotations

from pathlib import Path

import compiler_plugins
import pytest
from compiler_support import bound_report, compile_in, compiled, lazy, one_tool, report

from wink_decl import ReadBeforeWritePolicy
from wink_decl.plugins import PluginCatalog


def test_reads_and_writes_compile_into_the_tool_without_importing_its_handler(
    here: Path, catalog: PluginCatalog
) -> None:
    text = one_tool(
        "    description: Copy one file to another.\n"
        "    handler: test.lookup\n"
        "    params:\n"
        "      source: {type: string}\n"
        "      target: {type: string, enum: [a.txt, b.txt]}\n"
        "    reads: source\n"
        "    writes: target\n",
        name="copy",
    )
    prompt = compiled(compile_in(here, text, catalog=catalog))
    tool = prompt.tools["copy"]
    assert (tool.reads, tool.writes) == ("source", "target")
    assert lazy(tool.handler).target is None  # checked against the file's params alone
    spec = prompt.artifact["tools"]["copy"]
    assert (spec["reads"], spec["writes"]) == ("source", "target")


def test_without_params_in_the_file_they_name_the_handlers_params(
    here: Path, catalog: PluginCatalog
) -> None:
    text = one_tool(
        "    description: Look up a rule.\n    handler: test.lookup\n    reads: rule_id\n"
    )
    tool = compiled(compile_in(here, text, catalog=catalog)).tools["lookup"]
    assert (tool.reads, tool.writes) == ("rule_id", None)
    assert lazy(tool.handler).target is None  # the handler's params are checked when bound
    assert tool.params_type is compiler_plugins.LookupParams


HEADER = "    description: Save a file.\n    handler: test.lookup\n"


@pytest.mark.parametrize(
    ("declaration", "expected"),
    [
        pytest.param(
            HEADER + "    params:\n      path: {type: string}\n      text: {type: string}\n"
            "    writes: pth\n",
            "prompt.wink.yaml:13:13: error: Tool 'lookup' writes the file named by param 'pth', "
            "which it does not take.\n"
            "  expected: one of its params (path, text)\n"
            "  13 |     writes: pth\n"
            "     |             ^^^\n"
            "  hint: did you mean 'path'?",
            id="declared-params-did-you-mean",
        ),
        pytest.param(
            HEADER + "    params:\n      path: {type: string}\n    reads: source_file\n",
            "prompt.wink.yaml:12:12: error: Tool 'lookup' reads the file named by param "
            "'source_file', which it does not take.\n"
            "  expected: one of its params (path)\n"
            "  12 |     reads: source_file\n"
            "     |            ^^^^^^^^^^^",
            id="declared-params-nothing-close",
        ),
        pytest.param(
            HEADER + "    params: {}\n    writes: path\n",
            "prompt.wink.yaml:11:13: error: Tool 'lookup' writes the file named by param 'path', "
            "which it does not take.\n"
            "  expected: one of its params (it takes none)\n"
            "  11 |     writes: path\n"
            "     |             ^^^^\n"
            "  hint: give the tool a param that holds the path, or remove writes:",
            id="declared-empty-params",
        ),
        pytest.param(
            HEADER + "    params:\n      count: {type: integer}\n      path: {type: string}\n"
            "      name: {type: string}\n    writes: count\n",
            "prompt.wink.yaml:14:13: error: Tool 'lookup' writes the file named by param "
            "'count', which is an integer, not a string.\n"
            "  expected: a string param (path, name)\n"
            "  14 |     writes: count\n"
            "     |             ^^^^^",
            id="an-integer",
        ),
        pytest.param(
            HEADER + "    params:\n      paths: {type: array, items: {type: string}}\n"
            "    reads: paths\n",
            "prompt.wink.yaml:12:12: error: Tool 'lookup' reads the file named by param "
            "'paths', which is an array, not a string.\n"
            "  expected: a string param (it has none)\n"
            "  12 |     reads: paths\n"
            "     |            ^^^^^",
            id="an-array",
        ),
        pytest.param(
            HEADER + "    params:\n      strict: {type: boolean}\n    reads: strict\n",
            "prompt.wink.yaml:12:12: error: Tool 'lookup' reads the file named by param "
            "'strict', which is a boolean, not a string.\n"
            "  expected: a string param (it has none)\n"
            "  12 |     reads: strict\n"
            "     |            ^^^^^^",
            id="a-boolean",
        ),
    ],
)
def test_a_param_that_cannot_hold_the_path_is_reported_at_the_value(
    here: Path, catalog: PluginCatalog, declaration: str, expected: str
) -> None:
    result = compile_in(here, one_tool(declaration), catalog=catalog)
    assert report(result) == expected
    assert result.prompt is None


@pytest.mark.parametrize(
    ("declaration", "expected"),
    [
        pytest.param(
            HEADER + "    reads: rule\n",
            "prompt.wink.yaml:10:12: error: Tool 'lookup' reads the file named by param 'rule', "
            "which it does not take.\n"
            "  expected: one of its params (rule_id, verbose)\n"
            "  10 |     reads: rule\n"
            "     |            ^^^^\n"
            "  hint: did you mean 'rule_id'?",
            id="the-handlers-params",
        ),
        pytest.param(
            "    description: Tell the time.\n    handler: time.now\n    writes: path\n",
            "prompt.wink.yaml:10:13: error: Tool 'lookup' writes the file named by param 'path', "
            "which it does not take.\n"
            "  expected: one of its params (it takes none)\n"
            "  10 |     writes: path\n"
            "     |             ^^^^\n"
            "  hint: give the tool a param that holds the path, or remove writes:",
            id="a-handler-that-takes-none",
        ),
    ],
)
def test_a_param_the_handler_does_not_take_is_reported_when_it_is_bound(
    here: Path, catalog: PluginCatalog, declaration: str, expected: str
) -> None:
    # The handler's params are known only once it is imported: validation leaves it alone.
    result = compile_in(here, one_tool(declaration), catalog=catalog)
    assert report(result) == ""
    assert lazy(compiled(result).tools["lookup"].handler).target is None
    assert bound_report(result) == expected


def test_declared_params_are_checked_even_when_the_handler_cannot_be_used(
    here: Path, catalog: PluginCatalog
) -> None:
    text = one_tool(
        "    description: Save a file.\n"
        "    handler: test.unimportable\n"
        "    params: {path: {type: string}}\n"
        "    writes: pth\n"
        "  other:\n"
        "    description: Save a file.\n"
        "    handler: zzz.qqq\n"
        "    params: {path: {type: string}}\n"
        "    writes: paht\n"
    )
    assert report(compile_in(here, text, catalog=catalog)) == (
        # The unimportable handler is not imported: its import error waits for the first call.
        "prompt.wink.yaml:11:13: error: Tool 'lookup' writes the file named by param 'pth', "
        "which it does not take.\n"
        "  expected: one of its params (path)\n"
        "  11 |     writes: pth\n"
        "     |             ^^^\n"
        "  hint: did you mean 'path'?\n"
        "prompt.wink.yaml:12:3: warning: Tool 'other' is declared but no section offers it.\n"
        "  12 |   other:\n"
        "     |   ^^^^^\n"
        "  hint: list it under tools: in the section that explains when to use it\n"
        "prompt.wink.yaml:14:14: error: No handler named 'zzz.qqq' is installed.\n"
        "  14 |     handler: zzz.qqq\n"
        "     |              ^^^^^^^\n"
        "  hint: run 'wink-decl plugins' to list what is installed\n"
        "prompt.wink.yaml:16:13: error: Tool 'other' writes the file named by param 'paht', "
        "which it does not take.\n"
        "  expected: one of its params (path)\n"
        "  16 |     writes: paht\n"
        "     |             ^^^^\n"
        "  hint: did you mean 'path'?"
    )


def test_a_value_that_is_not_text_is_left_to_the_schema(here: Path, catalog: PluginCatalog) -> None:
    # The checks after the schema's still run: the second tool's mistake is reported too.
    text = one_tool(
        "    description: Save a file.\n"
        "    handler: test.lookup\n"
        "    params: {path: {type: string}}\n"
        "    writes: 3\n"
        "    reads: [path]\n"
        "  other:\n"
        "    description: Save a file.\n"
        "    handler: test.lookup\n"
        "    params: {path: {type: string}}\n"
        "    writes: pth\n"
    ).replace("tools: [lookup]", "tools: [lookup, other]")
    assert report(compile_in(here, text, catalog=catalog)) == (
        "prompt.wink.yaml:11:13: error: 'writes' must be text; found 3\n"
        "  11 |     writes: 3\n"
        "     |             ^\n"
        '  hint: put it in quotes: "3"\n'
        "prompt.wink.yaml:12:12: error: 'reads' must be text; found a list\n"
        "  12 |     reads: [path]\n"
        "     |            ^^^^^^\n"
        "prompt.wink.yaml:17:13: error: Tool 'other' writes the file named by param 'pth', "
        "which it does not take.\n"
        "  expected: one of its params (path)\n"
        "  17 |     writes: pth\n"
        "     |             ^^^\n"
        "  hint: did you mean 'path'?"
    )


def test_the_same_in_toml(here: Path, catalog: PluginCatalog) -> None:
    text = (
        'key = "tools"\n'
        "\n"
        "[[sections]]\n"
        'key = "task"\n'
        'title = "Task"\n'
        'tools = ["save"]\n'
        "\n"
        "[tools.save]\n"
        'description = "Save a file."\n'
        'handler = "test.lookup"\n'
        'params = { path = { type = "string" }, size = { type = "number" } }\n'
        'writes = "pth"\n'
        'reads = "size"\n'
    )
    assert report(compile_in(here, text, name="prompt.wink.toml", catalog=catalog)) == (
        "prompt.wink.toml:12:10: error: Tool 'save' writes the file named by param 'pth', "
        "which it does not take.\n"
        "  expected: one of its params (path, size)\n"
        '  12 | writes = "pth"\n'
        "     |          ^^^^^\n"
        "  hint: did you mean 'path'?\n"
        "prompt.wink.toml:13:9: error: Tool 'save' reads the file named by param 'size', "
        "which is a number, not a string.\n"
        "  expected: a string param (path)\n"
        '  13 | reads = "size"\n'
        "     |         ^^^^^^"
    )


POLICY_PROMPT = """\
key: files
sections:
  - key: task
    title: Task
    tools: [save]
    policies: [{read_before_write: {read_tools: [], write_tools: []}}]
tools:
  save:
    description: Save a file.
    handler: test.lookup
    params: {path: {type: string}}
    writes: {writes}
"""


def test_read_before_write_watches_a_tool_that_declares_writes(
    here: Path, catalog: PluginCatalog
) -> None:
    result = compile_in(here, POLICY_PROMPT.replace("{writes}", "path"), catalog=catalog)
    assert report(result) == ""  # no "watches no tools" warning: 'save' declares writes:
    (policy,) = compiled(result).template.policies_for("save")
    assert isinstance(policy, ReadBeforeWritePolicy)
    assert (policy.read_tools, policy.write_tools) == (frozenset(), frozenset())


def test_a_file_tool_with_errors_does_not_add_a_warning_about_the_policy(
    here: Path, catalog: PluginCatalog
) -> None:
    # 'save' did not compile, so whether it writes is unknown: only its own error is shown.
    result = compile_in(here, POLICY_PROMPT.replace("{writes}", "file"), catalog=catalog)
    assert report(result) == (
        "prompt.wink.yaml:12:13: error: Tool 'save' writes the file named by param 'file', "
        "which it does not take.\n"
        "  expected: one of its params (path)\n"
        "  12 |     writes: file\n"
        "     |             ^^^^"
    )
