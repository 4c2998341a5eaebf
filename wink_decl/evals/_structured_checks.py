"""Checks on the structured answer: ``json_schema`` (it fits) and ``field`` (a value inside it).

Both read ``Outcome.output`` (the prompt's declared ``output:``, as JSON data), or, when the
prompt declares none, the answer's text read as JSON (docs/evals.md, "Checks").
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, cast

from wink_decl.evals._eval_types import Evaluator, Outcome, Sample, Score
from wink_decl.evals._values import (
    answer_data,
    as_list,
    as_mapping,
    bounded,
    compact_json,
    either,
    expected_text,
    failing,
    kind_of,
    one_line,
    passing,
    same_json,
    shown,
)

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

    from wink_decl.prompt.serde import JSONValue

__all__ = ["field_contains", "field_equals", "json_schema"]

_INDEX = re.compile(r"[0-9]+")
"""A path step that picks a list item: digits only (no sign, no other script's digits)."""


def json_schema(schema: Mapping[str, object]) -> Evaluator:
    """The structured answer fits the JSON Schema ``schema`` (Draft 2020-12, formats unchecked).

    A failure names the most relevant error (jsonschema's ``best_match``) and where it is.
    """
    key = compact_json(schema)

    def check(outcome: Outcome, sample: Sample) -> Score:
        del sample  # the schema is always given
        data, problem = answer_data(outcome)
        if problem is not None:
            return failing(problem)
        validator = _validator(key)
        if isinstance(validator, str):
            return failing(validator)
        return _fits(validator, data)

    return check


def _fits(validator: Validator, data: object) -> Score:
    from jsonschema.exceptions import (  # noqa: PLC0415  # with the validator
        ValidationError,
        best_match,  # pyright: ignore[reportUnknownVariableType]  # its key's type is unknown
    )
    from referencing.exceptions import Unresolvable  # noqa: PLC0415  # same

    try:
        errors = list(validator.iter_errors(cast("JSONValue", data)))  # the answer is JSON data
    except Unresolvable as error:
        return failing(f"the schema cannot be used: {one_line(error)}")
    if not errors:
        return passing("the answer fits the schema")
    # The first error, as the schema orders its checks; within an anyOf or a oneOf, the
    # branch that came closest (best_match's descent), not "is not valid under any".
    best = cast("ValidationError", best_match(errors[:1]))
    where = ".".join(str(step) for step in best.absolute_path)
    at = f" at {where}" if where else ""
    more = len(errors) - 1
    others = f" ({more} more error{'s' if more > 1 else ''})" if more else ""
    return failing(f"the answer does not fit the schema{at}: {bounded(best.message)}{others}")


@functools.lru_cache(maxsize=128)
def _validator(schema_json: str) -> Validator | str:
    """The validator of a schema (given as its compact JSON), made once; or why none can be.

    jsonschema is imported here, on the first ``json_schema`` check: a suite without one, and
    every other command, never pays for it.
    """
    from jsonschema import Draft202012Validator  # noqa: PLC0415  # see above
    from jsonschema.exceptions import SchemaError  # noqa: PLC0415

    schema = json.loads(schema_json)
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as error:
        where = ".".join(str(step) for step in error.path)
        at = f" at {where}" if where else ""
        return f"the schema is not a valid JSON Schema{at}: {bounded(error.message)}"
    return Draft202012Validator(schema)


def field_equals(path: str, value: object) -> Evaluator:
    """The value at ``path`` in the structured answer deep-equals ``value`` (``1`` is ``1.0``).

    ``path`` is dotted, list items by index: ``findings.0.line``.
    """

    def check(outcome: Outcome, sample: Sample) -> Score:
        del sample  # the value is always given
        found = _at(outcome, path)
        if isinstance(found, Score):
            return found
        if same_json(found.value, value):
            return passing(f"'{path}' is {shown(value)}")
        return failing(f"'{path}' is {shown(found.value)}, not {shown(value)}")

    return check


def field_contains(path: str, value: object) -> Evaluator:
    """The value at ``path`` contains ``value``: text a substring, a list an item, a mapping a key.

    In text, a ``value`` that is not text is looked for as compact JSON (``3`` as ``"3"``).
    """

    def check(outcome: Outcome, sample: Sample) -> Score:
        del sample  # the value is always given
        found = _at(outcome, path)
        if isinstance(found, Score):
            return found
        return _contains(path, found.value, value)

    return check


def _contains(path: str, container: object, value: object) -> Score:
    if isinstance(container, str):
        wanted = shown(expected_text(value))
        holds = expected_text(value) in container
        return either(holds, f"'{path}' contains {wanted}", f"'{path}' does not contain {wanted}")
    items, keys = as_list(container), as_mapping(container)
    if items is not None:
        holds = any(same_json(item, value) for item in items)
        wanted = shown(value)
        return either(holds, f"'{path}' contains {wanted}", f"'{path}' does not contain {wanted}")
    if keys is not None:
        holds = isinstance(value, str) and value in keys
        wanted = shown(value)
        return either(holds, f"'{path}' has the key {wanted}", f"'{path}' has no key {wanted}")
    return failing(
        f"'{path}' is {kind_of(container)}; 'contains' looks in text, a list or a mapping"
    )


class _Found:
    """The value a path led to (a box, as the value itself may be null)."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value


def _at(outcome: Outcome, path: str) -> _Found | Score:
    """The value at ``path`` in the structured answer, or the failed score naming the step."""
    data, problem = answer_data(outcome)
    if problem is not None:
        return failing(problem)
    current, where, done = data, "the answer", list[str]()
    for step in path.split("."):
        missing = _step_missing(current, step, where)
        if missing is not None:
            return failing(f"no value at '{path}': {missing}")
        current = _step(current, step)
        done.append(step)
        where = f"'{'.'.join(done)}'"
    return _Found(current)


def _step_missing(current: object, step: str, where: str) -> str | None:
    """Why ``step`` leads nowhere from ``current`` (called ``where``), or None when it leads on."""
    keys, items = as_mapping(current), as_list(current)
    if keys is not None:
        return None if step in keys else f"{where} has no key '{step}'"
    if items is not None:
        if _INDEX.fullmatch(step) is None:
            return f"{where} is a list, and '{step}' is not an index"
        count = len(items)
        return None if int(step) < count else f"{where} has {count} item{'' if count == 1 else 's'}"
    return f"{where} is {kind_of(current)}, not a mapping or a list"


def _step(current: object, step: str) -> object:
    """One step down: the key of a mapping, the item of a list (``_step_missing`` said it is)."""
    keys = as_mapping(current)
    if keys is not None:
        return keys[step]
    return cast("Sequence[object]", current)[int(step)]
