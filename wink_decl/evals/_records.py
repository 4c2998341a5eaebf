"""A case result as JSON data and back: what the results journal holds, one line a case run."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import cast

from wink_decl.errors import WinkDeclError
from wink_decl.evals._eval_types import CaseResult, Outcome, Score, ToolCall

__all__ = ["result_from_json", "result_to_json"]


def result_to_json(result: CaseResult) -> dict[str, object]:
    """``result`` as JSON data (``result_from_json`` reads it back equal)."""
    outcome = result.outcome
    return {
        "case": result.case_id,
        "experiment": result.experiment,
        "model": result.model,
        "repeat": result.repeat,
        "passed": result.passed,
        "score": result.score,
        "error": result.error,
        "outcome": None if outcome is None else _outcome_to_json(outcome),
        "checks": [
            {"label": label, "passed": s.passed, "value": s.value, "reason": s.reason}
            for label, s in result.checks
        ],
    }


def _outcome_to_json(outcome: Outcome) -> dict[str, object]:
    return {
        "text": outcome.text,
        "output": outcome.output,
        "tool_calls": [
            {
                "name": c.name,
                "arguments": dict(c.arguments),
                "success": c.success,
                "message": c.message,
            }
            for c in outcome.tool_calls
        ],
        "input_tokens": outcome.input_tokens,
        "output_tokens": outcome.output_tokens,
        "turns": outcome.turns,
        "latency_ms": outcome.latency_ms,
    }


class _MalformedError(WinkDeclError, ValueError):
    """A record that is not what ``result_to_json`` writes."""


def result_from_json(data: object) -> CaseResult:
    """The case result ``data`` holds; ``ValueError`` when it is not a record of one."""
    record = _mapping(data)
    outcome = record.get("outcome")
    return CaseResult(
        case_id=_text(record, "case"),
        experiment=_text(record, "experiment"),
        model=_text(record, "model"),
        repeat=_count(record, "repeat"),
        passed=_flag(record, "passed"),
        score=_number(record, "score"),
        outcome=None if outcome is None else _outcome(outcome),
        checks=tuple(_check(item) for item in _list(record, "checks")),
        error=None if record.get("error") is None else _text(record, "error"),
    )


def _outcome(data: object) -> Outcome:
    record = _mapping(data)
    return Outcome(
        text=_text(record, "text"),
        output=record.get("output"),
        tool_calls=tuple(_tool_call(item) for item in _list(record, "tool_calls")),
        input_tokens=_count(record, "input_tokens"),
        output_tokens=_count(record, "output_tokens"),
        turns=_count(record, "turns"),
        latency_ms=_number(record, "latency_ms"),
    )


def _tool_call(data: object) -> ToolCall:
    record = _mapping(data)
    return ToolCall(
        _text(record, "name"),
        _mapping(record.get("arguments")),
        _flag(record, "success"),
        _text(record, "message"),
    )


def _check(data: object) -> tuple[str, Score]:
    record = _mapping(data)
    score = Score(_number(record, "value"), _flag(record, "passed"), _text(record, "reason"))
    return _text(record, "label"), score


def _mapping(data: object) -> Mapping[str, object]:
    if not isinstance(data, dict):
        raise _MalformedError("expected an object")
    return cast("dict[str, object]", data)


def _list(record: Mapping[str, object], key: str) -> list[object]:
    value = record.get(key)
    if not isinstance(value, list):
        raise _MalformedError(f"'{key}' must be a list")
    return cast("list[object]", value)


def _text(record: Mapping[str, object], key: str) -> str:
    value = record.get(key)
    if not isinstance(value, str):
        raise _MalformedError(f"'{key}' must be text")
    return value


def _flag(record: Mapping[str, object], key: str) -> bool:
    value = record.get(key)
    if not isinstance(value, bool):
        raise _MalformedError(f"'{key}' must be true or false")
    return value


def _count(record: Mapping[str, object], key: str) -> int:
    value = record.get(key)
    if type(value) is not int or value < 0:
        raise _MalformedError(f"'{key}' must be a whole number, 0 or more")
    return value


def _number(record: Mapping[str, object], key: str) -> float:
    value = record.get(key)
    if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
        raise _MalformedError(f"'{key}' must be a number")
    return float(value)
