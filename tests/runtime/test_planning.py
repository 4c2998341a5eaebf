from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, cast

import pytest

import wink_decl.runtime.planning as planning_package
from wink_decl.prompt.template import Prompt, PromptTemplate
from wink_decl.prompt.tool_context import ToolContext
from wink_decl.prompt.tool_result import ToolResult
from wink_decl.prompt.tool_schema import field_descriptions
from wink_decl.runtime.planning import (
    NO_PLAN,
    PLANNING_TOOLS,
    AddStep,
    Plan,
    PlanningStrategy,
    PlanningToolsSection,
    PlanStep,
    ReadPlan,
    SetupPlan,
    StepStatus,
    UpdateStep,
    ensure_planning_reducers,
    update_step_error,
)
from wink_decl.runtime.session import Session, SessionProtocol, SlicePolicy

TEMPLATE = PromptTemplate(ns="tests/planning", key="plan", sections=[PlanningToolsSection()])
TOOLS = {tool.name: tool for tool in TEMPLATE.all_tools()}
LONG = "x" * 612


def call(session: Session, name: str, params: object) -> ToolResult[Any]:
    handler = TOOLS[name].handler
    assert handler is not None
    context = ToolContext(
        prompt=Prompt(TEMPLATE), rendered_prompt=None, adapter=None, session=session
    )
    return handler(params, context=context)


def setup(session: Session, objective: str, *steps: str) -> ToolResult[Any]:
    return call(session, "planning_setup_plan", SetupPlan(objective, steps))


def add(session: Session, *steps: str) -> ToolResult[Any]:
    return call(session, "planning_add_step", AddStep(steps))


def update(
    session: Session, step_id: int, title: str | None = None, status: StepStatus | None = None
) -> ToolResult[Any]:
    return call(session, "planning_update_step", UpdateStep(step_id, title, status))


def read(session: Session) -> ToolResult[Any]:
    return call(session, "planning_read_plan", ReadPlan())


def ok(result: ToolResult[Any], message: str) -> Plan:
    assert (result.success, result.message) == (True, message)
    assert isinstance(result.value, Plan)
    return result.value


def pending(*titles: str, first: int = 1) -> tuple[PlanStep, ...]:
    return tuple(
        PlanStep(step_id, title, "pending") for step_id, title in enumerate(titles, start=first)
    )


# -- the section carries the suite -------------------------------------------------------


def test_section_offers_the_four_tools_in_order():
    assert TEMPLATE.render().tool_names == (
        "planning_setup_plan",
        "planning_add_step",
        "planning_update_step",
        "planning_read_plan",
    )
    assert tuple(TOOLS.values()) == PLANNING_TOOLS


def test_every_params_field_is_described_for_the_tool_schema():
    for tool in PLANNING_TOOLS:
        names = {field.name for field in dataclasses.fields(tool.params_type)}
        assert set(field_descriptions(tool.params_type)) == names


# -- setup_plan -----------------------------------------------------------------------------


def test_setup_creates_the_plan_in_the_session():
    session = Session()
    plan = ok(setup(session, "Release 2.0", "Run tests", "Tag"), "Created a plan with 2 steps.")
    assert plan == Plan("Release 2.0", "active", pending("Run tests", "Tag"), next_step_id=3)
    assert session.query(Plan) == (plan,)
    assert plan.render() == (
        "Objective: Release 2.0\nStatus: active\n1. [pending] Run tests\n2. [pending] Tag"
    )


def test_setup_without_steps():
    session = Session()
    plan = ok(setup(session, "Explore"), "Created a plan with no steps.")
    assert plan == Plan("Explore", "active")
    assert plan.render() == "Objective: Explore\nStatus: active\nNo steps yet."


def test_setup_strips_the_objective_and_titles():
    session = Session()
    plan = ok(setup(session, "  Release \n", " Tag\t"), "Created a plan with 1 step.")
    assert plan == Plan("Release", "active", pending("Tag"))


def test_setup_replaces_the_plan_and_ids_continue():
    session = Session()
    setup(session, "First", "a", "b", "c")
    plan = ok(setup(session, "Second", "d"), "Replaced the plan; the new plan has 1 step.")
    assert plan == Plan("Second", "active", pending("d", first=4))
    assert session.query(Plan) == (plan,)


def test_step_ids_are_never_reused_even_after_an_empty_replacement():
    session = Session()
    setup(session, "First", "a", "b", "c")
    ok(setup(session, "Second"), "Replaced the plan; the new plan has no steps.")
    plan = ok(add(session, "d"), "Added step 4.")
    assert plan.steps == pending("d", first=4)
    ok(setup(session, "Third", "e"), "Replaced the plan; the new plan has 1 step.")
    assert ok(read(session), "The plan is active with 0 of 1 steps done.").steps == pending(
        "e", first=5
    )


def test_titles_of_exactly_500_characters_are_accepted():
    session = Session()
    plan = ok(setup(session, "o" * 500, "t" * 500), "Created a plan with 1 step.")
    assert (len(plan.objective), len(plan.steps[0].title)) == (500, 500)


# -- add_step -------------------------------------------------------------------------------


def test_add_appends_pending_steps():
    session = Session()
    setup(session, "Release", "a")
    ok(add(session, "b"), "Added step 2.")
    plan = ok(add(session, " c ", "d"), "Added steps 3-4.")
    assert plan == Plan("Release", "active", pending("a", "b", "c", "d"))


def test_adding_to_a_completed_plan_makes_it_active_again():
    session = Session()
    setup(session, "Release", "a")
    update(session, 1, status="done")
    plan = ok(add(session, "b"), "Added step 2. The plan is active again.")
    assert plan.status == "active"


# -- update_step ----------------------------------------------------------------------------


def test_update_the_status():
    session = Session()
    setup(session, "Release", "a", "b")
    plan = ok(update(session, 1, status="in_progress"), "Step 1 marked in_progress.")
    assert plan.steps == (PlanStep(1, "a", "in_progress"), PlanStep(2, "b", "pending"))


def test_update_the_title():
    session = Session()
    setup(session, "Release", "a", "b")
    plan = ok(update(session, 2, title="  Tag v2 "), "Step 2 retitled.")
    assert plan.steps == pending("a", "Tag v2")


def test_update_title_and_status_at_once():
    session = Session()
    setup(session, "Release", "a")
    plan = ok(
        update(session, 1, "Tag", "done"),
        "Step 1 retitled and marked done. Every step is done: the plan is completed.",
    )
    assert plan == Plan("Release", "completed", (PlanStep(1, "Tag", "done"),))


def test_all_steps_done_completes_the_plan_and_reopening_reactivates_it():
    session = Session()
    setup(session, "Release", "a", "b")
    ok(update(session, 1, status="done"), "Step 1 marked done.")
    plan = ok(
        update(session, 2, status="done"),
        "Step 2 marked done. Every step is done: the plan is completed.",
    )
    assert plan.status == "completed"
    ok(update(session, 2, title="b2"), "Step 2 retitled.")
    plan = ok(
        update(session, 2, status="pending"), "Step 2 marked pending. The plan is active again."
    )
    assert plan == Plan(
        "Release", "active", (PlanStep(1, "a", "done"), PlanStep(2, "b2", "pending"))
    )


def test_a_plan_set_up_with_no_steps_is_active_not_completed():
    session = Session()
    assert ok(setup(session, "Explore"), "Created a plan with no steps.").status == "active"


# -- read_plan ------------------------------------------------------------------------------


def test_read_reports_progress():
    session = Session()
    setup(session, "Release", "a", "b")
    update(session, 2, status="done")
    plan = ok(read(session), "The plan is active with 1 of 2 steps done.")
    assert plan is session.latest(Plan)
    assert ToolResult.ok(plan).render() == (
        "Objective: Release\nStatus: active\n1. [pending] a\n2. [done] b"
    )


def test_read_an_empty_plan():
    session = Session()
    setup(session, "Explore")
    ok(read(session), "The plan is active with no steps yet.")


def test_read_a_completed_plan():
    session = Session()
    setup(session, "Release", "a")
    update(session, 1, status="done")
    plan = ok(read(session), "The plan is completed with 1 of 1 steps done.")
    assert plan.render() == "Objective: Release\nStatus: completed\n1. [done] a"


# -- refusals -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Refusal:
    steps: tuple[str, ...] | None  # the plan to start from (None: no plan)
    tool: str
    params: object
    message: str


REFUSALS = {
    "add-without-plan": Refusal(None, "planning_add_step", AddStep(("a",)), NO_PLAN),
    "update-without-plan": Refusal(
        None, "planning_update_step", UpdateStep(1, status="done"), NO_PLAN
    ),
    "read-without-plan": Refusal(None, "planning_read_plan", ReadPlan(), NO_PLAN),
    "empty-objective": Refusal(
        ("a",), "planning_setup_plan", SetupPlan(" \n "), "Objective must not be empty."
    ),
    "long-objective": Refusal(
        ("a",),
        "planning_setup_plan",
        SetupPlan(LONG),
        "Objective must be at most 500 characters; it has 612.",
    ),
    "blank-initial-step": Refusal(
        None,
        "planning_setup_plan",
        SetupPlan("Release", ("a", "   ")),
        "Step titles must not be empty; item 2 of initial_steps is blank.",
    ),
    "long-initial-step": Refusal(
        None,
        "planning_setup_plan",
        SetupPlan("Release", ("a", LONG)),
        "Step titles must be at most 500 characters; item 2 of initial_steps has 612.",
    ),
    "add-nothing": Refusal(
        ("a",),
        "planning_add_step",
        AddStep(()),
        "No steps to add: give at least one title in steps.",
    ),
    "add-blank": Refusal(
        ("a",),
        "planning_add_step",
        AddStep(("",)),
        "Step titles must not be empty; item 1 of steps is blank.",
    ),
    "add-long": Refusal(
        ("a",),
        "planning_add_step",
        AddStep(("b", "c", "x" * 501)),
        "Step titles must be at most 500 characters; item 3 of steps has 501.",
    ),
    "unknown-step": Refusal(
        ("a", "b", "c"),
        "planning_update_step",
        UpdateStep(7, status="done"),
        "Step 7 does not exist; steps are 1-3.",
    ),
    "unknown-step-of-one": Refusal(
        ("a",),
        "planning_update_step",
        UpdateStep(0, title="b"),
        "Step 0 does not exist; the only step is 1.",
    ),
    "unknown-step-of-none": Refusal(
        (),
        "planning_update_step",
        UpdateStep(1, status="done"),
        "Step 1 does not exist; the plan has no steps yet.",
    ),
    "nothing-to-change": Refusal(
        ("a", "b"),
        "planning_update_step",
        UpdateStep(2),
        "Nothing to change: give step 2 a new title, a new status, or both.",
    ),
    "unknown-status": Refusal(
        ("a", "b"),
        "planning_update_step",
        UpdateStep(2, status=cast("StepStatus", "finished")),
        "Status 'finished' is not valid: use pending, in_progress or done.",
    ),
    "blank-new-title": Refusal(
        ("a", "b"),
        "planning_update_step",
        UpdateStep(2, title="  ", status="done"),
        "Step titles must not be empty; the new title of step 2 is blank.",
    ),
    "long-new-title": Refusal(
        ("a", "b"),
        "planning_update_step",
        UpdateStep(2, title=LONG),
        "Step titles must be at most 500 characters; the new title of step 2 has 612.",
    ),
}


@pytest.mark.parametrize("case", REFUSALS.values(), ids=REFUSALS.keys())
def test_a_refused_call_explains_why_and_changes_nothing(case: Refusal):
    session = Session()
    if case.steps is not None:
        setup(session, "Release", *case.steps)
    before = session.query(Plan)
    result = call(session, case.tool, case.params)
    assert result == ToolResult(message=case.message, value=None, success=False)
    assert session.query(Plan) is before


def test_unknown_step_lists_runs_of_ids():
    plan = Plan(
        "Seeded",
        "active",
        pending("a", "b", "c") + pending("d", first=7) + (PlanStep(9, "e", "done"),),
    )
    assert update_step_error(plan, UpdateStep(4, title="x")) == (
        "Step 4 does not exist; steps are 1-3, 7, 9."
    )


# -- the model ------------------------------------------------------------------------------


def test_plan_keeps_next_step_id_past_every_step():
    assert Plan("o", "active").next_step_id == 1
    assert Plan("o", "active", pending("a", "b")).next_step_id == 3
    assert Plan("o", "active", pending("a"), next_step_id=1).next_step_id == 2
    assert Plan("o", "active", pending("a"), next_step_id=9).next_step_id == 9


# -- reducers, used directly ----------------------------------------------------------------


def test_invalid_events_dispatched_directly_change_nothing():
    session = Session()
    ensure_planning_reducers(session)
    session.dispatch(AddStep(("a",)))
    session.dispatch(UpdateStep(1, status="done"))
    session.dispatch(SetupPlan(""))
    assert session.query(Plan) == ()
    session.dispatch(SetupPlan("Release", ("a",)))
    plan = session.latest(Plan)
    session.dispatch(AddStep(()))
    session.dispatch(UpdateStep(5, status="done"))
    session.dispatch(SetupPlan("Release", ("",)))
    assert session.latest(Plan) is plan
    assert plan == Plan("Release", "active", pending("a"))


def test_restore_rolls_the_plan_and_its_id_counter_back():
    session = Session()
    setup(session, "Release", "a")
    snapshot = session.snapshot()
    add(session, "b", "c")
    session.restore(snapshot)
    assert ok(add(session, "d"), "Added step 2.").steps == pending("a", "d")


# -- registration ---------------------------------------------------------------------------


def test_reducers_are_registered_once_however_often_tools_run():
    session = Session()
    assert not session.is_registered(SetupPlan)
    ensure_planning_reducers(session)
    setup(session, "Release", "a")
    add(session, "b")
    update(session, 1, status="done")
    ensure_planning_reducers(session)
    # A second registration would run each reducer twice: ids skipped, steps doubled.
    session.dispatch(SetupPlan("Next", ("c",)))
    session.dispatch(AddStep(("d",)))
    assert session.latest(Plan) == Plan("Next", "active", pending("c", "d", first=3))


def test_an_event_that_already_has_a_reducer_is_left_alone():
    @dataclass(frozen=True, slots=True)
    class Added:
        count: int

    def count_adds(items: tuple[Added, ...], event: AddStep) -> tuple[Added, ...]:
        return (Added(len(items) + 1),)

    session = Session()
    session.register_reducer(AddStep, count_adds, slice_type=Added)
    ensure_planning_reducers(session)
    session.dispatch(SetupPlan("Release", ("a",)))
    session.dispatch(AddStep(("b",)))
    assert session.latest(Plan) == Plan("Release", "active", pending("a"))
    assert session.query(Added) == (Added(1),)


class ForeignSession:
    """A session that satisfies SessionProtocol but cannot register reducers."""

    def __init__(self, registered: bool) -> None:
        self.registered = registered

    def is_registered(self, event_type: type) -> bool:
        return self.registered


def test_a_session_that_cannot_register_reducers_is_refused():
    foreign = cast("SessionProtocol", ForeignSession(registered=False))
    with pytest.raises(TypeError) as raised:
        ensure_planning_reducers(foreign)
    assert str(raised.value) == (
        "ForeignSession cannot register the planning reducers: "
        "give the planning tools a session with register_reducer, such as Session"
    )
    ensure_planning_reducers(cast("SessionProtocol", ForeignSession(registered=True)))


def test_section_registers_eagerly_when_given_a_session():
    session = Session()
    PlanningToolsSection(session=session)
    assert all(session.is_registered(event) for event in (SetupPlan, AddStep, UpdateStep))
    session.dispatch(SetupPlan("Release"))
    assert session.latest(Plan) == Plan("Release", "active")


def test_plan_slice_is_state():
    session = Session()
    ensure_planning_reducers(session)
    with pytest.raises(ValueError, match="already has policy 'state'"):
        session.register_reducer(
            ReadPlan, lambda items, _: items, slice_type=Plan, policy=SlicePolicy.LOG
        )


# -- Session.is_registered ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Ping:
    seq: int


@dataclass(frozen=True, slots=True)
class SubPing(Ping):
    pass


def keep(items: tuple[Ping, ...], event: Ping) -> tuple[Ping, ...]:
    return items


def test_is_registered_follows_register_reducer_and_survives_reset():
    session = Session()
    protocol: SessionProtocol = session
    assert not protocol.is_registered(Ping)
    session.register_reducer(Ping, keep, slice_type=Ping)
    assert protocol.is_registered(Ping)
    assert not session.is_registered(SubPing)  # exact type, as dispatch matches
    session.reset()
    assert session.is_registered(Ping)


def test_is_registered_ignores_unhandled_events_logged_by_dispatch():
    session = Session()
    session.dispatch(Ping(1))
    assert session.query(Ping) == (Ping(1),)
    assert not session.is_registered(Ping)


# -- examples -------------------------------------------------------------------------------


def test_every_tool_has_an_example():
    assert all(tool.examples for tool in PLANNING_TOOLS)


def test_examples_replayed_in_order_give_their_outputs():
    session = Session()
    for tool in PLANNING_TOOLS:
        for example in tool.examples:
            result = call(session, tool.name, example.input)
            assert (result.success, result.value) == (True, example.output), example.description


# -- the rendered section -------------------------------------------------------------------

GUIDANCE = """\
Keep a plan for work that takes more than a few steps; skip it for one-step tasks.

- `planning_setup_plan` starts the plan with an objective and optional initial steps; \
calling it again replaces the whole plan.
- `planning_add_step` appends steps as new work turns up.
- `planning_update_step` changes one step's title or status (`pending`, `in_progress`, \
`done`), by the id shown in the plan.
- `planning_read_plan` shows the objective, the status and every step with its id.

Write the objective and step titles as short imperative phrases (at most 500 characters). \
Work on one step at a time: mark it `in_progress` when you start it and `done` when it is \
finished. The plan is completed when every step is done; adding a step or reopening one \
makes it active again."""

MINDSETS = {
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


@pytest.mark.parametrize("strategy", list(PlanningStrategy), ids=lambda s: s.name)
def test_rendered_section_for_each_strategy(strategy: PlanningStrategy):
    section = PlanningToolsSection(strategy=strategy)
    template = PromptTemplate(ns="tests/planning", key="render", sections=[section])
    assert section.strategy is strategy
    assert template.render().text == (
        f"## 1. Planning (planning)\n\n{GUIDANCE}\n\n{MINDSETS[strategy]}"
    )


def test_default_strategy_is_react_and_title_and_key_can_change():
    section = PlanningToolsSection(title="Work plan", key="todo", accepts_overrides=False)
    template = PromptTemplate(ns="tests/planning", key="render", sections=[section])
    assert section.strategy is PlanningStrategy.REACT
    assert not section.accepts_overrides
    assert template.render().text == (
        f"## 1. Work plan (todo)\n\n{GUIDANCE}\n\n{MINDSETS[PlanningStrategy.REACT]}"
    )


# -- the public surface ---------------------------------------------------------------------


def isort_style(name: str) -> tuple[int, str]:
    # ruff's RUF022 order: CONSTANTS, then Classes, then functions, each alphabetical.
    group = 0 if name.isupper() else 1 if name[0].isupper() else 2
    return (group, name)


def test_all_is_sorted_and_complete():
    modules = {
        "annotations",
        "plan_model",
        "reducers",
        "rules",
        "tools_section",
        "strategies",
        "tools",
    }
    public = {name for name in vars(planning_package) if not name.startswith("_")} - modules
    assert planning_package.__all__ == sorted(planning_package.__all__, key=isort_style)
    assert set(planning_package.__all__) == public
