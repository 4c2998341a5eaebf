"""Documents the published JSON Schema accepts, drawn by hypothesis-jsonschema.

hypothesis-jsonschema cannot follow the schema's recursive ``$ref``s (conditions and sections
nest), so every reference is inlined down to a fixed depth first, and lists and maps are kept
small; every document drawn is still valid against the published schema.
"""

from __future__ import annotations

import copy
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
    every object property on every draw, which makes this schema ~50x slower to sample.
    Strategies are immutable, so sharing them is safe; a schema seen before is found by
    identity (it is kept alive here, so its id is never reused), a new one by its content.
    Installed once per process, whichever test module imports this first.
    """
    module: dict[str, Any] = vars(importlib.import_module("hypothesis_jsonschema._from_schema"))
    encode = cast(
        "Callable[[Any], str]",
        importlib.import_module("hypothesis_jsonschema._encode").encode_canonical_json,
    )
    build = module["__from_schema"]
    if getattr(build, "memoised", False):
        return
    by_content: dict[tuple[str, int], Any] = {}
    by_identity: dict[int, tuple[Any, Any]] = {}

    def memoised(schema: Any, *, alphabet: Any, custom_formats: Any) -> Any:
        if custom_formats is not None:
            return build(schema, alphabet=alphabet, custom_formats=custom_formats)
        seen = by_identity.get(id(schema))
        if seen is not None and seen[0] is schema:
            return seen[1]
        key = (encode(schema), id(alphabet))
        if key not in by_content:
            by_content[key] = build(schema, alphabet=alphabet, custom_formats=None)
        by_identity[id(schema)] = (schema, by_content[key])
        return by_content[key]

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


def edited(
    bases: st.SearchStrategy[Any], keys: st.SearchStrategy[str], values: st.SearchStrategy[Any]
) -> st.SearchStrategy[Any]:
    """A document from ``bases`` with one to three random edits: replace, delete or add."""

    @st.composite
    def documents(draw: st.DrawFn) -> Any:
        document: Any = copy.deepcopy(draw(bases))
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
                parent[path[-1]] = draw(values)
            elif action == "delete":
                del parent[path[-1]]
            elif isinstance(parent, dict):
                parent[draw(keys)] = draw(values)
            else:
                parent.append(draw(values))
        return document

    return documents()
