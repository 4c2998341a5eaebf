"""Whole diagnostic texts for each kind of mistake an author can make in a prompt file."""

# ruff: noqa: E501  # expected texts are whole lines as authors see them

from __future__ import annotations

import pytest
from schema_support import EXAMPLE, FakeSpans, check, errors_of, load

from wink_decl.diagnostics import Span
from wink_decl.schema import validate_document

CASES = [
    pytest.param(
        """\
key: review
sections:
  - title: Task
    tempalte: Review the change.
""",
        ("unknown-key",),
        """\
prompts/review.wink.yaml:4:5: error: Unknown key 'tempalte' in section.
  expected: one of key, title, template, summary, summary_suffix, visibility, enabled, tools, policies, accepts_overrides, children
   4 |     tempalte: Review the change.
     |     ^^^^^^^^
  hint: did you mean 'template'?""",
        id="misspelled-template",
    ),
    pytest.param(
        """\
key: review
sections:
  - title: Reference
    summary: Style rules are available.
    visibility: ful
""",
        ("enum",),
        """\
prompts/review.wink.yaml:5:17: error: 'visibility' must be one of full, summary, or {summary_when: ...}; found 'ful'
   5 |     visibility: ful
     |                 ^^^
  hint: did you mean 'full'?""",
        id="bad-visibility",
    ),
    pytest.param(
        """\
key: review
sections:
  - title: Reference
    summary: Style rules are available.
    visibility: {summry_when: {param: brief}}
""",
        ("enum",),
        """\
prompts/review.wink.yaml:5:18: error: 'visibility' must be one of full, summary, or {summary_when: ...}; found 'summry_when'
   5 |     visibility: {summry_when: {param: brief}}
     |                  ^^^^^^^^^^^
  hint: did you mean 'summary_when'?""",
        id="visibility-misspelled-key",
    ),
    pytest.param(
        """\
key: review
sections:
  - key: task
    template: Review the change.
""",
        ("missing-key",),
        """\
prompts/review.wink.yaml:3:5: error: Section is missing 'title'.
   3 |   - key: task
     |     ^^^^^^^^^
  hint: add 'title', for example 'Task'""",
        id="missing-title",
    ),
    pytest.param(
        """\
key: review
sections:
  - key: Task One
    title: Task
""",
        ("pattern",),
        """\
prompts/review.wink.yaml:3:10: error: 'Task One' is not a valid key
  expected: 1-64 lowercase letters, digits, '_' or '-', starting with a letter or digit
   3 |   - key: Task One
     |          ^^^^^^^^
  hint: did you mean 'task-one'?""",
        id="bad-section-key",
    ),
    pytest.param(
        """\
ns: Agents/Review
key: review
sections: [{title: Task}]
""",
        ("pattern",),
        """\
prompts/review.wink.yaml:1:5: error: 'Agents/Review' is not a valid namespace
  expected: keys separated by '/', each 1-64 lowercase letters, digits, '_' or '-', starting with a letter or digit
   1 | ns: Agents/Review
     |     ^^^^^^^^^^^^^
  hint: did you mean 'agents/review'?""",
        id="bad-namespace",
    ),
    pytest.param(
        """\
key: review
sections:
  - {title: Task, tools: [lookup_rule]}
tools:
  Lookup Rule: {description: Look up one rule., handler: style.lookup_rule}
""",
        ("pattern",),
        """\
prompts/review.wink.yaml:5:3: error: 'Lookup Rule' is not a valid tool name
  expected: 1-64 lowercase letters, digits, '_' or '-'
   5 |   Lookup Rule: {description: Look up one rule., handler: style.lookup_rule}
     |   ^^^^^^^^^^^
  hint: did you mean 'lookup-rule'?""",
        id="bad-tool-name",
    ),
    pytest.param(
        """\
key: review
sections: [{title: Task}]
tools:
  read_section: {description: Read a section., handler: mine.read}
""",
        ("value",),
        """\
prompts/review.wink.yaml:4:3: error: 'read_section' cannot be used as a tool name: wink-decl adds that tool itself.
   4 |   read_section: {description: Read a section., handler: mine.read}
     |   ^^^^^^^^^^^^""",
        id="reserved-tool-name",
    ),
    pytest.param(
        """\
key: review
sections: [{title: Task}]
policies:
  - sequental: {deploy: [test, build]}
""",
        ("enum",),
        """\
prompts/review.wink.yaml:4:5: error: A policy must be one of sequential, read_before_write, plugin; found 'sequental'
   4 |   - sequental: {deploy: [test, build]}
     |     ^^^^^^^^^
  hint: did you mean 'sequential'?""",
        id="unknown-policy-kind",
    ),
    pytest.param(
        """\
key: review
sections: [{title: Task}]
policies: [read_before_write]
""",
        ("type",),
        """\
prompts/review.wink.yaml:3:12: error: A policy must be one of sequential, read_before_write, plugin; found 'read_before_write'
   3 | policies: [read_before_write]
     |            ^^^^^^^^^^^^^^^^^
  hint: write it as a mapping: {read_before_write: ...}""",
        id="policy-as-text",
    ),
    pytest.param(
        """\
key: review
sections: [{title: Task}]
policies:
  - sequential: {deploy: [test]}
    plugin: {name: audit.log_calls}
""",
        ("value",),
        """\
prompts/review.wink.yaml:5:5: error: A policy has exactly one key; found 'sequential' and 'plugin'.
  expected: one of sequential, read_before_write, plugin
   5 |     plugin: {name: audit.log_calls}
     |     ^^^^^^""",
        id="policy-with-two-kinds",
    ),
    pytest.param(
        """\
key: review
sections: [{title: Task}]
policies:
  - read_before_write: {}
    strict: true
""",
        ("unknown-key",),
        """\
prompts/review.wink.yaml:5:5: error: Unknown key 'strict' in a policy: it has exactly one key.
  expected: one of sequential, read_before_write, plugin
   5 |     strict: true
     |     ^^^^^^""",
        id="policy-unknown-extra-key",
    ),
    pytest.param(
        """\
key: review
sections: [{title: Task}]
policies:
  - sequential: {deploy: [test, deploy]}
""",
        ("value",),
        """\
prompts/review.wink.yaml:4:33: error: Tool 'deploy' cannot depend on itself.
   4 |   - sequential: {deploy: [test, deploy]}
     |                                 ^^^^^^""",
        id="self-dependency",
    ),
    pytest.param(
        """\
key: review
sections:
  - title: Task
    enabled: {parm: strict}
""",
        ("enum",),
        """\
prompts/review.wink.yaml:4:15: error: 'enabled' must be true, false, or one of {param: ...}, {not: ...}, {all: [...]}, {any: [...]}, {equals: {param: ..., value: ...}}, {predicate: ...}; found 'parm'
   4 |     enabled: {parm: strict}
     |               ^^^^
  hint: did you mean 'param'?""",
        id="bad-condition",
    ),
    pytest.param(
        """\
key: review
sections:
  - title: Task
    enabled: {param: strict, not: true}
""",
        ("value",),
        """\
prompts/review.wink.yaml:4:30: error: A condition has exactly one key; found 'param' and 'not'.
  expected: true, false, or one of {param: ...}, {not: ...}, {all: [...]}, {any: [...]}, {equals: {param: ..., value: ...}}, {predicate: ...}
   4 |     enabled: {param: strict, not: true}
     |                              ^^^""",
        id="condition-with-two-keys",
    ),
    pytest.param(
        """\
key: review
sections:
  - title: Task
    enabled: yes
""",
        ("type",),
        """\
prompts/review.wink.yaml:4:14: error: 'enabled' must be true, false, or one of {param: ...}, {not: ...}, {all: [...]}, {any: [...]}, {equals: {param: ..., value: ...}}, {predicate: ...}; found 'yes'
   4 |     enabled: yes
     |              ^^^
  hint: write true or false, without quotes""",
        id="condition-yes",
    ),
    pytest.param(
        """\
key: review
sections:
  - title: Task
    enabled:
      all:
        - {param: strict}
        - {equals: {param: level}}
        - maybe
""",
        ("missing-key", "type"),
        """\
prompts/review.wink.yaml:7:12: error: 'equals' condition is missing 'value'.
   7 |         - {equals: {param: level}}
     |            ^^^^^^
  hint: add 'value', for example 'high'
prompts/review.wink.yaml:8:11: error: A condition must be true, false, or one of {param: ...}, {not: ...}, {all: [...]}, {any: [...]}, {equals: {param: ..., value: ...}}, {predicate: ...}; found 'maybe'
   8 |         - maybe
     |           ^^^^^""",
        id="nested-condition",
    ),
    pytest.param(
        """\
key: review
params:
  strict: {type: boolean, default: "no"}
sections: [{title: Task}]
""",
        ("type",),
        """\
prompts/review.wink.yaml:3:36: error: 'default' must be true or false, as 'type' is boolean; found 'no'
   3 |   strict: {type: boolean, default: "no"}
     |                                    ^^^^""",
        id="default-wrong-type",
    ),
    pytest.param(
        """\
key: review
params:
  level: {type: string, enum: [low, high], default: hihg}
sections: [{title: Task}]
""",
        ("enum",),
        """\
prompts/review.wink.yaml:3:53: error: 'default' must be one of the 'enum' values 'low', 'high'; found 'hihg'
   3 |   level: {type: string, enum: [low, high], default: hihg}
     |                                                     ^^^^
  hint: did you mean 'high'?""",
        id="default-not-in-enum",
    ),
    pytest.param(
        """\
key: review
params:
  limit: {type: integer, enum: [1, two, 3]}
sections: [{title: Task}]
""",
        ("type",),
        """\
prompts/review.wink.yaml:3:36: error: 'enum' values must be a whole number, as 'type' is integer; found 'two'
   3 |   limit: {type: integer, enum: [1, two, 3]}
     |                                    ^^^""",
        id="enum-wrong-type",
    ),
    pytest.param(
        """\
key: review
params:
  reviewers: {type: array, default: []}
sections: [{title: Task}]
""",
        ("missing-key",),
        """\
prompts/review.wink.yaml:3:21: error: An array param needs 'items', such as {type: string}.
   3 |   reviewers: {type: array, default: []}
     |                     ^^^^^""",
        id="array-without-items",
    ),
    pytest.param(
        """\
key: review
params:
  limits: {type: array, items: {type: integer}, default: [1, "2"], enum: [1]}
sections: [{title: Task}]
""",
        ("type", "value"),
        """\
prompts/review.wink.yaml:3:62: error: Item 2 of 'default' must be a whole number, as 'items' is integer; found '2'
   3 |   limits: {type: array, items: {type: integer}, default: [1, "2"], enum: [1]}
     |                                                              ^^^
prompts/review.wink.yaml:3:68: error: 'enum' is for string, integer, number and boolean params, not arrays.
   3 |   limits: {type: array, items: {type: integer}, default: [1, "2"], enum: [1]}
     |                                                                    ^^^^""",
        id="array-default-items",
    ),
    pytest.param(
        """\
key: review
params:
  language: {type: string, items: {type: string}}
sections: [{title: Task}]
""",
        ("unknown-key",),
        """\
prompts/review.wink.yaml:3:28: error: 'items' is only for array params; this one is string.
   3 |   language: {type: string, items: {type: string}}
     |                            ^^^^^""",
        id="items-on-text",
    ),
    pytest.param(
        """\
key: review
params:
  language: {type: str}
sections: [{title: Task}]
""",
        ("enum",),
        """\
prompts/review.wink.yaml:3:20: error: 'type' must be one of string, integer, number, boolean, array; found 'str'
   3 |   language: {type: str}
     |                    ^^^
  hint: did you mean 'string'?""",
        id="param-type-misspelled",
    ),
    pytest.param(
        """\
key: review
params:
  language: string
sections: [{title: Task}]
""",
        ("type",),
        """\
prompts/review.wink.yaml:3:13: error: 'language' must be a mapping (key: value pairs); found 'string'
   3 |   language: string
     |             ^^^^^^
  hint: write {type: string}""",
        id="param-as-type-name",
    ),
    pytest.param(
        """\
key: review
params:
  language: {type: string, default: {en: English}}
sections: [{title: Task}]
""",
        ("type",),
        """\
prompts/review.wink.yaml:3:37: error: 'default' must be text, a number, true or false, or a list of those; found a mapping with key 'en'
   3 |   language: {type: string, default: {en: English}}
     |                                     ^^^^^^^^^^^^^""",
        id="param-default-mapping",
    ),
    pytest.param(
        """\
key: review
params:
  class: {type: string}
  section_key: {type: string}
sections: [{title: Task}]
""",
        ("value", "value"),
        """\
prompts/review.wink.yaml:3:3: error: 'class' cannot be used as a param name: Python keywords and 'section_key' (filled in by wink-decl) are taken.
   3 |   class: {type: string}
     |   ^^^^^
prompts/review.wink.yaml:4:3: error: 'section_key' cannot be used as a param name: Python keywords and 'section_key' (filled in by wink-decl) are taken.
   4 |   section_key: {type: string}
     |   ^^^^^^^^^^^""",
        id="param-keyword-name",
    ),
    pytest.param(
        """\
key: review
sections: [{title: Task}]
tools:
  lookup_rule:
    description: Look up one rule.
    handler: style.lookup_rule
    timeout: 5
""",
        ("unknown-key",),
        """\
prompts/review.wink.yaml:7:5: error: Unknown key 'timeout' in tool 'lookup_rule'.
  expected: one of description, handler, params, result, reads, writes, examples, accepts_overrides
   7 |     timeout: 5
     |     ^^^^^^^""",
        id="extra-key-in-tool",
    ),
    pytest.param(
        """\
key: review
sections: [{title: Task}]
tools:
  lookup_rule:
    description: Look up one rule.
""",
        ("missing-key",),
        """\
prompts/review.wink.yaml:4:3: error: Tool 'lookup_rule' is missing 'handler'.
   4 |   lookup_rule:
     |   ^^^^^^^^^^^
  hint: add 'handler', for example 'style.lookup_rule'""",
        id="tool-missing-handler",
    ),
    pytest.param(
        """\
key: review
sections: [{title: Task}]
tools:
  lookup_rule:
    description: Look up one rule \u2014 fast.
    handler: style.lookup_rule
    examples:
      - {description: " ", input: [E501]}
""",
        ("pattern", "pattern", "type"),
        """\
prompts/review.wink.yaml:5:18: error: 'Look up one rule \u2014 fast.' is not a valid tool description
  expected: ASCII text (no accents, curly quotes or emoji), not only spaces
   5 |     description: Look up one rule \u2014 fast.
     |                  ^^^^^^^^^^^^^^^^^^^^^^^^
prompts/review.wink.yaml:8:23: error: ' ' is not valid text
  expected: some text, not only spaces
   8 |       - {description: " ", input: [E501]}
     |                       ^^^
prompts/review.wink.yaml:8:35: error: 'input' must be a mapping (key: value pairs); found a list
   8 |       - {description: " ", input: [E501]}
     |                                   ^^^^^^""",
        id="tool-description",
    ),
    pytest.param(
        """\
key: review
sections:
  - {key: task, title: "\u00a0\u3000", template: Work.}
""",
        ("pattern",),
        """\
prompts/review.wink.yaml:3:24: error: '\\xa0\\u3000' is not a valid title
  expected: one line of text
   3 |   - {key: task, title: "\u00a0\u3000", template: Work.}
     |                        ^^^^""",
        id="unicode-blank-title-and-template",
    ),
    pytest.param(
        """\
key: review
sections:
  - title: Reference
    visibility: summary
""",
        ("missing-key",),
        """\
prompts/review.wink.yaml:4:17: error: A summarized section needs a 'summary'.
   4 |     visibility: summary
     |                 ^^^^^^^
  hint: add 'summary', or set 'visibility' to full""",
        id="summary-without-summary",
    ),
    pytest.param(
        """\
key: review
sections:
  - title: "???"
""",
        ("missing-key",),
        """\
prompts/review.wink.yaml:3:12: error: The title '???' gives no usable key.
   3 |   - title: "???"
     |            ^^^^^
  hint: add a 'key' such as 'intro'""",
        id="title-without-key",
    ),
    pytest.param(
        """\
key: review
sections:
  - title: 2024
""",
        ("type",),
        """\
prompts/review.wink.yaml:3:12: error: 'title' must be text; found 2024
   3 |   - title: 2024
     |            ^^^^
  hint: put it in quotes: "2024\"""",
        id="title-as-number",
    ),
    pytest.param(
        """\
key: review
sections:
  - include: /etc/prompts.yaml#tone
  - include: common/safety.wink.yaml#tone
    title: Tone
""",
        ("pattern", "unknown-key"),
        """\
prompts/review.wink.yaml:3:14: error: '/etc/prompts.yaml#tone' is not a valid include reference
  expected: a relative file path, '#', then a dotted section path such as common/safety.wink.yaml#tone
   3 |   - include: /etc/prompts.yaml#tone
     |              ^^^^^^^^^^^^^^^^^^^^^^
prompts/review.wink.yaml:5:5: error: Unknown key 'title' in include.
  expected: only include
   5 |     title: Tone
     |     ^^^^^""",
        id="bad-include",
    ),
    pytest.param(
        """\
key: review
sections:
  - task
""",
        ("type",),
        """\
prompts/review.wink.yaml:3:5: error: A section must be a mapping with a 'title', or an include ({include: file#section}); found 'task'
   3 |   - task
     |     ^^^^""",
        id="section-as-text",
    ),
    pytest.param(
        """\
key: review
sections: []
""",
        ("value",),
        """\
prompts/review.wink.yaml:2:11: error: 'sections' needs at least 1 item; found none
   2 | sections: []
     |           ^^""",
        id="no-sections",
    ),
    pytest.param(
        """\
name: Review
""",
        ("missing-key", "missing-key"),
        """\
prompts/review.wink.yaml:1:1: error: Prompt is missing 'key'.
   1 | name: Review
     | ^^^^^^^^^^^^
  hint: add 'key', for example 'code-review'
prompts/review.wink.yaml:1:1: error: Prompt is missing 'sections'.
   1 | name: Review
     | ^^^^^^^^^^^^
  hint: add 'sections'""",
        id="missing-key-and-sections",
    ),
    pytest.param(
        """\
- key: review
""",
        ("type",),
        """\
prompts/review.wink.yaml:1:1: error: The document must be a mapping (key: value pairs); found a list
   1 | - key: review
     | ^^^^^^^^^^^^^""",
        id="not-a-mapping",
    ),
    pytest.param(
        """\
key: review
sections:
  - title: Task
    tools: lookup_rule
""",
        ("type",),
        """\
prompts/review.wink.yaml:4:12: error: 'tools' must be a list; found 'lookup_rule'
   4 |     tools: lookup_rule
     |            ^^^^^^^^^^^""",
        id="wrong-list",
    ),
    pytest.param(
        """\
key: review
params:
  reviewers: {type: array, items: {type: string}, default: alice}
sections: [{title: Task}]
""",
        ("type",),
        """\
prompts/review.wink.yaml:3:60: error: 'default' must be a list, as 'type' is array; found 'alice'
   3 |   reviewers: {type: array, items: {type: string}, default: alice}
     |                                                            ^^^^^""",
        id="array-default-not-a-list",
    ),
    pytest.param(
        """\
key: review
params:
  Max Items: {type: integer}
sections: [{title: Task}]
""",
        ("pattern",),
        """\
prompts/review.wink.yaml:3:3: error: 'Max Items' is not a valid param name
  expected: 1-64 lowercase letters, digits or '_', starting with a letter
   3 |   Max Items: {type: integer}
     |   ^^^^^^^^^
  hint: did you mean 'max_items'?""",
        id="bad-param-name",
    ),
    pytest.param(
        """\
key: review
params:
  1: {type: integer}
sections: [{title: Task}]
""",
        ("type",),
        """\
prompts/review.wink.yaml:3:3: error: Key 1 must be text
   3 |   1: {type: integer}
     |   ^
  hint: put it in quotes: "1\"""",
        id="number-as-key",
    ),
    pytest.param(
        """\
key: review
sections:
  - title: 2024-05-01
""",
        ("type",),
        """\
prompts/review.wink.yaml:3:12: error: 'title' must be text; found 2024-05-01 (a date)
   3 |   - title: 2024-05-01
     |            ^^^^^^^^^^
  hint: put it in quotes: "2024-05-01\"""",
        id="date-as-title",
    ),
]


@pytest.mark.parametrize(("source", "codes", "expected"), CASES)
def test_whole_text(source: str, codes: tuple[str, ...], expected: str) -> None:
    diagnostics, rendered = check(source)
    assert rendered == expected
    assert tuple(d.code for d in diagnostics) == codes


@pytest.mark.parametrize(
    "source", [case.values[0] for case in CASES], ids=[str(case.id) for case in CASES]
)
def test_no_programmer_words(source: str) -> None:
    rendered = errors_of(str(source))
    for word in ("Input should", "extra_forbidden", "http", "pydantic", "tagged-union", "[key]"):
        assert word not in rendered


def test_the_example_document_is_valid() -> None:
    data, spans = load(EXAMPLE)
    document, diagnostics = validate_document(data, spans)
    assert diagnostics == []
    assert document is not None
    assert document.key == "code-review"


def test_every_problem_is_reported_in_file_order() -> None:
    rendered = errors_of(
        """\
key: Review
sections:
  - title: Task
    tempalte: x
    visibility: ful
policies: [{sequental: {}}]
"""
    )
    headers = [line for line in rendered.splitlines() if ": error: " in line]
    assert [header.split(": error: ")[0] for header in headers] == [
        "prompts/review.wink.yaml:1:6",
        "prompts/review.wink.yaml:4:5",
        "prompts/review.wink.yaml:5:17",
        "prompts/review.wink.yaml:6:13",
    ]


def test_without_spans_the_nearest_known_place_is_used() -> None:
    data, _ = load("key: review\nsections:\n  - title: Task\n    tempalte: x\n")
    spans = FakeSpans("p.yaml", values={("sections", 0): Span("p.yaml", 3, 5, 4, 15)})
    _, diagnostics = validate_document(data, spans)
    assert [(d.code, d.span) for d in diagnostics] == [("unknown-key", Span("p.yaml", 3, 5, 4, 15))]
    assert diagnostics[0].suggestions == ("template",)


def test_missing_key_with_no_spans_at_all_points_at_the_start() -> None:
    _, diagnostics = validate_document({"key": "review"}, FakeSpans("p.yaml"))
    assert [(d.message, d.span) for d in diagnostics] == [
        ("Prompt is missing 'sections'.", Span("p.yaml", 1, 1))
    ]


def test_tool_description_longer_than_200_characters() -> None:
    description = " ".join(["Look up one rule."] * 12)
    source = (
        "key: review\nsections: [{title: Task}]\ntools:\n  lookup_rule:\n"
        f"    description: {description}\n    handler: style.lookup_rule\n"
    )
    diagnostics, _ = check(source)
    assert [(d.code, d.message) for d in diagnostics] == [
        ("value", "'description' must be at most 200 characters; found 215")
    ]
