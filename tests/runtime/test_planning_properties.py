from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from wink_decl.prompt.template import Prompt, PromptTemplate
from wink_decl.prompt.tool_context import ToolContext
from wink_decl.runtime.planning import (
    AddStep,
    Plan,
    PlanningToolsSection,
    PlanStep,
    ReadPlan,
    SetupPlan,
    StepStatus,
    UpdateStep,
)
from wink_decl.runtime.session import Session

TEMPLATE = PromptTemplate(ns="tests/planning", key="model", sections=[PlanningToolsSection()])
TOOLS = {tool.name: tool for tool in TEMPLATE.all_tools()}
NAMES = {
    SetupPlan: "planning_setup_plan",
    AddStep: "planning_add_step",
    UpdateStep: "planning_update_step",
    ReadPlan: "planning_read_plan",
}


@dataclass
class Model:
    """The rules, written as plainly as possible."""

    objective: str | None = None
    steps: list[PlanStep] = field(default_factory=list[PlanStep])
    next_id: int = 1

    def apply(self, call: object) -> bool:
        """Apply ``call`` if it is valid; return whether it was."""
        match call:
            case SetupPlan(objective=objective, initial_steps=titles):
                if not (good(objective) and all(good(title) for title in titles)):
                    return False
                self.objective = objective.strip()
                self.steps = []
                self.append(titles)
            case AddStep(steps=titles):
                if self.objective is None or not titles or not all(map(good, titles)):
                    return False
                self.append(titles)
            case UpdateStep(step_id=step_id, title=title, status=status):
                ids = [step.step_id for step in self.steps]
                if self.objective is None or step_id not in ids:
                    return False
                if (title is None and status is None) or (title is not None and not good(title)):
                    return False
                old = self.steps[ids.index(step_id)]
                self.steps[ids.index(step_id)] = PlanStep(
                    step_id,
                    old.title if title is None else title.strip(),
                    old.status if status is None else status,
                )
            case _:
                return self.objective is not None
        return True

    def append(self, titles: tuple[str, ...]) -> None:
        for title in titles:
            self.steps.append(PlanStep(self.next_id, title.strip(), "pending"))
            self.next_id += 1

    def plan(self) -> Plan | None:
        if self.objective is None:
            return None
        done = bool(self.steps) and all(step.status == "done" for step in self.steps)
        return Plan(
            self.objective, "completed" if done else "active", tuple(self.steps), self.next_id
        )


def good(text: str) -> bool:
    return 0 < len(text.strip()) <= 500


titles = st.one_of(
    st.sampled_from(["Write tests", "  Tag  ", "", " \t", "t" * 500, "t" * 501]),
    st.text(max_size=12),
)
statuses: st.SearchStrategy[StepStatus | None] = st.sampled_from(
    [None, "pending", "in_progress", "done"]
)
calls: st.SearchStrategy[Any] = st.one_of(
    st.builds(SetupPlan, titles, st.lists(titles, max_size=3).map(tuple)),
    st.builds(AddStep, st.lists(titles, max_size=3).map(tuple)),
    st.builds(
        UpdateStep,
        st.integers(min_value=0, max_value=12),
        st.one_of(st.none(), titles),
        statuses,
    ),
    st.just(ReadPlan()),
)


@settings(max_examples=300)
@given(st.lists(calls, max_size=25))
def test_random_calls_leave_the_session_plan_equal_to_the_model(sequence: list[Any]):
    session = Session()
    model = Model()
    context = ToolContext(
        prompt=Prompt(TEMPLATE), rendered_prompt=None, adapter=None, session=session
    )
    for params in sequence:
        handler = TOOLS[NAMES[type(params)]].handler
        assert handler is not None
        result = handler(params, context=context)
        assert result.success is model.apply(params), result.message
        expected = model.plan()
        assert session.latest(Plan) == expected
        assert result.value == (expected if result.success else None)
        assert len(session.query(Plan)) == (0 if expected is None else 1)
