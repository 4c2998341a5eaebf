"""``Budget`` and ``BudgetTracker``: how many model turns and tool calls an evaluation may use."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Budget", "BudgetTracker"]


@dataclass(slots=True, frozen=True)
class Budget:
    """Limits for one evaluation; None means unlimited."""

    max_turns: int | None = None
    max_tool_calls: int | None = None

    def __post_init__(self) -> None:
        """Limits are positive."""
        for name in ("max_turns", "max_tool_calls"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise ValueError(f"Budget.{name} must be at least 1, got {value}.")


class BudgetTracker:
    """Counts what an evaluation used against its ``Budget``."""

    __slots__ = ("_budget", "_tool_calls", "_turns")

    def __init__(self, budget: Budget) -> None:
        """Start counting from zero."""
        self._budget = budget
        self._turns = 0
        self._tool_calls = 0

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
        return None
