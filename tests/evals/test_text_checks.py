"""Checks on the answer's text: each kind passing and failing, negated, as whole scores."""

from __future__ import annotations

import dataclasses

import pytest

from wink_decl.evals import (
    MAX_PATTERN_LENGTH,
    Check,
    Outcome,
    RegexCheck,
    Sample,
    Score,
    TextCheck,
    contains,
    equals,
    evaluate,
    icontains,
    regex,
    starts_with,
)

CASE = Sample("add-bug", {"change": "def add(a, b): return a - b"})
NO_VALUE = Score(
    0.0, False, "no value to compare with: the check gives none and the case has no 'expected'"
)


def expecting(expected: object) -> Sample:
    return Sample("add-bug", {}, expected)


CASES: list[tuple[str, Check, Outcome, Sample, Score]] = [
    (
        "equals-passes-without-the-whitespace-around-the-answer",
        TextCheck(kind="equals", value="a + b"),
        Outcome(text="  a + b\n"),
        CASE,
        Score(1.0, True, "the answer is 'a + b'"),
    ),
    (
        "equals-fails-on-another-answer",
        TextCheck(kind="equals", value="a + b"),
        Outcome(text="a - b"),
        CASE,
        Score(0.0, False, "the answer is 'a - b', not 'a + b'"),
    ),
    (
        "equals-keeps-case-and-inner-whitespace",
        TextCheck(kind="equals", value="a + b"),
        Outcome(text="A +  b"),
        CASE,
        Score(0.0, False, "the answer is 'A +  b', not 'a + b'"),
    ),
    (
        "equals-shows-a-long-answer-cut",
        TextCheck(kind="equals", value="short"),
        Outcome(text="x" * 100),
        CASE,
        Score(0.0, False, f"the answer is '{'x' * 80}...', not 'short'"),
    ),
    (
        "equals-compares-with-expected-text",
        TextCheck(kind="equals"),
        Outcome(text="a + b"),
        expecting("a + b"),
        Score(1.0, True, "the answer is 'a + b'"),
    ),
    (
        "equals-compares-expected-data-with-the-structured-answer",
        TextCheck(kind="equals"),
        Outcome(text='{"n": 1.0, "verdict": "reject"}', output={"n": 1.0, "verdict": "reject"}),
        expecting({"verdict": "reject", "n": 1}),
        Score(1.0, True, 'the answer is {"verdict":"reject","n":1}'),
    ),
    (
        "equals-reads-a-free-text-answer-as-json-for-expected-data",
        TextCheck(kind="equals"),
        Outcome(text="[1, 3]"),
        expecting([1, 2]),
        Score(0.0, False, "the answer is [1,3], not [1,2]"),
    ),
    (
        "equals-holds-true-apart-from-1",
        TextCheck(kind="equals"),
        Outcome(text="1"),
        expecting(True),
        Score(0.0, False, "the answer is 1, not true"),
    ),
    (
        "equals-compares-expected-data-as-text-when-the-answer-is-not-json",
        TextCheck(kind="equals"),
        Outcome(text="forty-two"),
        expecting(42),
        Score(0.0, False, "the answer is 'forty-two', not '42'"),
    ),
    (
        "equals-without-value-or-expected-fails",
        TextCheck(kind="equals"),
        Outcome(text="a + b"),
        CASE,
        NO_VALUE,
    ),
    (
        "contains-passes",
        TextCheck(kind="contains", value="a + b"),
        Outcome(text="Return a + b instead."),
        CASE,
        Score(1.0, True, "the answer contains 'a + b'"),
    ),
    (
        "contains-fails-on-another-case",
        TextCheck(kind="contains", value="Return"),
        Outcome(text="return a + b"),
        CASE,
        Score(0.0, False, "the answer does not contain 'Return'"),
    ),
    (
        "contains-looks-for-expected-data-as-compact-json",
        TextCheck(kind="contains"),
        Outcome(text='The answer is {"line":3}.'),
        expecting({"line": 3}),
        Score(1.0, True, "the answer contains '{\"line\":3}'"),
    ),
    (
        "contains-without-value-or-expected-fails",
        TextCheck(kind="contains"),
        Outcome(text="a + b"),
        CASE,
        NO_VALUE,
    ),
    (
        "icontains-ignores-case",
        TextCheck(kind="icontains", value="RETURN"),
        Outcome(text="It should return a + b."),
        CASE,
        Score(1.0, True, "the answer contains 'RETURN', ignoring case"),
    ),
    (
        "icontains-folds-case-as-unicode-does",
        TextCheck(kind="icontains", value="STRASSE"),
        Outcome(text="Die Straße."),
        CASE,
        Score(1.0, True, "the answer contains 'STRASSE', ignoring case"),
    ),
    (
        "icontains-fails",
        TextCheck(kind="icontains", value="todo"),
        Outcome(text="Done."),
        CASE,
        Score(0.0, False, "the answer does not contain 'todo', ignoring case"),
    ),
    (
        "icontains-without-value-or-expected-fails",
        TextCheck(kind="icontains"),
        Outcome(text="a + b"),
        CASE,
        NO_VALUE,
    ),
    (
        "starts-with-passes-without-the-whitespace-before",
        TextCheck(kind="starts_with", value="Verdict:"),
        Outcome(text="\n  Verdict: reject"),
        CASE,
        Score(1.0, True, "the answer starts with 'Verdict:'"),
    ),
    (
        "starts-with-fails-showing-how-the-answer-starts",
        TextCheck(kind="starts_with", value="Verdict:"),
        Outcome(text="The verdict is: reject, because the change subtracts."),
        CASE,
        Score(0.0, False, "the answer starts 'The verdict is: reje', not 'Verdict:'"),
    ),
    (
        "starts-with-compares-with-expected",
        TextCheck(kind="starts_with"),
        Outcome(text="a + b, as the name says"),
        expecting("a + b"),
        Score(1.0, True, "the answer starts with 'a + b'"),
    ),
    (
        "starts-with-without-value-or-expected-fails",
        TextCheck(kind="starts_with"),
        Outcome(text="a + b"),
        CASE,
        NO_VALUE,
    ),
    (
        "regex-passes-showing-the-match",
        RegexCheck(pattern=r"line \d+"),
        Outcome(text="The bug is on line 12."),
        CASE,
        Score(1.0, True, r"the answer matches /line \d+/ at 'line 12'"),
    ),
    (
        "regex-fails",
        RegexCheck(pattern=r"line \d+"),
        Outcome(text="The bug is somewhere."),
        CASE,
        Score(0.0, False, r"the answer does not match /line \d+/"),
    ),
    (
        "regex-refuses-a-pattern-that-is-not-valid",
        RegexCheck(pattern="(a"),
        Outcome(text="a"),
        CASE,
        Score(
            0.0,
            False,
            "the pattern /(a/ is not a valid regular expression: missing ), unterminated "
            "subpattern at position 0",
        ),
    ),
    (
        "regex-refuses-a-pattern-too-long",
        RegexCheck(pattern="a" * (MAX_PATTERN_LENGTH + 1)),
        Outcome(text="a"),
        CASE,
        Score(0.0, False, "the pattern has 1001 characters; at most 1000 are allowed"),
    ),
]
IDS = [case[0] for case in CASES]


@pytest.mark.parametrize(("name", "check", "outcome", "sample", "expected"), CASES, ids=IDS)
def test_each_text_check_scores(
    name: str, check: Check, outcome: Outcome, sample: Sample, expected: Score
) -> None:
    assert evaluate(check, outcome, sample) == expected


@pytest.mark.parametrize(("name", "check", "outcome", "sample", "expected"), CASES, ids=IDS)
def test_each_text_check_negated_scores_the_other_way(
    name: str, check: Check, outcome: Outcome, sample: Sample, expected: Score
) -> None:
    negated = dataclasses.replace(check, negate=True)
    assert evaluate(negated, outcome, sample) == Score(
        1.0 - expected.value, not expected.passed, f"negated: {expected.reason}"
    )


def test_the_functions_are_the_checks_without_an_eval_file() -> None:
    answer = Outcome(text="Return a + b on line 3.")
    assert [
        evaluator(answer, expecting("a + b"))
        for evaluator in (
            equals("Return a + b on line 3."),
            contains(),
            icontains("RETURN"),
            starts_with("Return"),
            regex(r"line (\d+)"),
        )
    ] == [
        Score(1.0, True, "the answer is 'Return a + b on line 3.'"),
        Score(1.0, True, "the answer contains 'a + b'"),
        Score(1.0, True, "the answer contains 'RETURN', ignoring case"),
        Score(1.0, True, "the answer starts with 'Return'"),
        Score(1.0, True, r"the answer matches /line (\d+)/ at 'line 3'"),
    ]


def test_a_pattern_exactly_as_long_as_allowed_is_used() -> None:
    pattern = "a" * MAX_PATTERN_LENGTH
    assert regex(pattern)(Outcome(text=pattern), CASE) == Score(
        1.0, True, f"the answer matches /{'a' * 80}.../ at '{'a' * 80}...'"
    )
