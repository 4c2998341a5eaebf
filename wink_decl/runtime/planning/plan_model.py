"""The planning data model: the ``Plan`` slice item and the events that change it."""

# No `from __future__ import annotations`: field types stay real objects at runtime, so
# the tool schema builder and serde resolve them with typing.get_type_hints.
from dataclasses import dataclass, field
from typing import Literal, get_args

__all__ = [
    "STEP_STATUSES",
    "TITLE_LIMIT",
    "AddStep",
    "Plan",
    "PlanStatus",
    "PlanStep",
    "ReadPlan",
    "SetupPlan",
    "StepStatus",
    "UpdateStep",
]

StepStatus = Literal["pending", "in_progress", "done"]
"""Where one step stands."""

PlanStatus = Literal["active", "completed"]
"""``completed`` once the plan has steps and every one is ``done``."""

STEP_STATUSES: tuple[StepStatus, ...] = get_args(StepStatus)
"""Every ``StepStatus``, in workflow order."""

TITLE_LIMIT = 500
"""The most characters an objective or a step title may have (after stripping)."""


@dataclass(frozen=True, slots=True)
class PlanStep:
    """One step of a plan."""

    step_id: int = field(metadata={"description": "The step's id; ids are never reused."})
    title: str = field(metadata={"description": "What the step does."})
    status: StepStatus = field(metadata={"description": "pending, in_progress or done."})


@dataclass(frozen=True, slots=True)
class Plan:
    """The session's plan: the one item of the ``Plan`` state slice.

    ``next_step_id`` is the id the next added step gets. It survives ``planning_setup_plan``
    replacing the plan, so ids are never reused within a session; it is raised to one past
    the largest step id when given lower (the default), so ``Plan(objective, status, steps)``
    is always consistent.
    """

    objective: str = field(metadata={"description": "What the plan should achieve."})
    status: PlanStatus = field(metadata={"description": "active or completed."})
    steps: tuple[PlanStep, ...] = field(
        default=(), metadata={"description": "The steps, in the order they were added."}
    )
    next_step_id: int = field(
        default=0, metadata={"description": "The id the next added step will get."}
    )

    def __post_init__(self) -> None:
        """Keep ``next_step_id`` past every step id."""
        floor = max((step.step_id for step in self.steps), default=0) + 1
        if self.next_step_id < floor:
            object.__setattr__(self, "next_step_id", floor)

    def render(self) -> str:
        """A readable view for the model: objective, status, then one line per step."""
        lines = [f"Objective: {self.objective}", f"Status: {self.status}"]
        lines.extend(f"{step.step_id}. [{step.status}] {step.title}" for step in self.steps)
        if not self.steps:
            lines.append("No steps yet.")
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class SetupPlan:
    """Params and event of ``planning_setup_plan``: create the plan or replace it."""

    objective: str = field(
        metadata={"description": "What the plan should achieve (1-500 characters)."}
    )
    initial_steps: tuple[str, ...] = field(
        default=(),
        metadata={"description": "Step titles to start with, in order (each 1-500 characters)."},
    )


@dataclass(frozen=True, slots=True)
class AddStep:
    """Params and event of ``planning_add_step``: append steps to the plan."""

    steps: tuple[str, ...] = field(
        metadata={"description": "Step titles to append, in order (each 1-500 characters)."}
    )


@dataclass(frozen=True, slots=True)
class UpdateStep:
    """Params and event of ``planning_update_step``: retitle a step and/or change its status."""

    step_id: int = field(metadata={"description": "The id of the step, as shown in the plan."})
    title: str | None = field(
        default=None,
        metadata={"description": "A new title (1-500 characters); omit to keep the current one."},
    )
    status: StepStatus | None = field(
        default=None,
        metadata={"description": "The new status: pending, in_progress or done; omit to keep it."},
    )


@dataclass(frozen=True, slots=True)
class ReadPlan:
    """Params of ``planning_read_plan``: nothing to give."""
