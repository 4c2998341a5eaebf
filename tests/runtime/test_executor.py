"""ToolExecutor: spec 05's dispatch order and exception table, every path."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pytest

from wink_decl import (
    DeadlineExceededError,
    MarkdownSection,
    PolicyDecision,
    Prompt,
    PromptEvaluationError,
    PromptTemplate,
    ReadSectionParams,
    SectionVisibility,
    Session,
    SlicePolicy,
    Tool,
    ToolContext,
    ToolResult,
    ToolValidationError,
    VisibilityExpansionRequired,
)
from wink_decl.runtime.budget import Budget, BudgetTracker
from wink_decl.runtime.deadline import Deadline
from wink_decl.runtime.executor import ToolExecutor, tool_message_text
from wink_decl.runtime.provider import ProviderToolCall
from wink_decl.runtime.session.tool_events import ToolInvoked


@dataclass(frozen=True)
class Bump:
    by: int = 1


@dataclass(frozen=True)
class Count:
    value: int


def reduce_bump(items: tuple[Count, ...], event: Bump) -> tuple[Count, ...]:
    current = items[-1].value if items else 0
    return (Count(current + event.by),)


def count(session: Session) -> int:
    latest = session.latest(Count)
    return 0 if latest is None else latest.value


@dataclass(frozen=True)
class Trace:
    """An event no reducer listens for: it lands in a log slice of its own type."""

    text: str


@dataclass(frozen=True)
class Audit:
    """The item of a slice registered with the LOG policy."""

    line: str


def audit_bump(items: tuple[Audit, ...], event: Bump) -> tuple[Audit, ...]:
    return (*items, Audit(f"bump {event.by}"))


def traces(session: Session) -> tuple[int, tuple[Trace, ...], tuple[Audit, ...]]:
    """Everything the handlers of these tests leave in the session: state, log, unhandled."""
    return count(session), session.query(Trace), session.query(Audit)


NO_TRACES: tuple[int, tuple[Trace, ...], tuple[Audit, ...]] = (0, (), ())


@dataclass(frozen=True)
class Echo:
    text: str = field(metadata={"description": "What to echo."})
    times: int = 1


@dataclass(frozen=True)
class Echoed:
    text: str


class Notes:
    """A restorable resource: the executor must roll it back with the session."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def snapshot(self) -> tuple[str, ...]:
        return tuple(self.lines)

    def restore(self, token: tuple[str, ...]) -> None:
        self.lines = list(token)


def make_handler(behaviour: str) -> Any:
    def handler(params: Echo, *, context: ToolContext) -> Any:
        context.session.dispatch(Bump())
        context.session.dispatch(Trace(params.text))
        context.resources.get(Notes).lines.append(params.text)
        if behaviour == "ok":
            return ToolResult.ok(Echoed(params.text * params.times), "Echoed.")
        if behaviour == "fail":
            return ToolResult.error("Could not echo.")
        if behaviour == "not-a-result":
            return 42
        raise {
            "validation": ToolValidationError("Field 'text' is too long."),
            "expand": VisibilityExpansionRequired(
                "expand", requested_overrides={}, reason="r", section_keys=("x",)
            ),
            "evaluation": PromptEvaluationError("provider gone"),
            "deadline": DeadlineExceededError("late"),
            "type": TypeError("unsupported operand"),
            "other": RuntimeError("disk on fire"),
        }[behaviour]

    return handler


def tool(name: str, behaviour: str = "ok") -> Tool[Echo, Echoed]:
    return Tool[Echo, Echoed](name=name, description="Echo text.", handler=make_handler(behaviour))


@dataclass
class Harness:
    session: Session
    prompt: Prompt[Any]
    notes: Notes
    executor: ToolExecutor

    def call(self, name: str, arguments: Any = None) -> Any:
        payload = {"text": "hi"} if arguments is None else arguments
        text = payload if isinstance(payload, str) else json.dumps(payload)
        return self.executor.execute(ProviderToolCall("call-1", name, text))

    def invoked(self) -> tuple[ToolInvoked, ...]:
        return self.session.query(ToolInvoked)


def harness(
    tools: list[Tool[Any, Any]],
    *,
    section_policies: tuple[Any, ...] = (),
    prompt_policies: tuple[Any, ...] = (),
    deadline: Deadline | None = None,
    budget: BudgetTracker | None = None,
    dynamic: bool = False,
    extra_sections: tuple[MarkdownSection[Any], ...] = (),
) -> Harness:
    session = Session()
    session.register_reducer(Bump, reduce_bump, slice_type=Count)
    session.register_reducer(Bump, audit_bump, slice_type=Audit, policy=SlicePolicy.LOG)
    template = PromptTemplate(
        ns="tests",
        key="executor",
        sections=[
            MarkdownSection(title="Tools", key="tools", tools=tools, policies=section_policies),
            *extra_sections,
        ],
        policies=prompt_policies,
    )
    notes = Notes()
    prompt = Prompt(template, resources=[notes])
    rendered = prompt.render(session=session)
    executor = ToolExecutor(
        prompt=prompt,
        rendered=rendered,
        session=session,
        supports_dynamic_tools=dynamic,
        deadline=deadline,
        budget_tracker=budget,
    )
    return Harness(session, prompt, notes, executor)


def test_success_runs_the_handler_and_records_telemetry() -> None:
    h = harness([tool("echo")])
    outcome = h.call("echo", {"text": "ab", "times": 2})
    assert outcome.success
    assert outcome.message.role == "tool"
    assert outcome.message.tool_call_id == "call-1"
    assert outcome.message.content == 'Echoed.\n\n{"text": "abab"}'
    assert traces(h.session) == (1, (Trace("ab"),), (Audit("bump 1"),))
    assert h.notes.lines == ["ab"]
    (event,) = h.invoked()
    assert (event.tool_name, event.params, event.rendered_output, event.call_id) == (
        "echo",
        Echo("ab", 2),
        'Echoed.\n\n{"text": "abab"}',
        "call-1",
    )
    assert event.prompt_name == "executor"
    assert event.result == ToolResult.ok(Echoed("abab"), "Echoed.")


FAILURES = [
    ("fail", "Could not echo."),
    ("not-a-result", "Tool 'echo' returned int; handlers must return a ToolResult."),
    ("validation", "Field 'text' is too long."),
    (
        "type",
        "Tool 'echo' raised TypeError: unsupported operand. Check that the handler takes "
        "(params, *, context) and uses the params' fields.",
    ),
    ("other", "Tool 'echo' failed: RuntimeError: disk on fire"),
]


@pytest.mark.parametrize(("behaviour", "message"), FAILURES, ids=[f[0] for f in FAILURES])
def test_failures_become_failed_results_and_leave_no_trace(behaviour: str, message: str) -> None:
    h = harness([tool("echo", behaviour)])
    outcome = h.call("echo")
    assert not outcome.success
    assert outcome.result == ToolResult.error(message)
    assert outcome.message.content == message
    assert traces(h.session) == NO_TRACES
    assert h.notes.lines == []
    (event,) = h.invoked()
    assert (event.tool_name, event.rendered_output, event.result.success) == (
        "echo",
        message,
        False,
    )


@pytest.mark.parametrize("behaviour", ["expand", "evaluation"])
def test_loop_control_exceptions_propagate_after_restoring(behaviour: str) -> None:
    h = harness([tool("echo", behaviour)])
    expected = VisibilityExpansionRequired if behaviour == "expand" else PromptEvaluationError
    with pytest.raises(expected):
        h.call("echo")
    assert traces(h.session) == NO_TRACES
    assert h.notes.lines == []


def test_deadline_raised_by_a_handler_becomes_an_evaluation_error() -> None:
    h = harness([tool("echo", "deadline")])
    with pytest.raises(PromptEvaluationError) as info:
        h.call("echo")
    assert str(info.value) == "The deadline passed while tool 'echo' was running."
    assert isinstance(info.value.__cause__, DeadlineExceededError)
    assert (info.value.prompt_name, info.value.phase) == ("executor", "tool")
    assert traces(h.session) == NO_TRACES


def test_an_expired_deadline_refuses_before_the_handler_runs() -> None:
    deadline = Deadline(expires_at=100.0, clock=lambda: 200.0)
    h = harness([tool("echo")], deadline=deadline)
    with pytest.raises(PromptEvaluationError) as info:
        h.call("echo")
    assert str(info.value) == "The deadline passed before tool 'echo' could run."
    assert h.notes.lines == []


def test_unknown_tool_names_close_matches_and_what_exists() -> None:
    h = harness([tool("echo"), tool("shout")])
    outcome = h.call("ecko")
    expected = "Unknown tool 'ecko'. Did you mean 'echo'? Available tools: echo, shout."
    assert outcome.result == ToolResult.error(expected)
    (event,) = h.invoked()
    assert (event.tool_name, event.params) == ("ecko", '{"text": "hi"}')


ARGUMENT_ERRORS: list[tuple[object, str]] = [
    (
        '{"text": ',
        "Invalid arguments for tool 'echo': Arguments are not valid JSON: "
        "Expecting value: line 1 column 10 (char 9).",
    ),
    (
        {"text": "a", "loud": True},
        "Invalid arguments for tool 'echo': Unknown field 'loud' (allowed: text, times).",
    ),
    ({}, "Invalid arguments for tool 'echo': Missing required field 'text'."),
    ({"text": 3}, "Invalid arguments for tool 'echo': Field 'text' must be a string, got integer."),
    ([1], "Invalid arguments for tool 'echo': Expected an object, got array."),
]


@pytest.mark.parametrize(
    ("arguments", "message"), ARGUMENT_ERRORS, ids=["json", "extra", "missing", "type", "array"]
)
def test_arguments_are_parsed_strictly(arguments: Any, message: str) -> None:
    h = harness([tool("echo")])
    outcome = h.call("echo", arguments)
    assert outcome.result == ToolResult.error(message)
    assert h.notes.lines == []


def test_mapping_arguments_are_accepted_as_they_are() -> None:
    h = harness([tool("echo")])
    outcome = h.executor.execute(ProviderToolCall("c", "echo", {"text": "x"}))
    assert outcome.success


@dataclass
class Recorder:
    name: str
    allow: bool = True
    log: list[str] = field(default_factory=list[str])

    def check(self, tool: Tool[Any, Any], params: Any, *, context: ToolContext) -> PolicyDecision:
        self.log.append(f"check {tool.name}")
        return PolicyDecision.allow() if self.allow else PolicyDecision.deny(f"{self.name} says no")

    def on_result(
        self, tool: Tool[Any, Any], params: Any, result: ToolResult[Any], *, context: ToolContext
    ) -> None:
        self.log.append(f"result {tool.name}")


def test_section_policies_run_before_prompt_policies_and_first_denial_wins() -> None:
    section = Recorder("section", allow=False)
    prompt_policy = Recorder("prompt", allow=False)
    h = harness([tool("echo")], section_policies=(section,), prompt_policies=(prompt_policy,))
    outcome = h.call("echo")
    assert outcome.result == ToolResult.error("section says no")
    assert section.log == ["check echo"]
    assert prompt_policy.log == []
    assert h.notes.lines == []


def test_on_result_runs_only_after_success_for_every_policy() -> None:
    section, prompt_policy = Recorder("section"), Recorder("prompt")
    h = harness(
        [tool("echo"), tool("broken", "fail")],
        section_policies=(section,),
        prompt_policies=(prompt_policy,),
    )
    h.call("echo")
    h.call("broken")
    assert section.log == ["check echo", "result echo", "check broken"]
    assert prompt_policy.log == ["check echo", "result echo", "check broken"]


def test_a_denial_without_a_reason_names_the_policy() -> None:
    @dataclass
    class Silent:
        name: str = "silent"

        def check(
            self, tool: Tool[Any, Any], params: Any, *, context: ToolContext
        ) -> PolicyDecision:
            return PolicyDecision(allowed=False)

        def on_result(self, *args: Any, **kwargs: Any) -> None:
            raise AssertionError

    h = harness([tool("echo")], prompt_policies=(Silent(),))
    assert h.call("echo").result == ToolResult.error("Policy 'silent' denied the call.")


def test_a_policy_that_raises_in_check_denies_the_call() -> None:
    class Broken(Recorder):
        def check(
            self, tool: Tool[Any, Any], params: Any, *, context: ToolContext
        ) -> PolicyDecision:
            raise KeyError("state")

    h = harness([tool("echo")], prompt_policies=(Broken("broken"),))
    outcome = h.call("echo")
    assert outcome.result == ToolResult.error(
        "Policy 'broken' could not check tool 'echo': KeyError: 'state'"
    )
    assert h.notes.lines == []


def test_a_policy_that_raises_in_on_result_fails_the_call_and_rolls_back() -> None:
    class Broken(Recorder):
        def on_result(
            self,
            tool: Tool[Any, Any],
            params: Any,
            result: ToolResult[Any],
            *,
            context: ToolContext,
        ) -> None:
            raise ValueError("cannot record")

    h = harness([tool("echo")], prompt_policies=(Broken("broken"),))
    outcome = h.call("echo")
    assert outcome.result == ToolResult.error("Tool 'echo' failed: ValueError: cannot record")
    assert traces(h.session) == NO_TRACES
    assert h.notes.lines == []


def test_a_value_that_cannot_render_fails_the_call() -> None:
    @dataclass(frozen=True)
    class Bad:
        def render(self) -> str:
            raise RuntimeError("no text")

    def handler(params: Echo, *, context: ToolContext) -> ToolResult[Bad]:
        context.session.dispatch(Bump())
        return ToolResult.ok(Bad(), "done")

    bad = Tool[Echo, Bad](name="bad", description="Bad render.", handler=handler)
    h = harness([bad])
    outcome = h.call("bad")
    assert outcome.result == ToolResult.error("Tool 'bad' failed: RuntimeError: no text")
    assert traces(h.session) == NO_TRACES


def test_a_tool_without_handler_fails_cleanly() -> None:
    bare = Tool[Echo, Echoed](name="bare", description="No handler.")
    h = harness([bare])
    assert h.call("bare").result == ToolResult.error("Tool 'bare' has no handler.")


def test_excluded_values_stay_out_of_the_message() -> None:
    def handler(params: Echo, *, context: ToolContext) -> ToolResult[Echoed]:
        return ToolResult(
            message="Stored.", value=Echoed("secret"), exclude_value_from_context=True
        )

    hidden = Tool[Echo, Echoed](name="hidden", description="Hidden value.", handler=handler)
    h = harness([hidden])
    outcome = h.call("hidden")
    assert outcome.message.content == "Stored."
    assert outcome.result.value == Echoed("secret")


@pytest.mark.parametrize(
    ("result", "text"),
    [
        (ToolResult[Echoed](message="", value=Echoed("v")), '{"text": "v"}'),
        (ToolResult[Echoed](message="Only message."), "Only message."),
        (ToolResult[Echoed](message="M.", value=Echoed("v")), 'M.\n\n{"text": "v"}'),
    ],
    ids=["value-only", "message-only", "both"],
)
def test_tool_message_text(result: ToolResult[Any], text: str) -> None:
    assert tool_message_text(result) == text


def test_every_call_counts_against_the_budget() -> None:
    tracker = BudgetTracker(Budget(max_tool_calls=5))
    h = harness([tool("echo"), tool("broken", "fail")], budget=tracker)
    h.call("echo")
    h.call("broken")
    h.call("nope")
    assert tracker.tool_calls == 3


def test_handlers_see_the_full_context() -> None:
    seen: list[ToolContext] = []

    def handler(params: Echo, *, context: ToolContext) -> ToolResult[Echoed]:
        seen.append(context)
        context.beat()
        return ToolResult.ok(Echoed("x"))

    beats: list[int] = []
    deadline = Deadline(expires_at=1e12)
    spy = Tool[Echo, Echoed](name="spy", description="Spy.", handler=handler)
    h = harness([spy], deadline=deadline)
    h.executor = ToolExecutor(
        prompt=h.prompt,
        rendered=h.prompt.render(session=h.session),
        session=h.session,
        deadline=deadline,
        heartbeat=lambda: beats.append(1),
    )
    h.call("spy")
    (context,) = seen
    assert context.prompt is h.prompt
    assert context.session is h.session
    assert context.deadline is deadline
    assert context.rendered_prompt is not None
    assert context.rendered_prompt.tool_names == ("spy",)
    assert beats == [1]


@dataclass(frozen=True)
class Nothing:
    pass


def reference_section(with_tools: bool) -> MarkdownSection[Any]:
    inner = Tool[Echo, Echoed](name="lookup", description="Look up.", handler=make_handler("ok"))
    return MarkdownSection(
        title="Reference",
        key="reference",
        template="Rules.",
        summary="Rules exist.",
        visibility=SectionVisibility.SUMMARY,
        tools=[inner] if with_tools else [],
    )


def test_read_section_with_tools_hands_them_over_when_dynamic() -> None:
    h = harness([tool("echo")], dynamic=True, extra_sections=(reference_section(True),))
    outcome = h.call("read_section", {"section_key": " Reference "})
    assert outcome.success
    assert outcome.section_key == "reference"
    assert [t.name for t in outcome.expanded_tools] == ["lookup"]
    assert outcome.message.content == (
        "Content of section 'reference':\n\n## 2. Reference (reference)\n\nRules."
    )


def test_read_section_with_tools_asks_for_a_restart_otherwise() -> None:
    h = harness([tool("echo")], dynamic=False, extra_sections=(reference_section(True),))
    with pytest.raises(VisibilityExpansionRequired) as info:
        h.call("read_section", {"section_key": "reference"})
    error = info.value
    assert str(error) == (
        "Section 'reference' must be expanded and the evaluation restarted: the adapter "
        "cannot add tools mid-conversation."
    )
    assert dict(error.requested_overrides) == {("reference",): SectionVisibility.FULL}
    assert (error.reason, error.section_keys) == (
        "Adapter does not support dynamic tools",
        ("reference",),
    )
    (event,) = h.invoked()
    assert event.tool_name == "read_section"
    assert event.params == ReadSectionParams("reference")


def test_read_section_without_tools_just_returns_content_in_either_mode() -> None:
    h = harness([tool("echo")], dynamic=False, extra_sections=(reference_section(False),))
    outcome = h.call("read_section", {"section_key": "reference"})
    assert (outcome.success, outcome.expanded_tools, outcome.section_key) == (True, (), "reference")


def test_offer_switches_to_a_newer_render_and_names_what_it_adds() -> None:
    h = harness([tool("echo")], extra_sections=(reference_section(True),))
    assert h.executor.tool_names == ("echo", "read_section")
    opened = h.prompt.render(
        visibility_overrides={("reference",): SectionVisibility.FULL}, session=h.session
    )

    added = h.executor.offer(opened)

    assert [t.name for t in added] == ["lookup"]
    assert h.executor.tool_names == ("echo", "lookup")
    assert h.executor.tools == opened.tools
    assert h.call("read_section", {"section_key": "reference"}).result.message == (
        "Unknown tool 'read_section'. Available tools: echo, lookup."
    )
    assert h.executor.offer(opened) == ()


# -- results reach the session (spec 04) ----------------------------------------------------------


def remember_echo(items: tuple[Echoed, ...], event: Echoed) -> tuple[Echoed, ...]:
    return (*items, event)


def test_a_successful_value_reaches_the_reducers_of_its_type() -> None:
    h = harness([tool("echo")])
    h.session.register_reducer(Echoed, remember_echo, slice_type=Echoed)
    h.call("echo", {"text": "ab", "times": 2})
    assert h.session.query(Echoed) == (Echoed("abab"),)


def test_a_value_nobody_listens_for_is_not_dispatched() -> None:
    h = harness([tool("echo")])
    h.call("echo")
    assert h.session.query(Echoed) == ()
    assert h.session.snapshot().log_types == (Audit, Trace, ToolInvoked)


@pytest.mark.parametrize("behaviour", ["fail", "other"])
def test_failed_calls_dispatch_no_value(behaviour: str) -> None:
    h = harness([tool("echo", behaviour)])
    h.session.register_reducer(Echoed, remember_echo, slice_type=Echoed)
    h.call("echo")
    assert h.session.query(Echoed) == ()


def test_denied_calls_dispatch_nothing() -> None:
    h = harness([tool("echo")], prompt_policies=(Recorder("no", allow=False),))
    h.session.register_reducer(Echoed, remember_echo, slice_type=Echoed)
    h.call("echo")
    assert (h.session.query(Echoed), traces(h.session)) == ((), NO_TRACES)


def test_a_reducer_that_fails_on_the_value_fails_the_call_and_rolls_back() -> None:
    def refuse(items: tuple[Echoed, ...], event: Echoed) -> tuple[Echoed, ...]:
        raise ValueError("no room")

    h = harness([tool("echo")])
    h.session.register_reducer(Echoed, refuse, slice_type=Echoed)
    outcome = h.call("echo")
    assert outcome.result == ToolResult.error("Tool 'echo' failed: ValueError: no room")
    assert traces(h.session) == NO_TRACES
    assert h.notes.lines == []


# -- tools without params -----------------------------------------------------------------------


def status(params: None, *, context: ToolContext) -> ToolResult[Echoed]:
    return ToolResult.ok(Echoed(f"params={params!r}"), "Status.")


def status_tool() -> Tool[None, Echoed]:
    return Tool[None, Echoed](name="status", description="Report the status.", handler=status)


@pytest.mark.parametrize("arguments", [{}, "", "{}"], ids=["object", "empty-text", "empty-json"])
def test_a_tool_without_params_is_called_with_none(arguments: Any) -> None:
    h = harness([status_tool()])
    outcome = h.call("status", arguments)
    assert outcome.result == ToolResult.ok(Echoed("params=None"), "Status.")
    assert h.invoked()[-1].params is None


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"verbose": True}, "Unknown field 'verbose' (allowed: none)."),
        ("[]", "Expected an object, got array."),
        ("null", "Expected an object, got null."),
    ],
    ids=["extra-key", "array", "null"],
)
def test_a_tool_without_params_refuses_arguments(arguments: Any, message: str) -> None:
    h = harness([status_tool()])
    outcome = h.call("status", arguments)
    assert outcome.result == ToolResult.error(f"Invalid arguments for tool 'status': {message}")
