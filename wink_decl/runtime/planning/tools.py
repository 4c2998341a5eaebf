"""The four planning tools: handlers that validate, dispatch to the session, and report."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from wink_decl.prompt.tool import Tool, ToolExample
from wink_decl.prompt.tool_result import ToolResult
from wink_decl.runtime.planning.plan_model import (
    AddStep,
    Plan,
    PlanStep,
    ReadPlan,
    SetupPlan,
    UpdateStep,
)
from wink_decl.runtime.planning.reducers import ensure_planning_reducers
from wink_decl.runtime.planning.rules import (
    NO_PLAN,
    add_step_error,
    setup_plan_error,
    update_step_error,
)

if TYPE_CHECKING:
    from wink_decl.prompt.context_protocols import SessionView
    from wink_decl.prompt.tool_context import ToolContext

__all__ = [
    "ADD_STEP_TOOL",
    "PLANNING_TOOLS",
    "READ_PLAN_TOOL",
    "SETUP_PLAN_TOOL",
    "UPDATE_STEP_TOOL",
]


def _setup_plan(params: SetupPlan, *, context: ToolContext) -> ToolResult[Plan]:
    session = _session(context)
    error = setup_plan_error(params)
    if error is not None:
        return ToolResult.error(error)
    replaced = session.latest(Plan) is not None
    plan = _dispatch(session, params)
    count = _count_steps(len(plan.steps))
    message = (
        f"Replaced the plan; the new plan has {count}."
        if replaced
        else f"Created a plan with {count}."
    )
    return ToolResult.ok(plan, message)


def _add_step(params: AddStep, *, context: ToolContext) -> ToolResult[Plan]:
    session = _session(context)
    before = session.latest(Plan)
    error = add_step_error(before, params)
    if error is not None:
        return ToolResult.error(error)
    plan = _dispatch(session, params)
    added = plan.steps[len(plan.steps) - len(params.steps) :]
    ids = (
        f"step {added[0].step_id}"
        if len(added) == 1
        else f"steps {added[0].step_id}-{added[-1].step_id}"
    )
    return ToolResult.ok(plan, f"Added {ids}.{_status_change(before, plan)}")


def _update_step(params: UpdateStep, *, context: ToolContext) -> ToolResult[Plan]:
    session = _session(context)
    before = session.latest(Plan)
    error = update_step_error(before, params)
    if error is not None:
        return ToolResult.error(error)
    plan = _dispatch(session, params)
    changes: list[str] = []
    if params.title is not None:
        changes.append("retitled")
    if params.status is not None:
        changes.append(f"marked {params.status}")
    summary = f"Step {params.step_id} {' and '.join(changes)}."
    return ToolResult.ok(plan, f"{summary}{_status_change(before, plan)}")


def _read_plan(params: ReadPlan, *, context: ToolContext) -> ToolResult[Plan]:  # noqa: ARG001  # ReadPlan has no fields
    plan = _session(context).latest(Plan)
    if plan is None:
        return ToolResult.error(NO_PLAN)
    done = sum(step.status == "done" for step in plan.steps)
    progress = f"{done} of {len(plan.steps)} steps done" if plan.steps else "no steps yet"
    return ToolResult.ok(plan, f"The plan is {plan.status} with {progress}.")


def _session(context: ToolContext) -> SessionView:
    session = context.session
    ensure_planning_reducers(session)
    return session


def _dispatch(session: SessionView, event: object) -> Plan:
    session.dispatch(event)
    plan = session.latest(Plan)
    if plan is None:  # the handler validated the event, so its reducer stored a plan
        raise AssertionError("unreachable: a valid planning event left no plan")
    return plan


def _count_steps(count: int) -> str:
    if count == 0:
        return "no steps"
    return "1 step" if count == 1 else f"{count} steps"


def _status_change(before: Plan | None, after: Plan) -> str:
    if before is None or before.status == after.status:
        return ""
    if after.status == "completed":
        return " Every step is done: the plan is completed."
    return " The plan is active again."


_EXAMPLE_SETUP = Plan(
    objective="Release version 2.0",
    status="active",
    steps=(
        PlanStep(step_id=1, title="Run the test suite", status="pending"),
        PlanStep(step_id=2, title="Tag the release", status="pending"),
    ),
)
_EXAMPLE_ADDED = Plan(
    objective="Release version 2.0",
    status="active",
    steps=(
        *_EXAMPLE_SETUP.steps,
        PlanStep(step_id=3, title="Publish the changelog", status="pending"),
    ),
)
_EXAMPLE_UPDATED = Plan(
    objective="Release version 2.0",
    status="active",
    steps=(
        PlanStep(step_id=1, title="Run the test suite", status="done"),
        *_EXAMPLE_ADDED.steps[1:],
    ),
)

SETUP_PLAN_TOOL = Tool[SetupPlan, Plan](
    name="planning_setup_plan",
    description=(
        "Create the plan, or replace the current one, with an objective and optional initial steps."
    ),
    handler=_setup_plan,
    examples=(
        ToolExample(
            description="Start a release plan with two steps.",
            input=SetupPlan(
                objective="Release version 2.0",
                initial_steps=("Run the test suite", "Tag the release"),
            ),
            output=_EXAMPLE_SETUP,
        ),
    ),
)
"""``planning_setup_plan``: create or replace the plan; step ids continue across plans."""

ADD_STEP_TOOL = Tool[AddStep, Plan](
    name="planning_add_step",
    description="Append one or more pending steps to the current plan.",
    handler=_add_step,
    examples=(
        ToolExample(
            description="Add a step the plan was missing.",
            input=AddStep(steps=("Publish the changelog",)),
            output=_EXAMPLE_ADDED,
        ),
    ),
)
"""``planning_add_step``: append steps; needs a plan."""

UPDATE_STEP_TOOL = Tool[UpdateStep, Plan](
    name="planning_update_step",
    description="Change the title and/or status of one step of the current plan, by its id.",
    handler=_update_step,
    examples=(
        ToolExample(
            description="Mark the first step done.",
            input=UpdateStep(step_id=1, status="done"),
            output=_EXAMPLE_UPDATED,
        ),
    ),
)
"""``planning_update_step``: retitle a step and/or change its status; needs a plan."""

READ_PLAN_TOOL = Tool[ReadPlan, Plan](
    name="planning_read_plan",
    description="Show the current plan: its objective, its status and every step with its id.",
    handler=_read_plan,
    examples=(
        ToolExample(
            description="Check what is left to do.",
            input=ReadPlan(),
            output=_EXAMPLE_UPDATED,
        ),
    ),
)
"""``planning_read_plan``: the current plan; needs a plan."""

PLANNING_TOOLS: tuple[Tool[Any, Any], ...] = (
    SETUP_PLAN_TOOL,
    ADD_STEP_TOOL,
    UPDATE_STEP_TOOL,
    READ_PLAN_TOOL,
)
"""The four planning tools, in the order the section offers them."""
