"""The JSON Schema of override files, published beside the prompt schema (docs/overrides.md)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from wink_decl.prompt.serde import JSONValue

__all__ = [
    "OVERRIDE_SCHEMA_FILE_NAME",
    "OVERRIDE_SCHEMA_ID",
    "OVERRIDE_SCHEMA_URL",
    "build_override_schema",
    "dump_override_schema",
    "load_published_override_schema",
    "write_override_schema",
]

OVERRIDE_SCHEMA_ID: Final = "urn:wink-decl:override-schema:1"
OVERRIDE_SCHEMA_FILE_NAME: Final = "wink-decl-override.schema.json"
OVERRIDE_SCHEMA_URL: Final = (
    "https://raw.githubusercontent.com/wink-decl/wink-decl/main/schema/" + OVERRIDE_SCHEMA_FILE_NAME
)
"""Where the published schema is read from when no copy is near a file."""

_HASH: Final[dict[str, JSONValue]] = {
    "type": "string",
    "pattern": "^sha256:[0-9a-f]{64}$",
    "description": "sha256 of the base text this entry replaces, as `wink-decl overrides "
    "seed` writes it. When the base text changes, the entry is stale and the base is used.",
    "patternErrorMessage": "Write sha256: and all 64 lower-case hex digits.",
}


def _entry(title: str, text: dict[str, JSONValue]) -> dict[str, JSONValue]:
    return {
        "title": title,
        "description": f"{title}: the new text and the hash of the text it replaces.",
        "type": "object",
        "properties": {"hash": _HASH, "text": text},
        "required": ["hash", "text"],
        "additionalProperties": False,
    }


def _text(description: str) -> dict[str, JSONValue]:
    return {"type": "string", "description": description}


def _object(title: str, description: str, properties: dict[str, JSONValue]) -> dict[str, JSONValue]:
    return {
        "title": title,
        "description": description,
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
    }


def _map(
    title: str, description: str, key: str, values: dict[str, JSONValue]
) -> dict[str, JSONValue]:
    return {
        "title": title,
        "description": description,
        "type": "object",
        "propertyNames": {"pattern": key},
        "additionalProperties": values,
    }


def build_override_schema() -> dict[str, JSONValue]:
    """The JSON Schema (draft 2020-12) an override file follows."""
    section = _object(
        "Section overrides",
        "What this tag changes in one section (its dotted key from the top).",
        {
            "template": {"$ref": "#/$defs/template"},
            "summary": {"$ref": "#/$defs/summary"},
            "visibility": {"$ref": "#/$defs/visibility"},
        },
    )
    param = _object(
        "Param overrides",
        "What this tag tells the model about one parameter (tool_param_descriptions).",
        {
            "description": _entry("Param description", _text("The parameter's description.")),
            "type": _entry("Param type hint", _text("The type, in words such as `string`.")),
            "default": _entry(
                "Param default hint", _text("The default as JSON text; empty: required.")
            ),
        },
    )
    tool = _object(
        "Tool overrides",
        "What this tag changes in one tool.",
        {
            "description": _entry("Tool description", _text("The tool's description.")),
            "params": _map("Params", "Parameters by name.", "^[A-Za-z_][A-Za-z0-9_]*$", param),
        },
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": OVERRIDE_SCHEMA_ID,
        "title": "wink-decl override file",
        "description": "One prompt's overrides for one tag: "
        "<overrides>/<ns>/<prompt-key>/<tag>.wink-override.yaml (or .toml). Each entry "
        "replaces one text and records the hash of the text it replaces (docs/overrides.md; "
        "every key, with examples: docs/prompt-files.md).",
        "type": "object",
        "properties": {
            "sections": _map(
                "Sections", "Sections by dotted key, such as `context.examples`.", "^.+$", section
            ),
            "tools": _map("Tools", "Tools by name.", "^[a-z0-9_-]{1,64}$", tool),
        },
        "additionalProperties": False,
        "$defs": {
            "template": _entry("Section template", _text("The section's body template.")),
            "summary": _entry(
                "Section summary", {**_text("The summary shown when summarized."), "minLength": 1}
            ),
            "visibility": _entry(
                "Section visibility",
                {**_text("How the section is shown."), "enum": ["full", "summary"]},
            ),
        },
    }


def dump_override_schema(schema: dict[str, JSONValue]) -> str:
    """The schema as written to disk: two-space indent, key order kept, final newline."""
    return json.dumps(schema, indent=2) + "\n"


def write_override_schema(path: Path) -> None:
    """Write the schema to ``path``."""
    path.write_text(dump_override_schema(build_override_schema()), encoding="utf-8")


@cache
def _published_text() -> str:
    files = resources.files("wink_decl.overrides")
    return files.joinpath(OVERRIDE_SCHEMA_FILE_NAME).read_text(encoding="utf-8")


def load_published_override_schema() -> dict[str, JSONValue]:
    """The schema shipped inside the package (a fresh copy each call)."""
    loaded: dict[str, JSONValue] = json.loads(_published_text())
    return loaded
