"""The loop records every model turn and its tokens, passes the deadline on, and parses output."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from wink_decl import (
    MarkdownSection,
    ModelRequested,
    ModelResponded,
    Prompt,
    PromptEvaluationError,
    PromptTemplate,
    PromptValidationError,
    Session,
    TokenUsage,
    Tool,
    ToolContext,
    ToolResult,
)
from wink_decl.adapters.scripted import ScriptedAdapter, ScriptedTurn
from wink_decl.runtime.budget import Budget
from wink_decl.runtime.deadline import Deadline
from wink_decl.runtime.loop import InnerLoop, InnerLoopConfig, MainLoop
from wink_decl.runtime.provider import OPENING_MESSAGE


@dataclass(frozen=True)
class Verdict:
    approved: bool
    reason: str = ""


@dataclass(frozen=True)
class Nothing:
    pass


def ping(params: Nothing, *, context: ToolContext) -> ToolResult[None]:
    return ToolResult.ok(None, "pong")


def template(output_type: type | None = None) -> PromptTemplate[object]:
    return PromptTemplate(
        ns="tests",
        key="review",
        sections=[
            MarkdownSection(
                title="Task",
                key="task",
                template="Review the change.",
                tools=[Tool[Nothing, None](name="ping", description="Ping.", handler=ping)],
            )
        ],
        output_type=output_type,
    )


def test_every_turn_is_recorded_with_its_tokens_and_the_total_is_returned() -> None:
    adapter = ScriptedAdapter(
        [
            ScriptedTurn(
                text="Checking.",
                tool_calls=ScriptedTurn.call("ping").tool_calls,
                usage=TokenUsage(100, 5),
            ),
            ScriptedTurn.answer("Looks good.", TokenUsage(120, 8)),
        ]
    )
    session = Session()
    response = MainLoop(adapter=adapter).execute(Prompt(template()), session=session)

    assert response.usage == TokenUsage(220, 13)
    assert response.usage.total_tokens == 233
    requests = session.query(ModelRequested)
    assert [
        (r.prompt_name, r.adapter, r.turn, r.tool_names, r.message_count) for r in requests
    ] == [
        ("review", "scripted", 1, ("ping",), 2),
        ("review", "scripted", 2, ("ping",), 4),
    ]
    responses = session.query(ModelResponded)
    assert [(r.turn, r.text, [c.name for c in r.tool_calls], r.usage) for r in responses] == [
        (1, "Checking.", ["ping"], TokenUsage(100, 5)),
        (2, "Looks good.", [], TokenUsage(120, 8)),
    ]


def test_a_token_budget_stops_the_run() -> None:
    call = ScriptedTurn.call("ping")
    adapter = ScriptedAdapter(
        [ScriptedTurn(tool_calls=call.tool_calls, usage=TokenUsage(60, 50))] * 3
    )
    with pytest.raises(PromptEvaluationError) as info:
        MainLoop(adapter=adapter).execute(
            Prompt(template()), session=Session(), budget=Budget(max_total_tokens=200)
        )
    assert str(info.value) == (
        "Prompt 'review' stopped: the budget of 200 tokens is used up (220 used)."
    )
    assert (info.value.phase, len(adapter.requests)) == ("budget", 2)


def test_the_time_left_before_the_deadline_goes_with_each_request() -> None:
    now = [100.0]
    deadline = Deadline(expires_at=130.0, clock=lambda: now[0])
    adapter = ScriptedAdapter([ScriptedTurn.answer("ok")])
    InnerLoop(
        adapter=adapter, prompt=Prompt(template()), session=Session(), deadline=deadline
    ).run()
    assert adapter.requests[0].timeout == 30.0
    no_deadline = ScriptedAdapter([ScriptedTurn.answer("ok")])
    InnerLoop(adapter=no_deadline, prompt=Prompt(template()), session=Session()).run()
    assert no_deadline.requests[0].timeout is None


def test_a_declared_output_is_asked_for_and_parsed() -> None:
    adapter = ScriptedAdapter([ScriptedTurn.answer('{"approved": true, "reason": "tests pass"}')])
    response = MainLoop(adapter=adapter).execute(Prompt(template(Verdict)), session=Session())

    assert response.output == Verdict(approved=True, reason="tests pass")
    request = adapter.requests[0]
    assert request.output is not None
    assert (request.output.name, dict(request.output.schema)) == (
        "final_answer",
        {
            "type": "object",
            "properties": {
                "approved": {"type": "boolean"},
                "reason": {"type": "string", "default": ""},
            },
            "required": ["approved"],
            "additionalProperties": False,
        },
    )


def test_a_fenced_json_answer_is_accepted() -> None:
    adapter = ScriptedAdapter([ScriptedTurn.answer('```json\n{"approved": false}\n```')])
    response = MainLoop(adapter=adapter).execute(Prompt(template(Verdict)), session=Session())
    assert response.output == Verdict(approved=False)


def test_an_answer_that_does_not_fit_is_sent_back_once_with_what_was_wrong() -> None:
    adapter = ScriptedAdapter(
        [ScriptedTurn.answer('{"approved": "yes"}'), ScriptedTurn.answer('{"approved": true}')]
    )
    response = MainLoop(adapter=adapter).execute(Prompt(template(Verdict)), session=Session())
    assert response.output == Verdict(approved=True)
    retry = adapter.requests[1].messages[-1]
    assert (retry.role, retry.content) == (
        "user",
        "Your answer does not fit the required output: Field 'approved' must be a boolean, got "
        "string. Answer again with only the JSON object the output schema describes.",
    )


@pytest.mark.parametrize(
    ("answers", "problem"),
    [
        (["not json", "still not"], "it is not JSON (Expecting value: line 1 column 1 (char 0))."),
        (
            ['{"approved": true, "extra": 1}'] * 2,
            "Unknown field 'extra' (allowed: approved, reason).",
        ),
    ],
    ids=["not-json", "extra-field"],
)
def test_an_answer_that_never_fits_is_an_error_saying_why(answers: list[str], problem: str) -> None:
    adapter = ScriptedAdapter([ScriptedTurn.answer(a) for a in answers])
    with pytest.raises(PromptEvaluationError) as info:
        MainLoop(adapter=adapter).execute(Prompt(template(Verdict)), session=Session())
    assert (
        str(info.value)
        == f"The answer of prompt 'review' does not fit its output Verdict: {problem}"
    )
    assert info.value.phase == "output"


def test_output_retries_can_be_switched_off() -> None:
    adapter = ScriptedAdapter([ScriptedTurn.answer("nope")])
    loop = InnerLoop(
        adapter=adapter,
        prompt=Prompt(template(Verdict)),
        session=Session(),
        config=InnerLoopConfig(max_output_retries=0),
    )
    with pytest.raises(PromptEvaluationError):
        loop.run()
    assert len(adapter.requests) == 1


def test_the_output_type_must_be_a_dataclass() -> None:
    with pytest.raises(PromptValidationError) as info:
        template(dict)
    assert (
        str(info.value)
        == "Prompt 'tests/review' output type must be a dataclass, got <class 'dict'>."
    )


def test_the_output_shape_is_named_apart_from_the_prompts_tools() -> None:
    def done(params: Nothing, *, context: ToolContext) -> ToolResult[None]:
        return ToolResult.ok(None, "done")

    taken = PromptTemplate(
        ns="tests",
        key="clash",
        sections=[
            MarkdownSection(
                title="Task",
                key="task",
                template="Finish.",
                tools=[
                    Tool[Nothing, None](name="final_answer", description="Done.", handler=done),
                    Tool[Nothing, None](name="final_answer_2", description="Done.", handler=done),
                ],
            )
        ],
        output_type=Verdict,
    )
    adapter = ScriptedAdapter([ScriptedTurn.answer('{"approved": true}')])
    MainLoop(adapter=adapter).execute(Prompt(taken), session=Session())
    assert adapter.requests[0].output is not None
    assert adapter.requests[0].output.name == "final_answer_3"


def test_tool_messages_say_whether_the_call_failed() -> None:
    adapter = ScriptedAdapter(
        [ScriptedTurn.call("ping"), ScriptedTurn.call("ping", extra=1), ScriptedTurn.answer("ok")]
    )
    response = MainLoop(adapter=adapter).execute(Prompt(template()), session=Session())
    assert [(m.content, m.is_error) for m in response.messages if m.role == "tool"] == [
        ("pong", False),
        ("Invalid arguments for tool 'ping': Unknown field 'extra' (allowed: none).", True),
    ]


def test_every_conversation_opens_with_the_same_user_turn_after_the_prompt() -> None:
    adapter = ScriptedAdapter([ScriptedTurn.answer("ok")])
    InnerLoop(adapter=adapter, prompt=Prompt(template()), session=Session()).run()
    system, opening = adapter.requests[0].messages
    assert (system.role, system.content) == ("system", "## 1. Task (task)\n\nReview the change.")
    assert (opening.role, opening.content) == ("user", OPENING_MESSAGE)
    assert OPENING_MESSAGE == "Follow the instructions in the system prompt."
    custom = ScriptedAdapter([ScriptedTurn.answer("ok")])
    config = InnerLoopConfig(opening_message="Review it now.")
    InnerLoop(adapter=custom, prompt=Prompt(template()), session=Session(), config=config).run()
    assert custom.requests[0].messages[1].content == "Review it now."
