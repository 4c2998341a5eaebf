"""Checks on how the run went: the tools called, whether they succeeded, tokens, turns, time.

Each scores 1.0 or 0.0; bounds are inclusive (docs/evals.md, "Checks").
"""

from __future__ import annotations

from wink_decl.evals._eval_types import Evaluator, Outcome, Sample, Score
from wink_decl.evals._values import bounded, either, failing, number, passing

__all__ = [
    "max_latency_ms",
    "max_tokens",
    "max_turns",
    "tool_called",
    "tool_calls",
    "tool_not_called",
    "tools_succeeded",
]


def _count(outcome: Outcome, name: str) -> int:
    return sum(1 for call in outcome.tool_calls if call.name == name)


def _called(name: str, count: int) -> str:
    """``'read_file' was called 2 times`` (``once``, ``never``)."""
    if count == 0:
        return f"'{name}' was never called"
    return f"'{name}' was called {'once' if count == 1 else f'{count} times'}"


def _others(outcome: Outcome) -> str:
    """`` (called: list_dir, read_file)``: the tools that were called instead, by name."""
    names = sorted({call.name for call in outcome.tool_calls})
    return f" (called: {', '.join(names)})" if names else " (no tool was called)"


def tool_called(name: str) -> Evaluator:
    """The model called the tool ``name`` at least once."""

    def check(outcome: Outcome, sample: Sample) -> Score:
        del sample  # what the run did is all this check reads
        count = _count(outcome, name)
        if count:
            return passing(_called(name, count))
        return failing(_called(name, count) + _others(outcome))

    return check


def tool_not_called(name: str) -> Evaluator:
    """The model never called the tool ``name``."""

    def check(outcome: Outcome, sample: Sample) -> Score:
        del sample  # what the run did is all this check reads
        count = _count(outcome, name)
        return either(count == 0, _called(name, count), _called(name, count))

    return check


def tool_calls(name: str, *, min: int | None = None, max: int | None = None) -> Evaluator:  # noqa: A002  # the eval file's keys
    """The model called the tool ``name`` at least ``min`` and at most ``max`` times.

    None leaves that side open; both bounds are inclusive.
    """
    at_least, at_most = min, max

    def check(outcome: Outcome, sample: Sample) -> Score:
        del sample  # what the run did is all this check reads
        count = _count(outcome, name)
        called = _called(name, count)
        if at_least is not None and count < at_least:
            return failing(f"{called}; at least {at_least} required")
        if at_most is not None and count > at_most:
            return failing(f"{called}; at most {at_most} allowed")
        return passing(f"{called} (allowed: {_allowed(at_least, at_most)})")

    return check


def _allowed(at_least: int | None, at_most: int | None) -> str:
    if at_least is not None and at_most is not None:
        return f"{at_least} to {at_most}"
    if at_least is not None:
        return f"at least {at_least}"
    if at_most is not None:
        return f"at most {at_most}"
    return "any number"


def tools_succeeded() -> Evaluator:
    """Every tool call of the run succeeded (true of a run that called none)."""

    def check(outcome: Outcome, sample: Sample) -> Score:
        del sample  # what the run did is all this check reads
        calls = outcome.tool_calls
        failed = [call for call in calls if not call.success]
        if not calls:
            return passing("no tool was called")
        if not failed:
            each = "the tool call" if len(calls) == 1 else f"all {len(calls)} tool calls"
            return passing(f"{each} succeeded")
        first = failed[0]
        message = bounded(first.message.strip().split("\n", 1)[0])
        return failing(
            f"{len(failed)} of {len(calls)} tool call{'s' if len(calls) > 1 else ''} failed; "
            f"the first, '{first.name}': {message}",
        )

    return check


def _within(measured: float, limit: float, did: str, unit: str) -> Score:
    """``the run used 1200 tokens (at most 4000)``, or what it used over the limit."""
    said = f"the run {did} {number(measured)} {unit}"
    if measured <= limit:
        return passing(f"{said} (at most {number(limit)})")
    return failing(f"{said}; at most {number(limit)} allowed")


def max_tokens(limit: float) -> Evaluator:
    """The run used at most ``limit`` tokens, input and output together."""

    def check(outcome: Outcome, sample: Sample) -> Score:
        del sample  # what the run did is all this check reads
        tokens = outcome.total_tokens
        return _within(tokens, limit, "used", "token" if tokens == 1 else "tokens")

    return check


def max_turns(limit: float) -> Evaluator:
    """The model answered at most ``limit`` times (turns that called tools included)."""

    def check(outcome: Outcome, sample: Sample) -> Score:
        del sample  # what the run did is all this check reads
        turns = outcome.turns
        return _within(turns, limit, "took", "turn" if turns == 1 else "turns")

    return check


def max_latency_ms(limit: float) -> Evaluator:
    """The run took at most ``limit`` milliseconds from start to answer."""

    def check(outcome: Outcome, sample: Sample) -> Score:
        del sample  # what the run did is all this check reads
        return _within(outcome.latency_ms, limit, "took", "ms")

    return check
