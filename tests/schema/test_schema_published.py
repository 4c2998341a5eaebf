"""The published JSON Schema: no drift, draft-07 keywords only, documented, closed, usable."""

from __future__ import annotations

import io
import json
import tomllib
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any, cast

import jsonschema
import pytest
from schema_support import EXAMPLE, check, load, schema_errors

import wink_decl.schema.__main__ as cli
from wink_decl.schema import (
    SCHEMA_DIALECT,
    SCHEMA_FILE_NAME,
    SCHEMA_ID,
    build_eval_schema,
    build_schema,
    dump_schema,
    load_published_schema,
    write_schema,
)
from wink_decl.schema._types import RULES_BY_PATTERN

REPO = Path(__file__).resolve().parents[2]
PUBLISHED = REPO / "schema" / SCHEMA_FILE_NAME
PACKAGED = REPO / "wink_decl" / "schema" / SCHEMA_FILE_NAME
EVAL_PUBLISHED = REPO / "schema" / "wink-decl-eval.schema.json"
EVAL_PACKAGED = REPO / "wink_decl" / "schema" / "wink-decl-eval.schema.json"
REGENERATE = "regenerate with: python -m wink_decl.schema --write"

# Keywords that draft 2019-09 / 2020-12 added; a draft-07 reader would silently ignore them.
NEWER_KEYWORDS = frozenset(
    {
        "$anchor",
        "$dynamicAnchor",
        "$dynamicRef",
        "$recursiveAnchor",
        "$recursiveRef",
        "$vocabulary",
        "contentSchema",
        "dependentRequired",
        "dependentSchemas",
        "maxContains",
        "minContains",
        "prefixItems",
        "unevaluatedItems",
        "unevaluatedProperties",
    }
)
SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions")
SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
SCHEMA_ONES = (
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "propertyNames",
    "contains",
)
FREE_FORM = {("PluginSpec", "config"), ("ToolExampleDoc", "input"), ("ToolExampleDoc", "output")}
"""Mappings whose content is the author's own (settings, example calls): open on purpose."""


def subschemas(node: Any, where: str = "#") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema object in ``node`` with its JSON pointer; annotations are not entered."""
    if not isinstance(node, dict):
        return
    schema = cast("dict[str, Any]", node)
    yield where, schema
    for keyword in SCHEMA_MAPS:
        children: dict[str, Any] = schema.get(keyword, {})
        for name, child in children.items():
            yield from subschemas(child, f"{where}/{keyword}/{name}")
    for keyword in SCHEMA_LISTS:
        alternatives: list[Any] = schema.get(keyword, [])
        for index, child in enumerate(alternatives):
            yield from subschemas(child, f"{where}/{keyword}/{index}")
    for keyword in SCHEMA_ONES:
        if keyword in schema:
            yield from subschemas(schema[keyword], f"{where}/{keyword}")


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return build_schema()


def model_properties(schema: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(model, property, schema) for the root and every ``$defs`` model."""
    models = {"PromptDocument": schema, **schema["$defs"]}
    for model, definition in models.items():
        for name, prop in definition.get("properties", {}).items():
            yield model, name, prop


# -- drift --------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", [PUBLISHED, PACKAGED], ids=["published", "packaged"])
def test_committed_copy_matches_the_model(path: Path, schema: dict[str, Any]) -> None:
    text = path.read_text(encoding="utf-8")
    assert json.loads(text) == schema, REGENERATE
    assert text == dump_schema(schema), REGENERATE


def test_load_published_schema_reads_the_packaged_copy(schema: dict[str, Any]) -> None:
    loaded = load_published_schema()
    assert loaded == schema
    loaded["title"] = "changed"
    assert load_published_schema()["title"] == schema["title"]


def test_the_packaged_copy_is_package_data() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    package_data = config["tool"]["setuptools"]["package-data"]
    assert SCHEMA_FILE_NAME in package_data["wink_decl.schema"]


def test_write_schema_writes_what_build_schema_gives(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    write_schema(target)
    assert target.read_text(encoding="utf-8") == dump_schema(build_schema())
    assert target.read_text(encoding="utf-8").endswith("}\n")


def test_module_prints_the_schema() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        assert cli.main([]) == 0
    assert out.getvalue() == dump_schema(build_schema())


def test_module_writes_both_copies_of_both_schemas(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = ("packaged.json", "published.json", "eval-packaged.json", "eval-published.json")
    for attribute, name in zip(
        ("PACKAGED", "PUBLISHED", "EVAL_PACKAGED", "EVAL_PUBLISHED"), names, strict=True
    ):
        monkeypatch.setattr(cli, attribute, tmp_path / name)
    out = io.StringIO()
    with redirect_stdout(out):
        assert cli.main(["--write"]) == 0
    prompt, evals = dump_schema(build_schema()), dump_schema(build_eval_schema())
    written = [(tmp_path / name).read_text(encoding="utf-8") for name in names]
    assert written == [prompt, prompt, evals, evals]
    assert out.getvalue() == "".join(f"wrote {tmp_path / name}\n" for name in names)


def test_module_refuses_unknown_arguments() -> None:
    err = io.StringIO()
    with redirect_stderr(err):
        assert cli.main(["--check"]) == 2
    assert err.getvalue() == "usage: python -m wink_decl.schema [--write]\n"


def test_module_paths_point_into_the_repository() -> None:
    assert cli.PACKAGED == PACKAGED
    assert cli.PUBLISHED == PUBLISHED
    assert cli.EVAL_PACKAGED == EVAL_PACKAGED
    assert cli.EVAL_PUBLISHED == EVAL_PUBLISHED


# -- form ---------------------------------------------------------------------------------------


def test_header(schema: dict[str, Any]) -> None:
    assert list(schema)[:2] == ["$schema", "$id"]
    assert schema["$schema"] == SCHEMA_DIALECT == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == SCHEMA_ID
    assert "://" not in SCHEMA_ID
    assert schema["title"]
    assert schema["description"]
    assert list(schema)[-1] == "$defs"


def test_schema_is_valid_under_both_drafts(schema: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft7Validator.check_schema(schema)


def test_only_keywords_draft_07_also_has(schema: dict[str, Any]) -> None:
    found = [
        f"{where}: {keyword}"
        for where, node in subschemas(schema)
        for keyword in node
        if keyword in NEWER_KEYWORDS
    ]
    assert found == []


def test_defs_only_at_the_root(schema: dict[str, Any]) -> None:
    # "$defs" is the one newer word kept: draft-07 readers resolve "#/$defs/X" as a plain
    # JSON pointer, so references work there too.
    assert [where for where, node in subschemas(schema) if "$defs" in node] == ["#"]


def test_refs_have_no_siblings(schema: dict[str, Any]) -> None:
    # Draft-07 ignores every keyword next to "$ref"; descriptions would be lost.
    assert [where for where, node in subschemas(schema) if "$ref" in node and len(node) > 1] == []


def test_every_property_is_documented(schema: dict[str, Any]) -> None:
    missing = [
        f"{model}.{name}"
        for model, name, prop in model_properties(schema)
        if not (
            prop.get("description") and prop.get("markdownDescription") and prop.get("examples")
        )
    ]
    assert missing == []


def test_every_model_is_documented(schema: dict[str, Any]) -> None:
    for name, definition in schema["$defs"].items():
        if definition.get("type") == "object":
            assert definition.get("description"), name
            assert definition.get("markdownDescription"), name
            assert definition.get("title"), name


def test_every_object_is_closed(schema: dict[str, Any]) -> None:
    open_objects: list[str] = []
    for where, node in subschemas(schema):
        if node.get("type") != "object":
            continue
        if "properties" in node:
            if node.get("additionalProperties") is not False:
                open_objects.append(where)
        elif node.get("additionalProperties") is True:
            model, _, field = where.removeprefix("#/$defs/").partition("/properties/")
            if (model, field) not in FREE_FORM:
                open_objects.append(where)
        else:  # a map: every key is checked and every value has a schema
            assert isinstance(node.get("additionalProperties"), dict), where
            assert "pattern" in node.get("propertyNames", {}), where
    assert open_objects == []


def test_every_enum_is_documented_on_the_enum(schema: dict[str, Any]) -> None:
    enums = [(where, node) for where, node in subschemas(schema) if "enum" in node]
    assert enums, "the schema has enums"
    for where, node in enums:
        if where.endswith("/not"):  # reserved words, refused rather than offered
            continue
        assert len(node["enumDescriptions"]) == len(node["enum"]), where
        assert len(node["markdownEnumDescriptions"]) == len(node["enum"]), where


def test_every_pattern_has_a_readable_message(schema: dict[str, Any]) -> None:
    patterns = [(where, node) for where, node in subschemas(schema) if "pattern" in node]
    assert patterns
    for where, node in patterns:
        assert node["patternErrorMessage"], where
        rule = RULES_BY_PATTERN.get(node["pattern"])
        if rule is not None:  # the same words as the diagnostics' "expected" line
            assert node["patternErrorMessage"] == rule.error_message, where
            assert rule.rule in node["patternErrorMessage"]


def test_nothing_offers_null(schema: dict[str, Any]) -> None:
    text = json.dumps(schema)
    assert '"null"' not in text
    for where, node in subschemas(schema):
        assert node.get("default", ...) is not None, where
        for alternative in node.get("anyOf", []):
            assert alternative.get("type") != "null", where


def test_optional_fields_read_as_plain_types(schema: dict[str, Any]) -> None:
    section = schema["$defs"]["SectionDoc"]
    assert section["properties"]["summary"]["type"] == "string"
    assert "summary" not in section.get("required", [])
    assert section["required"] == ["title"]


# -- use ----------------------------------------------------------------------------------------


def test_the_example_document_is_valid_data() -> None:
    data, _ = load(EXAMPLE)
    assert schema_errors(data) == []
    jsonschema.Draft7Validator(load_published_schema()).validate(data)  # pyright: ignore[reportUnknownMemberType]


@pytest.mark.parametrize(
    ("source", "path"),
    [
        ("key: review\nsections: [{title: Task, tempalte: x}]\n", ("sections", 0)),
        ("key: review\nsections: [{title: Task, visibility: ful}]\n", ("sections", 0)),
        ("key: Review\nsections: [{title: Task}]\n", ("key",)),
        ("key: review\nsections: []\n", ("sections",)),
        ("key: review\nparams: {x: {type: array}}\nsections: [{title: T}]\n", ("params", "x")),
        ("key: review\nsections: [{title: T, visibility: summary}]\n", ("sections", 0)),
        ("key: review\nsections: [{title: '???'}]\n", ("sections", 0)),
    ],
    ids=["unknown-key", "enum", "pattern", "min-items", "array-items", "summary", "keyless"],
)
def test_schema_errors_finds_what_the_model_finds(source: str, path: tuple[str | int, ...]) -> None:
    data, _ = load(source)
    assert check(source)[0], "the model refuses it too"
    found = schema_errors(data)
    assert found
    assert found[0][0][: len(path)] == path
    assert not jsonschema.Draft7Validator(load_published_schema()).is_valid(data)  # pyright: ignore[reportUnknownMemberType]
