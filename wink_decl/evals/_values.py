"""What checks share: scores, values shown in reasons, the expected answer, the answer as JSON."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import cast

from wink_decl.evals._eval_types import Outcome, Score
from wink_decl.runtime.json_errors import same_on_every_python

__all__ = [
    "SHOWN",
    "answer_data",
    "as_list",
    "as_mapping",
    "bounded",
    "compact_json",
    "either",
    "expected_text",
    "failing",
    "kind_of",
    "number",
    "one_line",
    "passing",
    "same_json",
    "shown",
]

SHOWN = 80
"""Characters of a value a reason shows; the rest is cut to ``...`` (answers can be long)."""
_REASON = 300
"""Characters of a reason that quotes what a judge, a plugin or a validator said."""


def passing(reason: str) -> Score:
    """The score of a check that passes outright: 1.0, with why."""
    return Score(1.0, passed=True, reason=reason)


def failing(reason: str) -> Score:
    """The score of a check that fails outright: 0.0, with why."""
    return Score(0.0, passed=False, reason=reason)


def either(holds: bool, affirmed: str, denied: str) -> Score:
    """Passing with ``affirmed`` when ``holds``, else failing with ``denied``."""
    return passing(affirmed) if holds else failing(denied)


def bounded(text: str, limit: int = _REASON) -> str:
    """``text`` cut to ``limit`` characters, ``...`` marking the cut."""
    return text if len(text) <= limit else f"{text[:limit]}..."


def one_line(error: BaseException) -> str:
    """``ValueError: the first line of its message`` (or the type alone), bounded."""
    lines = str(error).strip().splitlines()
    return bounded(f"{type(error).__name__}: {lines[0]}" if lines else type(error).__name__)


def compact_json(value: object) -> str:
    """``value`` as JSON without spaces (a value JSON cannot write is written as its text)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def shown(value: object) -> str:
    """A value as a reason quotes it: text in quotes, anything else as compact JSON; bounded."""
    if isinstance(value, str):
        return repr(bounded(value, SHOWN))
    return bounded(compact_json(value), SHOWN)


def expected_text(expected: object) -> str:
    """The case's ``expected`` as text checks compare it: text as is, else compact JSON."""
    return expected if isinstance(expected, str) else compact_json(expected)


def number(value: float) -> str:
    """``4000`` for 4000.0, ``1.5`` for 1.5: a count or a limit as a person writes it."""
    if math.isfinite(value) and float(value).is_integer():
        return str(int(value))
    return f"{value:.3f}".rstrip("0").rstrip(".")


def as_list(value: object) -> Sequence[object] | None:
    """``value`` when it is a JSON array (a list or a tuple; text is not one here), else None."""
    return cast("Sequence[object]", value) if isinstance(value, list | tuple) else None


def as_mapping(value: object) -> Mapping[object, object] | None:
    """``value`` when it is a JSON object (a mapping), else None."""
    return cast("Mapping[object, object]", value) if isinstance(value, Mapping) else None


def kind_of(value: object) -> str:
    """What a value that holds no others is, in words: ``text``, ``a number``, ``null``, ..."""
    if isinstance(value, str):
        return "text"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    return "null" if value is None else f"a {type(value).__name__}"


def same_json(left: object, right: object) -> bool:
    """Deep equality of JSON values: ``1`` equals ``1.0``, ``true`` is not ``1``."""
    if isinstance(left, bool) or isinstance(right, bool):
        return isinstance(left, bool) and isinstance(right, bool) and left == right
    lefts, rights = as_mapping(left), as_mapping(right)
    if lefts is not None or rights is not None:
        return (
            lefts is not None
            and rights is not None
            and lefts.keys() == rights.keys()
            and all(same_json(lefts[key], rights[key]) for key in lefts)
        )
    left_items, right_items = as_list(left), as_list(right)
    if left_items is not None or right_items is not None:
        return (
            left_items is not None
            and right_items is not None
            and len(left_items) == len(right_items)
            and all(map(same_json, left_items, right_items))
        )
    return left == right


def answer_data(outcome: Outcome) -> tuple[object, str | None]:
    """The structured answer as JSON data, else the answer's text read as JSON; or why not."""
    if outcome.output is not None:
        return outcome.output, None
    try:
        return json.loads(outcome.text), None
    except json.JSONDecodeError as error:
        return None, f"the answer is not JSON ({same_on_every_python(error)})"
    except RecursionError:
        return None, "the answer is JSON nested too deeply to read"
