"""compile_file: roots and namespaces, results, the tool registry, and files that do not load."""

from __future__ import annotations

from pathlib import Path

import pytest
from compiler_support import compile_in, report, write
from hypothesis import given, settings
from hypothesis import strategies as st

from wink_decl.compiler import CompileResult, compile_file
from wink_decl.compiler._context import folder_ns
from wink_decl.compiler.compile import (
    _is_key_path,  # pyright: ignore[reportPrivateUsage]
    _prompt_ns,  # pyright: ignore[reportPrivateUsage]
)
from wink_decl.plugins import PluginCatalog

TASK = """\
key: review
sections:
  - key: task
    title: Task
    template: Review the change.
"""


def address(result: CompileResult) -> str:
    assert result.prompt is not None, report(result)
    return result.prompt.address


def test_default_root_is_the_files_folder_and_names_the_ns(
    here: Path, catalog: PluginCatalog
) -> None:
    write(here, "agents/review.wink.yaml", TASK)
    result = compile_file("agents/review.wink.yaml", catalog=catalog)
    assert report(result) == ""
    assert result.ok
    assert address(result) == "agents/review"


def test_ns_is_the_folder_path_under_the_root_lowercased(
    here: Path, catalog: PluginCatalog
) -> None:
    write(here, "Agents/code/review.wink.yaml", TASK)
    result = compile_file("Agents/code/review.wink.yaml", root=".", catalog=catalog)
    assert address(result) == "agents/code/review"


def test_a_top_level_file_takes_the_roots_name(here: Path, catalog: PluginCatalog) -> None:
    result = compile_in(here, TASK, catalog=catalog)
    assert address(result) == "prompts/review"


def test_a_file_outside_the_root_takes_the_roots_name(here: Path, catalog: PluginCatalog) -> None:
    write(here, "elsewhere/review.wink.yaml", TASK)
    result = compile_file("elsewhere/review.wink.yaml", root="agents", catalog=catalog)
    assert address(result) == "agents/review"


def test_a_folder_name_that_is_no_key_needs_an_explicit_ns(
    here: Path, catalog: PluginCatalog
) -> None:
    write(here, "My Prompts/review.wink.yaml", TASK)
    result = compile_file("My Prompts/review.wink.yaml", root=".", catalog=catalog)
    assert report(result) == (
        "My Prompts/review.wink.yaml:1:1: error: "
        "The folder path 'my prompts' cannot be used as the prompt's ns.\n"
        "   1 | key: review\n"
        "     | ^\n"
        "  hint: add ns: with segments of lowercase letters, digits, '-' or '_' joined by '/'"
    )
    assert result.prompt is None
    assert not result.ok


def test_an_explicit_ns_wins_over_the_folder(here: Path, catalog: PluginCatalog) -> None:
    write(here, "My Prompts/review.wink.yaml", "ns: team/agents\n" + TASK)
    result = compile_file("My Prompts/review.wink.yaml", root=".", catalog=catalog)
    assert address(result) == "team/agents/review"


def test_the_compiled_prompt_carries_its_source_and_template(
    here: Path, catalog: PluginCatalog
) -> None:
    result = compile_in(here, "name: Code review\n" + TASK, catalog=catalog)
    assert result.prompt is not None
    assert result.prompt.source == "prompt.wink.yaml"
    assert result.prompt.template.name == "Code review"
    assert result.prompt.params_type is None
    assert result.prompt.param_spans == {}
    assert result.sources == {"prompt.wink.yaml": "name: Code review\n" + TASK}
    assert result.prompt.template.render().text == "## 1. Task (task)\n\nReview the change."


def test_read_section_is_registered_only_when_a_section_can_be_summarized(
    here: Path, catalog: PluginCatalog
) -> None:
    plain = compile_in(here, TASK, catalog=catalog)
    summarized = compile_in(
        here,
        TASK + "    summary: The change, in short.\n    visibility: summary\n",
        name="summarized.wink.yaml",
        catalog=catalog,
    )
    assert plain.prompt is not None
    assert summarized.prompt is not None
    assert list(plain.prompt.tools) == []
    assert list(summarized.prompt.tools) == ["read_section"]
    assert summarized.prompt.tools["read_section"] is (
        summarized.prompt.template.engine.read_section_tool
    )


def test_an_unreadable_file_is_one_diagnostic_without_lines(
    here: Path, catalog: PluginCatalog
) -> None:
    result = compile_file("missing.wink.yaml", catalog=catalog)
    assert report(result) == (
        "missing.wink.yaml: error: This file cannot be read: no such file or directory.\n"
        "  expected: a prompt file that exists and can be read\n"
        "  hint: check the path and the file's permissions"
    )
    assert result.sources == {}
    assert not result.ok


def test_a_file_that_fails_to_load_still_has_its_lines_quoted(
    here: Path, catalog: PluginCatalog
) -> None:
    text = 'key: review\nsections:\n  - key: task\n    title: "Task\n'
    result = compile_in(here, text, catalog=catalog)
    assert result.sources == {"prompt.wink.yaml": text}
    assert report(result) == (
        "prompt.wink.yaml:4:12: error: This quoted text is never closed.\n"
        '  expected: a closing " at the end of the text\n'
        '   4 |     title: "Task\n'
        "     |            ^\n"
        "  hint: add the closing \" at the end of the text; inside '...' write a quote as '', "
        'inside "..." as \\"'
    )


def test_the_display_path_names_the_file_in_reports(here: Path, catalog: PluginCatalog) -> None:
    write(here, "review.wink.yaml", TASK + "    tempalte: x\n")
    result = compile_file("review.wink.yaml", display_path="shown.wink.yaml", catalog=catalog)
    assert list(result.sources) == ["shown.wink.yaml"]
    assert report(result).splitlines()[0] == (
        "shown.wink.yaml:6:5: error: Unknown key 'tempalte' in section."
    )


def test_reference_mistakes_are_reported_with_schema_errors(
    here: Path, catalog: PluginCatalog
) -> None:
    text = """\
key: Review
sections:
  - key: task
    title: Task
    template: Hi ${who}.
    tools: [look]
  - title: "!!!"
"""
    result = compile_in(here, text, catalog=catalog)
    assert report(result) == (
        "prompt.wink.yaml:1:6: error: 'Review' is not a valid key\n"
        "  expected: 1-64 lowercase letters, digits, '_' or '-', starting with a letter or digit\n"
        "   1 | key: Review\n"
        "     |      ^^^^^^\n"
        "  hint: did you mean 'review'?\n"
        "prompt.wink.yaml:5:18: error: Placeholder '${who}' is not a declared param.\n"
        "  expected: a declared param (none are declared)\n"
        "   5 |     template: Hi ${who}.\n"
        "     |                  ^^^^^^\n"
        "  hint: declare 'who' under params:\n"
        "prompt.wink.yaml:6:13: error: Tool 'look' is not declared under tools:.\n"
        "  expected: a declared tool (none are declared)\n"
        "   6 |     tools: [look]\n"
        "     |             ^^^^\n"
        "  hint: declare 'look' under tools:\n"
        "prompt.wink.yaml:7:12: error: The title '!!!' gives no usable key.\n"
        '   7 |   - title: "!!!"\n'
        "     |            ^^^^^\n"
        "  hint: add a 'key' such as 'intro'"
    )
    assert result.prompt is None


KEY_RULE = "1-64 lowercase letters, digits, '_' or '-', starting with a letter or digit"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "key: review agent\nsections:\n  - {key: a, title: A}\n",
            "prompt.wink.yaml:1:6: error: 'review agent' is not a valid key\n"
            f"  expected: {KEY_RULE}\n"
            "   1 | key: review agent\n"
            "     |      ^^^^^^^^^^^^\n"
            "  hint: did you mean 'review-agent'?",
            id="prompt-key",
        ),
        pytest.param(
            "key: review\nsections:\n  - {key: a, title: A, template: 5, summary: 4}\n",
            "prompt.wink.yaml:3:34: error: 'template' must be text; found 5\n"
            "   3 |   - {key: a, title: A, template: 5, summary: 4}\n"
            "     |                                  ^\n"
            '  hint: put it in quotes: "5"\n'
            "prompt.wink.yaml:3:46: error: 'summary' must be text; found 4\n"
            "   3 |   - {key: a, title: A, template: 5, summary: 4}\n"
            "     |                                              ^\n"
            '  hint: put it in quotes: "4"',
            id="section-texts",
        ),
        pytest.param(
            "key: review\nsections:\n  - {key: a, title: A, tools: [t]}\n"
            'tools:\n  t: {description: "  ", handler: test.lookup}\n',
            "prompt.wink.yaml:5:20: error: '  ' is not a valid tool description\n"
            "  expected: ASCII text (no accents, curly quotes or emoji), not only spaces\n"
            '   5 |   t: {description: "  ", handler: test.lookup}\n'
            "     |                    ^^^^",
            id="tool-description",
        ),
    ],
)
def test_the_runtime_does_not_repeat_what_the_schema_said(
    here: Path, catalog: PluginCatalog, text: str, expected: str
) -> None:
    assert report(compile_in(here, text, catalog=catalog)) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "key: review\n",
            "prompt.wink.yaml:1:1: error: Prompt is missing 'sections'.\n"
            "   1 | key: review\n"
            "     | ^^^^^^^^^^^\n"
            "  hint: add 'sections'",
            id="no-sections",
        ),
        pytest.param(
            "key: review\nsections: 3\ntools: [a]\npolicies: {x: 1}\nparams: []\n",
            "prompt.wink.yaml:2:11: error: 'sections' must be a list; found 3\n"
            "   2 | sections: 3\n"
            "     |           ^\n"
            "prompt.wink.yaml:3:8: error: 'tools' must be a mapping (key: value pairs); "
            "found a list\n"
            "   3 | tools: [a]\n"
            "     |        ^^^\n"
            "prompt.wink.yaml:4:11: error: 'policies' must be a list; "
            "found a mapping with key 'x'\n"
            "   4 | policies: {x: 1}\n"
            "     |           ^^^^^^\n"
            "  hint: write policies: as a list: each item on its own line after '- ', or "
            "[item, ...]\n"
            "prompt.wink.yaml:5:9: error: 'params' must be a mapping (key: value pairs); "
            "found a list\n"
            "   5 | params: []\n"
            "     |         ^^",
            id="wrong-types-everywhere",
        ),
        pytest.param(
            "key: review\nparams:\n  class: {type: string}\nsections:\n  - {key: a, title: A}\n",
            "prompt.wink.yaml:3:3: error: 'class' cannot be used as a param name: Python keywords "
            "and 'section_key' (filled in by wink-decl) are taken.\n"
            "   3 |   class: {type: string}\n"
            "     |   ^^^^^",
            id="keyword-param",
        ),
        pytest.param(
            "key: review\nsections:\n  - {key: a, title: A, enabled: {param: 3}}\n",
            "prompt.wink.yaml:3:41: error: 'param' must be text; found 3\n"
            "   3 |   - {key: a, title: A, enabled: {param: 3}}\n"
            "     |                                         ^\n"
            '  hint: put it in quotes: "3"',
            id="condition-of-the-wrong-type",  # refused by the schema: not checked again
        ),
    ],
)
def test_a_malformed_document_gives_diagnostics_never_an_exception(
    here: Path, catalog: PluginCatalog, text: str, expected: str | None
) -> None:
    result = compile_in(here, text, catalog=catalog)
    assert result.prompt is None
    assert result.diagnostics
    if expected is not None:
        assert report(result) == expected


_SEGMENTS = st.lists(st.sampled_from(["a", "B", "c d", ".", "..", ""]), max_size=4).map("/".join)
_STARTS = st.sampled_from(["", "/", "//"])


@st.composite
def _roots_and_files(draw: st.DrawFn) -> tuple[str, str]:
    """A root and a file, absolute or not, the file often below the root, oddly written."""
    root = draw(_STARTS) + draw(_SEGMENTS)
    below = draw(st.booleans())
    start = root + draw(st.sampled_from(["/", "//"])) if below else draw(_STARTS)
    return root, start + draw(_SEGMENTS) + draw(st.sampled_from(["/x.wink.yaml", "x.yaml", ""]))


@settings(max_examples=300, deadline=None)  # a busy 2-core CI machine is not what this measures
@given(names=_roots_and_files(), as_path=st.booleans())
def test_the_folder_ns_kept_per_absolute_name_is_the_one_worked_out(
    names: tuple[str, str], as_path: bool
) -> None:
    """A file's ns (and whether it can be one) is the folder's, however its names are written."""
    root, file = names
    given_root: str | Path = Path(root or ".") if as_path else root or "."
    expected = folder_ns(given_root, file)
    assert _prompt_ns(None, given_root, file) == (expected, _is_key_path(expected))
    assert _prompt_ns(None, given_root, file) == (expected, _is_key_path(expected))  # kept
