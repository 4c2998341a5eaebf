"""The model and the published schema agree: what one accepts, the other accepts too."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from schema_documents import edited, inlined, published_documents
from schema_support import EXAMPLE, FakeSpans, load, schema_errors

from wink_decl.schema import PromptDocument, validate_document
from wink_decl.schema._types import SEMANTIC_ERROR

PROPERTY_SETTINGS = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def test_unrolled_inlines_and_prunes() -> None:
    schema = {
        "$schema": "x",
        "properties": {"a": {"$ref": "#/$defs/A"}, "title": {"title": "T", "type": "string"}},
        "$defs": {"A": {"properties": {"a": {"$ref": "#/$defs/A"}}, "enum": [{"$ref": 1}]}},
    }
    assert inlined(schema, depth=1) == {
        "properties": {
            "a": {"properties": {"a": False}, "enum": [{"$ref": 1}]},
            "title": {"type": "string"},
        }
    }


def pydantic_error_types(data: object) -> set[str]:
    """The kinds of error the model raises for ``data`` (empty when it accepts it)."""
    try:
        PromptDocument.model_validate(data)
    except ValidationError as error:
        return {
            detail["type"]
            for detail in error.errors()
            # pydantic counts only the items that passed: "too short" then repeats their errors
            if not (
                detail["type"] == "too_short"
                and len(detail["input"]) >= detail.get("ctx", {})["min_length"]
            )
        }
    return set()


# -- from the schema to the model ---------------------------------------------------------------

PUBLISHED_DOCUMENTS: st.SearchStrategy[Any] = published_documents()


@PROPERTY_SETTINGS
@given(PUBLISHED_DOCUMENTS)
def test_documents_the_schema_accepts_pass_the_model(data: Any) -> None:
    # Only the checks JSON Schema cannot say (a default among the enum values, a tool that
    # depends on itself, 1.0 as an integer) may still refuse them: as diagnostics, never a crash.
    assert pydantic_error_types(data) <= {SEMANTIC_ERROR}
    document, diagnostics = validate_document(data, FakeSpans("p.yaml"))
    assert (document is None) == bool(diagnostics)
    assert all(d.span is not None for d in diagnostics)


# -- from the model to the schema ---------------------------------------------------------------

BASES: list[Any] = [
    load(EXAMPLE)[0],
    {"key": "k", "sections": [{"title": "T"}]},
    {
        "key": "k",
        "params": {"n": {"type": "integer", "enum": [1, 2], "default": 2}},
        "sections": [
            {
                "title": "T",
                "enabled": {"any": [{"equals": {"param": "n", "value": 1}}, False]},
                "visibility": {"summary_when": {"predicate": "p.q"}},
                "summary": "S",
                "children": [{"include": "a.yaml#b.c"}],
            }
        ],
        "policies": [{"read_before_write": {}}, {"plugin": {"name": "a@dist"}}],
    },
]
WORDS = [
    "full", "summary", "ful", "string", "integer", "number", "boolean", "array", "str",
    "Task", "task", "Task One", "read_section", "class", "section_key", "lookup_rule",
    "style.lookup_rule", "a@dist", "common/a.yaml#t", "/abs#t", "", " ", "\u00e9t\u00e9",
    "x" * 65, "param", "not", "sequential", "plugin", "include", "title",
]  # fmt: skip
KEYS = [
    "key", "title", "template", "tempalte", "summary", "summary_suffix", "visibility",
    "enabled", "tools", "policies", "children", "include", "params", "type", "items",
    "default", "enum", "description", "handler", "result", "examples", "input", "output",
    "param", "not", "all", "any", "equals", "value", "predicate", "summary_when",
    "sequential", "read_before_write", "plugin", "name", "config", "read_tools",
    "write_tools", "path_field", "accepts_overrides", "ns", "x",
]  # fmt: skip
LEAVES = st.one_of(
    st.sampled_from(WORDS),
    st.integers(-2, 2),
    st.booleans(),
    st.sampled_from([0.5, 2.0, None]),
)
VALUES = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=2)
    | st.dictionaries(st.sampled_from(KEYS), inner, max_size=2),
    max_leaves=4,
)


mutated_documents = edited(st.sampled_from(BASES), st.sampled_from(KEYS), VALUES)


@PROPERTY_SETTINGS
@given(mutated_documents)
def test_model_and_schema_agree_on_edited_documents(data: Any) -> None:
    kinds = pydantic_error_types(data)
    errors = schema_errors(data)
    if not kinds:
        assert errors == [], "the model accepted what the schema refuses"
    if not errors:
        assert kinds <= {SEMANTIC_ERROR}, "the schema accepted what the model refuses"
    document, diagnostics = validate_document(data, FakeSpans("p.yaml"))
    assert (document is None) == bool(kinds)
    assert len(diagnostics) >= (1 if kinds else 0)
    for diagnostic in diagnostics:
        assert diagnostic.span is not None
        assert "Input should" not in diagnostic.message
        assert "[key]" not in diagnostic.message


@PROPERTY_SETTINGS
@given(PUBLISHED_DOCUMENTS | mutated_documents)
def test_accepted_documents_round_trip(data: Any) -> None:
    try:
        document = PromptDocument.model_validate(data)
    except ValidationError:
        return
    dumped = document.model_dump(mode="json", exclude_unset=True)
    assert PromptDocument.model_validate(dumped) == document
    assert schema_errors(dumped) == []


@pytest.mark.parametrize("base", BASES, ids=["example", "minimal", "conditions"])
def test_bases_are_valid(base: Any) -> None:
    assert pydantic_error_types(base) == set()
    assert schema_errors(base) == []
