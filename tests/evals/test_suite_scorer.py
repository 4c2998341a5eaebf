"""A suite's scorer maker, sent to another process as what it is made of and making its checker
there (a Ray worker: the judge and the evaluators cannot be sent)."""
# pyright: reportPrivateUsage=false

from __future__ import annotations

import json
import pickle

from wink_decl.adapters.scripted import ScriptedAdapter, ScriptedTurn
from wink_decl.evals._checks import Check, JudgeCheck, PluginCheck, TextCheck
from wink_decl.evals._eval_types import Outcome, Sample, Score
from wink_decl.evals._execute import AdapterPool, ModelAdapters
from wink_decl.evals._run_suite import SuiteScorer
from wink_decl.evals._suite_types import ModelSpec
from wink_decl.limits import Limits

CASE = Sample("add-bug", {"change": "return a - b"}, "a + b")
ANSWER = Outcome(text="The change subtracts; it should return a + b.")
CHECKS: tuple[Check, ...] = (
    TextCheck(kind="contains", value="a + b", label="contains: a + b"),
    JudgeCheck(rubric="Names the bug and the fix.", label="judge"),
    PluginCheck(name="nobody.polite", label="plugin: nobody.polite"),
)
MODELS = (ModelSpec("openai", "judge"), ModelSpec("openai", "other"))


def judge_adapter(model: ModelSpec) -> ScriptedAdapter:
    """A judge that rates every answer good, named after its model."""
    answer = json.dumps({"rating": "good", "reason": f"Names both ({model.model})."})
    return ScriptedAdapter([ScriptedTurn.answer(answer)])


def test_a_pickled_maker_is_what_it_is_made_of_and_makes_a_checker_that_scores_alike() -> None:
    limits = Limits(max_sections=50)
    maker = SuiteScorer("judges", "prompts", MODELS, limits)
    here = maker(ModelAdapters(AdapterPool(judge_adapter)))(CHECKS, ANSWER, CASE)
    copy = pickle.loads(pickle.dumps(maker))  # noqa: S301  # our own bytes
    assert copy == maker
    there = copy(ModelAdapters(AdapterPool(judge_adapter)))(CHECKS, ANSWER, CASE)
    assert here == there
    assert there == (
        False,
        (1.0 + 0.75 + 0.0) / 3,
        (
            ("contains: a + b", Score(1.0, True, "the answer contains 'a + b'")),
            ("judge", Score(0.75, True, "good: Names both (judge).")),
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
