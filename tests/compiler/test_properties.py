"""For every document the published schema accepts: diagnostics or a prompt, never an exception."""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path
from typing import Any

from compiler_support import make_catalog
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schema_documents import edited, inlined, published_documents

from wink_decl.compiler import CompileResult, artifact_json, compile_file
from wink_decl.diagnostics import render_text

CATALOG = make_catalog()
_NOT_PRINTABLE_IN_YAML = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]")


def as_yaml(data: Any) -> str:
    """``data`` as JSON, which is YAML once the characters YAML refuses raw are escaped.

    JSON's ``\\uD83D\\uDE00`` surrogate pairs are not YAML, so other characters stay raw.
    """
    text = json.dumps(data, ensure_ascii=False)
    return _NOT_PRINTABLE_IN_YAML.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def test_as_yaml_escapes_what_yaml_refuses() -> None:
    assert as_yaml({"k": "a\x85\x7f\u2028\U0001f600\u00e9"}) == (
        '{"k": "a\\u0085\\u007f\\u2028\U0001f600\u00e9"}'
    )


def test_inlined_replaces_references_and_ends_recursion() -> None:
    schema = {
        "$schema": "x",
        "properties": {"a": {"$ref": "#/$defs/A"}, "b": {"title": "B", "type": "array"}},
        "$defs": {"A": {"properties": {"a": {"$ref": "#/$defs/A"}}, "enum": [{"$ref": 1}]}},
    }
    assert inlined(schema, depth=1) == {
        "properties": {
            "a": {"properties": {"a": False}, "enum": [{"$ref": 1}]},
            "b": {"maxItems": 2, "type": "array"},
        }
    }


PROPERTY_SETTINGS = settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def compile_twice(data: Any) -> tuple[CompileResult, CompileResult]:
    """``data`` written as a prompt file and compiled twice, each time from scratch."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "prompt.wink.yaml")
        path.write_text(as_yaml(data), encoding="utf-8")
        return compile_file(path, catalog=CATALOG), compile_file(path, catalog=CATALOG)


def check_result(first: CompileResult, second: CompileResult) -> None:
    """A prompt exactly when nothing is an error; the same result, and artifact, both times."""
    errors = [d for d in first.diagnostics if d.severity == "error"]
    assert first.ok == (not errors) == (first.prompt is not None)
    assert first.ok or render_text(first.diagnostics, first.sources)
    assert second.diagnostics == first.diagnostics
    if first.prompt is not None:
        assert second.prompt is not None
        assert artifact_json(second.prompt.artifact) == artifact_json(first.prompt.artifact)


@PROPERTY_SETTINGS
@given(published_documents())
def test_every_schema_valid_document_compiles_or_gives_diagnostics(data: Any) -> None:
    check_result(*compile_twice(data))


BASE: dict[str, Any] = {
    "key": "k",
    "params": {"n": {"type": "integer", "enum": [1, 2], "default": 2}, "s": {"type": "string"}},
    "sections": [
        {
            "title": "T",
            "template": "Hi ${s}",
            "tools": ["t"],
            "enabled": {"any": [{"equals": {"param": "n", "value": 1}}, False]},
            "visibility": {"summary_when": {"predicate": "test.always"}},
            "summary": "S",
            "policies": [{"sequential": {"t": []}}],
            "children": [{"include": "a.yaml#b.c"}, {"key": "c", "title": "C"}],
        }
    ],
    "tools": {
        "t": {
            "description": "d",
            "handler": "test.lookup",
            "params": {"rule_id": {"type": "string"}},
            "examples": [{"description": "e", "input": {"rule_id": "x"}}],
        }
    },
    "policies": [
        {"read_before_write": {}},
        {"plugin": {"name": "test.call_limit", "config": {"limit": 1}}},
    ],
}
WORDS: list[object] = [
    "full", "summary", "Task", "t", "n", "s", "class", "section_key", "$", "${s}", "$x",
    "a.yaml#b", "", "test.lookup", "test.always", None, 1, 2.5, True, [], {},
]  # fmt: skip
KEYS = [
    "key", "title", "template", "summary", "summary_suffix", "visibility", "enabled", "tools",
    "policies", "children", "include", "params", "type", "items", "default", "enum",
    "description", "handler", "result", "examples", "input", "output", "param", "not", "all",
    "any", "equals", "value", "predicate", "summary_when", "sequential", "read_before_write",
    "plugin", "name", "config", "read_tools", "write_tools", "path_field", "ns", "x",
]  # fmt: skip
VALUES = st.recursive(
    st.sampled_from(WORDS),
    lambda inner: st.lists(inner, max_size=2)
    | st.dictionaries(st.sampled_from(KEYS), inner, max_size=2),
    max_leaves=4,
)


malformed_documents = edited(st.just(BASE), st.sampled_from(KEYS), VALUES)
"""A document using every feature, with one to three random edits."""


@settings(PROPERTY_SETTINGS, max_examples=200)
@given(malformed_documents)
def test_a_malformed_document_never_raises(data: Any) -> None:
    check_result(*compile_twice(data))
