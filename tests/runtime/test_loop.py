"""The evaluation loop end to end, in both capability modes, with the scripted adapter."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from wink_decl import (
    MarkdownSection,
    Prompt,
    PromptEvaluationError,
    PromptTemplate,
    SectionVisibility,
    Session,
    SetVisibilityOverride,
    Tool,
    ToolContext,
    ToolResult,
    VisibilityExpansionRequired,
)
from wink_decl.adapters.scripted import ScriptedAdapter, ScriptedTurn, tool_call
from wink_decl.runtime.adapter import ProviderAdapter
from wink_decl.runtime.budget import Budget, BudgetTracker
from wink_decl.runtime.deadline import Deadline
from wink_decl.runtime.loop import (
    DEFAULT_MAX_TURNS,
    InnerLoop,
    InnerLoopConfig,
    MainLoop,
    turn_guard,
)
from wink_decl.runtime.policies import SequentialDependencyPolicy
from wink_decl.runtime.provider import ProviderReply, ProviderRequest
from wink_decl.runtime.session.metrics import (
    DISCLOSURE_DYNAMIC,
    DISCLOSURE_RESTARTS,
    TOOLS_INJECTED,
)
from wink_decl.runtime.session.tool_events import ToolInvoked, ToolsInjected

SUMMARY = SectionVisibility.SUMMARY


@dataclass(frozen=True)
class NoArgs:
    pass


@dataclass(frozen=True)
class Done:
    step: str


def step(name: str) -> Tool[NoArgs, Done]:
    def handler(params: NoArgs, *, context: ToolContext) -> ToolResult[Done]:
        return ToolResult.ok(Done(name), f"{name} ok")

    return Tool[NoArgs, Done](name=name, description=f"Run {name}.", handler=handler)


TEMPLATE = PromptTemplate(
    ns="tests",
    key="release",
    sections=[
        MarkdownSection(title="Task", key="task", template="Deploy the service."),
        MarkdownSection(
            title="Release",
            key="release",
            template="Build and test before you deploy.",
            summary="Release tools are available.",
            visibility=SectionVisibility.SUMMARY,
            tools=[step("build"), step("test"), step("deploy")],
            policies=[SequentialDependencyPolicy(dependencies={"deploy": {"build", "test"}})],
        ),
    ],
)

SUMMARIZED_TEXT = (
    "## 1. Task (task)\n\nDeploy the service.\n\n## 2. Release (release)\n\n"
    "Release tools are available.\n\n---\n[This section is summarized. To view full content, "
    'call `read_section` with key "release".]'
)
EXPANDED_TEXT = (
    "## 1. Task (task)\n\nDeploy the service.\n\n## 2. Release (release)\n\n"
    "Build and test before you deploy."
)

SCRIPT = [
    ScriptedTurn.call("read_section", section_key="release"),
    ScriptedTurn.call("deploy", text="Deploying straight away."),
    ScriptedTurn.call("build"),
    ScriptedTurn.call("test"),
    ScriptedTurn.call("deploy"),
    ScriptedTurn.answer("Deployed."),
]


def tool_messages(messages: Any) -> list[str]:
    return [m.content for m in messages if m.role == "tool"]


def test_dynamic_mode_injects_revealed_tools_and_recovers_from_a_denial() -> None:
    adapter = ScriptedAdapter(SCRIPT, supports_dynamic_tools=True)
    session = Session()
    response = MainLoop(adapter=adapter).execute(Prompt(TEMPLATE), session=session)

    assert response.text == "Deployed."
    # Once 'release' is open nothing is summarized, so read_section is no longer offered:
    # every request offers what a render of the session as it then is offers.
    assert [r.tool_names for r in adapter.requests] == [
        ("read_section",),
        *[("build", "test", "deploy")] * 5,
    ]
    assert adapter.requests[0].messages[0].content == SUMMARIZED_TEXT
    assert [spec["function"]["name"] for spec in adapter.requests[1].tools] == [  # type: ignore[index]
        "build",
        "test",
        "deploy",
    ]
    assert Prompt(TEMPLATE).render(session=session).tool_names == adapter.requests[-1].tool_names
    assert tool_messages(response.messages) == [
        "Content of section 'release':\n\n## 2. Release (release)\n\n"
        "Build and test before you deploy.",
        "Tool 'deploy' requires: build, test",
        'build ok\n\n{"step": "build"}',
        'test ok\n\n{"step": "test"}',
        'deploy ok\n\n{"step": "deploy"}',
    ]
    (injected,) = session.query(ToolsInjected)
    assert (injected.tool_names, injected.section_key) == (("build", "test", "deploy"), "release")
    assert dict(session.visibility_overrides) == {("release",): SectionVisibility.FULL}
    assert session.metrics.snapshot() == {TOOLS_INJECTED: 3, DISCLOSURE_DYNAMIC: 1}
    assert [e.tool_name for e in session.query(ToolInvoked)] == [
        "read_section",
        "deploy",
        "build",
        "test",
        "deploy",
    ]
    assert [e.result.success for e in session.query(ToolInvoked)] == [True, False, True, True, True]


def test_restart_mode_expands_the_section_and_starts_again() -> None:
    adapter = ScriptedAdapter(SCRIPT, supports_dynamic_tools=False)
    session = Session()
    response = MainLoop(adapter=adapter).execute(Prompt(TEMPLATE), session=session)

    assert response.text == "Deployed."
    assert [r.tool_names for r in adapter.requests] == [
        ("read_section",),
        *[("build", "test", "deploy")] * 5,
    ]
    assert adapter.requests[1].messages[0].content == EXPANDED_TEXT
    assert response.rendered.text == EXPANDED_TEXT
    assert tool_messages(response.messages) == [
        "Tool 'deploy' requires: build, test",
        'build ok\n\n{"step": "build"}',
        'test ok\n\n{"step": "test"}',
        'deploy ok\n\n{"step": "deploy"}',
    ]
    assert session.query(ToolsInjected) == ()
    assert dict(session.visibility_overrides) == {("release",): SectionVisibility.FULL}
    assert session.metrics.snapshot() == {DISCLOSURE_RESTARTS: 1}


def test_a_second_read_of_an_open_section_reveals_nothing() -> None:
    template = PromptTemplate(
        ns="tests",
        key="twice",
        sections=[
            MarkdownSection(
                title="Outer",
                key="outer",
                template="Outer.",
                summary="Outer summary.",
                visibility=SectionVisibility.SUMMARY,
                tools=[step("build")],
            ),
            MarkdownSection(
                title="Notes", key="notes", template="Notes.", summary="Notes.", visibility=SUMMARY
            ),
        ],
    )
    adapter = ScriptedAdapter(
        [
            ScriptedTurn.call("read_section", section_key="outer"),
            ScriptedTurn.call("read_section", section_key="outer"),
            ScriptedTurn.answer("ok"),
        ],
        supports_dynamic_tools=True,
    )
    session = Session()
    MainLoop(adapter=adapter).execute(Prompt(template), session=session)
    assert len(session.query(ToolsInjected)) == 1
    assert session.metrics.snapshot() == {TOOLS_INJECTED: 1, DISCLOSURE_DYNAMIC: 1}
    assert [r.tool_names for r in adapter.requests] == [
        ("read_section",),
        ("build", "read_section"),
        ("build", "read_section"),
    ]
    assert tool_messages(adapter.requests[-1].messages)[-1] == (
        "Section is already expanded.\n\n## 1. Outer (outer)\n\nOuter."
    )


@dataclass(frozen=True)
class Where:
    section: str = "x"


def always_expand(params: Where, *, context: ToolContext) -> ToolResult[Done]:
    raise VisibilityExpansionRequired(
        "again", requested_overrides={}, reason="loop", section_keys=(params.section,)
    )


def test_restarts_are_bounded() -> None:
    template = PromptTemplate(
        ns="tests",
        key="restless",
        sections=[
            MarkdownSection(
                title="Task",
                key="task",
                tools=[
                    Tool[Where, Done](name="expand", description="Expand.", handler=always_expand)
                ],
            )
        ],
    )
    adapter = ScriptedAdapter([ScriptedTurn.call("expand", section="x")] * 11)
    session = Session()
    with pytest.raises(PromptEvaluationError) as info:
        MainLoop(adapter=adapter).execute(Prompt(template), session=session)
    assert str(info.value) == (
        "Prompt 'restless' still needed sections expanded (x) after 10 restarts; giving up."
    )
    assert (info.value.prompt_name, info.value.phase) == ("restless", "disclosure")
    assert session.metrics.value(DISCLOSURE_RESTARTS) == 10
    assert adapter.remaining == 0


def test_max_restarts_must_not_be_negative() -> None:
    with pytest.raises(ValueError, match=r"^max_restarts must be 0 or more, got -1\.$"):
        MainLoop(adapter=ScriptedAdapter([]), max_restarts=-1)


def test_the_turn_limit_stops_a_model_that_never_answers() -> None:
    adapter = ScriptedAdapter([ScriptedTurn.call("read_section", section_key="task")] * 3)
    loop = InnerLoop(
        adapter=adapter,
        prompt=Prompt(TEMPLATE),
        session=Session(),
        config=InnerLoopConfig(max_turns=2),
    )
    with pytest.raises(PromptEvaluationError) as info:
        loop.run()
    assert str(info.value) == "Prompt 'release' did not finish within 2 model turns."


def test_a_budget_of_more_turns_than_the_guard_gets_them_all() -> None:
    turns = DEFAULT_MAX_TURNS + 6
    script = [ScriptedTurn.call("read_section", section_key="task")] * (turns - 1)
    adapter = ScriptedAdapter([*script, ScriptedTurn.answer("Deployed.")])
    response = MainLoop(adapter=adapter).execute(
        Prompt(TEMPLATE), session=Session(), budget=Budget(max_turns=turns)
    )
    assert (response.text, adapter.remaining) == ("Deployed.", 0)


@pytest.mark.parametrize(
    ("budget", "guard"),
    [
        (None, DEFAULT_MAX_TURNS),
        (Budget(), DEFAULT_MAX_TURNS),
        (Budget(max_turns=2), DEFAULT_MAX_TURNS),
        (Budget(max_turns=100), 100),
        (BudgetTracker(Budget(max_turns=100)), 100),
        (BudgetTracker(), DEFAULT_MAX_TURNS),
    ],
    ids=["no-budget", "no-turn-limit", "fewer", "more", "tracker-more", "tracker-without"],
)
def test_the_turn_guard_rises_to_the_budget(
    budget: Budget | BudgetTracker | None, guard: int
) -> None:
    assert turn_guard(budget) == guard


@pytest.mark.parametrize(
    ("budget", "message"),
    [
        (Budget(max_turns=2), "Prompt 'release' stopped: the budget of 2 model turns is used up."),
        (
            Budget(max_tool_calls=1),
            "Prompt 'release' stopped: the budget of 1 tool calls is used up.",
        ),
    ],
    ids=["turns", "tool-calls"],
)
def test_budgets_stop_the_loop(budget: Budget, message: str) -> None:
    adapter = ScriptedAdapter([ScriptedTurn.call("read_section", section_key="task")] * 5)
    with pytest.raises(PromptEvaluationError) as info:
        MainLoop(adapter=adapter).execute(Prompt(TEMPLATE), session=Session(), budget=budget)
    assert str(info.value) == message
    assert info.value.phase == "budget"


def test_an_expired_deadline_stops_before_the_first_turn() -> None:
    adapter = ScriptedAdapter([ScriptedTurn.answer("never")])
    deadline = Deadline(expires_at=10.0, clock=lambda: 11.0)
    with pytest.raises(PromptEvaluationError) as info:
        adapter.evaluate(Prompt(TEMPLATE), session=Session(), deadline=deadline)
    assert str(info.value) == "The deadline passed before prompt 'release' finished."
    assert adapter.requests == []


class Broken(ProviderAdapter):
    name = "broken"

    def complete(self, request: ProviderRequest) -> ProviderReply:
        raise ConnectionError("connection reset")


def test_provider_failures_become_evaluation_errors() -> None:
    with pytest.raises(PromptEvaluationError) as info:
        Broken().evaluate(Prompt(TEMPLATE), session=Session())
    assert str(info.value) == "Provider 'broken' failed: ConnectionError: connection reset"
    assert isinstance(info.value.__cause__, ConnectionError)
    assert Broken().supports_dynamic_tools is False


def test_a_script_that_runs_out_says_so() -> None:
    adapter = ScriptedAdapter([])
    with pytest.raises(PromptEvaluationError) as info:
        adapter.evaluate(Prompt(TEMPLATE), session=Session())
    assert str(info.value) == "The script has no turn left: all 0 turns were replayed."


def test_deadline_and_budget_helpers() -> None:
    now = [100.0]
    deadline = Deadline.after(5, clock=lambda: now[0])
    assert (deadline.remaining(), deadline.expired()) == (5.0, False)
    now[0] = 105.0
    assert deadline.expired()
    with pytest.raises(ValueError, match=r"^A deadline must lie in the future; got 0 seconds\.$"):
        Deadline.after(0)
    with pytest.raises(ValueError, match=r"^Budget\.max_turns must be at least 1, got 0\.$"):
        Budget(max_turns=0)


def nested_template() -> PromptTemplate[None]:
    """parent (SUMMARY, tool 'plan') > [child (SUMMARY, tool 'lint'), sibling (tool 'fmt')]."""
    child = MarkdownSection(
        title="Child",
        key="child",
        template="Child.",
        summary="Child summary.",
        visibility=SUMMARY,
        tools=[step("lint")],
    )
    sibling = MarkdownSection(
        title="Sibling", key="sibling", template="Sibling.", tools=[step("fmt")]
    )
    return PromptTemplate(
        ns="tests",
        key="nested",
        sections=[
            MarkdownSection(
                title="Parent",
                key="parent",
                template="Parent.",
                summary="Parent summary.",
                visibility=SUMMARY,
                tools=[step("plan")],
                children=[child, sibling],
            ),
            MarkdownSection(
                title="Notes", key="notes", template="Notes.", summary="Notes.", visibility=SUMMARY
            ),
        ],
    )


NESTED_OPEN_TEXT = (
    "## 1. Parent (parent)\n\nParent.\n\n### 1.1. Child (parent.child)\n\nChild.\n\n"
    "### 1.2. Sibling (parent.sibling)\n\nSibling.\n\n## 2. Notes (notes)\n\nNotes.\n\n---\n"
    '[This section is summarized. To view full content, call `read_section` with key "notes".]'
)


def test_reading_a_child_of_a_summarized_parent_opens_both_when_dynamic() -> None:
    adapter = ScriptedAdapter(
        [
            ScriptedTurn.call("read_section", section_key="parent.child"),
            ScriptedTurn.call("lint"),
            ScriptedTurn.call("read_section", section_key="parent.child"),
            ScriptedTurn.answer("done"),
        ],
        supports_dynamic_tools=True,
    )
    session = Session()
    MainLoop(adapter=adapter).execute(Prompt(nested_template()), session=session)

    assert [r.tool_names for r in adapter.requests] == [
        ("read_section",),
        *[("plan", "lint", "fmt", "read_section")] * 3,
    ]
    assert tool_messages(adapter.requests[-1].messages) == [
        "Content of section 'parent.child':\n\n### 1.1. Child (parent.child)\n\nChild.",
        'lint ok\n\n{"step": "lint"}',
        "Section is already expanded.\n\n### 1.1. Child (parent.child)\n\nChild.",
    ]
    assert [(e.tool_names, e.section_key) for e in session.query(ToolsInjected)] == [
        (("plan", "lint", "fmt"), "parent.child")
    ]
    assert session.metrics.snapshot() == {TOOLS_INJECTED: 3, DISCLOSURE_DYNAMIC: 1}
    assert dict(session.visibility_overrides) == {
        ("parent",): SectionVisibility.FULL,
        ("parent", "child"): SectionVisibility.FULL,
    }


def test_reading_a_child_of_a_summarized_parent_restarts_once_and_ends() -> None:
    adapter = ScriptedAdapter(
        [
            ScriptedTurn.call("read_section", section_key="parent.child"),
            ScriptedTurn.call("lint"),
            ScriptedTurn.answer("done"),
        ]
    )
    session = Session()
    response = MainLoop(adapter=adapter).execute(Prompt(nested_template()), session=session)

    assert response.text == "done"
    assert [r.tool_names for r in adapter.requests] == [
        ("read_section",),
        *[("plan", "lint", "fmt", "read_section")] * 2,
    ]
    assert adapter.requests[1].messages[0].content == NESTED_OPEN_TEXT
    assert tool_messages(response.messages) == ['lint ok\n\n{"step": "lint"}']
    assert session.metrics.snapshot() == {DISCLOSURE_RESTARTS: 1}


@pytest.mark.parametrize("dynamic", [True, False], ids=["dynamic", "restart"])
def test_a_fresh_render_from_the_session_offers_what_the_model_was_offered(dynamic: bool) -> None:
    adapter = ScriptedAdapter(
        [
            ScriptedTurn.call("read_section", section_key="parent.child"),
            ScriptedTurn.answer("done"),
        ],
        supports_dynamic_tools=dynamic,
    )
    session = Session()
    MainLoop(adapter=adapter).execute(Prompt(nested_template()), session=session)
    last_offer = adapter.requests[-1].tool_names

    # The same session, a new Prompt: what a resumed loop renders first.
    assert Prompt(nested_template()).render(session=session).tool_names == last_offer
    # Another process: a new session holding the same overrides (all a persisted one keeps).
    elsewhere = Session()
    for path, visibility in session.visibility_overrides.items():
        elsewhere.dispatch(SetVisibilityOverride(path, visibility))
    assert Prompt(nested_template()).render(session=elsewhere).tool_names == last_offer
    # A loop resumed on that session starts with exactly that offer.
    resumed = ScriptedAdapter([ScriptedTurn.answer("again")], supports_dynamic_tools=dynamic)
    MainLoop(adapter=resumed).execute(Prompt(nested_template()), session=elsewhere)
    assert resumed.requests[0].tool_names == last_offer


def test_a_revealed_tool_may_be_called_in_the_same_response() -> None:
    adapter = ScriptedAdapter(
        [
            ScriptedTurn(
                tool_calls=(
                    tool_call("read_section", section_key="release"),
                    tool_call("build"),
                )
            ),
            ScriptedTurn.answer("built"),
        ],
        supports_dynamic_tools=True,
    )
    response = MainLoop(adapter=adapter).execute(Prompt(TEMPLATE), session=Session())
    assert tool_messages(response.messages)[1] == 'build ok\n\n{"step": "build"}'


def open_notes(params: NoArgs, *, context: ToolContext) -> ToolResult[Done]:
    context.session.dispatch(SetVisibilityOverride(("release",), SectionVisibility.FULL))
    return ToolResult.ok(Done("opened"), "opened")


def test_the_offer_follows_visibility_a_handler_changes() -> None:
    template = PromptTemplate(
        ns="tests",
        key="handler-opens",
        sections=[
            MarkdownSection(
                title="Task",
                key="task",
                template="Open the release section.",
                tools=[Tool[NoArgs, Done](name="open", description="Open.", handler=open_notes)],
            ),
            *TEMPLATE.sections[1:],
        ],
    )
    adapter = ScriptedAdapter(
        [ScriptedTurn.call("open"), ScriptedTurn.answer("ok")], supports_dynamic_tools=True
    )
    session = Session()
    MainLoop(adapter=adapter).execute(Prompt(template), session=session)
    assert [r.tool_names for r in adapter.requests] == [
        ("open", "read_section"),
        ("open", "build", "test", "deploy"),
    ]
    (injected,) = session.query(ToolsInjected)
    assert (injected.tool_names, injected.section_key) == (("build", "test", "deploy"), "")


def test_an_adapter_is_a_context_manager_that_closes_it() -> None:
    with ScriptedAdapter([ScriptedTurn.answer("ok")]) as adapter:
        response = adapter.evaluate(Prompt(TEMPLATE), session=Session())
    adapter.close()  # closing again is harmless
    assert response.text == "ok"


def test_a_script_of_one_turn_that_runs_out_says_so_in_the_singular() -> None:
    adapter = ScriptedAdapter([ScriptedTurn.answer("Done.")])
    adapter.evaluate(Prompt(TEMPLATE), session=Session())
    with pytest.raises(PromptEvaluationError) as info:
        adapter.evaluate(Prompt(TEMPLATE), session=Session())
    assert str(info.value) == "The script has no turn left: its one turn was replayed."
