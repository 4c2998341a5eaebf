"""Planning strategies: the mindset paragraph that frames how the model uses its plan."""

from __future__ import annotations

from enum import Enum

__all__ = ["PlanningStrategy"]


class PlanningStrategy(Enum):
    """How the planning section tells the model to think; only the mindset paragraph varies."""

    REACT = "react"
    """Alternate reasoning, tool calls and observations."""

    PLAN_ACT_REFLECT = "plan_act_reflect"
    """Outline first, then execute with a reflection after each step."""

    GOAL_DECOMPOSE_ROUTE_SYNTHESISE = "goal_decompose_route_synthesise"
    """Restate the goal, decompose it, route the parts, synthesise the answer."""

    @property
    def mindset(self) -> str:
        """The strategy's paragraph of the planning section."""
        return _MINDSETS[self]


_MINDSETS: dict[PlanningStrategy, str] = {
    PlanningStrategy.REACT: (
        "Work in short cycles of reasoning, acting and observing: decide the next move, make "
        "one tool call, and read its result before deciding again. Treat the plan as a running "
        "checklist and revise it whenever an observation changes what is left to do."
    ),
    PlanningStrategy.PLAN_ACT_REFLECT: (
        "Plan before you act: set up the plan with every step you can foresee. Then carry the "
        "steps out in order, and after each one reflect on what it showed: retitle or add steps "
        "when the approach needs to change, and mark a step done only when its result holds up."
    ),
    PlanningStrategy.GOAL_DECOMPOSE_ROUTE_SYNTHESISE: (
        "Restate the goal in your own words as the plan's objective, then decompose it into "
        "sub-goals that can be worked on separately, one step each. Route each sub-goal to the "
        "tool or section best suited to it. When every step is done, synthesise the results "
        "into one answer that addresses the original goal."
    ),
}
