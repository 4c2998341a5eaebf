"""Tools: declared or handler-given types, examples, and handler references."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, cast

import compiler_plugins
import pytest
from compiler_support import (
    bound_report,
    call,
    compile_in,
    compiled,
    executor,
    lazy,
    one_tool,
    report,
)
from concurrency import AnnouncingLock, run_threads

from wink_decl import PromptRenderError, Session, ToolExample
from wink_decl.compiler import bind_plugins
from wink_decl.compiler._context import CompileContext
from wink_decl.compiler._lazy import LazyTool
from wink_decl.compiler._tool_compiler import compile_tool, pascal
from wink_decl.diagnostics import render_text
from wink_decl.loader import load_text
from wink_decl.plugins import PluginCatalog
from wink_decl.prompt.tool_schema import params_json_schema, to_anthropic_tools, to_openai_tools
from wink_decl.schema.model import ToolDoc, ToolExampleDoc


def test_declared_params_result_and_examples(here: Path, catalog: PluginCatalog) -> None:
    text = one_tool(
        "    description: Look up a rule.\n"
        "    handler: test.lookup\n"
        "    accepts_overrides: false\n"
        "    params:\n"
        "      rule_id: {type: string, description: The rule's id.}\n"
        "      verbose: {type: boolean, default: false}\n"
        "    result:\n"
        "      rule_id: {type: string}\n"
        "      text: {type: string}\n"
        "    examples:\n"
        "      - description: Line length\n"
        "        input: {rule_id: E501}\n"
        "        output: {rule_id: E501, text: Lines are short.}\n"
    )
    prompt = compiled(compile_in(here, text, catalog=catalog))
    tool = prompt.tools["lookup"]
    assert tool.description == "Look up a rule."
    assert not tool.accepts_overrides
    assert tool.params_type.__name__ == "LookupParams"
    assert tool.result_type is not None
    assert tool.result_type.__name__ == "LookupResult"
    assert tool.params_type is not compiler_plugins.LookupParams
    assert params_json_schema(tool.params_type) == {
        "type": "object",
        "properties": {
            "rule_id": {"type": "string", "description": "The rule's id."},
            "verbose": {"type": "boolean", "default": False},
        },
        "required": ["rule_id"],
        "additionalProperties": False,
    }
    (example,) = tool.examples
    assert isinstance(example, ToolExample)
    assert example.description == "Line length"
    assert dataclasses.asdict(example.input) == {"rule_id": "E501", "verbose": False}
    assert dataclasses.asdict(example.output) == {"rule_id": "E501", "text": "Lines are short."}
    assert lazy(tool.handler).target is None  # nothing was imported to compile it


def test_the_handlers_own_dataclasses_are_used_when_the_file_declares_none(
    here: Path, catalog: PluginCatalog
) -> None:
    text = one_tool(
        "    description: Look up a rule.\n"
        "    handler: test.lookup\n"
        "    examples:\n"
        "      - description: Line length\n"
        "        input: {rule_id: E501}\n"
        "        output: {rule_id: E501, text: Lines are short.}\n"
    )
    tool = compiled(compile_in(here, text, catalog=catalog)).tools["lookup"]
    assert isinstance(tool, LazyTool)
    assert lazy(tool.handler).target is None  # compiling imported nothing
    assert repr(tool) == "LazyTool(name='lookup', handler='test.lookup@test-plugins', untyped)"
    assert tool.params_type is compiler_plugins.LookupParams  # the first read imports it
    assert tool.result_type is compiler_plugins.LookupResult
    assert tool.examples[0].input == compiler_plugins.LookupParams("E501")
    assert lazy(tool.handler).target is compiler_plugins.lookup
    assert repr(tool) == "LazyTool(name='lookup', handler='test.lookup@test-plugins', typed)"


def test_declared_params_with_examples_take_the_result_from_the_handler(
    here: Path, catalog: PluginCatalog
) -> None:
    text = one_tool(
        "    description: Look up a rule.\n"
        "    handler: test.lookup\n"
        "    params:\n"
        "      rule_id: {type: string}\n"
        "    examples:\n"
        "      - description: Line length\n"
        "        input: {rule_id: E501}\n"
        "        output: {rule_id: E501, text: Lines are short.}\n"
    )
    tool = compiled(compile_in(here, text, catalog=catalog)).tools["lookup"]
    assert tool.params_type.__name__ == "LookupParams"
    assert tool.params_type is not compiler_plugins.LookupParams
    assert tool.result_type is compiler_plugins.LookupResult


def test_declared_params_are_checked_now_when_the_result_comes_from_the_handler(
    here: Path, catalog: PluginCatalog
) -> None:
    text = one_tool(
        "    description: Look up a rule.\n"
        "    handler: test.lookup\n"
        "    params:\n"
        "      rule_id: {type: string}\n"
        "    examples:\n"
        "      - description: Wrong input\n"
        "        input: {rule_id: 3}\n"
    )
    result = compile_in(here, text, catalog=catalog)
    assert result.prompt is None
    assert report(result) == (
        "prompt.wink.yaml:14:16: error: This example does not fit the declared fields: "
        "Field 'rule_id' must be a string, got integer.\n"
        "  14 |         input: {rule_id: 3}\n"
        "     |                ^^^^^^^^^^^^"
    )


def test_a_declared_result_with_examples_keeps_the_handlers_params(
    here: Path, catalog: PluginCatalog
) -> None:
    text = one_tool(
        "    description: Look up a rule.\n"
        "    handler: test.lookup\n"
        "    result:\n"
        "      text: {type: string}\n"
        "    examples:\n"
        "      - description: Line length\n"
        "        input: {rule_id: E501}\n"
        "        output: {text: Lines are short.}\n"
    )
    tool = compiled(compile_in(here, text, catalog=catalog)).tools["lookup"]
    assert tool.params_type is compiler_plugins.LookupParams
    assert tool.result_type is not None
    assert [f.name for f in dataclasses.fields(tool.result_type)] == ["text"]


def test_an_example_output_needs_a_result(here: Path, catalog: PluginCatalog) -> None:
    text = one_tool(
        "    description: Look at a rule.\n"
        "    handler: test.no_result\n"
        "    params:\n"
        "      rule_id: {type: string}\n"
        "    examples:\n"
        "      - description: With output\n"
        "        input: {rule_id: E1}\n"
        "        output: {text: x}\n"
    )
    result = compile_in(here, text, catalog=catalog)
    assert report(result) == ""  # whether the handler gives a result is known once bound
    assert bound_report(result) == (
        "prompt.wink.yaml:15:9: error: This example has an output, but the tool declares no "
        "result.\n"
        "  15 |         output: {text: x}\n"
        "     |         ^^^^^^\n"
        "  hint: declare the result fields under result:, or remove the output"
    )


def test_an_example_without_output_is_fine_when_there_is_no_result(
    here: Path, catalog: PluginCatalog
) -> None:
    text = one_tool(
        "    description: Look at a rule.\n"
        "    handler: test.no_result\n"
        "    examples:\n"
        "      - description: No output\n"
        "        input: {rule_id: E1}\n"
    )
    tool = compiled(compile_in(here, text, catalog=catalog)).tools["lookup"]
    assert tool.result_type is None
    assert tool.examples == (ToolExample("No output", compiler_plugins.LookupParams("E1"), None),)


def test_example_input_and_output_must_fit_the_fields(here: Path, catalog: PluginCatalog) -> None:
    text = one_tool(
        "    description: Look up a rule.\n"
        "    handler: test.lookup\n"
        "    examples:\n"
        "      - description: Wrong input\n"
        "        input: {rule: E1}\n"
        "        output: {rule_id: E1, text: x}\n"
        "      - description: Wrong output\n"
        "        input: {rule_id: E1}\n"
        "        output: {rule_id: 3}\n"
        "      - description: No output\n"
        "        input: {rule_id: E1}\n"
    )
    result = compile_in(here, text, catalog=catalog)
    assert report(result) == ""  # the fields are the handler's: checked when it is bound
    assert bound_report(result) == (
        "prompt.wink.yaml:12:16: error: This example does not fit the declared fields: "
        "Missing required field 'rule_id'. Unknown field 'rule' (allowed: rule_id, verbose).\n"
        "  12 |         input: {rule: E1}\n"
        "     |                ^^^^^^^^^^\n"
        "prompt.wink.yaml:16:17: error: This example does not fit the declared fields: "
        "Field 'rule_id' must be a string, got integer. Missing required field 'text'.\n"
        "  16 |         output: {rule_id: 3}\n"
        "     |                 ^^^^^^^^^^^^\n"
        "prompt.wink.yaml:17:9: error: This example does not fit the declared fields: "
        "Missing required field 'rule_id'. Missing required field 'text'.\n"
        "  17 |       - description: No output\n"
        "     |         ^^^^^^^^^^^^^^^^^^^^^^"
    )


def test_a_handler_without_a_params_dataclass_needs_declared_params(
    here: Path, catalog: PluginCatalog
) -> None:
    result = compile_in(
        here, one_tool("    description: Untyped.\n    handler: test.untyped\n"), catalog=catalog
    )
    assert report(result) == ""
    assert bound_report(result) == (
        "prompt.wink.yaml:9:14: error: Handler 'test.untyped' does not annotate its params "
        "with a dataclass.\n"
        "   9 |     handler: test.untyped\n"
        "     |              ^^^^^^^^^^^^\n"
        "  hint: declare the tool's fields under params:"
    )


@pytest.mark.parametrize(
    ("handler", "expected"),
    [
        pytest.param(
            "test.lokup",
            "prompt.wink.yaml:9:14: error: No handler named 'test.lokup' is installed.\n"
            "   9 |     handler: test.lokup\n"
            "     |              ^^^^^^^^^^\n"
            "  hint: did you mean 'test.lookup', 'test.untyped' or 'shared.lookup'? "
            "Run 'wink-decl plugins' to list what is installed",
            id="unknown",
        ),
        pytest.param(
            "shared.lookup",
            "prompt.wink.yaml:9:14: error: Handler 'shared.lookup' is registered by two "
            "distributions: other-plugins 2.0, test-plugins 1.0.\n"
            "   9 |     handler: shared.lookup\n"
            "     |              ^^^^^^^^^^^^^\n"
            "  hint: choose one: shared.lookup@other-plugins, shared.lookup@test-plugins",
            id="ambiguous",
        ),
    ],
)
def test_handler_references_that_do_not_resolve(
    here: Path, catalog: PluginCatalog, handler: str, expected: str
) -> None:
    text = one_tool(f"    description: Look up a rule.\n    handler: {handler}\n")
    result = compile_in(here, text, catalog=catalog)
    assert report(result) == expected
    assert result.prompt is None


@pytest.mark.parametrize(
    ("handler", "expected"),
    [
        pytest.param(
            "test.missing",
            "prompt.wink.yaml:9:14: error: Tool 'lookup' cannot use handler 'test.missing': "
            "Could not import handler 'test.missing' (test-plugins 1.0, value "
            "'compiler_plugins:not_there'): AttributeError: module 'compiler_plugins' has no "
            "attribute 'not_there'\n"
            "   9 |     handler: test.missing\n"
            "     |              ^^^^^^^^^^^^\n"
            "  hint: check that the plugin's version matches this prompt, or name another entry "
            "point",
            id="import-failure",
        ),
        pytest.param(
            "test.wrong_shape",
            "prompt.wink.yaml:9:14: error: Tool 'lookup' cannot use handler 'test.wrong_shape': "
            "Handler 'test.wrong_shape' (test-plugins 1.0, value 'compiler_plugins:wrong_shape') "
            "for tool 'lookup' must have the signature (params, *, context); wrong_shape has "
            "(params: 'LookupParams') -> 'ToolResult[LookupResult]'.\n"
            "   9 |     handler: test.wrong_shape\n"
            "     |              ^^^^^^^^^^^^^^^^\n"
            "  hint: check that the plugin's version matches this prompt, or name another entry "
            "point",
            id="bad-signature",
        ),
    ],
)
def test_a_handler_that_would_give_the_types_is_checked_when_it_is_bound(
    here: Path, catalog: PluginCatalog, handler: str, expected: str
) -> None:
    text = one_tool(f"    description: Look up a rule.\n    handler: {handler}\n")
    result = compile_in(here, text, catalog=catalog)
    assert report(result) == ""  # installed, as far as the metadata says: that is all it checks
    assert bound_report(result) == expected
    tool = compiled(result).tools["lookup"]
    assert isinstance(tool, LazyTool)
    assert (tool.settled, tool.typed) == (True, False)
    (raw,) = tool.bind()  # what it found; bind_plugins reported the handler in its own words
    assert raw.code == "handler"
    with pytest.raises(PromptRenderError) as info:
        _ = tool.params_type
    assert info.value.message.startswith(
        f"Tool 'lookup' takes its types from handler '{handler}', which cannot give them: "
    )


def test_naming_the_distribution_picks_one_of_two(here: Path, catalog: PluginCatalog) -> None:
    text = one_tool("    description: Look up a rule.\n    handler: shared.lookup@other-plugins\n")
    tool = compiled(compile_in(here, text, catalog=catalog)).tools["lookup"]
    assert lazy(tool.handler).entry.distribution == "other-plugins"
    assert tool.params_type is compiler_plugins.LookupParams
    assert lazy(tool.handler).target is compiler_plugins.lookup_elsewhere


def test_a_blank_example_description_counts_unicode_spaces_as_the_runtime_does(
    here: Path, catalog: PluginCatalog
) -> None:
    text = one_tool(
        "    description: Look up a rule.\n"
        "    handler: test.lookup\n"
        "    examples:\n"
        '      - description: "\\u00a0"\n'
        "        input: {rule_id: E1}\n"
        "        output: {rule_id: E1, text: x}\n"
    )
    assert report(compile_in(here, text, catalog=catalog)) == (
        "prompt.wink.yaml:11:22: error: '\\xa0' is not valid text\n"
        "  expected: some text, not only spaces\n"
        '  11 |       - description: "\\u00a0"\n'
        "     |                      ^^^^^^^^"
    )


def _past_the_schema(data: dict[str, Any]) -> ToolDoc:
    """The tool as the file wrote it, unchecked: only the runtime's own checks can refuse it."""
    if "examples" in data:
        examples = tuple(ToolExampleDoc.model_construct(**item) for item in data["examples"])
        data = {**data, "examples": examples}
    return ToolDoc.model_construct(**data)


def test_the_runtime_refusal_of_a_tool_is_reported_at_its_declaration(
    catalog: PluginCatalog,
) -> None:
    # A safety net for data the schema let through by mistake: fed past the schema on purpose.
    text = (
        "tools:\n"
        "  lookup:\n"
        "    description: Look up a rule.\n"
        "    handler: test.lookup\n"
        "    examples: [{description: ' ', input: {rule_id: E1}, output: {rule_id: E1, text: x}}]\n"
    )
    loaded = load_text(text, path="prompt.wink.yaml", format="yaml").file
    assert loaded is not None
    ctx = CompileContext(loaded)
    spec: dict[str, Any] = cast("dict[str, Any]", loaded.data)["tools"]["lookup"]
    tool = compile_tool(ctx, ("tools", "lookup"), "lookup", _past_the_schema(spec), catalog)
    assert isinstance(tool, LazyTool)  # its example waits for the handler's types
    assert ctx.bag.items == []
    assert render_text(tool.bind(), {loaded.path: loaded.text}) == (
        "prompt.wink.yaml:2:3: error: Tool 'lookup' example 1: description must be 1-200 "
        "characters after stripping.\n"
        "   2 |   lookup:\n"
        "     |   ^^^^^^"
    )
    assert tool.bind() is tool.bind()  # once


def test_the_runtime_refusal_of_a_tool_typed_by_its_handler_is_reported_when_compiled(
    catalog: PluginCatalog,
) -> None:
    # What is known without the handler is checked by the runtime at once (the description).
    text = "tools:\n  lookup:\n    description: Look up a r\u00fcle.\n    handler: test.lookup\n"
    loaded = load_text(text, path="prompt.wink.yaml", format="yaml").file
    assert loaded is not None
    ctx = CompileContext(loaded)
    spec: dict[str, Any] = cast("dict[str, Any]", loaded.data)["tools"]["lookup"]
    assert compile_tool(ctx, ("tools", "lookup"), "lookup", _past_the_schema(spec), catalog) is None
    assert render_text(ctx.bag.items, {loaded.path: loaded.text}) == (
        "prompt.wink.yaml:2:3: error: Tool 'lookup' description must be ASCII; it contains "
        "'\u00fc'.\n"
        "   2 |   lookup:\n"
        "     |   ^^^^^^"
    )


NO_PARAMS: dict[str, object] = {"type": "object", "properties": {}, "additionalProperties": False}


def test_a_handler_that_takes_none_compiles_to_a_tool_without_params(
    here: Path, catalog: PluginCatalog
) -> None:
    text = one_tool("    description: Tell the time.\n    handler: time.now\n", name="now")
    prompt = compiled(compile_in(here, text, catalog=catalog))
    tool = prompt.tools["now"]
    assert tool.params_type is type(None)
    assert tool.result_type is compiler_plugins.Clock
    assert to_openai_tools([tool]) == [
        {
            "type": "function",
            "function": {"name": "now", "description": "Tell the time.", "parameters": NO_PARAMS},
        }
    ]
    assert to_anthropic_tools([tool])[0]["input_schema"] == NO_PARAMS
    assert prompt.artifact["tools"]["now"]["parameters"] == NO_PARAMS
    session = Session()
    runner = executor(prompt, session=session)
    outcome = call(runner, "now")
    assert (outcome.success, outcome.message.content) == (
        True,
        'It is 18:00 UTC.\n\n{"now": "2026-11-25T18:00:00Z"}',
    )
    assert compiler_plugins.recorded == [(None, session)]  # the handler was given None
    refused = call(runner, "now", zone="UTC")
    assert (refused.success, refused.message.content) == (
        False,
        "Invalid arguments for tool 'now': Unknown field 'zone' (allowed: none).",
    )
    assert len(compiler_plugins.recorded) == 1


def test_examples_of_a_tool_without_params_have_an_empty_input(
    here: Path, catalog: PluginCatalog
) -> None:
    text = one_tool(
        "    description: Tell the time.\n"
        "    handler: time.now\n"
        "    examples:\n"
        "      - description: Any time\n"
        "        input: {}\n"
        "        output: {now: '2026-01-01T00:00:00Z'}\n",
        name="now",
    )
    tool = compiled(compile_in(here, text, catalog=catalog)).tools["now"]
    assert tool.examples == (
        ToolExample("Any time", None, compiler_plugins.Clock("2026-01-01T00:00:00Z")),
    )
    wrong = text.replace("input: {}", "input: {zone: UTC}")
    assert report(compile_in(here, wrong, catalog=catalog)) == ""
    assert bound_report(compile_in(here, wrong, catalog=catalog)) == (
        "prompt.wink.yaml:12:16: error: This example has an input, but the tool takes no "
        "params.\n"
        "  12 |         input: {zone: UTC}\n"
        "     |                ^^^^^^^^^^^\n"
        "  hint: leave the input empty: input: {}"
    )


def test_bind_plugins_names_declared_params_a_handler_that_takes_none_cannot_receive(
    here: Path, catalog: PluginCatalog
) -> None:
    text = one_tool(
        "    description: Tell the time.\n"
        "    handler: time.now\n"
        "    params:\n"
        "      zone: {type: string}\n"
        "      format: {type: string}\n",
        name="now",
    )
    result = compile_in(here, text, catalog=catalog)
    assert render_text(bind_plugins(compiled(result)), result.sources) == (
        "prompt.wink.yaml:9:14: error: Tool 'now' cannot use handler 'time.now': Field 'zone' "
        "is declared in the prompt file but the handler takes no params. Field 'format' is "
        "declared in the prompt file but the handler takes no params.\n"
        "   9 |     handler: time.now\n"
        "     |              ^^^^^^^^\n"
        "  hint: check that the plugin's version matches this prompt, or name another entry point"
    )
    empty = one_tool(
        "    description: Tell the time.\n    handler: time.now\n    params: {}\n", name="now"
    )
    assert bind_plugins(compiled(compile_in(here, empty, catalog=catalog))) == []


@pytest.mark.parametrize(
    ("name", "expected"),
    [("lookup_rule", "LookupRule"), ("read-file", "ReadFile"), ("x", "X"), ("", "Prompt")],
)
def test_pascal(name: str, expected: str) -> None:
    assert pascal(name) == expected


def test_a_thread_that_waited_to_type_a_tool_takes_the_first_threads_answer(
    here: Path, catalog: PluginCatalog
) -> None:
    """Exactly the interleaving the lock is for, made to happen every time."""
    text = one_tool("    description: Look up a rule.\n    handler: test.lookup\n")
    tool = compiled(compile_in(here, text, catalog=catalog)).tools["lookup"]
    assert isinstance(tool, LazyTool)
    lock = AnnouncingLock()
    object.__setattr__(tool, "_lock", lock)
    complete = tool._complete  # pyright: ignore[reportPrivateUsage]
    assert complete is not None
    calls: list[int] = []

    def slow() -> Any:  # hold the typing until the other thread waits for the lock
        calls.append(1)
        assert lock.waiting.acquire(timeout=20), "the other thread never waited for the lock"
        return complete()

    object.__setattr__(tool, "_complete", slow)
    assert run_threads(lambda _: tool.bind(), threads=2) == [(), ()]
    assert (calls, tool.params_type) == ([1], compiler_plugins.LookupParams)
