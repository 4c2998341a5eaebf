"""Includes: sections (and their tools) from other files under the root, and every way they fail."""

# pyright: reportPrivateUsage=false

from __future__ import annotations

import os
from pathlib import Path

import pytest
from compiler_support import compile_in, compiled, report, write

from wink_decl.compiler import make_params
from wink_decl.compiler._includes import _display
from wink_decl.compiler._sections import section_key
from wink_decl.plugins import PluginCatalog
from wink_decl.schema import SectionDoc

STYLE = """\
key: style
sections:
  - title: Style
    template: Style for ${language}.
    tools: [check]
    children:
      - key: rules
        title: Rules
        tools: [lookup]
      - include: common/tone.wink.yaml#tone
tools:
  check:
    description: Check style.
    handler: test.no_result
  lookup:
    description: Shadowed by the including file's own lookup.
    handler: test.untyped
"""
TONE = "key: tone\nsections:\n  - {key: tone, title: Tone, template: Be kind.}\n"


def test_an_included_section_brings_its_children_tools_and_nested_includes(
    here: Path, catalog: PluginCatalog
) -> None:
    write(here, "common/style.wink.yaml", STYLE)
    write(here, "common/tone.wink.yaml", TONE)
    text = """\
key: main
params:
  language: {type: string, default: Python}
sections:
  - key: intro
    title: Intro
    children:
      - include: common/style.wink.yaml#style
  - include: common/tone.wink.yaml#tone
tools:
  lookup:
    description: Main lookup.
    handler: test.lookup
"""
    result = compile_in(here, text, catalog=catalog)
    assert report(result) == ""
    assert list(result.sources) == [
        "prompt.wink.yaml",
        "common/style.wink.yaml",
        "common/tone.wink.yaml",
    ]
    assert result.includes == (
        (here / "common/style.wink.yaml").resolve(),
        (here / "common/tone.wink.yaml").resolve(),
    )
    prompt = compiled(result)
    assert prompt.template.render(*make_params(prompt, {})).text == (
        "## 1. Intro (intro)\n\n"
        "### 1.1. Style (intro.style)\n\n"
        "Style for Python.\n\n"
        "#### 1.1.1. Rules (intro.style.rules)\n\n"
        "#### 1.1.2. Tone (intro.style.tone)\n\n"
        "Be kind.\n\n"
        "## 2. Tone (tone)\n\n"
        "Be kind."
    )
    assert sorted(prompt.tools) == ["check", "lookup"]
    assert prompt.tools["lookup"].description == "Main lookup."
    tools = prompt.artifact["tools"]
    assert (tools["check"]["handler"], tools["check"]["section"]) == (
        "test.no_result@test-plugins",
        "intro.style",
    )
    assert (tools["lookup"]["handler"], tools["lookup"]["section"]) == (
        "test.lookup",
        "intro.style.rules",
    )


def test_a_section_included_twice_offers_its_tools_twice(
    here: Path, catalog: PluginCatalog
) -> None:
    write(here, "common/style.wink.yaml", STYLE)
    write(here, "common/tone.wink.yaml", TONE)
    text = """\
key: main
params:
  language: {type: string, default: Python}
sections:
  - key: intro
    title: Intro
    children:
      - include: common/style.wink.yaml#style.rules
  - include: common/style.wink.yaml#style.rules
tools:
  lookup: {description: Main lookup., handler: test.lookup}
"""
    assert report(compile_in(here, text, catalog=catalog)) == (
        "common/style.wink.yaml:9:17: error: Tool 'lookup' is already offered by section "
        "'intro.rules'.\n"
        "   9 |         tools: [lookup]\n"
        "     |                 ^^^^^^\n"
        "  hint: a tool belongs to one section; keep it where the model reads about it\n"
        "prompt.wink.yaml:9:14: error: Included section 'style.rules' has errors (listed with "
        "it).\n"
        "   9 |   - include: common/style.wink.yaml#style.rules\n"
        "     |              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^"
    )


def test_policies_in_an_included_section_may_name_the_included_files_tools(
    here: Path, catalog: PluginCatalog
) -> None:
    write(
        here,
        "lib.wink.yaml",
        """\
key: lib
sections:
  - key: x
    title: X
    tools: [check]
    policies:
      - sequential: {check: []}
tools:
  check: {description: Check style., handler: test.no_result}
""",
    )
    prompt = compiled(
        compile_in(here, "key: main\nsections:\n  - include: lib.wink.yaml#x\n", catalog=catalog)
    )
    assert prompt.artifact["policies"]["tools"] == {"check": ["sequential_dependency"]}


def test_include_mistakes(here: Path, catalog: PluginCatalog) -> None:
    write(
        here,
        "common/shared.wink.yaml",
        """\
key: shared
sections:
  - key: tone
    title: Tone
    children:
      - {key: voice, title: Voice}
      - include: common/loop.wink.yaml#a
""",
    )
    write(
        here,
        "common/loop.wink.yaml",
        "key: loop\nsections:\n  - key: a\n    title: A\n    children:\n"
        "      - include: common/loop.wink.yaml#a\n",
    )
    text = """\
key: main
sections:
  - include: common/shared.wink.yaml#tone.vocie
  - include: common/shared.wink.yaml#nothing.like.it
  - include: ../elsewhere.wink.yaml#tone
  - include: common/missing.wink.yaml#tone
  - include: common/loop.wink.yaml#a
"""
    result = compile_in(here, text, catalog=catalog)
    assert report(result) == (
        "common/loop.wink.yaml:6:18: error: Includes form a cycle: common/loop.wink.yaml#a -> "
        "common/loop.wink.yaml#a.\n"
        "   6 |       - include: common/loop.wink.yaml#a\n"
        "     |                  ^^^^^^^^^^^^^^^^^^^^^^^\n"
        "prompt.wink.yaml:3:14: error: 'common/shared.wink.yaml' has no section 'tone.vocie'.\n"
        "  expected: one of tone, tone.voice\n"
        "   3 |   - include: common/shared.wink.yaml#tone.vocie\n"
        "     |              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "  hint: did you mean 'tone.voice'?\n"
        "prompt.wink.yaml:4:14: error: 'common/shared.wink.yaml' has no section "
        "'nothing.like.it'.\n"
        "  expected: one of tone, tone.voice\n"
        "   4 |   - include: common/shared.wink.yaml#nothing.like.it\n"
        "     |              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "prompt.wink.yaml:5:14: error: Include '../elsewhere.wink.yaml#tone' points outside the "
        "prompt root.\n"
        "   5 |   - include: ../elsewhere.wink.yaml#tone\n"
        "     |              ^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "  hint: included files must live under the folder the prompts are loaded from\n"
        "prompt.wink.yaml:6:14: error: Included file 'common/missing.wink.yaml' does not exist.\n"
        "   6 |   - include: common/missing.wink.yaml#tone\n"
        "     |              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "prompt.wink.yaml:7:14: error: Included section 'a' has errors (listed with it).\n"
        "   7 |   - include: common/loop.wink.yaml#a\n"
        "     |              ^^^^^^^^^^^^^^^^^^^^^^^"
    )
    assert result.includes == tuple(
        (here / name).resolve()
        for name in [
            "common/shared.wink.yaml",
            "common/missing.wink.yaml",
            "common/loop.wink.yaml",
        ]
    )


def test_an_included_file_with_schema_errors_reports_them_with_its_own_path(
    here: Path, catalog: PluginCatalog
) -> None:
    write(here, "common/bad.wink.yaml", "key: bad\nsections:\n  - key: a\n    titel: A\n")
    text = (
        "key: main\n"
        "sections:\n"
        "  - include: common/bad.wink.yaml#a\n"
        "  - {key: b, title: B, children: [{include: common/bad.wink.yaml#a}]}\n"
    )
    result = compile_in(here, text, catalog=catalog)
    assert report(result) == (
        "common/bad.wink.yaml:3:5: error: Section is missing 'title'.\n"
        "   3 |   - key: a\n"
        "     |     ^^^^^^\n"
        "  hint: add 'title', for example 'Task'\n"
        "common/bad.wink.yaml:4:5: error: Unknown key 'titel' in section.\n"
        "  expected: one of key, title, template, summary, summary_suffix, visibility, enabled, "
        "tools, policies, accepts_overrides, children\n"
        "   4 |     titel: A\n"
        "     |     ^^^^^\n"
        "  hint: did you mean 'title'?\n"
        "prompt.wink.yaml:3:14: error: Included file 'common/bad.wink.yaml' has errors (listed "
        "with it).\n"
        "   3 |   - include: common/bad.wink.yaml#a\n"
        "     |              ^^^^^^^^^^^^^^^^^^^^^^\n"
        "prompt.wink.yaml:4:45: error: Included file 'common/bad.wink.yaml' has errors (listed "
        "with it).\n"
        "   4 |   - {key: b, title: B, children: [{include: common/bad.wink.yaml#a}]}\n"
        "     |                                             ^^^^^^^^^^^^^^^^^^^^^^"
    )


def test_an_included_file_that_does_not_load_still_has_its_lines_quoted(
    here: Path, catalog: PluginCatalog
) -> None:
    write(here, "common/broken.wink.yaml", 'key: broken\nsections:\n  - key: a\n    title: "A\n')
    text = "key: main\nsections:\n  - include: common/broken.wink.yaml#a\n"
    result = compile_in(here, text, catalog=catalog)
    assert report(result) == (
        "common/broken.wink.yaml:4:12: error: This quoted text is never closed.\n"
        '  expected: a closing " at the end of the text\n'
        '   4 |     title: "A\n'
        "     |            ^\n"
        "  hint: add the closing \" at the end of the text; inside '...' write a quote as '', "
        'inside "..." as \\"\n'
        "prompt.wink.yaml:3:14: error: Included file 'common/broken.wink.yaml' has errors "
        "(listed with it).\n"
        "   3 |   - include: common/broken.wink.yaml#a\n"
        "     |              ^^^^^^^^^^^^^^^^^^^^^^^^^"
    )


def test_an_included_section_with_errors(here: Path, catalog: PluginCatalog) -> None:
    write(
        here,
        "common/tone.wink.yaml",
        "key: tone\nsections:\n  - {key: tone, title: Tone, template: Speak $langauge.}\n",
    )
    text = (
        "key: main\n"
        "params:\n"
        "  language: {type: string}\n"
        "sections:\n"
        "  - include: common/tone.wink.yaml#tone\n"
    )
    assert report(compile_in(here, text, catalog=catalog)) == (
        "common/tone.wink.yaml:3:46: error: Placeholder '$langauge' is not a declared param.\n"
        "  expected: a declared param (language)\n"
        "   3 |   - {key: tone, title: Tone, template: Speak $langauge.}\n"
        "     |                                              ^^^^^^^^^\n"
        "  hint: did you mean 'language'?\n"
        "prompt.wink.yaml:5:14: error: Included section 'tone' has errors (listed with it).\n"
        "   5 |   - include: common/tone.wink.yaml#tone\n"
        "     |              ^^^^^^^^^^^^^^^^^^^^^^^^^^"
    )


def test_include_problems_are_found_even_when_the_schema_failed(
    here: Path, catalog: PluginCatalog
) -> None:
    text = "key: Main\nsections:\n  - include: common/missing.wink.yaml#tone\n"
    assert report(compile_in(here, text, catalog=catalog)) == (
        "prompt.wink.yaml:1:6: error: 'Main' is not a valid key\n"
        "  expected: 1-64 lowercase letters, digits, '_' or '-', starting with a letter or digit\n"
        "   1 | key: Main\n"
        "     |      ^^^^\n"
        "  hint: did you mean 'main'?\n"
        "prompt.wink.yaml:3:14: error: Included file 'common/missing.wink.yaml' does not exist.\n"
        "   3 |   - include: common/missing.wink.yaml#tone\n"
        "     |              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^"
    )


def test_an_include_finds_a_section_by_its_key_or_by_its_title() -> None:
    # A title that gives no key cannot get this far: the schema refuses it without a key.
    assert section_key(SectionDoc.model_validate({"title": "Project Context"})) == "project-context"
    assert section_key(SectionDoc.model_validate({"key": "task", "title": "***"})) == "task"


def test_a_file_on_another_drive_is_shown_by_its_full_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    target = Path("/prompts/common/tone.wink.yaml")

    def other_drive(path: str | os.PathLike[str], start: str | None = None) -> str:
        raise ValueError("path is on mount 'D:', start on mount 'C:'")

    monkeypatch.setattr(os.path, "relpath", other_drive)
    assert _display(target) == str(target)


def test_a_control_character_in_an_include_is_a_schema_error_not_a_crash(
    here: Path, catalog: PluginCatalog
) -> None:
    text = 'key: main\nsections:\n  - include: "common/\\0.wink.yaml#tone"\n'
    assert report(compile_in(here, text, catalog=catalog)) == (
        "prompt.wink.yaml:3:14: error: 'common/\\x00.wink.yaml#tone' is not a valid include "
        "reference\n"
        "  expected: a relative file path, '#', then a dotted section path such as "
        "common/safety.wink.yaml#tone\n"
        '   3 |   - include: "common/\\0.wink.yaml#tone"\n'
        "     |              ^^^^^^^^^^^^^^^^^^^^^^^^^^"
    )


def test_an_include_of_a_file_without_keyed_sections_says_what_was_expected(
    here: Path, catalog: PluginCatalog
) -> None:
    write(here, "common/empty.wink.yaml", "key: empty\nsections:\n  - include: other.wink.yaml#x\n")
    text = "key: main\nsections:\n  - include: common/empty.wink.yaml#tone\n"
    assert report(compile_in(here, text, catalog=catalog)) == (
        "prompt.wink.yaml:3:14: error: 'common/empty.wink.yaml' has no section 'tone'.\n"
        "  expected: a file with keyed sections\n"
        "   3 |   - include: common/empty.wink.yaml#tone\n"
        "     |              ^^^^^^^^^^^^^^^^^^^^^^^^^^^"
    )


def test_an_include_naming_a_folder_says_so(here: Path, catalog: PluginCatalog) -> None:
    (here / "common").mkdir()
    text = "key: main\nsections:\n  - include: common#tone\n"
    assert report(compile_in(here, text, catalog=catalog)) == (
        "prompt.wink.yaml:3:14: error: Included file 'common' is a folder, not a file.\n"
        "   3 |   - include: common#tone\n"
        "     |              ^^^^^^^^^^^"
    )
