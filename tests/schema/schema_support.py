"""A stand-in for the loader's span index: JSON paths mapped to spans, built from YAML text.

Also ``schema_errors``: what the published JSON Schema finds, to hold the model to it.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from functools import cache
from typing import Any, cast

import jsonschema.exceptions
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError as SchemaError
from ruamel.yaml import YAML
from ruamel.yaml.nodes import MappingNode, SequenceNode

from wink_decl.diagnostics import Diagnostic, Span, render_text
from wink_decl.schema import JSONPath, load_published_schema, validate_document

EXAMPLE = """\
# yaml-language-server: $schema=../schema/wink-decl.schema.json
ns: agents/review
key: code-review
name: Code review
description: Reviews a change against the house style.
params:
  language: {type: string, description: Language of the change}
  strict: {type: boolean, default: false}
  reviewers: {type: array, items: {type: string}, default: []}
  level: {type: string, enum: [low, high], default: low}
sections:
  - key: task
    title: Task
    template: Review the ${language} change below.
  - key: reference
    title: Reference
    visibility: summary
    summary: Style rules for ${language} are available.
    summary_suffix: Call `read_section` with "${section_key}" for the rules.
    enabled: {param: strict}
    template: Cite rules by id.
    tools: [lookup_rule]
    policies: [{read_before_write: {}}]
    accepts_overrides: true
    children:
      - title: Details
        visibility:
          summary_when: {all: [{param: strict}, {not: {equals: {param: level, value: low}}}]}
        summary: Details are available.
      - include: common/safety.wink.yaml#tone
  - include: common/safety.wink.yaml#tone
tools:
  lookup_rule:
    description: Look up one style rule by id.
    handler: style.lookup_rule
    params: {rule_id: {type: string, description: Rule id such as E501}}
    result: {rule_id: {type: string}, text: {type: string}}
    examples:
      - description: Line length
        input: {rule_id: E501}
        output: {rule_id: E501, text: Lines are at most 100 characters.}
    accepts_overrides: true
policies:
  - sequential: {deploy: [test, build]}
  - read_before_write: {write_tools: [write_file, edit_file], path_field: path}
  - plugin: {name: audit.log_calls, config: {level: info}}
  - plugin: {name: audit.predicate@acme-audit}
"""
"""The format's example document: every construct once."""


@dataclass
class FakeSpans:
    """A ``SpanLookup`` over two plain mappings; ``nearest`` walks up to a known ancestor."""

    path: str
    values: dict[JSONPath, Span] = field(default_factory=dict[JSONPath, Span])
    keys: dict[JSONPath, Span] = field(default_factory=dict[JSONPath, Span])

    def value_span(self, json_path: JSONPath) -> Span | None:
        return self.values.get(json_path)

    def key_span(self, json_path: JSONPath) -> Span | None:
        return self.keys.get(json_path)

    def nearest(self, json_path: JSONPath) -> Span:
        for end in range(len(json_path), -1, -1):
            found = self.values.get(json_path[:end])
            if found is not None:
                return found
        return Span(self.path, 1, 1)


def _span(path: str, node: Any) -> Span:
    start, end = node.start_mark, node.end_mark
    return Span(path, start.line + 1, start.column + 1, end.line + 1, max(end.column, 1))


def _index(spans: FakeSpans, node: Any, at: JSONPath) -> None:
    spans.values[at] = _span(spans.path, node)
    children: Any = node.value
    if isinstance(node, MappingNode):
        for key_node, value_node in children:
            tag: str = key_node.tag
            key = int(key_node.value) if tag.endswith(":int") else str(key_node.value)
            child = (*at, key)
            spans.keys[child] = _span(spans.path, key_node)
            _index(spans, value_node, child)
    elif isinstance(node, SequenceNode):
        for number, item in enumerate(children):
            _index(spans, item, (*at, number))


def load(text: str, path: str = "prompts/review.wink.yaml") -> tuple[Any, FakeSpans]:
    """The data of a YAML text and the spans of every key and value in it."""
    yaml: Any = YAML(typ="safe", pure=True)
    spans = FakeSpans(path)
    node = yaml.compose(text)
    if node is not None:
        _index(spans, node, ())
    return yaml.load(text), spans


def check(text: str, path: str = "prompts/review.wink.yaml") -> tuple[list[Diagnostic], str]:
    """Validate YAML text; the diagnostics and their whole rendered text."""
    source = textwrap.dedent(text)
    data, spans = load(source, path)
    document, diagnostics = validate_document(data, spans)
    assert (document is None) == bool(diagnostics)
    return diagnostics, render_text(diagnostics, {path: source})


def errors_of(text: str) -> str:
    """The rendered diagnostics of a YAML text (which must have some)."""
    diagnostics, rendered = check(text)
    assert diagnostics, "expected the document to be invalid"
    return rendered


@cache
def _validator() -> Draft202012Validator:
    return Draft202012Validator(load_published_schema())


def schema_errors(data: object) -> list[tuple[JSONPath, str]]:
    """Every error the published schema finds (``jsonschema``), as (path, message), by path."""
    found: list[tuple[JSONPath, str]] = []
    for error in _validator().iter_errors(cast("Any", data)):  # pyright: ignore[reportUnknownMemberType]
        leaf = _best(error)
        found.append((tuple(leaf.absolute_path), leaf.message))
    return sorted(
        found, key=lambda item: ([(isinstance(p, str), str(p)) for p in item[0]], item[1])
    )


def _best(error: SchemaError) -> SchemaError:
    """The deepest, most telling error of ``error`` and its context (``jsonschema``'s choice)."""
    return cast("SchemaError", jsonschema.exceptions.best_match([error]))  # pyright: ignore[reportUnknownMemberType]
