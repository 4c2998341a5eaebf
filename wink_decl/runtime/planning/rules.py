"""What a planning call must satisfy, as exact messages for the model; None means valid."""

from __future__ import annotations

from wink_decl.runtime.planning.plan_model import (
    STEP_STATUSES,
    TITLE_LIMIT,
    AddStep,
    Plan,
    PlanStatus,
    PlanStep,
    SetupPlan,
    UpdateStep,
)

__all__ = [
    "NO_PLAN",
    "add_step_error",
    "find_step",
    "plan_status",
    "setup_plan_error",
    "update_step_error",
]

NO_PLAN = "No plan exists yet: call planning_setup_plan first."


def plan_status(steps: tuple[PlanStep, ...]) -> PlanStatus:
    """``completed`` when there are steps and every one is done, else ``active``."""
    done = bool(steps) and all(step.status == "done" for step in steps)
    return "completed" if done else "active"


def find_step(plan: Plan, step_id: int) -> PlanStep | None:
    """The step with ``step_id``, or None."""
    return next((step for step in plan.steps if step.step_id == step_id), None)


def setup_plan_error(event: SetupPlan) -> str | None:
    """Why ``event`` cannot set up a plan: a bad objective or initial step title."""
    objective = event.objective.strip()
    if not objective:
        return "Objective must not be empty."
    if len(objective) > TITLE_LIMIT:
        return f"Objective must be at most {TITLE_LIMIT} characters; it has {len(objective)}."
    return _titles_error(event.initial_steps, "initial_steps")


def add_step_error(plan: Plan | None, event: AddStep) -> str | None:
    """Why ``event`` cannot be added: no plan, no titles, or a bad title."""
    if plan is None:
        return NO_PLAN
    if not event.steps:
        return "No steps to add: give at least one title in steps."
    return _titles_error(event.steps, "steps")


def update_step_error(plan: Plan | None, event: UpdateStep) -> str | None:
    """Why ``event`` cannot be applied: no plan, unknown step, nothing to change, bad value."""
    if plan is None:
        return NO_PLAN
    step_id = event.step_id
    if find_step(plan, step_id) is None:
        return f"Step {step_id} does not exist; {_known_steps(plan)}."
    if event.title is None and event.status is None:
        return f"Nothing to change: give step {step_id} a new title, a new status, or both."
    if event.status is not None and event.status not in STEP_STATUSES:
        return f"Status {event.status!r} is not valid: use pending, in_progress or done."
    if event.title is not None:
        return _title_error(event.title, f"the new title of step {step_id}")
    return None


def _titles_error(titles: tuple[str, ...], field_name: str) -> str | None:
    # Positions, not ids: the titles have no ids yet, and "step 2" would name an old step.
    for position, title in enumerate(titles, start=1):
        error = _title_error(title, f"item {position} of {field_name}")
        if error is not None:
            return error
    return None


def _title_error(title: str, where: str) -> str | None:
    text = title.strip()
    if not text:
        return f"Step titles must not be empty; {where} is blank."
    if len(text) > TITLE_LIMIT:
        return f"Step titles must be at most {TITLE_LIMIT} characters; {where} has {len(text)}."
    return None


def _known_steps(plan: Plan) -> str:
    ids = [step.step_id for step in plan.steps]
    if not ids:
        return "the plan has no steps yet"
    if len(ids) == 1:
        return f"the only step is {ids[0]}"
    return f"steps are {_ranges(ids)}"


def _ranges(ids: list[int]) -> str:
    """``1-3, 7``: runs of consecutive ids (the reducers only ever make one run)."""
    runs: list[list[int]] = []
    for step_id in ids:
        if runs and step_id == runs[-1][-1] + 1:
            runs[-1].append(step_id)
        else:
            runs.append([step_id])
    return ", ".join(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs)
