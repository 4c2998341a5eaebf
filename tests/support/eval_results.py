"""Case results made by hand for the report's tests: one call, one run."""

from __future__ import annotations

import math
from collections.abc import Sequence

from wink_decl.evals import CaseResult, Outcome, Score, ToolCall

MODEL = "openai:gpt-4.1-mini"


def run(
    case: str,
    *,
    experiment: str = "baseline",
    model: str = MODEL,
    repeat: int = 0,
    passed: bool = True,
    score: float | None = None,
    error: str | None = None,
    latency_ms: float = 100.0,
    tokens: tuple[int, int] = (10, 5),
    checks: tuple[tuple[str, Score], ...] = (),
    text: str = "an answer",
    tool_calls: tuple[ToolCall, ...] = (),
    output: object | None = None,
) -> CaseResult:
    """One run of ``case``; an ``error`` makes it a run that errored (no outcome, score 0)."""
    if error is not None:
        return CaseResult(case, experiment, model, repeat, passed=False, score=0.0, error=error)
    outcome = Outcome(
        text=text,
        output=output,
        tool_calls=tool_calls,
        input_tokens=tokens[0],
        output_tokens=tokens[1],
        turns=1,
        latency_ms=latency_ms,
    )
    return CaseResult(
        case,
        experiment,
        model,
        repeat,
        passed=passed,
        score=(1.0 if passed else 0.0) if score is None else score,
        outcome=outcome,
        checks=checks,
    )


def paired(outcomes: str, *, treatment: str = "concise", model: str = MODEL) -> list[CaseResult]:
    """Runs of cases ``c0``, ``c1``... on the baseline and on ``treatment``, from a pattern.

    Each two characters are one case: the baseline's run then the treatment's, ``P`` passed,
    ``F`` failed, ``E`` errored, ``-`` no run. ``"PF EE"`` (spaces ignored) is case c0 passing
    on the baseline and failing on the treatment, case c1 erroring on both.
    """
    marks = outcomes.replace(" ", "")
    results: list[CaseResult] = []
    for index in range(0, len(marks), 2):
        for experiment, mark in (("baseline", marks[index]), (treatment, marks[index + 1])):
            case = f"c{index // 2}"
            if mark == "E":
                results.append(run(case, experiment=experiment, model=model, error="boom"))
            elif mark != "-":
                results.append(run(case, experiment=experiment, model=model, passed=mark == "P"))
    return results


def close(
    actual: float | Sequence[float | None] | None,
    expected: float | Sequence[float],
    *,
    rel: float = 0.0,
    within: float = 0.0,
) -> bool:
    """``actual`` is ``expected`` (a number, or numbers one by one) within ``rel`` or ``within``."""
    wanted = [expected] if isinstance(expected, float | int) else list(expected)
    got = [actual] if actual is None or isinstance(actual, float | int) else list(actual)
    return len(got) == len(wanted) and all(
        value is not None and math.isclose(value, target, rel_tol=rel, abs_tol=within)
        for value, target in zip(got, wanted, strict=True)
    )


def lines(*texts: str) -> str:
    """``texts`` as lines of one text, each ending with a line break."""
    return "".join(f"{text}\n" for text in texts)
