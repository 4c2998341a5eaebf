"""Pure plan transitions, the session reducers built on them, and their registration."""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol, TypeVar, runtime_checkable

from wink_decl.prompt.context_protocols import SessionView
from wink_decl.runtime.planning.plan_model import AddStep, Plan, PlanStep, SetupPlan, UpdateStep
from wink_decl.runtime.planning.rules import (
    add_step_error,
    plan_status,
    setup_plan_error,
    update_step_error,
)
from wink_decl.runtime.session import Reducer, SlicePolicy

__all__ = [
    "PLANNING_EVENTS",
    "ReducerRegistry",
    "apply_add_step",
    "apply_setup_plan",
    "apply_update_step",
    "ensure_planning_reducers",
    "reduce_add_step",
    "reduce_setup_plan",
    "reduce_update_step",
]

S = TypeVar("S")
E = TypeVar("E")

PLANNING_EVENTS: tuple[type[object], ...] = (SetupPlan, AddStep, UpdateStep)
"""The events whose reducers write the ``Plan`` slice."""


def apply_setup_plan(plan: Plan | None, event: SetupPlan) -> Plan:
    """A new plan replacing ``plan``; its step ids continue after the old plan's."""
    first = 1 if plan is None else plan.next_step_id
    steps = _new_steps(first, event.initial_steps)
    return Plan(
        objective=event.objective.strip(),
        status=plan_status(steps),
        steps=steps,
        next_step_id=first + len(steps),
    )


def apply_add_step(plan: Plan, event: AddStep) -> Plan:
    """``plan`` with ``event.steps`` appended as pending steps."""
    added = _new_steps(plan.next_step_id, event.steps)
    steps = (*plan.steps, *added)
    return replace(
        plan,
        status=plan_status(steps),
        steps=steps,
        next_step_id=plan.next_step_id + len(added),
    )


def apply_update_step(plan: Plan, event: UpdateStep) -> Plan:
    """``plan`` with step ``event.step_id`` retitled and/or given a new status."""
    steps = tuple(
        _updated(step, event) if step.step_id == event.step_id else step for step in plan.steps
    )
    return replace(plan, status=plan_status(steps), steps=steps)


def reduce_setup_plan(items: tuple[Plan, ...], event: SetupPlan) -> tuple[Plan, ...]:
    """Create or replace the plan; an invalid event changes nothing."""
    if setup_plan_error(event) is not None:
        return items
    return (apply_setup_plan(_latest(items), event),)


def reduce_add_step(items: tuple[Plan, ...], event: AddStep) -> tuple[Plan, ...]:
    """Append steps; an invalid event (or no plan) changes nothing."""
    plan = _latest(items)
    if plan is None or add_step_error(plan, event) is not None:
        return items
    return (apply_add_step(plan, event),)


def reduce_update_step(items: tuple[Plan, ...], event: UpdateStep) -> tuple[Plan, ...]:
    """Update one step; an invalid event (or no plan) changes nothing."""
    plan = _latest(items)
    if plan is None or update_step_error(plan, event) is not None:
        return items
    return (apply_update_step(plan, event),)


@runtime_checkable
class ReducerRegistry(Protocol):
    """A session that reducers can be registered on (``Session`` is one)."""

    def is_registered(self, event_type: type) -> bool:
        """Whether a reducer listens for ``event_type``."""
        ...

    def register_reducer(
        self,
        event_type: type[E],
        reducer: Reducer[S, E],
        *,
        slice_type: type[S],
        policy: SlicePolicy = ...,
    ) -> None:
        """Run ``reducer`` on ``slice_type`` whenever an ``event_type`` is dispatched."""
        ...


def ensure_planning_reducers(session: SessionView) -> None:
    """Register the planning reducers on ``session`` unless they already are.

    Safe to call on every tool call: an event type that already has a reducer is left
    alone, so each reducer is registered once per session.

    Raises:
        TypeError: a reducer is missing and ``session`` cannot register one.
    """
    if all(session.is_registered(event_type) for event_type in PLANNING_EVENTS):
        return
    if not isinstance(session, ReducerRegistry):
        raise TypeError(
            f"{type(session).__qualname__} cannot register the planning reducers: "
            "give the planning tools a session with register_reducer, such as Session"
        )
    _register(session, SetupPlan, reduce_setup_plan)
    _register(session, AddStep, reduce_add_step)
    _register(session, UpdateStep, reduce_update_step)


def _register(session: ReducerRegistry, event_type: type[E], reducer: Reducer[Plan, E]) -> None:
    if not session.is_registered(event_type):
        session.register_reducer(event_type, reducer, slice_type=Plan, policy=SlicePolicy.STATE)


def _latest(items: tuple[Plan, ...]) -> Plan | None:
    return items[-1] if items else None


def _new_steps(first_id: int, titles: tuple[str, ...]) -> tuple[PlanStep, ...]:
    return tuple(
        PlanStep(step_id=first_id + offset, title=title.strip(), status="pending")
        for offset, title in enumerate(titles)
    )


def _updated(step: PlanStep, event: UpdateStep) -> PlanStep:
    title = step.title if event.title is None else event.title.strip()
    status = step.status if event.status is None else event.status
    return PlanStep(step_id=step.step_id, title=title, status=status)
