"""``Budget`` and ``BudgetTracker``: the turns, tool calls and tokens an evaluation may use."""

from __future__ import annotations

from dataclasses import dataclass

from wink_decl._nouns import noun_for
from wink_decl.runtime.provider import TokenUsage

__all__ = ["Budget", "BudgetTracker"]


@dataclass(slots=True, frozen=True)
class Budget:
    """Limits for one evaluation; None means unlimited."""

    max_turns: int | None = None
    max_tool_calls: int | None = None
    max_total_tokens: int | None = None
    """Input and output tokens together, as the provider reports them."""

    def __post_init__(self) -> None:
        """Limits are positive."""
        for name in ("max_turns", "max_tool_calls", "max_total_tokens"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise ValueError(f"Budget.{name} must be at least 1, got {value}.")


class BudgetTracker:
    """Counts what an evaluation used against its ``Budget`` (restarts included)."""

    __slots__ = ("_budget", "_tool_calls", "_turns", "_usage")

    def __init__(self, budget: Budget | None = None) -> None:
        """Start counting from zero; without a budget, only count."""
        self._budget = budget or Budget()
        self._turns = 0
        self._tool_calls = 0
        self._usage = TokenUsage()

    @property
    def budget(self) -> Budget:
        """The limits."""
        return self._budget

    @property
    def turns(self) -> int:
        """Model turns used."""
        return self._turns

    @property
    def tool_calls(self) -> int:
        """Tool calls used."""
        return self._tool_calls

    @property
    def usage(self) -> TokenUsage:
        """Tokens used so far, as the provider reported them."""
        return self._usage

    def record_usage(self, usage: TokenUsage) -> None:
        """Add one response's tokens."""
        self._usage += usage

    def record_turn(self) -> None:
        """Count one model turn."""
        self._turns += 1

    def record_tool_call(self) -> None:
        """Count one tool call."""
        self._tool_calls += 1

    def exhausted(self) -> str | None:
        """Why no more turns may start, or None while the budget lasts."""
        limit = self._budget.max_turns
        if limit is not None and self._turns >= limit:
            return f"the budget of {limit} model turns is used up"
        limit = self._budget.max_tool_calls
        if limit is not None and self._tool_calls >= limit:
            return f"the budget of {limit} tool calls is used up"
        limit = self._budget.max_total_tokens
        if limit is not None and self._usage.total_tokens >= limit:
            return (
                f"the budget of {limit} {noun_for(limit, 'token')} is used up "
                f"({self._usage.total_tokens} used)"
            )
        return None
