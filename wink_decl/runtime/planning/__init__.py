"""The planning tool suite: a session-scoped plan the model sets up, extends and updates."""

from __future__ import annotations

from wink_decl.runtime.planning.plan_model import (
    STEP_STATUSES,
    TITLE_LIMIT,
    AddStep,
    Plan,
    PlanStatus,
    PlanStep,
    ReadPlan,
    SetupPlan,
    StepStatus,
    UpdateStep,
)
from wink_decl.runtime.planning.reducers import (
    PLANNING_EVENTS,
    ReducerRegistry,
    apply_add_step,
    apply_setup_plan,
    apply_update_step,
    ensure_planning_reducers,
    reduce_add_step,
    reduce_setup_plan,
    reduce_update_step,
)
from wink_decl.runtime.planning.rules import (
    NO_PLAN,
    add_step_error,
    find_step,
    plan_status,
    setup_plan_error,
    update_step_error,
)
from wink_decl.runtime.planning.strategies import PlanningStrategy
from wink_decl.runtime.planning.tools import (
    ADD_STEP_TOOL,
    PLANNING_TOOLS,
    READ_PLAN_TOOL,
    SETUP_PLAN_TOOL,
    UPDATE_STEP_TOOL,
)
from wink_decl.runtime.planning.tools_section import PlanningToolsSection, planning_guidance

__all__ = [
    "ADD_STEP_TOOL",
    "NO_PLAN",
    "PLANNING_EVENTS",
    "PLANNING_TOOLS",
    "READ_PLAN_TOOL",
    "SETUP_PLAN_TOOL",
    "STEP_STATUSES",
    "TITLE_LIMIT",
    "UPDATE_STEP_TOOL",
    "AddStep",
    "Plan",
    "PlanStatus",
    "PlanStep",
    "PlanningStrategy",
    "PlanningToolsSection",
    "ReadPlan",
    "ReducerRegistry",
    "SetupPlan",
    "StepStatus",
    "UpdateStep",
    "add_step_error",
    "apply_add_step",
    "apply_setup_plan",
    "apply_update_step",
    "ensure_planning_reducers",
    "find_step",
    "plan_status",
    "planning_guidance",
    "reduce_add_step",
    "reduce_setup_plan",
    "reduce_update_step",
    "setup_plan_error",
    "update_step_error",
]
