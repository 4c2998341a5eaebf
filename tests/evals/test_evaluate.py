"""``evaluate`` and ``score_case``: all, any, negated, weighted and nested checks, whole scores."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from wink_decl.evals import (
    AllOf,
    AnyOf,
    Check,
    FieldCheck,
    JsonSchemaCheck,
    JudgeCheck,
    LimitCheck,
    Outcome,
    PluginCheck,
    RegexCheck,
    Sample,
    Score,
    TextCheck,
    ToolCalledCheck,
    ToolCallsCheck,
    ToolsSucceededCheck,
    all_of,
    any_of,
    contains,
    evaluate,
    evaluator_of,
    negate,
    score_case,
)

CASE = Sample("add-bug")
ANSWER = Outcome(text="Return a + b; the test on line 3 fails.", turns=2)
HAS_A = TextCheck(kind="contains", value="a + b")
HAS_TODO = TextCheck(kind="contains", value="TODO")
ON_LINE = RegexCheck(pattern=r"line \d")
SAYS_B = TextCheck(kind="equals", value="b")
DOCS = Path(__file__).resolve().parents[2] / "docs" / "evals.md"

CASES: list[tuple[str, Check, Score]] = [
    (
        "all-pass",
        AllOf(checks=(HAS_A, ON_LINE)),
        Score(1.0, True, "all 2 passed"),
    ),
    (
        "all-fails-naming-the-first-failure-and-weighs-the-mean",
        AllOf(checks=(HAS_A, TextCheck(kind="contains", value="TODO", weight=3), SAYS_B)),
        Score(0.2, False, "2 of 3 failed; the first: the answer does not contain 'TODO'"),
    ),
    (
        "all-with-a-negated-check",
        AllOf(checks=(HAS_A, TextCheck(kind="contains", value="TODO", negate=True))),
        Score(1.0, True, "all 2 passed"),
    ),
    (
        "any-passes-with-one",
        AnyOf(checks=(HAS_TODO, HAS_A)),
        Score(1.0, True, "1 of 2 passed; the first: the answer contains 'a + b'"),
    ),
    (
        "any-fails-with-none",
        AnyOf(checks=(HAS_TODO, SAYS_B)),
        Score(0.0, False, "none of 2 passed; the first: the answer does not contain 'TODO'"),
    ),
    (
        "any-scores-the-best-value",
        AnyOf(checks=(HAS_TODO, AllOf(checks=(HAS_A, SAYS_B)))),
        Score(
            0.5,
            False,
            "none of 2 passed; the first: the answer does not contain 'TODO'",
        ),
    ),
    (
        "all-negated",
        AllOf(checks=(HAS_A, HAS_TODO), negate=True),
        Score(0.5, True, "negated: 1 of 2 failed; the first: the answer does not contain 'TODO'"),
    ),
    (
        "any-negated",
        AnyOf(checks=(HAS_A, HAS_TODO), negate=True),
        Score(0.0, False, "negated: 1 of 2 passed; the first: the answer contains 'a + b'"),
    ),
    (
        "nested-any-in-all-with-weights-and-negation",
        AllOf(
            checks=(
                AnyOf(checks=(HAS_TODO, ON_LINE), weight=2),
                AllOf(checks=(HAS_A, SAYS_B), negate=True),
                LimitCheck(kind="max_turns", limit=1, weight=1.5),
            )
        ),
        Score(
            (2 * 1.0 + 1 * 0.5 + 1.5 * 0.0) / 4.5,
            False,
            "1 of 3 failed; the first: the run took 2 turns; at most 1 allowed",
        ),
    ),
    (
        "a-negated-check-inside-a-negated-one",
        AllOf(checks=(TextCheck(kind="contains", value="a + b", negate=True),), negate=True),
        Score(
            1.0,
            True,
            "negated: 1 of 1 failed; the first: negated: the answer contains 'a + b'",
        ),
    ),
]
IDS = [case[0] for case in CASES]


@pytest.mark.parametrize(("name", "check", "expected"), CASES, ids=IDS)
def test_checks_made_of_checks_score(name: str, check: Check, expected: Score) -> None:
    assert evaluate(check, ANSWER, CASE) == expected


def test_a_case_passes_when_every_check_passes_and_scores_their_weighted_mean() -> None:
    checks: list[Check] = [
        TextCheck(kind="contains", value="a + b", label="contains: a + b"),
        TextCheck(kind="icontains", value="RETURN", weight=2, label="icontains: RETURN"),
        TextCheck(kind="contains", value="TODO", negate=True, label="contains: TODO"),
    ]
    assert score_case(checks, ANSWER, CASE) == (
        True,
        1.0,
        (
            ("contains: a + b", Score(1.0, True, "the answer contains 'a + b'")),
            ("icontains: RETURN", Score(1.0, True, "the answer contains 'RETURN', ignoring case")),
            ("contains: TODO", Score(1.0, True, "negated: the answer does not contain 'TODO'")),
        ),
    )


def test_one_failing_check_fails_the_case_and_weighs_its_share() -> None:
    checks: list[Check] = [
        TextCheck(kind="contains", value="a + b", weight=3, label="contains: a + b"),
        LimitCheck(kind="max_turns", limit=1, label="max_turns: 1"),
    ]
    assert score_case(checks, ANSWER, CASE) == (
        False,
        0.75,
        (
            ("contains: a + b", Score(1.0, True, "the answer contains 'a + b'")),
            ("max_turns: 1", Score(0.0, False, "the run took 2 turns; at most 1 allowed")),
        ),
    )


def test_a_case_without_checks_passes_with_score_one() -> None:
    assert score_case([], ANSWER, CASE) == (True, 1.0, ())


def test_a_check_made_in_code_is_labelled_by_its_kind() -> None:
    checks: list[Check] = [
        TextCheck(kind="icontains", value="a"),
        RegexCheck(pattern="a"),
        JsonSchemaCheck(schema={}),
        FieldCheck(path="a", op="equals", value=1),
        ToolCalledCheck(name="read_file"),
        ToolCalledCheck(name="read_file", called=False),
        ToolCallsCheck(name="read_file"),
        ToolsSucceededCheck(),
        LimitCheck(kind="max_latency_ms", limit=1),
        JudgeCheck(rubric="Good."),
        PluginCheck(name="none.such"),
        AllOf(checks=(HAS_A,)),
        AnyOf(checks=(HAS_A,)),
    ]
    _, _, scores = score_case(checks, ANSWER, CASE)
    assert [label for label, _ in scores] == [
        "icontains",
        "regex",
        "json_schema",
        "field",
        "tool_called",
        "tool_not_called",
        "tool_calls",
        "tools_succeeded",
        "max_latency_ms",
        "judge",
        "plugin",
        "all",
        "any",
    ]


@pytest.mark.parametrize(
    ("weight", "message"),
    [
        (0.0, "A weight must be a finite number above 0, not 0.0."),
        (-1.0, "A weight must be a finite number above 0, not -1.0."),
        (math.nan, "A weight must be a finite number above 0, not nan."),
        (math.inf, "A weight must be a finite number above 0, not inf."),
    ],
    ids=["zero", "negative", "nan", "infinite"],
)
def test_a_weight_that_cannot_weigh_is_refused(weight: float, message: str) -> None:
    check = TextCheck(kind="contains", value="a", weight=weight)
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        score_case([check], ANSWER, CASE)
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        evaluate(AllOf(checks=(check,)), ANSWER, CASE)


def test_the_combinators_from_python() -> None:
    assert all_of(contains("a"), negate(contains("TODO")), contains("zzz"), weights=[1, 1, 2])(
        ANSWER, CASE
    ) == Score(0.5, False, "1 of 3 failed; the first: the answer does not contain 'zzz'")
    assert any_of(contains("zzz"), contains("line"))(ANSWER, CASE) == Score(
        1.0, True, "1 of 2 passed; the first: the answer contains 'line'"
    )
    assert evaluator_of(HAS_TODO)(ANSWER, CASE) == evaluate(HAS_TODO, ANSWER, CASE)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: all_of(), "all_of needs at least one evaluator."),
        (lambda: any_of(), "any_of needs at least one evaluator."),
        (lambda: all_of(contains("a"), weights=[1, 2]), "1 score needs 1 weight, not 2."),
    ],
    ids=["all-of-nothing", "any-of-nothing", "weights-that-do-not-fit"],
)
def test_combinators_refuse_what_they_cannot_combine(make: object, message: str) -> None:
    assert callable(make)
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        make()


def test_the_example_of_the_docs_runs() -> None:
    text = DOCS.read_text(encoding="utf-8")
    checks = text[text.index("\n## Checks\n") :]
    block = re.findall(r"```python\n(.*?)```", checks, flags=re.DOTALL)[0]
    exec(compile(block, str(DOCS), "exec"), {})  # noqa: S102  # the docs' own example
