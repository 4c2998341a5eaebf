"""The model and the published schema agree: what one accepts, the other accepts too."""

from __future__ import annotations

import copy
from typing import Any, cast

import hypothesis_jsonschema._from_schema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema  # pyright: ignore[reportUnknownVariableType]
from hypothesis_jsonschema._encode import (
    encode_canonical_json,  # pyright: ignore[reportUnknownVariableType]
)
from pydantic import ValidationError
from schema_support import EXAMPLE, FakeSpans, load

from wink_decl.schema import PromptDocument, load_published_schema, schema_errors, validate_document
from wink_decl.schema._types import SEMANTIC_ERROR

PROPERTY_SETTINGS = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
ANNOTATIONS = frozenset(
    {
        "description",
        "markdownDescription",
        "examples",
        "title",
        "enumDescriptions",
        "markdownEnumDescriptions",
        "patternErrorMessage",
        "errorMessage",
        "default",
    }
)


def unrolled(schema: dict[str, Any], depth: int = 2) -> Any:
    """The schema with every ``$ref`` inlined; a definition nested deeper than ``depth`` in
    itself becomes ``false`` (hypothesis-jsonschema cannot follow recursive references).
    """
    defs: dict[str, Any] = schema["$defs"]

    def walk(node: object, seen: dict[str, int]) -> object:
        if isinstance(node, list):
            return [walk(item, seen) for item in cast("list[object]", node)]
        if not isinstance(node, dict):
            return node
        schema_node = cast("dict[str, Any]", node)
        if "$ref" in schema_node:
            name: str = schema_node["$ref"].removeprefix("#/$defs/")
            if seen.get(name, 0) >= depth:
                return False
            return walk(defs[name], {**seen, name: seen.get(name, 0) + 1})
        out: dict[str, Any] = _smaller(schema_node)
        for key, value in schema_node.items():
            if key in ("properties", "patternProperties"):  # names, then schemas
                children = cast("dict[str, object]", value)
                out[key] = {name: walk(child, seen) for name, child in children.items()}
            elif key in ("enum", "const", "required"):
                out[key] = value
            elif key not in ANNOTATIONS and key not in out:
                out[key] = walk(value, seen)
        return out

    root = {key: value for key, value in schema.items() if key not in ("$defs", "$id", "$schema")}
    return walk(root, {})


def _smaller(node: dict[str, Any]) -> dict[str, Any]:
    """Bounds that keep generated documents small; every document is still schema-valid."""
    if node.get("type") == "array":
        return {"maxItems": min(node.get("maxItems", 2), 2)}
    if node.get("additionalProperties") is True:  # free-form settings and example calls
        return {
            "additionalProperties": {"type": ["string", "integer", "boolean"]},
            "maxProperties": 2,
        }
    if "propertyNames" in node:  # a map
        return {"maxProperties": 2}
    return {}


def test_unrolled_inlines_and_prunes() -> None:
    schema = {
        "$schema": "x",
        "properties": {"a": {"$ref": "#/$defs/A"}, "title": {"title": "T", "type": "string"}},
        "$defs": {"A": {"properties": {"a": {"$ref": "#/$defs/A"}}, "enum": [{"$ref": 1}]}},
    }
    assert unrolled(schema, depth=1) == {
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


def _memoise_hypothesis_jsonschema() -> None:
    """Build each sub-strategy once: hypothesis-jsonschema 0.23.1 re-canonicalises the schema of
    every object property on every draw, which makes this schema ~50x slower to sample.
    Strategies are immutable, so sharing them is safe; a schema seen before is found by
    identity (it is kept alive here, so its id is never reused), a new one by its content.
    """
    module: dict[str, Any] = hypothesis_jsonschema._from_schema.__dict__
    build = module["__from_schema"]
    by_content: dict[tuple[str, int], Any] = {}
    by_identity: dict[int, tuple[Any, Any]] = {}

    def memoised(schema: Any, *, alphabet: Any, custom_formats: Any) -> Any:
        if custom_formats is not None:
            return build(schema, alphabet=alphabet, custom_formats=custom_formats)
        seen = by_identity.get(id(schema))
        if seen is not None and seen[0] is schema:
            return seen[1]
        key = (encode_canonical_json(schema), id(alphabet))
        if key not in by_content:
            by_content[key] = build(schema, alphabet=alphabet, custom_formats=None)
        by_identity[id(schema)] = (schema, by_content[key])
        return by_content[key]

    module["__from_schema"] = memoised


_memoise_hypothesis_jsonschema()

# -- from the schema to the model ---------------------------------------------------------------

PUBLISHED_DOCUMENTS: st.SearchStrategy[Any] = from_schema(  # pyright: ignore[reportUnknownVariableType]
    unrolled(load_published_schema())
)


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


def paths_in(node: object, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a mapping or list entry in ``node``."""
    found: list[tuple[Any, ...]] = []
    items: list[tuple[Any, object]] = []
    if isinstance(node, dict):
        items = list(cast("dict[Any, object]", node).items())
    elif isinstance(node, list):
        items = list(enumerate(cast("list[object]", node)))
    for key, value in items:
        found.append((*at, key))
        found.extend(paths_in(value, (*at, key)))
    return found


@st.composite
def mutated_documents(draw: st.DrawFn) -> Any:
    """A valid document with one to three random edits: replace, delete or add an entry."""
    document: Any = copy.deepcopy(draw(st.sampled_from(BASES)))
    for _ in range(draw(st.integers(1, 3))):
        paths = paths_in(document)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent: Any = document
        for part in path[:-1]:
            parent = parent[part]
        action = draw(st.sampled_from(["replace", "delete", "add"]))
        if action == "replace":
            parent[path[-1]] = draw(VALUES)
        elif action == "delete":
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[draw(st.sampled_from(KEYS))] = draw(VALUES)
        else:
            parent.append(draw(VALUES))
    return document


@PROPERTY_SETTINGS
@given(mutated_documents())
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
@given(PUBLISHED_DOCUMENTS | mutated_documents())
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
