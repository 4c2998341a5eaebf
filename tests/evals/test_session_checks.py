"""Checks on how the run went: tools, tokens, turns, time; passing, failing, negated."""

from __future__ import annotations

import dataclasses

import pytest

from wink_decl.evals import (
    Check,
    LimitCheck,
    Outcome,
    Sample,
    Score,
    ToolCall,
    ToolCalledCheck,
    ToolCallsCheck,
    ToolsSucceededCheck,
    evaluate,
    max_latency_ms,
    max_tokens,
    max_turns,
    tool_called,
    tool_calls,
    tool_not_called,
    tools_succeeded,
)

CASE = Sample("add-bug")


def read(path: str, *, success: bool = True, message: str = "") -> ToolCall:
    return ToolCall("read_file", {"path": path}, success, message)


LISTED = ToolCall("list_dir", {"path": "."}, True, "a.py")
RUN = Outcome(
    text="Use a + b.",
    tool_calls=(LISTED, read("a.py"), read("b.py")),
    input_tokens=1200,
    output_tokens=300,
    turns=3,
    latency_ms=1234.5,
)
QUIET = Outcome(text="a + b", turns=1, input_tokens=1)
FAILED = dataclasses.replace(
    RUN,
    tool_calls=(
        LISTED,
        read("gone.py", success=False, message="No file 'gone.py'.\nIt was never there."),
        read("x.py", success=False, message="Denied."),
    ),
)
FAILED_ONCE = dataclasses.replace(RUN, tool_calls=(read("a.py", success=False, message="x"),))

CASES: list[tuple[str, Check, Outcome, Score]] = [
    (
        "tool-called-twice",
        ToolCalledCheck(name="read_file"),
        RUN,
        Score(1.0, True, "'read_file' was called 2 times"),
    ),
    (
        "tool-called-once",
        ToolCalledCheck(name="list_dir"),
        RUN,
        Score(1.0, True, "'list_dir' was called once"),
    ),
    (
        "tool-called-never-names-the-calls-made",
        ToolCalledCheck(name="write_file"),
        RUN,
        Score(0.0, False, "'write_file' was never called (called: list_dir, read_file)"),
    ),
    (
        "tool-called-never-in-a-run-without-calls",
        ToolCalledCheck(name="read_file"),
        QUIET,
        Score(0.0, False, "'read_file' was never called (no tool was called)"),
    ),
    (
        "tool-not-called-passes",
        ToolCalledCheck(name="write_file", called=False),
        RUN,
        Score(1.0, True, "'write_file' was never called"),
    ),
    (
        "tool-not-called-fails",
        ToolCalledCheck(name="read_file", called=False),
        RUN,
        Score(0.0, False, "'read_file' was called 2 times"),
    ),
    (
        "tool-calls-within-both-bounds",
        ToolCallsCheck(name="read_file", min=1, max=3),
        RUN,
        Score(1.0, True, "'read_file' was called 2 times (allowed: 1 to 3)"),
    ),
    (
        "tool-calls-at-both-bounds-inclusive",
        ToolCallsCheck(name="read_file", min=2, max=2),
        RUN,
        Score(1.0, True, "'read_file' was called 2 times (allowed: 2 to 2)"),
    ),
    (
        "tool-calls-below-min",
        ToolCallsCheck(name="read_file", min=3),
        RUN,
        Score(0.0, False, "'read_file' was called 2 times; at least 3 required"),
    ),
    (
        "tool-calls-never-below-min",
        ToolCallsCheck(name="read_file", min=1, max=3),
        QUIET,
        Score(0.0, False, "'read_file' was never called; at least 1 required"),
    ),
    (
        "tool-calls-above-max",
        ToolCallsCheck(name="read_file", max=1),
        RUN,
        Score(0.0, False, "'read_file' was called 2 times; at most 1 allowed"),
    ),
    (
        "tool-calls-with-only-min",
        ToolCallsCheck(name="list_dir", min=1),
        RUN,
        Score(1.0, True, "'list_dir' was called once (allowed: at least 1)"),
    ),
    (
        "tool-calls-with-only-max",
        ToolCallsCheck(name="write_file", max=0),
        RUN,
        Score(1.0, True, "'write_file' was never called (allowed: at most 0)"),
    ),
    (
        "tool-calls-with-no-bound",
        ToolCallsCheck(name="read_file"),
        RUN,
        Score(1.0, True, "'read_file' was called 2 times (allowed: any number)"),
    ),
    (
        "tools-succeeded-all",
        ToolsSucceededCheck(),
        RUN,
        Score(1.0, True, "all 3 tool calls succeeded"),
    ),
    (
        "tools-succeeded-the-one",
        ToolsSucceededCheck(),
        dataclasses.replace(RUN, tool_calls=(LISTED,)),
        Score(1.0, True, "the tool call succeeded"),
    ),
    (
        "tools-succeeded-with-no-calls",
        ToolsSucceededCheck(),
        QUIET,
        Score(1.0, True, "no tool was called"),
    ),
    (
        "tools-succeeded-fails-naming-the-first-failure",
        ToolsSucceededCheck(),
        FAILED,
        Score(0.0, False, "2 of 3 tool calls failed; the first, 'read_file': No file 'gone.py'."),
    ),
    (
        "tools-succeeded-fails-the-one-call",
        ToolsSucceededCheck(),
        FAILED_ONCE,
        Score(0.0, False, "1 of 1 tool call failed; the first, 'read_file': x"),
    ),
    (
        "max-tokens-counts-input-and-output",
        LimitCheck(kind="max_tokens", limit=1500),
        RUN,
        Score(1.0, True, "the run used 1500 tokens (at most 1500)"),
    ),
    (
        "max-tokens-over",
        LimitCheck(kind="max_tokens", limit=1499),
        RUN,
        Score(0.0, False, "the run used 1500 tokens; at most 1499 allowed"),
    ),
    (
        "max-tokens-one",
        LimitCheck(kind="max_tokens", limit=0.5),
        QUIET,
        Score(0.0, False, "the run used 1 token; at most 0.5 allowed"),
    ),
    (
        "max-turns-within",
        LimitCheck(kind="max_turns", limit=6),
        RUN,
        Score(1.0, True, "the run took 3 turns (at most 6)"),
    ),
    (
        "max-turns-over",
        LimitCheck(kind="max_turns", limit=2),
        RUN,
        Score(0.0, False, "the run took 3 turns; at most 2 allowed"),
    ),
    (
        "max-turns-one",
        LimitCheck(kind="max_turns", limit=1),
        QUIET,
        Score(1.0, True, "the run took 1 turn (at most 1)"),
    ),
    (
        "max-latency-within",
        LimitCheck(kind="max_latency_ms", limit=20000),
        RUN,
        Score(1.0, True, "the run took 1234.5 ms (at most 20000)"),
    ),
    (
        "max-latency-over",
        LimitCheck(kind="max_latency_ms", limit=1000.25),
        RUN,
        Score(0.0, False, "the run took 1234.5 ms; at most 1000.25 allowed"),
    ),
    (
        "max-latency-without-limit",
        LimitCheck(kind="max_latency_ms", limit=float("inf")),
        RUN,
        Score(1.0, True, "the run took 1234.5 ms (at most inf)"),
    ),
]
IDS = [case[0] for case in CASES]


@pytest.mark.parametrize(("name", "check", "outcome", "expected"), CASES, ids=IDS)
def test_each_session_check_scores(
    name: str, check: Check, outcome: Outcome, expected: Score
) -> None:
    assert evaluate(check, outcome, CASE) == expected


@pytest.mark.parametrize(("name", "check", "outcome", "expected"), CASES, ids=IDS)
def test_each_session_check_negated_scores_the_other_way(
    name: str, check: Check, outcome: Outcome, expected: Score
) -> None:
    negated = dataclasses.replace(check, negate=True)
    assert evaluate(negated, outcome, CASE) == Score(
        1.0 - expected.value, not expected.passed, f"negated: {expected.reason}"
    )


def test_the_functions_are_the_checks_without_an_eval_file() -> None:
    assert [
        evaluator(RUN, CASE)
        for evaluator in (
            tool_called("read_file"),
            tool_not_called("write_file"),
            tool_calls("read_file", min=2),
            tools_succeeded(),
            max_tokens(4000),
            max_turns(3),
            max_latency_ms(1234.5),
        )
    ] == [
        Score(1.0, True, "'read_file' was called 2 times"),
        Score(1.0, True, "'write_file' was never called"),
        Score(1.0, True, "'read_file' was called 2 times (allowed: at least 2)"),
        Score(1.0, True, "all 3 tool calls succeeded"),
        Score(1.0, True, "the run used 1500 tokens (at most 4000)"),
        Score(1.0, True, "the run took 3 turns (at most 3)"),
        Score(1.0, True, "the run took 1234.5 ms (at most 1234.5)"),
    ]
