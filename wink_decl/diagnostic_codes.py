"""Every diagnostic code, one enum; what each means, an example and the fix: ``diagnostic_docs``.

The table lives in its own module so that making a diagnostic never pays for it.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["DiagnosticCode", "code_of"]


class DiagnosticCode(StrEnum):
    """A stable identifier of a kind of problem, for tools and tests (``unknown-key``).

    The values are what ``--format json`` writes; what each means is in
    ``wink_decl.diagnostic_docs.CODE_DOCS``, and in ``docs/diagnostics.md``.
    """

    AMBIGUOUS_PLUGIN = "ambiguous-plugin"
    BOM = "bom"
    DATASET = "dataset"
    DUPLICATE_ADDRESS = "duplicate-address"
    DUPLICATE_CASE = "duplicate-case"
    DUPLICATE_KEY = "duplicate-key"
    DUPLICATE_SECTION = "duplicate-section"
    DUPLICATE_TOOL = "duplicate-tool"
    ENCODING = "encoding"
    ENUM = "enum"
    EXAMPLE = "example"
    FILE_EXISTS = "file-exists"
    FOREIGN_SYNTAX = "foreign-syntax"
    HANDLER = "handler"
    IMPORT_INVALID = "import-invalid"
    IMPORT_RENAMED = "import-renamed"
    IMPORT_UNSUPPORTED = "import-unsupported"
    INCLUDE_CYCLE = "include-cycle"
    INCLUDE_DEPTH = "include-depth"
    INCLUDE_FILES = "include-files"
    INCLUDE_INVALID = "include-invalid"
    INCLUDE_MISSING = "include-missing"
    INCLUDE_OUTSIDE_ROOT = "include-outside-root"
    INCLUDE_SECTION = "include-section"
    JSON_SCHEMA = "json-schema"
    JSON_SYNTAX = "json-syntax"
    KEY_TYPE = "key-type"
    MISSING_KEY = "missing-key"
    MISSING_PARAM = "missing-param"
    MODEL = "model"
    MULTIPLE_DOCUMENTS = "multiple-documents"
    NOT_A_MAPPING = "not-a-mapping"
    NS = "ns"
    NULL_IN_TOML = "null-in-toml"
    NUMBER = "number"
    OUTSIDE_ROOT = "outside-root"
    OVERRIDE_INVALID = "override-invalid"
    OVERRIDE_REFUSED = "override-refused"
    OVERRIDE_STALE = "override-stale"
    OVERRIDE_UNKNOWN = "override-unknown"
    PARAM = "param"
    PARAM_TYPE = "param-type"
    PARAM_VALUE = "param-value"
    PARAMS_FILE = "params-file"
    PATTERN = "pattern"
    PLACEHOLDER = "placeholder"
    POLICY = "policy"
    PREDICATE = "predicate"
    PROMPT = "prompt"
    PROMPT_INVALID = "prompt-invalid"
    REGEX = "regex"
    SCHEMA = "schema"
    SECTION = "section"
    TAB = "tab"
    TOML_SYNTAX = "toml-syntax"
    TOO_DEEP = "too-deep"
    TOO_LARGE = "too-large"
    TOO_LONG = "too-long"
    TOO_MANY_CASES = "too-many-cases"
    TOO_MANY_SECTIONS = "too-many-sections"
    TOOL = "tool"
    TYPE = "type"
    UNKNOWN_DISTRIBUTION = "unknown-distribution"
    UNKNOWN_EXTENSION = "unknown-extension"
    UNKNOWN_KEY = "unknown-key"
    UNKNOWN_PARAM = "unknown-param"
    UNKNOWN_PLUGIN = "unknown-plugin"
    UNKNOWN_PROMPT = "unknown-prompt"
    UNKNOWN_SECTION = "unknown-section"
    UNKNOWN_TAG = "unknown-tag"
    UNKNOWN_TOOL = "unknown-tool"
    UNREADABLE = "unreadable"
    UNUSED_POLICY = "unused-policy"
    UNUSED_TOOL = "unused-tool"
    UNWRITABLE = "unwritable"
    VALUE = "value"
    YAML_ALIAS = "yaml-alias"
    YAML_MERGE = "yaml-merge"
    YAML_SYNTAX = "yaml-syntax"
    YAML_TAG = "yaml-tag"


def code_of(text: str) -> DiagnosticCode | str:
    """The member whose value is ``text``; ``text`` itself when none is (a caller's own code)."""
    try:
        return DiagnosticCode(text)
    except ValueError:
        return text
