"""The override files' JSON Schema: published and packaged without drift, and it agrees with
the checks: a seeded file passes, every mistake the checks report fails it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

import jsonschema
import yaml
from override_support import SHAPES, template

from wink_decl.overrides import seed_data
from wink_decl.overrides.schema import (
    OVERRIDE_SCHEMA_FILE_NAME,
    build_override_schema,
    dump_override_schema,
    load_published_override_schema,
    write_override_schema,
)

REPO = Path(__file__).resolve().parents[2]
REGENERATE = (
    "regenerate with: python -c 'from pathlib import Path; from wink_decl.overrides.schema "
    'import write_override_schema as w; w(Path("schema/wink-decl-override.schema.json")); '
    'w(Path("wink_decl/overrides/wink-decl-override.schema.json"))\''
)


def test_the_published_and_packaged_schemas_are_the_built_one() -> None:
    built = dump_override_schema(build_override_schema())
    for folder in (REPO / "schema", REPO / "wink_decl" / "overrides"):
        assert (folder / OVERRIDE_SCHEMA_FILE_NAME).read_text(encoding="utf-8") == built, REGENERATE
    assert load_published_override_schema() == build_override_schema()


def test_writing_the_schema_writes_the_built_one(tmp_path: Path) -> None:
    write_override_schema(tmp_path / "s.json")
    assert json.loads((tmp_path / "s.json").read_text()) == build_override_schema()


def test_a_seeded_file_is_valid_and_every_shape_mistake_is_not() -> None:
    validator = jsonschema.Draft202012Validator(build_override_schema())
    jsonschema.Draft202012Validator.check_schema(build_override_schema())
    assert list(validator.iter_errors(cast("Any", seed_data(template())))) == []  # pyright: ignore[reportUnknownMemberType]
    found = sorted(
        ".".join(str(part) for part in error.absolute_path)
        for error in validator.iter_errors(yaml.safe_load(SHAPES))  # pyright: ignore[reportUnknownMemberType]
    )
    assert found == [
        "",
        "sections.context",
        "sections.intro",
        "sections.intro.summary",
        "sections.intro.template",
        "sections.intro.visibility.text",
        "tools.other",
        "tools.search.description.hash",
        "tools.search.params.query",
        "tools.search.params.query.description.text",
    ]
