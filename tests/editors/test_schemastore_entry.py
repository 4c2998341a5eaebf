"""The SchemaStore catalog entry in docs/ follows the catalog's rules and wink-decl's suffixes."""

from __future__ import annotations

import json
from typing import Any

from editor_support import REPO

from wink_decl.compiler import EVAL_SUFFIXES, PROMPT_SUFFIXES

ENTRY_FILE = REPO / "docs" / "schemastore-catalog-entry.json"
URL = "https://raw.githubusercontent.com/wink-decl/wink-decl/main/schema/wink-decl.schema.json"


def entry() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(ENTRY_FILE.read_text(encoding="utf-8"))
    return loaded


def test_the_entry_has_the_fields_the_catalog_requires() -> None:
    found = entry()
    assert set(found) == {"name", "description", "fileMatch", "url"}
    assert all(isinstance(found[field], str) and found[field] for field in ("name", "description"))
    # A placeholder home until the project has a public one; the catalog needs https.
    assert found["url"] == URL
    assert found["url"].startswith("https://")
    assert found["url"].endswith("/schema/wink-decl.schema.json")


def test_file_patterns_are_unique_and_anchored() -> None:
    patterns: list[str] = entry()["fileMatch"]
    assert len(patterns) == len(set(patterns))
    assert all(pattern.startswith("**/") for pattern in patterns if "/" in pattern)


def test_file_patterns_are_the_suffixes_wink_decl_reads() -> None:
    assert entry()["fileMatch"] == [f"*{suffix}" for suffix in PROMPT_SUFFIXES]


EVAL_ENTRY_FILE = REPO / "docs" / "schemastore-catalog-entry-eval.json"
EVAL_URL = URL.replace("wink-decl.schema.json", "wink-decl-eval.schema.json")


def test_the_eval_entry_follows_the_same_rules_with_its_own_patterns() -> None:
    found: dict[str, Any] = json.loads(EVAL_ENTRY_FILE.read_text(encoding="utf-8"))
    assert set(found) == {"name", "description", "fileMatch", "url"}
    assert all(isinstance(found[field], str) and found[field] for field in ("name", "description"))
    assert found["url"] == EVAL_URL
    assert found["fileMatch"] == [f"*{suffix}" for suffix in EVAL_SUFFIXES]
    assert not set(found["fileMatch"]) & set(entry()["fileMatch"])
