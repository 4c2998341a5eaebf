"""A suite's scorer, sent to another process as what it is made of and scoring there."""
# pyright: reportPrivateUsage=false

from __future__ import annotations

import json
import pickle
from pathlib import Path

from wink_decl.adapters.scripted import ScriptedAdapter, ScriptedTurn
from wink_decl.evals._checks import Check, JudgeCheck, PluginCheck, TextCheck
from wink_decl.evals._eval_types import Outcome, Sample, Score
from wink_decl.evals._suite_scorer import SuiteScorer
from wink_decl.limits import Limits

CASE = Sample("add-bug", {"change": "return a - b"}, "a + b")
ANSWER = Outcome(text="The change subtracts; it should return a + b.")
CHECKS: tuple[Check, ...] = (
    TextCheck(kind="contains", value="a + b", label="contains: a + b"),
    JudgeCheck(rubric="Names the bug and the fix.", label="judge"),
    PluginCheck(name="nobody.polite", label="plugin: nobody.polite"),
)


def judge_adapter(model: str | None) -> ScriptedAdapter:
    """A judge that rates every answer good (a module's function: it pickles)."""
    del model
    answer = json.dumps({"rating": "good", "reason": "Names both."})
    return ScriptedAdapter([ScriptedTurn.answer(answer)])


def test_a_pickled_scorer_is_what_it_is_made_of_and_scores_alike() -> None:
    limits = Limits(max_sections=50)
    scorer = SuiteScorer(judge_adapter, relative_to="judges", root=Path("prompts"), limits=limits)
    here = scorer(CHECKS, ANSWER, CASE)
    copy = pickle.loads(pickle.dumps(scorer))  # noqa: S301  # our own bytes
    assert (copy.judge_adapter, copy.relative_to, copy.root, copy.limits, copy._made) == (
        judge_adapter,
        "judges",
        Path("prompts"),
        limits,
        None,
    )
    there = copy(CHECKS, ANSWER, CASE)
    assert here == there
    assert there == (
        False,
        (1.0 + 0.75 + 0.0) / 3,
        (
            ("contains: a + b", Score(1.0, True, "the answer contains 'a + b'")),
            ("judge", Score(0.75, True, "good: Names both.")),
            (
                "plugin: nobody.polite",
                Score(
                    0.0,
                    False,
                    "No evaluator named 'nobody.polite' is installed. Run 'wink-decl plugins' "
                    "to list what is installed.",
                ),
            ),
        ),
    )


def test_without_a_judge_adapter_a_judge_check_fails_saying_so() -> None:
    scorer = SuiteScorer()
    assert scorer(CHECKS[1:2], ANSWER, CASE) == (
        False,
        0.0,
        (
            (
                "judge",
                Score(
                    0.0,
                    False,
                    "no judge to ask: a judge check needs one (evaluate(..., "
                    "judge=make_judge(...)))",
                ),
            ),
        ),
    )
    made = scorer._made
    scorer(CHECKS[:1], ANSWER, CASE)
    assert scorer._made is made  # made once
