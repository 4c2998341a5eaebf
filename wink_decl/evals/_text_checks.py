"""Checks on the answer's text: ``equals``, ``contains``, ``icontains``, ``starts_with``, ``regex``.

Each reads ``Outcome.text`` (a structured answer's JSON text, as ``wink-decl run`` prints it).
A check given no value compares with the case's ``expected`` (docs/evals.md, "Checks").
"""

from __future__ import annotations

import functools
import re

from wink_decl.evals._eval_types import Evaluator, Outcome, Sample, Score
from wink_decl.evals._values import (
    SHOWN,
    answer_data,
    bounded,
    expected_text,
    failing,
    passing,
    same_json,
    shown,
)

__all__ = ["MAX_PATTERN_LENGTH", "contains", "equals", "icontains", "regex", "starts_with"]

MAX_PATTERN_LENGTH = 1_000
"""Characters of a ``regex`` pattern: ``re`` has no timeout, so a pattern's size is bounded."""
_NO_VALUE = "no value to compare with: the check gives none and the case has no 'expected'"


def _wanted(value: str | None, sample: Sample) -> str | Score:
    """The text to look for: ``value``, else the case's expected answer; or the failed score."""
    if value is not None:
        return value
    if sample.expected is None:
        return failing(_NO_VALUE)
    return expected_text(sample.expected)


def equals(value: str | None = None) -> Evaluator:
    """The answer, without the whitespace around it, is exactly ``value``.

    With no ``value`` the case's ``expected`` is compared with; an ``expected`` that is not
    text (a number, a list, a mapping) is compared as data with the answer read as JSON
    (``1`` equals ``1.0``), or as compact JSON text when the answer is not JSON.
    """

    def check(outcome: Outcome, sample: Sample) -> Score:
        if value is None and sample.expected is not None and not isinstance(sample.expected, str):
            data, problem = answer_data(outcome)
            if problem is None:
                return _same_data(data, sample.expected)
        wanted = _wanted(value, sample)
        if isinstance(wanted, Score):
            return wanted
        answer = outcome.text.strip()
        if answer == wanted:
            return passing(f"the answer is {shown(wanted)}")
        return failing(f"the answer is {shown(answer)}, not {shown(wanted)}")

    return check


def _same_data(data: object, expected: object) -> Score:
    if same_json(data, expected):
        return passing(f"the answer is {shown(expected)}")
    return failing(f"the answer is {shown(data)}, not {shown(expected)}")


def contains(value: str | None = None) -> Evaluator:
    """The answer contains ``value`` (else the case's ``expected``), case and all."""

    def check(outcome: Outcome, sample: Sample) -> Score:
        wanted = _wanted(value, sample)
        if isinstance(wanted, Score):
            return wanted
        if wanted in outcome.text:
            return passing(f"the answer contains {shown(wanted)}")
        return failing(f"the answer does not contain {shown(wanted)}")

    return check


def icontains(value: str | None = None) -> Evaluator:
    """The answer contains ``value`` (else the case's ``expected``), ignoring case."""

    def check(outcome: Outcome, sample: Sample) -> Score:
        wanted = _wanted(value, sample)
        if isinstance(wanted, Score):
            return wanted
        if wanted.casefold() in outcome.text.casefold():
            return passing(f"the answer contains {shown(wanted)}, ignoring case")
        return failing(f"the answer does not contain {shown(wanted)}, ignoring case")

    return check


def starts_with(value: str | None = None) -> Evaluator:
    """The answer, without the whitespace before it, starts with ``value`` (else ``expected``)."""

    def check(outcome: Outcome, sample: Sample) -> Score:
        wanted = _wanted(value, sample)
        if isinstance(wanted, Score):
            return wanted
        answer = outcome.text.lstrip()
        if answer.startswith(wanted):
            return passing(f"the answer starts with {shown(wanted)}")
        return failing(
            f"the answer starts {shown(answer[: max(len(wanted), 20)])}, not {shown(wanted)}"
        )

    return check


def regex(pattern: str) -> Evaluator:
    """The regular expression ``pattern`` (Python's ``re``) matches somewhere in the answer.

    A pattern longer than ``MAX_PATTERN_LENGTH`` or not valid fails the check, with why.
    """

    def check(outcome: Outcome, sample: Sample) -> Score:
        del sample  # a pattern is always given
        compiled = _compiled(pattern)
        if isinstance(compiled, str):
            return failing(compiled)
        found = compiled.search(outcome.text)
        if found is None:
            return failing(f"the answer does not match {_slashed(pattern)}")
        return passing(f"the answer matches {_slashed(pattern)} at {shown(found.group())}")

    return check


def _slashed(pattern: str) -> str:
    r"""``/line \d+/``: a pattern as it reads, not escaped again as a Python string would be."""
    return f"/{bounded(pattern, SHOWN)}/"


@functools.lru_cache(maxsize=256)
def _compiled(pattern: str) -> re.Pattern[str] | str:
    """``pattern`` compiled once per process (the last 256 used), or why it cannot be."""
    if len(pattern) > MAX_PATTERN_LENGTH:
        return (
            f"the pattern has {len(pattern)} characters; at most {MAX_PATTERN_LENGTH} are allowed"
        )
    try:
        return re.compile(pattern)
    except re.error as error:
        return f"the pattern {_slashed(pattern)} is not a valid regular expression: {error}"
