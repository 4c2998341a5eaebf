"""Placeholders and blocks of other template languages: warnings with the fix, and no others."""

from __future__ import annotations

from pathlib import Path

import pytest
from compiler_support import compile_in, report

from wink_decl.compiler import _foreign_syntax

HEAD = "key: habits\nparams:\n  topic: {type: string}\n  strict: {type: boolean, default: false}\n"

BLOCK_HINT = (
    "  hint: templates have no blocks: conditions go in `enabled:`, on a section of its own "
    "for the text they guard; a loop has no equivalent: write the text out, or pass it in a "
    "param\n"
)


def prompt(template: str, more: str = "") -> str:
    """A prompt whose one section has ``template`` as a literal block, and ``more`` keys."""
    body = "".join(f"      {line}\n" for line in template.splitlines())
    return f"{HEAD}sections:\n  - key: task\n    title: Task\n{more}    template: |\n{body}"


def test_placeholders_of_other_languages_are_warnings_with_the_dollar_spelling(
    here: Path,
) -> None:
    result = compile_in(
        here,
        prompt(
            "Review {{topic}}, {{ topic }}, {topic} and {{ topic | upper }}.\n"
            "Again {{topic}}, {{{topic}}}, but ${topic} and $${topic} are fine.",
            "    summary: About {topic}.\n    summary_suffix: ({section_key})\n",
        ),
    )
    assert report(result) == (
        "prompt.wink.yaml:8:20: warning: '{topic}' is not a placeholder here: the model reads "
        "it as written.\n"
        "   8 |     summary: About {topic}.\n"
        "     |                    ^^^^^^^\n"
        "  hint: write ${topic}\n"
        "prompt.wink.yaml:9:22: warning: '{section_key}' is not a placeholder here: the model "
        "reads it as written.\n"
        "   9 |     summary_suffix: ({section_key})\n"
        "     |                      ^^^^^^^^^^^^^\n"
        "  hint: write ${section_key}\n"
        "prompt.wink.yaml:11:14: warning: '{{topic}}' is not a placeholder here: the model "
        "reads it as written.\n"
        "  11 |       Review {{topic}}, {{ topic }}, {topic} and {{ topic | upper }}.\n"
        "     |              ^^^^^^^^^\n"
        "  hint: write ${topic}\n"
        "prompt.wink.yaml:11:25: warning: '{{ topic }}' is not a placeholder here: the model "
        "reads it as written.\n"
        "  11 |       Review {{topic}}, {{ topic }}, {topic} and {{ topic | upper }}.\n"
        "     |                         ^^^^^^^^^^^\n"
        "  hint: write ${topic}\n"
        "prompt.wink.yaml:11:38: warning: '{topic}' is not a placeholder here: the model reads "
        "it as written.\n"
        "  11 |       Review {{topic}}, {{ topic }}, {topic} and {{ topic | upper }}.\n"
        "     |                                      ^^^^^^^\n"
        "  hint: write ${topic}\n"
        "prompt.wink.yaml:11:50: warning: '{{ topic | upper }}' is not a placeholder here: the "
        "model reads it as written.\n"
        "  11 |       Review {{topic}}, {{ topic }}, {topic} and {{ topic | upper }}.\n"
        "     |                                                  ^^^^^^^^^^^^^^^^^^^\n"
        "  hint: write ${topic}; a filter or attribute has no equivalent: pass the value ready "
        "to use"
    )
    assert result.ok  # warnings come with a prompt


def test_blocks_and_comments_of_other_languages_are_warnings(here: Path) -> None:
    result = compile_in(
        here,
        prompt(
            "{% if strict %}Be strict.{% endif %}\n"
            "{%- for x in items -%}{{ x }}{% endfor %}\n"
            "{# a note #} {{#if strict}}Strict.{{else}}Kind.{{/if}}"
        ),
    )
    assert report(result) == (
        "prompt.wink.yaml:9:7: warning: '{% if strict %}' is a block of another template "
        "language: the model reads it as written.\n"
        "   9 |       {% if strict %}Be strict.{% endif %}\n"
        "     |       ^^^^^^^^^^^^^^^\n"
        "  hint: conditions go in `enabled:`: put the text it guards in a section of its own "
        "with enabled: {param: strict}\n"
        "prompt.wink.yaml:9:32: warning: '{% endif %}' is a block of another template "
        "language: the model reads it as written.\n"
        "   9 |       {% if strict %}Be strict.{% endif %}\n"
        "     |                                ^^^^^^^^^^^\n" + BLOCK_HINT + ""
        "prompt.wink.yaml:10:7: warning: '{%- for x in items -%}' is a block of another "
        "template language: the model reads it as written.\n"
        "  10 |       {%- for x in items -%}{{ x }}{% endfor %}\n"
        "     |       ^^^^^^^^^^^^^^^^^^^^^^\n" + BLOCK_HINT + ""
        "prompt.wink.yaml:10:29: warning: '{{ x }}' is not a placeholder here: the model reads "
        "it as written.\n"
        "  10 |       {%- for x in items -%}{{ x }}{% endfor %}\n"
        "     |                             ^^^^^^^\n"
        "  hint: write ${x}\n"
        "prompt.wink.yaml:10:36: warning: '{% endfor %}' is a block of another template "
        "language: the model reads it as written.\n"
        "  10 |       {%- for x in items -%}{{ x }}{% endfor %}\n"
        "     |                                    ^^^^^^^^^^^^\n" + BLOCK_HINT + ""
        "prompt.wink.yaml:11:7: warning: '{# a note #}' is a comment of another template "
        "language: the model reads it as written.\n"
        "  11 |       {# a note #} {{#if strict}}Strict.{{else}}Kind.{{/if}}\n"
        "     |       ^^^^^^^^^^^^\n"
        "  hint: move the note to a # comment of the file, outside the text\n"
        "prompt.wink.yaml:11:20: warning: '{{#if strict}}' is a block of another template "
        "language: the model reads it as written.\n"
        "  11 |       {# a note #} {{#if strict}}Strict.{{else}}Kind.{{/if}}\n"
        "     |                    ^^^^^^^^^^^^^^\n"
        "  hint: conditions go in `enabled:`: put the text it guards in a section of its own "
        "with enabled: {param: strict}\n"
        "prompt.wink.yaml:11:41: warning: '{{else}}' is a block of another template language: "
        "the model reads it as written.\n"
        "  11 |       {# a note #} {{#if strict}}Strict.{{else}}Kind.{{/if}}\n"
        "     |                                         ^^^^^^^^\n" + BLOCK_HINT + ""
        "prompt.wink.yaml:11:54: warning: '{{/if}}' is a block of another template language: "
        "the model reads it as written.\n"
        "  11 |       {# a note #} {{#if strict}}Strict.{{else}}Kind.{{/if}}\n"
        "     |                                                      ^^^^^^^\n" + BLOCK_HINT[:-1]
    )


def test_braces_that_are_ordinary_text_are_left_alone(here: Path) -> None:
    result = compile_in(
        here,
        prompt(
            'JSON {"a": 1}, {"topic": "x"} and {{"a": 1}}; code def f(): return {}.\n'
            "CSS a { color: red }; routes /users/{id} and {name}; sets {1, 2}; {{}} and {}.\n"
            "Rust {:?} and {0}; a heading {#intro}; ${topic}, $${topic}, ${topic}s.\n"
            "Shell $${HOME:-x}; spaced { topic } and {topic }; a {{topic} half."
        ),
    )
    assert report(result) == ""


def test_a_placeholder_beside_a_foreign_one_is_still_warned_of(here: Path) -> None:
    # Every '{' but one opens a ${name}: the quick look before the scans must not skip it.
    result = compile_in(here, prompt("Review ${topic}, ${strict} and {topic}."))
    assert report(result) == (
        "prompt.wink.yaml:9:38: warning: '{topic}' is not a placeholder here: the model reads "
        "it as written.\n"
        "   9 |       Review ${topic}, ${strict} and {topic}.\n"
        "     |                                      ^^^^^^^\n"
        "  hint: write ${topic}"
    )


@pytest.mark.parametrize(
    ("text", "may_hold"),
    [
        ("No braces at all.", False),
        ("Review ${topic} for ${strict}.", False),
        ("Cost $${topic} and ${topic}.", False),
        ("Review {topic}.", True),
        ("Review ${topic} and {topic}.", True),
        ("A {{topic}} here.", True),
        ("A {% if strict %} block.", True),
        ("A {# note #} comment.", True),
        ("${{topic}}", True),
    ],
)
def test_the_quick_look_skips_only_texts_no_scan_can_match(text: str, may_hold: bool) -> None:
    quick_look = _foreign_syntax.may_hold_foreign
    scans = _foreign_syntax._findings  # pyright: ignore[reportPrivateUsage]
    assert quick_look(text) is may_hold
    if not may_hold:
        assert list(scans(text, [{"topic", "strict"}, {"section_key"}])) == []
