"""What an evaluation is made of: samples, what one run produced, scores and case results."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal

__all__ = [
    "BASELINE",
    "PASSING_RATINGS",
    "RATING_VALUES",
    "CaseResult",
    "Evaluator",
    "Outcome",
    "Rating",
    "Sample",
    "Score",
    "ToolCall",
]

BASELINE = "baseline"
"""The experiment every suite has: the prompt as written, on each of the suite's models."""

Rating = Literal["excellent", "good", "fair", "poor", "wrong"]
"""The five ratings an LLM judge gives, best first."""

RATING_VALUES: Mapping[Rating, float] = {
    "excellent": 1.0,
    "good": 0.75,
    "fair": 0.5,
    "poor": 0.25,
    "wrong": 0.0,
}
"""Each rating as a score from 0 to 1."""

PASSING_RATINGS: frozenset[Rating] = frozenset({"excellent", "good"})
"""The ratings a judge's check passes with."""


@dataclass(frozen=True, slots=True)
class Sample:
    """One case of a suite: its id, the params the prompt is rendered with, what is expected.

    ``expected`` is the case's expected answer (any JSON value), which checks such as
    ``equals`` compare with when they name no value of their own.
    """

    id: str
    params: Mapping[str, object] = field(default_factory=dict[str, object])
    expected: object | None = None


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One tool call of a run: as the model sent it, and whether it succeeded."""

    name: str
    arguments: Mapping[str, object]
    """The arguments as the model sent them (JSON data)."""
    success: bool
    message: str = ""
    """What the model read back: the result, or why the call failed."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one run of a case produced: every check reads this, nothing else.

    ``output`` is the structured answer as JSON data when the prompt declares ``output:``
    (None otherwise); ``turns`` counts the model's answers, tool-calling ones included.
    """

    text: str
    output: object | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    input_tokens: int = 0
    output_tokens: int = 0
    turns: int = 0
    latency_ms: float = 0.0

    @property
    def total_tokens(self) -> int:
        """Input and output tokens together."""
        return self.input_tokens + self.output_tokens


@dataclass(frozen=True, slots=True)
class Score:
    """The result of one check: a value from 0 to 1, whether it passed, and why."""

    value: float
    passed: bool
    reason: str = ""


Evaluator = Callable[[Outcome, Sample], Score]
"""A check as a function: what a plugin evaluator is, and what every built-in check becomes."""


@dataclass(frozen=True, slots=True)
class CaseResult:
    """One case run once under one experiment and model, and what its checks found.

    ``error`` is set when the run itself failed (the provider refused, the case timed out):
    such a case is counted apart from one whose checks failed, and has no ``outcome``.
    ``checks`` pairs each check's label (as the eval file writes it) with its score.
    """

    case_id: str
    experiment: str
    model: str
    repeat: int
    passed: bool
    score: float
    outcome: Outcome | None = None
    checks: tuple[tuple[str, Score], ...] = ()
    error: str | None = None
