"""Validate a loaded document: the model on the fast path, then every error worded for authors."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sized
from functools import cache
from types import NoneType
from typing import TYPE_CHECKING, Any, Final, NamedTuple, Protocol, TypedDict, Unpack, cast

from pydantic import ValidationError

from wink_decl.diagnostics import (
    Diagnostic,
    DiagnosticCode,
    JSONPath,
    Span,
    close_matches,
    noun_for,
    sort_diagnostics,
)
from wink_decl.schema._base import DocModel
from wink_decl.schema._types import RULES_BY_PATTERN, SEMANTIC_ERROR, Problem
from wink_decl.schema._unions import CONDITION, UNION_ERROR, UNIONS, OneOf
from wink_decl.schema._words import describe, one_of
from wink_decl.schema.model import ParamSpec, PromptDocument

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails

    from wink_decl.schema._error_location import Place

__all__ = ["JSONPath", "SpanLookup", "diagnostics_from", "validate_document"]


class SpanLookup(Protocol):
    """Where each part of a loaded document is in its file (the loader provides one)."""

    @property
    def path(self) -> str:
        """The file the document came from."""
        ...

    def value_span(self, json_path: JSONPath) -> Span | None:
        """The value at ``json_path``, or None when it is not in the file."""
        ...

    def key_span(self, json_path: JSONPath) -> Span | None:
        """The key of the mapping entry at ``json_path``, or None (list items have none)."""
        ...

    def nearest(self, json_path: JSONPath) -> Span:
        """The closest thing that is in the file: the value, else an ancestor's."""
        ...


def validate_document(
    data: object, spans: SpanLookup
) -> tuple[PromptDocument | None, list[Diagnostic]]:
    """The document, or None and every problem found, sorted by position."""
    try:
        return PromptDocument.model_validate(data), []
    except ValidationError as error:
        return None, diagnostics_from(error, spans)


def diagnostics_from(
    error: ValidationError, spans: SpanLookup, root: type[DocModel] = PromptDocument
) -> list[Diagnostic]:
    """Each pydantic error of ``root`` (the prompt file's model unless told) as Diagnostics."""
    found: list[Diagnostic] = []
    for detail in error.errors(include_url=False):
        found.extend(_translate(detail, spans, root))
    return sort_diagnostics(found)


# -- one error ------------------------------------------------------------------------------------


class _Suggested(TypedDict, total=False):
    """A Diagnostic's advice: a hint, and the names an author may have meant."""

    hint: str | None
    suggestions: tuple[str, ...]


class _Extra(_Suggested, total=False):
    """A Diagnostic's fields besides its message and code."""

    span: Span
    expected: str


class _Error(NamedTuple):
    """One pydantic error with its place in the data and the file."""

    kind: str
    place: Place
    value: object
    context: Mapping[str, Any]
    """pydantic's ``ctx``: its keys and their types depend on ``kind``."""
    spans: SpanLookup

    @property
    def path(self) -> JSONPath:
        return self.place.path

    @property
    def label(self) -> str:
        """How the failing value is named at the start of a sentence."""
        if self.place.on_key:
            return f"Key {describe(self.value)}"
        return _label(self.path)

    def span(self, path: JSONPath | None = None, *, key: bool | None = None) -> Span:
        """The key or value at ``path`` (default: this error's), else the nearest span."""
        at = self.path if path is None else path
        on_key = self.place.on_key if key is None else key
        found = self.spans.key_span(at) if on_key else self.spans.value_span(at)
        return found or self.spans.nearest(at)

    def diagnostic(self, message: str, code: DiagnosticCode, **extra: Unpack[_Extra]) -> Diagnostic:
        """A Diagnostic at this error's value (or key), unless ``span`` says where."""
        if "span" not in extra:  # not setdefault: a span costs more than the rest
            extra["span"] = self.span()
        return Diagnostic(message=message, code=code, **extra)


def _label(path: JSONPath) -> str:
    if not path:
        return "The document"
    last = path[-1]
    if isinstance(last, int):
        owner = next((part for part in reversed(path) if isinstance(part, str)), None)
        return f"Item {last + 1} of '{owner}'" if owner else f"Item {last + 1}"
    return f"'{last}'"


def _did_you_mean(suggestions: tuple[str, ...]) -> _Suggested:
    if not suggestions:
        return {}
    return {"hint": f"did you mean '{suggestions[0]}'?", "suggestions": suggestions}


def _translate(
    detail: ErrorDetails, spans: SpanLookup, root: type[DocModel] = PromptDocument
) -> list[Diagnostic]:
    # Imported for the first error only: most files have none.
    from wink_decl.schema._error_location import place_of  # noqa: PLC0415

    error = _Error(
        kind=detail["type"],
        place=place_of(root, detail["loc"]),
        value=detail["input"],
        context=detail.get("ctx", {}),
        spans=spans,
    )
    if error.kind == SEMANTIC_ERROR:
        return [_semantic(error, problem) for problem in error.context["problems"]]
    too_short = error.kind == "too_short"  # pydantic reports it for sequences: a Sized value
    if too_short and len(cast("Sized", error.value)) >= error.context["min_length"]:
        return []  # pydantic counts only the items that passed; their own errors are reported
    handler = _HANDLERS.get(error.kind)
    if handler is not None:
        return [handler(error)]
    if error.kind in _TYPE_WORDS:
        return [_wrong_type(error, _TYPE_WORDS[error.kind])]
    return [
        error.diagnostic(
            f"{error.label} is not allowed here; found {describe(error.value)}",
            DiagnosticCode.SCHEMA,
        )
    ]


def _semantic(error: _Error, problem: Problem) -> Diagnostic:
    path = error.path + problem.at
    return Diagnostic(
        message=problem.message,
        span=error.span(path, key=problem.key or error.place.on_key),
        code=problem.code,
        hint=problem.hint,
        suggestions=problem.suggestions,
    )


def _unknown_key(error: _Error) -> Diagnostic:
    parent = error.place.parent
    assert parent is not None  # noqa: S101  # pydantic reports extra keys only in models
    key = str(error.path[-1])
    union = parent.one_key_of
    if union is not None and key in union.choices:
        return error.diagnostic(
            f"A {union.noun} has exactly one {union.noun + ' ' if union.common else ''}key; "
            f"found '{parent.union_tag}' and '{key}'.",
            DiagnosticCode.VALUE,
            span=error.span(key=True),
            expected=union.phrase,
        )
    if union is not None and union.common:
        others = " and ".join(f"'{key}'" for key in union.common)
        where = f"a {union.noun}: beside its one {union.noun} key it takes only {others}"
        allowed = (*union.choices, *union.common)
    elif union is not None:
        where, allowed = f"a {union.noun}: it has exactly one key", union.choices
    else:
        where = _noun(error, parent)
        allowed = _field_names(parent)
    return error.diagnostic(
        f"Unknown key '{key}' in {where}.",
        DiagnosticCode.UNKNOWN_KEY,
        span=error.span(key=True),
        expected=one_of(allowed),
        **_did_you_mean(close_matches(key, allowed)),
    )


@cache
def _field_names(model: type[DocModel]) -> tuple[str, ...]:
    """The keys ``model`` allows, as written in files (worked out once per model)."""
    return tuple(f.alias or name for name, f in model.model_fields.items())


def _noun(error: _Error, parent: type[DocModel]) -> str:
    """The model around the last path element: "section", or "tool 'lookup_rule'" in a map."""
    owner = error.path[:-1]
    if owner and error.place.steps[-2] == "key":
        return f"{parent.noun} '{owner[-1]}'"
    return parent.noun


def _missing(error: _Error) -> Diagnostic:
    parent = error.place.parent
    assert parent is not None  # noqa: S101  # pydantic reports missing keys only in models
    field = str(error.path[-1])
    owner = error.path[:-1]
    noun = _noun(error, parent)
    info = next(f for n, f in parent.model_fields.items() if (f.alias or n) == field)
    example = (info.examples or [None])[0]
    scalar = isinstance(example, str | int | float | bool)
    span = (
        error.spans.key_span(owner) or error.spans.value_span(owner) or error.spans.nearest(owner)
    )
    hint = f"add '{field}', for example {describe(example)}" if scalar else f"add '{field}'"
    return Diagnostic(
        message=f"{noun[:1].upper()}{noun[1:]} is missing '{field}'.",
        span=span,
        code=DiagnosticCode.MISSING_KEY,
        hint=_misplaced(error, field) or hint,
    )


def _misplaced(error: _Error, field: str) -> str | None:
    """Where the file's own ``key`` went when it was indented under ``params:`` or ``tools:``."""
    if error.path[:-1] or field != "key":
        return None
    for owner in ("params", "tools"):
        found = error.spans.key_span((owner, "key"))
        if found is not None:
            return (
                f"'key' on line {found.line} is indented under {owner}:, so it is read as one "
                "of them; move it to the start of its line"
            )
    if error.span().path.lower().endswith(".toml"):
        return (
            "add 'key' above the first [header]: a key = ... line below a header belongs to "
            "that table, not to the file"
        )
    return None


def _wrong_type(error: _Error, words: str) -> Diagnostic:
    value: object = error.value
    hint = None
    if words == "text" and not isinstance(value, Mapping | list | NoneType):
        hint = f'put it in quotes: "{_as_written(value)}"'
    elif error.place.target is ParamSpec and isinstance(value, str) and value in _PARAM_TYPES:
        hint = f"write {{type: {value}}}"
    elif words == "a list" and isinstance(value, Mapping) and error.path:
        hint = _list_hint(error)
    elif error.path[:1] in (("params",), ("tools",)) and error.path[1:] == ("key",):
        hint = "if this is the prompt's own key, write it at the start of a line, without "
        hint += f"indentation; indented, it is read as a key of {error.path[0]}:"
    found = "" if error.place.on_key else f"; found {describe(error.value)}"
    return error.diagnostic(f"{error.label} must be {words}{found}", DiagnosticCode.TYPE, hint=hint)


def _list_hint(error: _Error) -> str:
    """How to write a list that was written as one mapping: ``[[name]]`` in TOML, ``- `` in YAML."""
    name = str(error.path[-1])
    if error.span().path.lower().endswith(".toml"):
        return (
            f"write [[{name}]] with two brackets above each item: [{name}] makes one table, "
            f"[[{name}]] adds an item to the list"
        )
    return f"write {name}: as a list: each item on its own line after '- ', or [item, ...]"


def _as_written(value: object) -> str:
    """A scalar as an author typed it: ``true``, ``2024-01-01``, ``5``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _literal(error: _Error) -> Diagnostic:
    choices = error.place.choices
    return error.diagnostic(
        f"{error.label} must be {one_of(choices)}; found {describe(error.value)}",
        DiagnosticCode.ENUM,
        **_did_you_mean(close_matches(error.value, choices)),
    )


def _union(error: _Error) -> Diagnostic:
    union: OneOf = UNIONS[error.context["union"]]
    value = error.value
    word: object = value
    span = error.span()
    keys: list[object] = (
        [key for key in value if key not in union.common]  # pyright: ignore[reportUnknownVariableType]
        if isinstance(value, dict)
        else []
    )
    if dict in union.shapes and len(keys) == 1 and keys[0] not in union.choices:
        word = keys[0]
        span = error.span((*error.path, str(word)), key=True)
    found = describe(word)
    subject = error.label if error.path and isinstance(error.path[-1], str) else f"A {union.noun}"
    extra: _Suggested = _did_you_mean(close_matches(word, union.choices))
    if dict in union.shapes and word in union.choices:
        extra = {"hint": f"write it as a mapping: {{{word}: ...}}"}
    if union is CONDITION and isinstance(value, str) and value.lower() in _YAML_BOOLEANS:
        extra = {"hint": "write true or false, without quotes"}
    code = DiagnosticCode.ENUM if isinstance(value, union.shapes) else DiagnosticCode.TYPE
    return error.diagnostic(
        f"{subject} must be {union.phrase}; found {found}", code, span=span, **extra
    )


def _pattern(error: _Error) -> Diagnostic:
    rule = RULES_BY_PATTERN[error.context["pattern"]]
    fixed = rule.suggestion(cast("str", error.value))  # a pattern is checked on text only
    return error.diagnostic(
        f"{describe(error.value)} is not {rule.valid}",
        DiagnosticCode.PATTERN,
        expected=rule.rule,
        **_did_you_mean((fixed,) if fixed else ()),
    )


def _too_long(error: _Error) -> Diagnostic:
    limit = error.context["max_length"]
    return error.diagnostic(
        f"{error.label} must be at most {limit} {noun_for(limit, 'character')}; "
        f"found {len(cast('str', error.value))}",  # only text has a maximum length
        DiagnosticCode.VALUE,
    )


def _too_short(error: _Error) -> Diagnostic:
    least = error.context["min_length"]
    return error.diagnostic(
        f"{error.label} needs at least {least} {'item' if least == 1 else 'items'}; found none",
        DiagnosticCode.VALUE,
    )


def _out_of_bounds(error: _Error) -> Diagnostic:
    """A number past its bound: ``'threshold' must be at most 1; found 2``."""
    name, words = next((name, words) for name, words in _BOUNDS if name in error.context)
    bound: float = error.context[name]
    return error.diagnostic(
        f"{error.label} must be {words} {bound:g}; found {describe(error.value)}",
        DiagnosticCode.VALUE,
    )


_BOUNDS: Final = (("gt", "more than"), ("ge", "at least"), ("le", "at most"))
"""A number's bounds as pydantic's error context names them, and in words."""

_PARAM_TYPES: Final = frozenset({"string", "integer", "number", "boolean", "array"})
_YAML_BOOLEANS: Final = frozenset({"yes", "no", "on", "off", "true", "false", "y", "n"})

_TYPE_WORDS: Final[dict[str, str]] = {
    "string_type": "text",
    "bool_type": "true or false",
    "int_type": "a whole number",
    "float_type": "a number",
    "dict_type": "a mapping (key: value pairs)",
    "model_type": "a mapping (key: value pairs)",
    "model_attributes_type": "a mapping (key: value pairs)",
    "tuple_type": "a list",
    "list_type": "a list",
}

_HANDLERS: Final[dict[str, Callable[[_Error], Diagnostic]]] = {
    "extra_forbidden": _unknown_key,
    "missing": _missing,
    "literal_error": _literal,
    UNION_ERROR: _union,
    "string_pattern_mismatch": _pattern,
    "string_too_long": _too_long,
    "too_short": _too_short,
    "greater_than": _out_of_bounds,
    "greater_than_equal": _out_of_bounds,
    "less_than_equal": _out_of_bounds,
}
