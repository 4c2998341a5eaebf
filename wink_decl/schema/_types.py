"""Checked strings, documented enums and optional fields that never read as ``null``."""

from __future__ import annotations

import keyword
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, TypedDict, TypeVar, Unpack, overload

from pydantic import Field, GetCoreSchemaHandler, GetJsonSchemaHandler, JsonValue
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError, core_schema

from wink_decl.diagnostics import DiagnosticCode

__all__ = [
    "CASE_ID",
    "DECLARED_TOOL_NAME",
    "ENTRY_POINT",
    "EXAMPLE_DESCRIPTION",
    "EXPERIMENT_NAME",
    "FIELD_NAME",
    "INCLUDE",
    "KEY",
    "MODEL_NAME",
    "NAMESPACE",
    "NON_BLANK",
    "PARAM_NAME",
    "PARAM_REF",
    "RULES_BY_PATTERN",
    "SEMANTIC_ERROR",
    "TAG",
    "TITLE",
    "TOOL_DESCRIPTION",
    "TOOL_REF",
    "EnumDocs",
    "NotNull",
    "Problem",
    "TextRule",
    "doc",
    "semantic_error",
]

SEMANTIC_ERROR: Final = "wink_semantic"
"""The pydantic error type every check written in this package raises."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One semantic problem: message, code, where below the failing value, and what to do."""

    message: str
    code: DiagnosticCode = DiagnosticCode.VALUE
    at: tuple[str | int, ...] = ()
    """The path below the value that failed, to point the caret at (``("default",)``)."""
    key: bool = False
    """Point at the key at ``at`` rather than at its value."""
    hint: str | None = None
    suggestions: tuple[str, ...] = ()


def semantic_error(*problems: Problem) -> PydanticCustomError:
    """A pydantic error carrying ``problems``; ``validate`` turns each into a Diagnostic."""
    return PydanticCustomError(
        SEMANTIC_ERROR, "{summary}", {"summary": problems[0].message, "problems": problems}
    )


@dataclass(frozen=True, slots=True)
class TextRule:
    """A string rule: its pattern, the noun it names and the rule in words.

    Used as ``Annotated[str, RULE]``: validation is a strict string with the pattern (and a
    refusal of reserved words); the JSON Schema carries the pattern, ``patternErrorMessage``
    built from the same words, and the reserved words as ``not: {enum: [...]}``.
    """

    noun: str
    pattern: str
    rule: str
    reserved: frozenset[str] = frozenset()
    reserved_why: str = ""
    fix: Callable[[str], str] | None = None
    """Turns a near miss into a candidate (``"Code Review"`` to ``"code-review"``)."""
    max_length: int | None = None

    @property
    def valid(self) -> str:
        """``a valid key``; ``valid text`` for the uncountable noun."""
        return "valid text" if self.noun == "text" else f"a valid {self.noun}"

    @property
    def error_message(self) -> str:
        """The sentence editors show on a mismatch (``patternErrorMessage``)."""
        return f"Not {self.valid}: use {self.rule}."

    def suggestion(self, value: str) -> str | None:
        """A corrected value that follows the rule, when one is obvious."""
        if self.fix is None:
            return None
        fixed = self.fix(value)
        ok = fixed != value and re.search(self.pattern, fixed) and fixed not in self.reserved
        return fixed if ok else None

    def _refuse_reserved(self, value: str) -> str:
        if value in self.reserved:
            article = "an" if self.noun[0] in "aeiou" else "a"
            problem = Problem(
                f"'{value}' cannot be used as {article} {self.noun}: {self.reserved_why}."
            )
            raise semantic_error(problem)
        return value

    def __get_pydantic_core_schema__(
        self, source: object, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        """A strict string with the pattern; reserved words refused after it."""
        del source, handler
        schema = core_schema.str_schema(
            pattern=self.pattern, max_length=self.max_length, strict=True
        )
        if not self.reserved:
            return schema
        return core_schema.no_info_after_validator_function(self._refuse_reserved, schema)

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        """Add the editor's message and the reserved words."""
        json_schema = handler(schema)
        json_schema["patternErrorMessage"] = self.error_message
        if self.reserved:
            json_schema["not"] = {"enum": sorted(self.reserved)}
            json_schema["errorMessage"] = f"Reserved {self.noun}: {self.reserved_why}."
        return json_schema


@dataclass(frozen=True, slots=True)
class EnumDocs:
    """Documents each value of a ``Literal`` on the enum itself, where editors read it."""

    docs: tuple[tuple[str, str], ...]
    """``(value, Markdown text)`` for every value, in the Literal's order."""

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        """Add ``enumDescriptions`` (plain) and ``markdownEnumDescriptions``."""
        json_schema = handler(schema)
        texts = [text for _, text in self.docs]
        json_schema["enumDescriptions"] = [_plain(text) for text in texts]
        json_schema["markdownEnumDescriptions"] = texts
        return json_schema


@dataclass(frozen=True, slots=True)
class NotNull:
    """For ``Annotated[X | None, NotNull()] = None``: absent means None, but ``null`` is refused.

    The validator and the JSON Schema both see plain ``X``, so editors never offer ``null``.
    """

    def __get_pydantic_core_schema__(
        self, source: object, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        """The inner schema of ``X | None``."""
        schema = handler(source)
        return schema["schema"] if schema["type"] == "nullable" else schema


class _Constraints(TypedDict, total=False):
    """The bounds ``doc`` passes on to pydantic's ``Field``."""

    gt: float
    ge: float
    le: float
    min_length: int


_T = TypeVar("_T")


@overload
def doc(
    *,
    description: str,
    examples: list[JsonValue],
    markdown: str | None = None,
    alias: str | None = None,
    **constraints: Unpack[_Constraints],
) -> Any: ...  # as pydantic's Field: a required field of any type


@overload
def doc(
    default: _T,
    *,
    description: str,
    examples: list[JsonValue],
    markdown: str | None = None,
    alias: str | None = None,
    **constraints: Unpack[_Constraints],
) -> _T: ...  # as pydantic's Field: a default of type T is a field of type T


def doc(
    default: object = ...,
    *,
    description: str,
    examples: list[JsonValue],
    markdown: str | None = None,
    alias: str | None = None,
    **constraints: Unpack[_Constraints],
) -> Any:  # pydantic's FieldInfo, which the overloads type as the field's value
    """A field documented for people: plain text, Markdown for hovers, and examples.

    An empty-mapping default is built by a factory: pydantic deep-copies a ``{}`` default on
    every validation (about a microsecond each); the schema still shows ``default: {}``.
    """
    extra: dict[str, JsonValue] = {"markdownDescription": markdown or description}
    if default == {}:
        extra["default"] = {}
        return Field(
            default_factory=dict,
            alias=alias,
            description=description,
            examples=examples,
            json_schema_extra=extra,
            **constraints,
        )
    return Field(
        default,
        alias=alias,
        description=description,
        examples=examples,
        json_schema_extra=extra,
        **constraints,
    )


def _plain(markdown: str) -> str:
    return markdown.replace("`", "")


def _slug(value: str, *, junk: str, joiner: str) -> str:
    return re.sub(junk, joiner, value.strip().lower()).strip("-_")


def _fix_key(value: str) -> str:
    return _slug(value, junk=r"[^a-z0-9_-]+", joiner="-")[:64]


def _fix_identifier(value: str) -> str:
    return _slug(value, junk=r"[^a-z0-9_]+", joiner="_")[:64]


def _fix_name(value: str) -> str:
    """A near miss as a name: ``__class__`` gives ``class_``, as keywords are taken."""
    fixed = _fix_identifier(value).lstrip("0123456789_")[:63]
    return f"{fixed}_" if fixed in _PYTHON_KEYWORDS or fixed == "section_key" else fixed


_KEY = r"[a-z0-9][a-z0-9_-]{0,63}"
_KEY_RULE = "1-64 lowercase letters, digits, '_' or '-', starting with a letter or digit"
_TOOL_RULE = "1-64 lowercase letters, digits, '_' or '-'"
_NAME_RULE = "1-64 lowercase letters, digits or '_', starting with a letter"
"""Names become fields of generated dataclasses: one starting with '_' could be Python's own
(``__slots__``, ``__init__``, ``__dict__``) or the machinery's (``__dataclass_fields__``), and
a private one is no better, so every name starts with a letter."""
_PYTHON_KEYWORDS = frozenset(word for word in keyword.kwlist if word.islower())

KEY = TextRule("key", f"^{_KEY}$", _KEY_RULE, fix=_fix_key)
NAMESPACE = TextRule(
    "namespace",
    f"^{_KEY}(/{_KEY})*$",
    f"keys separated by '/', each {_KEY_RULE}",
    fix=lambda value: "/".join(_fix_key(part) for part in value.split("/")),
)
TOOL_REF = TextRule("tool name", "^[a-z0-9_-]{1,64}$", _TOOL_RULE, fix=_fix_key)
DECLARED_TOOL_NAME = TextRule(
    TOOL_REF.noun,
    TOOL_REF.pattern,
    TOOL_REF.rule,
    reserved=frozenset({"read_section"}),
    reserved_why="wink-decl adds that tool itself",
    fix=_fix_key,
)
PARAM_REF = TextRule("param name", "^[a-z][a-z0-9_]{0,63}$", _NAME_RULE, fix=_fix_name)
FIELD_NAME = TextRule(
    PARAM_REF.noun,
    PARAM_REF.pattern,
    PARAM_REF.rule,
    reserved=_PYTHON_KEYWORDS,
    reserved_why="it is a Python keyword",
    fix=_fix_name,
)
PARAM_NAME = TextRule(
    PARAM_REF.noun,
    PARAM_REF.pattern,
    PARAM_REF.rule,
    reserved=_PYTHON_KEYWORDS | {"section_key"},
    reserved_why="Python keywords and 'section_key' (filled in by wink-decl) are taken",
    fix=_fix_name,
)
ENTRY_POINT = TextRule(
    "entry-point name",
    r"^[a-z0-9][a-z0-9_.-]*(@[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?)?$",
    "lowercase letters, digits, '_', '.' or '-', starting with a letter or digit, "
    "optionally followed by '@' and the distribution that registers it",
    fix=lambda value: value.strip().lower() if "@" not in value else value.strip(),
)
INCLUDE = TextRule(
    "include reference",
    # No control characters: a NUL cannot be in a path, and the others are surely typos.
    rf"^[^/#\\\u0000-\u001f\u007f][^#\\\u0000-\u001f\u007f]*#{_KEY}(\.{_KEY})*$",
    "a relative file path, '#', then a dotted section path such as common/safety.wink.yaml#tone",
)
# Spaces are spelled out: Python, Rust (pydantic) and ECMA (editors) disagree on what \s is.
# These are exactly the characters Python's str.strip() removes, as the runtime strips titles
# and templates with it: a title of only no-break spaces must fail here, not in the runtime.
WHITESPACE = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
    "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
_SPACES = "".join(f"\\u{ord(c):04x}" for c in WHITESPACE)  # \uXXXX reads the same in all three
_SPACE = f"[{_SPACES}]"
_INK = f"[^{_SPACES}]"
TITLE = TextRule("title", rf"^{_SPACE}*{_INK}([^\n\r]*{_INK})?{_SPACE}*$", "one line of text")
NON_BLANK = TextRule("text", _INK, "some text, not only spaces")
TOOL_DESCRIPTION = TextRule(
    "tool description",
    r"^[\x00-\x7f]*[!-~][\x00-\x7f]*$",
    "ASCII text (no accents, curly quotes or emoji), not only spaces",
    max_length=200,
)
EXAMPLE_DESCRIPTION = TextRule(NON_BLANK.noun, NON_BLANK.pattern, NON_BLANK.rule, max_length=200)

# -- eval files --
_TAG = "[A-Za-z0-9][A-Za-z0-9_-]{0,63}"
"""An override tag: one file name (``wink_decl.overrides.TAG_PATTERN``; a test keeps them equal)."""
TAG = TextRule(
    "tag",
    f"^{_TAG}$",
    "1-64 letters, digits, '_' or '-', starting with a letter or digit",
    fix=lambda value: re.sub(r"[^A-Za-z0-9_-]+", "-", value.strip()).strip("-_")[:64],
)
EXPERIMENT_NAME = TextRule(
    "experiment name",
    r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$",
    "1-64 letters, digits, '_', '.' or '-', starting with a letter or digit",
    reserved=frozenset({"baseline"}),
    reserved_why="it names the experiment every eval has, with no tag and no model change",
    fix=lambda value: re.sub(r"[^A-Za-z0-9_.-]+", "-", value.strip()).strip("-_.")[:64],
)
CASE_ID = TextRule(
    "case id",
    r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$",
    "1-128 letters, digits, '_', '.', ':' or '-', starting with a letter or digit",
    fix=lambda value: re.sub(r"[^A-Za-z0-9_.:-]+", "-", value.strip()).strip("-_.:")[:128],
)
MODEL_NAME = TextRule(
    "model",
    "^[a-z][a-z0-9_-]*:[!-~]+$",
    "PROVIDER:MODEL, such as openai:gpt-4.1-mini",
)

RULES_BY_PATTERN: Final[dict[str, TextRule]] = {
    rule.pattern: rule
    for rule in (
        KEY,
        NAMESPACE,
        TOOL_REF,
        PARAM_REF,
        ENTRY_POINT,
        INCLUDE,
        TITLE,
        NON_BLANK,
        TOOL_DESCRIPTION,
        TAG,
        EXPERIMENT_NAME,
        CASE_ID,
        MODEL_NAME,
    )
}
"""Rules sharing a pattern share their words, so the pattern alone finds the message."""
