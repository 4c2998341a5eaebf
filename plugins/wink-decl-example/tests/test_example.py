"""The example's own tests: plugins are plain functions and objects, called as wink-decl does."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

from wink_decl_example.evaluators import max_words
from wink_decl_example.handlers import CountParams, WordCount, count_words
from wink_decl_example.policies import max_length
from wink_decl_example.predicates import long_text

import wink_decl
from wink_decl import ToolContext
from wink_decl.evals import Outcome, Sample, Score

PROMPT = Path(__file__).resolve().parents[1] / "prompts" / "count.wink.yaml"
NO_CONTEXT = cast("ToolContext", None)  # these plugins never look at it


def test_the_handler_counts_words() -> None:
    result = count_words(CountParams("one two  three"), context=NO_CONTEXT)
    assert (result.success, result.value, result.message) == (True, WordCount(3), "3 words.")


def test_the_policy_refuses_long_text() -> None:
    policy = max_length(limit=5)
    tool = cast("Any", type("T", (), {"name": "count_words"}))
    assert policy.check(tool, CountParams("short"), context=NO_CONTEXT).allowed
    denied = policy.check(tool, CountParams("too long"), context=NO_CONTEXT)
    assert denied.reason == "'text' has 8 characters; count_words takes at most 5."


def test_the_predicate_reads_the_text_param() -> None:
    assert long_text(CountParams("x" * 201), session=None)
    assert not long_text(CountParams("short"), session=None)
    assert not long_text(None, session=None)


def test_the_evaluator_scores_the_share_of_words_that_fit() -> None:
    check = max_words(limit=3)
    case = Sample("short")
    fits = Score(1.0, passed=True, reason="3 words (at most 3)")
    assert check(Outcome(text="one two three"), case) == fits
    too_long = Score(0.75, passed=False, reason="4 words; at most 3")
    assert check(Outcome(text="one two three four"), case) == too_long


def test_the_prompt_loads_with_every_plugin_and_renders() -> None:
    template = wink_decl.load(PROMPT)  # imports and checks the three plugins
    (params,) = template.params_types  # the dataclass of the file's params:
    rendered = template.render(params(text="one two"))
    assert [tool.name for tool in rendered.tools] == ["count_words"]
    assert "Long texts" not in rendered.text
