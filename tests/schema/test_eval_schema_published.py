"""The published eval-file schema: no drift, documented, closed, and it agrees with the model."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from ruamel.yaml import YAML
from test_schema_published import NEWER_KEYWORDS, subschemas

from wink_decl.overrides.store import TAG_PATTERN
from wink_decl.schema import (
    EVAL_SCHEMA_FILE_NAME,
    EVAL_SCHEMA_ID,
    SCHEMA_DIALECT,
    build_eval_schema,
    dump_schema,
    load_published_eval_schema,
    write_eval_schema,
)
from wink_decl.schema._types import RULES_BY_PATTERN, TAG
from wink_decl.schema._unions import CHECK_KEYS
from wink_decl.schema.eval_model import EvalDocument

REPO = Path(__file__).resolve().parents[2]
PUBLISHED = REPO / "schema" / EVAL_SCHEMA_FILE_NAME
PACKAGED = REPO / "wink_decl" / "schema" / EVAL_SCHEMA_FILE_NAME
REGENERATE = "regenerate with: python -m wink_decl.schema --write"
EXAMPLE = REPO / "evals" / "code-review.wink-eval.yaml"
FREE_FORM = {
    ("EvaluatorSpec", "args"),
    ("ModelDoc", "options"),
    ("JsonSchemaCheckDoc", "json_schema"),
    ("CaseDoc", "params"),
    ("DefaultsDoc", "params"),
}
"""Mappings whose content is the author's own (settings, params, a schema): open on purpose."""


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return build_eval_schema()


@pytest.mark.parametrize("path", [PUBLISHED, PACKAGED], ids=["published", "packaged"])
def test_committed_copy_matches_the_model(path: Path, schema: dict[str, Any]) -> None:
    text = path.read_text(encoding="utf-8")
    assert json.loads(text) == schema, REGENERATE
    assert text == dump_schema(schema), REGENERATE


def test_the_packaged_copy_is_package_data_and_loads(schema: dict[str, Any]) -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert EVAL_SCHEMA_FILE_NAME in config["tool"]["setuptools"]["package-data"]["wink_decl.schema"]
    loaded = load_published_eval_schema()
    assert loaded == schema
    loaded["title"] = "changed"
    assert load_published_eval_schema()["title"] == schema["title"]


def test_write_eval_schema_writes_what_build_gives(tmp_path: Path) -> None:
    write_eval_schema(tmp_path / "out.json")
    assert (tmp_path / "out.json").read_text(encoding="utf-8") == dump_schema(build_eval_schema())


def test_header_and_dialect(schema: dict[str, Any]) -> None:
    assert list(schema)[:2] == ["$schema", "$id"]
    assert (schema["$schema"], schema["$id"]) == (SCHEMA_DIALECT, EVAL_SCHEMA_ID)
    assert list(schema)[-1] == "$defs"
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft7Validator.check_schema(schema)
    newer = [f"{w}: {k}" for w, node in subschemas(schema) for k in node if k in NEWER_KEYWORDS]
    assert newer == []
    assert [w for w, node in subschemas(schema) if "$ref" in node and len(node) > 1] == []


def test_every_property_and_model_is_documented(schema: dict[str, Any]) -> None:
    models = {"EvalDocument": schema, **schema["$defs"]}
    missing = [
        f"{model}.{name}"
        for model, definition in models.items()
        for name, prop in definition.get("properties", {}).items()
        if not (
            prop.get("description") and prop.get("markdownDescription") and prop.get("examples")
        )
    ]
    assert missing == []
    for name, definition in schema["$defs"].items():
        if definition.get("type") == "object":
            assert definition["description"], name
            assert definition["markdownDescription"], name
            assert definition["title"], name


def test_every_object_is_closed(schema: dict[str, Any]) -> None:
    open_objects: list[str] = []
    for where, node in subschemas(schema):
        if node.get("type") != "object":
            continue
        if "properties" in node:
            if node.get("additionalProperties") is not False:
                open_objects.append(where)
        elif node.get("additionalProperties") is True or "additionalProperties" not in node:
            model, _, field = where.removeprefix("#/$defs/").partition("/properties/")
            if (model, field) not in FREE_FORM:
                open_objects.append(where)
    assert open_objects == []


def test_every_pattern_has_the_diagnostics_words(schema: dict[str, Any]) -> None:
    patterns = [(where, node) for where, node in subschemas(schema) if "pattern" in node]
    assert len(patterns) > 5
    for where, node in patterns:
        assert node["patternErrorMessage"] == RULES_BY_PATTERN[node["pattern"]].error_message, where


def test_the_check_union_offers_every_check_once(schema: dict[str, Any]) -> None:
    members = [ref["$ref"].rsplit("/", 1)[1] for ref in schema["$defs"]["CheckItem"]["oneOf"]]
    keys = [next(iter(schema["$defs"][m]["required"])) for m in members]
    assert keys == list(CHECK_KEYS)
    for member in members:
        assert set(schema["$defs"][member]["properties"]) == {
            "weight",
            "negate",
            *schema["$defs"][member]["required"],
        }


def test_a_tag_follows_the_override_store_rule() -> None:
    assert TAG.pattern == f"^{TAG_PATTERN.pattern}$"


def load(text: str) -> Any:
    yaml: Any = YAML(typ="safe", pure=True)
    return yaml.load(text)


def test_the_bundled_example_is_valid_under_both() -> None:
    data = load(EXAMPLE.read_text(encoding="utf-8"))
    EvalDocument.model_validate(data)
    jsonschema.Draft202012Validator(load_published_eval_schema()).validate(data)  # pyright: ignore[reportUnknownMemberType]
    jsonschema.Draft7Validator(load_published_eval_schema()).validate(data)  # pyright: ignore[reportUnknownMemberType]


HEAD = "prompt: p.wink.yaml\nmodels: [m]\ncases: [{id: a}]\n".replace("[m]", '["openai:x"]')


@pytest.mark.parametrize(
    "source",
    [
        HEAD + "treshold: 1\n",
        HEAD.replace('["openai:x"]', "[gpt-4]"),
        HEAD.replace('["openai:x"]', "[]"),
        HEAD + "experiments: {baseline: {tag: x}}\n",
        HEAD + "experiments: {a: {}}\n",
        HEAD + "threshold: 2\n",
        HEAD.replace("{id: a}", "{id: a, assert: [{contains: a, regex: b}]}"),
        HEAD.replace("{id: a}", "{id: a, assert: [{contians: a}]}"),
        HEAD.replace("{id: a}", "{id: a, assert: [{contains: a, wieght: 2}]}"),
        HEAD.replace("{id: a}", "{id: a, assert: [{field: {path: a}}]}"),
        HEAD.replace("{id: a}", "{id: a, assert: [{tool_calls: {name: a}}]}"),
        HEAD.replace("{id: a}", "{id: a, assert: [{max_tokens: 0}]}"),
        HEAD.replace("{id: a}", "{id: 'bad id'}"),
        "prompt: p.wink.yaml\nmodels: ['openai:x']\n",
    ],
    ids=[
        "unknown-key",
        "model-pattern",
        "no-models",
        "baseline",
        "empty-experiment",
        "threshold",
        "two-check-keys",
        "unknown-check",
        "unknown-common-key",
        "field-without-value",
        "tool-calls-without-bounds",
        "bound",
        "case-id",
        "no-cases",
    ],
)
def test_the_schema_refuses_what_the_model_refuses(source: str) -> None:
    data = load(source)
    with pytest.raises(ValueError, match="validation error"):
        EvalDocument.model_validate(data)
    assert not jsonschema.Draft202012Validator(load_published_eval_schema()).is_valid(data)  # pyright: ignore[reportUnknownMemberType]
