"""Checks made of checks: ``all_of``, ``any_of``, ``negate``, and the weighted mean of scores."""

from __future__ import annotations

import math
from collections.abc import Sequence

from wink_decl._nouns import noun_for
from wink_decl.evals._eval_types import Evaluator, Outcome, Sample, Score

__all__ = ["all_of", "any_of", "check_weights", "negate", "negated", "weighted_mean"]


def negated(score: Score) -> Score:
    """``score`` turned round: it passes when ``score`` failed, and is worth ``1 - value``."""
    return Score(1.0 - score.value, not score.passed, f"negated: {score.reason}")


def negate(evaluator: Evaluator) -> Evaluator:
    """Passes when ``evaluator`` fails; its value is ``1 - value``."""

    def check(outcome: Outcome, sample: Sample) -> Score:
        return negated(evaluator(outcome, sample))

    return check


def weighted_mean(values: Sequence[float], weights: Sequence[float]) -> float:
    """The mean of ``values``, each counting ``weights[i]`` times (1.0 when there are none).

    Raises:
        ValueError: the weights do not fit the values (see ``check_weights``).
    """
    check_weights(weights, len(values))
    if not values:
        return 1.0
    total = sum(value * weight for value, weight in zip(values, weights, strict=True))
    return total / sum(weights)


def check_weights(weights: Sequence[float], count: int) -> None:
    """Refuse weights that cannot weigh ``count`` scores.

    Raises:
        ValueError: not one weight per score, or a weight that is not a finite number above 0.
    """
    if len(weights) != count:
        need = "needs" if count == 1 else "need"
        scores, weights_needed = noun_for(count, "score"), noun_for(count, "weight")
        raise ValueError(f"{count} {scores} {need} {count} {weights_needed}, not {len(weights)}.")
    for weight in weights:
        if not (math.isfinite(weight) and weight > 0):
            raise ValueError(f"A weight must be a finite number above 0, not {weight!r}.")


def all_of(*evaluators: Evaluator, weights: Sequence[float] | None = None) -> Evaluator:
    """Passes when every one of ``evaluators`` passes; worth their mean, weighted by ``weights``.

    Raises:
        ValueError: no evaluators, or weights that do not fit them (see ``check_weights``).
    """
    if not evaluators:
        raise ValueError("all_of needs at least one evaluator.")
    shares = [1.0] * len(evaluators) if weights is None else list(weights)
    check_weights(shares, len(evaluators))

    def check(outcome: Outcome, sample: Sample) -> Score:
        scores = [evaluator(outcome, sample) for evaluator in evaluators]
        value = weighted_mean([score.value for score in scores], shares)
        failed = [score for score in scores if not score.passed]
        if not failed:
            return Score(value, passed=True, reason=f"all {len(scores)} passed")
        return Score(
            value,
            passed=False,
            reason=f"{len(failed)} of {len(scores)} failed; the first: {failed[0].reason}",
        )

    return check


def any_of(*evaluators: Evaluator) -> Evaluator:
    """Passes when one of ``evaluators`` passes; worth the best of their values.

    Raises:
        ValueError: no evaluators.
    """
    if not evaluators:
        raise ValueError("any_of needs at least one evaluator.")

    def check(outcome: Outcome, sample: Sample) -> Score:
        scores = [evaluator(outcome, sample) for evaluator in evaluators]
        value = max(score.value for score in scores)
        passed = [score for score in scores if score.passed]
        if passed:
            return Score(
                value,
                passed=True,
                reason=f"{len(passed)} of {len(scores)} passed; the first: {passed[0].reason}",
            )
        return Score(
            value,
            passed=False,
            reason=f"none of {len(scores)} passed; the first: {scores[0].reason}",
        )

    return check
