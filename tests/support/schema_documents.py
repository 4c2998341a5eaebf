"""Documents the published JSON Schema accepts, drawn by hypothesis-jsonschema.

hypothesis-jsonschema cannot follow the schema's recursive ``$ref``s (conditions and sections
nest), so every reference is inlined down to a fixed depth first, and lists and maps are kept
small; every document drawn is still valid against the published schema.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, cast

from hypothesis import strategies as st

from wink_decl.schema.generate import load_published_schema

# Imported by name: the type checker may run outside the virtual environment that has it.
_from_schema = cast(
    "Callable[[Any], st.SearchStrategy[Any]]",
    importlib.import_module("hypothesis_jsonschema").from_schema,
)


def _memoise() -> None:
    """Build each sub-strategy once: hypothesis-jsonschema 0.23.1 re-canonicalises the schema of
    every object property on every draw, which makes this schema ~50x slower to sample (the
    schema tests do the same). Strategies are immutable, so sharing them is safe.
    """
    module: dict[str, Any] = vars(importlib.import_module("hypothesis_jsonschema._from_schema"))
    encode = cast(
        "Callable[[Any], str]",
        importlib.import_module("hypothesis_jsonschema._encode").encode_canonical_json,
    )
    build = module["__from_schema"]
    if getattr(build, "memoised", False):
        return
    built: dict[tuple[str, int], Any] = {}

    def memoised(schema: Any, *, alphabet: Any, custom_formats: Any) -> Any:
        if custom_formats is not None:
            return build(schema, alphabet=alphabet, custom_formats=custom_formats)
        key = (encode(schema), id(alphabet))
        if key not in built:
            built[key] = build(schema, alphabet=alphabet, custom_formats=None)
        return built[key]

    memoised.memoised = True  # pyright: ignore[reportFunctionMemberAccess]
    module["__from_schema"] = memoised


_memoise()

_ANNOTATIONS = frozenset(
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


def inlined(schema: dict[str, Any], depth: int = 2) -> Any:
    """``schema`` with every ``$ref`` replaced by its definition; nesting a definition in
    itself deeper than ``depth`` gives ``false`` (nothing), which ends the recursion.
    """
    definitions: dict[str, Any] = schema["$defs"]

    def walk(node: Any, seen: dict[str, int]) -> Any:
        if isinstance(node, list):
            return [walk(item, seen) for item in node]  # pyright: ignore[reportUnknownVariableType]
        if not isinstance(node, dict):
            return node
        mapping: dict[str, Any] = node  # pyright: ignore[reportUnknownVariableType]
        if "$ref" in mapping:
            name = str(mapping["$ref"]).removeprefix("#/$defs/")
            if seen.get(name, 0) >= depth:
                return False
            return walk(definitions[name], {**seen, name: seen.get(name, 0) + 1})
        out = _bounds(mapping)
        for key, value in mapping.items():
            if key in ("properties", "patternProperties"):  # names, then schemas
                out[key] = {name: walk(child, seen) for name, child in value.items()}
            elif key in ("enum", "const", "required"):
                out[key] = value
            elif key not in _ANNOTATIONS and key not in out:
                out[key] = walk(value, seen)
        return out

    root = {k: v for k, v in schema.items() if k not in ("$defs", "$id", "$schema")}
    return walk(root, {})


def _bounds(node: dict[str, Any]) -> dict[str, Any]:
    """Small lists and maps, so that a document compiles in milliseconds."""
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


def published_documents() -> st.SearchStrategy[Any]:
    """Documents valid against the published schema."""
    return _from_schema(inlined(load_published_schema()))
