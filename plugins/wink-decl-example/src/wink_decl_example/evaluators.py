"""``example.max_words``: an evaluator for eval files' ``plugin`` checks."""

from __future__ import annotations

from wink_decl.evals import Evaluator, Outcome, Sample, Score


def max_words(*, limit: int) -> Evaluator:
    """The factory the entry point names: called with the check's ``args`` (``{limit: 50}``).

    It returns the evaluator, a plain function ``(outcome, sample) -> Score``. An answer of
    at most ``limit`` words passes with 1.0; a longer one fails, and scores the share of it
    that fits, so a near miss counts for more than a rambling answer.
    """

    def check(outcome: Outcome, sample: Sample) -> Score:
        del sample  # the case: its id, params and expected answer, for evaluators that ask
        words = len(outcome.text.split())
        if words <= limit:
            return Score(1.0, passed=True, reason=f"{words} words (at most {limit})")
        return Score(limit / words, passed=False, reason=f"{words} words; at most {limit}")

    return check
