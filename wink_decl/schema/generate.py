"""Build the published JSON Schema from the model, write it, and read the packaged copy."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Final

from pydantic.json_schema import GenerateJsonSchema, JsonSchemaMode, JsonSchemaValue
from pydantic_core import CoreSchema, core_schema

from wink_decl.schema.model import PromptDocument

if TYPE_CHECKING:
    from pydantic import JsonValue

__all__ = [
    "EVAL_SCHEMA_FILE_NAME",
    "EVAL_SCHEMA_ID",
    "EVAL_SCHEMA_URL",
    "SCHEMA_DIALECT",
    "SCHEMA_FILE_NAME",
    "SCHEMA_ID",
    "SCHEMA_URL",
    "build_eval_schema",
    "build_schema",
    "dump_schema",
    "load_published_eval_schema",
    "load_published_schema",
    "write_eval_schema",
    "write_schema",
]

SCHEMA_DIALECT: Final = "https://json-schema.org/draft/2020-12/schema"
SCHEMA_ID: Final = "urn:wink-decl:schema:1"
SCHEMA_URL: Final = (
    "https://raw.githubusercontent.com/wink-decl/wink-decl/main/schema/wink-decl.schema.json"
)
"""Where the published schema is read from when no copy is near a file (``wink-decl new``)."""
SCHEMA_FILE_NAME: Final = "wink-decl.schema.json"
EVAL_SCHEMA_ID: Final = "urn:wink-decl:eval-schema:1"
EVAL_SCHEMA_FILE_NAME: Final = "wink-decl-eval.schema.json"
EVAL_SCHEMA_URL: Final = (
    "https://raw.githubusercontent.com/wink-decl/wink-decl/main/schema/" + EVAL_SCHEMA_FILE_NAME
)
"""Where the published eval-file schema is read from (docs/evals.md)."""


class _Generator(GenerateJsonSchema):
    """pydantic's generator, tuned for editors and for draft-07 readers.

    - ``$schema`` and ``$id`` on top; no per-field ``title`` (it only repeats the key);
    - an optional field (default None) reads as its plain type, with no ``default: null``;
    - map keys are checked with ``propertyNames`` + ``additionalProperties``, not with
      ``patternProperties``, which lets keys that miss the pattern through unchecked;
    - ``$ref`` never has siblings (draft-07 ignores them): it moves into ``allOf``.
    """

    schema_id = SCHEMA_ID
    """The ``$id`` written on top."""

    def generate(self, schema: CoreSchema, mode: JsonSchemaMode = "validation") -> JsonSchemaValue:
        """The whole schema, header first and ``$defs`` last."""
        body = _lift_object_refs(super().generate(schema, mode))
        defs = body.pop("$defs")
        return {"$schema": SCHEMA_DIALECT, "$id": self.schema_id, **body, "$defs": defs}

    def field_title_should_be_set(self, schema: object) -> bool:
        """Never: a field's title would only repeat its key."""
        del schema
        return False

    def default_schema(self, schema: core_schema.WithDefaultSchema) -> JsonSchemaValue:
        """Leave ``default: null`` out: None means "absent", not a value to offer."""
        if schema.get("default", ...) is None:
            return self.generate_inner(schema["schema"])
        return super().default_schema(schema)

    def dict_schema(self, schema: core_schema.DictSchema) -> JsonSchemaValue:
        """Keys checked by ``propertyNames`` so a key that misses the pattern is an error."""
        json_schema = super().dict_schema(schema)
        patterns: dict[str, JsonSchemaValue] | None = json_schema.pop("patternProperties", None)
        if patterns:
            ((pattern, values),) = patterns.items()
            keys = self.generate_inner(schema["keys_schema"])  # pyright: ignore[reportTypedDictNotRequiredAccess]  # a pattern implies a keys schema
            keys.pop("type", None)
            json_schema["propertyNames"] = {**keys, "pattern": pattern}
            json_schema["additionalProperties"] = values
        return json_schema


class _EvalGenerator(_Generator):
    """The same tuning for the eval-file schema, under its own ``$id``."""

    schema_id = EVAL_SCHEMA_ID


def _lift_refs(node: JsonValue) -> JsonValue:
    """Move ``$ref`` into ``allOf`` wherever it has sibling keywords."""
    if isinstance(node, list):
        return [_lift_refs(item) for item in node]
    if not isinstance(node, dict):
        return node
    return _lift_object_refs(node)


def _lift_object_refs(node: dict[str, JsonValue]) -> dict[str, JsonValue]:
    """``_lift_refs`` of an object: its values lifted, then its own ``$ref``."""
    lifted: dict[str, JsonValue] = {key: _lift_refs(value) for key, value in node.items()}
    if "$ref" in lifted and len(lifted) > 1:
        ref = lifted.pop("$ref")
        lifted = {"allOf": [{"$ref": ref}], **lifted}
    return lifted


def build_schema() -> dict[str, JsonValue]:
    """The JSON Schema of a prompt file, generated from ``PromptDocument``."""
    return PromptDocument.model_json_schema(by_alias=True, schema_generator=_Generator)


def build_eval_schema() -> dict[str, JsonValue]:
    """The JSON Schema of an eval file, generated from ``EvalDocument``."""
    # Imported here: checking prompt files never builds the eval models.
    from wink_decl.schema.eval_model import EvalDocument  # noqa: PLC0415

    return EvalDocument.model_json_schema(by_alias=True, schema_generator=_EvalGenerator)


def dump_schema(schema: Mapping[str, JsonValue]) -> str:
    """The schema as it is written to disk: two-space indent, key order kept, final newline."""
    import json  # noqa: PLC0415  # checking a file never writes or reads the schema's text

    return json.dumps(schema, indent=2, sort_keys=False) + "\n"


def write_schema(path: Path) -> None:
    """Write the generated schema to ``path``."""
    path.write_text(dump_schema(build_schema()), encoding="utf-8")


def write_eval_schema(path: Path) -> None:
    """Write the generated eval-file schema to ``path``."""
    path.write_text(dump_schema(build_eval_schema()), encoding="utf-8")


@cache
def _published_text(name: str) -> str:
    # Imported here: importlib.resources brings tempfile and more, which checking never needs.
    from importlib import resources  # noqa: PLC0415

    return resources.files("wink_decl.schema").joinpath(name).read_text(encoding="utf-8")


def load_published_schema() -> dict[str, JsonValue]:
    """The schema shipped inside the package (a fresh copy each call)."""
    import json  # noqa: PLC0415  # see dump_schema

    loaded: dict[str, JsonValue] = json.loads(_published_text(SCHEMA_FILE_NAME))
    return loaded


def load_published_eval_schema() -> dict[str, JsonValue]:
    """The eval-file schema shipped inside the package (a fresh copy each call)."""
    import json  # noqa: PLC0415  # see dump_schema

    loaded: dict[str, JsonValue] = json.loads(_published_text(EVAL_SCHEMA_FILE_NAME))
    return loaded
