"""Evaluator plugins for the eval tests, reached through synthetic entry points.

Entry-point values name this module (``evaluator_plugins:polite``): pytest puts
``tests/support`` on ``sys.path``, so the catalog imports it like any installed plugin. Most
are written wrong on purpose, the ways a plugin can fail a check.
"""

from __future__ import annotations

from typing import Any

from wink_decl.evals import Evaluator, Outcome, Sample, Score

built: list[dict[str, object]] = []
"""The args of every evaluator ``polite`` built; tests clear it."""


def polite(*, min: float = 0.5, word: str = "please") -> Evaluator:  # noqa: A002  # the args' key
    """Scores the share of sentences that say ``word`` (in any case); passes from ``min``."""
    built.append({"min": min, "word": word})

    def check(outcome: Outcome, sample: Sample) -> Score:
        sentences = [s for s in outcome.text.split(".") if s.strip()]
        share = (
            sum(word.casefold() in s.casefold() for s in sentences) / len(sentences)
            if sentences
            else 0.0
        )
        return Score(share, passed=share >= min, reason=f"{share:.2f} of the sentences say {word}")

    return check


def takes_anything(**args: object) -> Evaluator:
    """A factory that takes any args and echoes them in the reason."""

    def check(outcome: Outcome, sample: Sample) -> Score:
        return Score(1.0, passed=True, reason=f"{sample.id}: {sorted(args)}")

    return check


def refusing(*, level: int) -> Evaluator:
    """A factory that refuses its args."""
    raise ValueError(f"level {level} is out of range\nsee the docs")


NOT_A_FUNCTION = 42


def builds_nothing() -> object:
    """A factory that returns no function."""
    return "an evaluator"


def raising() -> Evaluator:
    """An evaluator that raises when called."""

    def check(outcome: Outcome, sample: Sample) -> Score:
        raise RuntimeError("the grader lost its model\nat line 3")

    return check


RETURNS: dict[str, object] = {
    "dict": {"value": 1.0, "passed": True},
    "above_one": Score(1.5, passed=True, reason="more than all"),
    "nan": Score(float("nan"), passed=False, reason="no idea"),
    "bool_value": Score(True, passed=True, reason="a bool for a value"),
    "text_passed": Score(1.0, passed="yes", reason="a text for passed"),  # pyright: ignore[reportArgumentType]
    "number_reason": Score(1.0, passed=True, reason=3),  # pyright: ignore[reportArgumentType]
    "good": Score(0.25, passed=False, reason="a quarter"),
}
"""What ``returning`` evaluators return, by the ``kind`` arg: all but ``good`` are wrong."""


def returning(*, kind: str) -> Evaluator:
    """An evaluator that returns ``RETURNS[kind]``, whatever it is."""

    def check(outcome: Outcome, sample: Sample) -> Any:
        return RETURNS[kind]

    return check
