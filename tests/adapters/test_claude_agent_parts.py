"""ClaudeAgentSDKAdapter without Claude Code: settings, limits, odd messages, failure texts."""
# pyright: reportPrivateUsage=false

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass
from typing import Any

import anyio
import pytest
from claude_agent_sdk import (
    AssistantMessage,
    ClaudeSDKError,
    CLIConnectionError,
    ProcessError,
    RateLimitEvent,
    RateLimitInfo,
    ResultMessage,
    StreamEvent,
    SystemMessage,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    UserMessage,
)

from wink_decl import (
    MarkdownSection,
    ModelResponded,
    Prompt,
    PromptEvaluationError,
    PromptTemplate,
    ProviderError,
    Session,
    TokenUsage,
)
from wink_decl.adapters.claude_agent import ClaudeAgentSDKAdapter, ClaudeAgentSettings
from wink_decl.adapters.claude_agent._claude_transcript import Transcript, token_usage
from wink_decl.adapters.claude_agent._conversation import Conversation
from wink_decl.adapters.claude_agent._failures import Attempted, from_exception, from_result
from wink_decl.errors import SingleTurnUnsupportedError
from wink_decl.runtime.budget import Budget, BudgetTracker
from wink_decl.runtime.deadline import Deadline
from wink_decl.runtime.provider import ProviderRequest

KEY = "sk-ant-unit-93b1c7e2"


@dataclass(frozen=True)
class Verdict:
    approved: bool


TEMPLATE = PromptTemplate(
    ns="tests",
    key="review",
    sections=[MarkdownSection(title="Task", key="task", template="Review.")],
)


def conversation(
    template: PromptTemplate[Any] = TEMPLATE, session: Session | None = None
) -> Conversation:
    return Conversation(
        adapter=ClaudeAgentSDKAdapter(api_key=KEY),
        prompt=Prompt(template),
        session=session or Session(),
        deadline=None,
        budget=BudgetTracker(),
    )


def result(**changes: Any) -> ResultMessage:
    fields: dict[str, Any] = {
        "subtype": "success",
        "duration_ms": 1,
        "duration_api_ms": 1,
        "is_error": False,
        "num_turns": 1,
        "session_id": "s",
        "result": "ok",
    }
    return ResultMessage(**{**fields, **changes})


def assistant(*blocks: Any, model: str = "claude-test", **changes: Any) -> AssistantMessage:
    return AssistantMessage(content=list(blocks), model=model, **changes)


# -- the adapter ---------------------------------------------------------------------------


def test_settings_keep_claude_code_quiet_and_know_every_secret(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ANTHROPIC_AUTH_TOKEN", "token-from-the-environment")
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    settings = ClaudeAgentSDKAdapter(
        api_key=KEY,
        base_url="http://127.0.0.1:1",
        env={"DISABLE_AUTOUPDATER": "0", "HOME": "/h"},
        max_retries=2,
    ).settings
    assert settings.environment() == {
        "DISABLE_AUTOUPDATER": "0",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "HOME": "/h",
        "ANTHROPIC_API_KEY": KEY,
        "ANTHROPIC_BASE_URL": "http://127.0.0.1:1",
        "CLAUDE_CODE_MAX_RETRIES": "2",
    }
    assert settings.secrets() == (KEY, "token-from-the-environment")
    assert KEY not in repr(settings)
    assert ClaudeAgentSettings().environment() == {
        "DISABLE_AUTOUPDATER": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    }


def test_the_adapter_has_no_single_turn_and_checks_its_turn_limit() -> None:
    adapter = ClaudeAgentSDKAdapter()
    assert (adapter.name, adapter.supports_dynamic_tools, adapter.settings.max_turns) == (
        "claude-agent-sdk",
        False,
        64,
    )
    with pytest.raises(
        SingleTurnUnsupportedError, match=r"call evaluate\(\) or MainLoop.execute\(\)"
    ):
        adapter.complete(ProviderRequest((), ()))
    with pytest.raises(ValueError, match=r"max_turns must be at least 1, got 0\."):
        ClaudeAgentSDKAdapter(max_turns=0)


def test_a_passed_deadline_or_a_used_budget_stops_before_claude_code_starts() -> None:
    adapter = ClaudeAgentSDKAdapter(cli_path="/nowhere/claude")
    clock = iter([0.0, 10.0]).__next__
    with pytest.raises(PromptEvaluationError) as late:
        adapter.evaluate(
            Prompt(TEMPLATE), session=Session(), deadline=Deadline.after(1, clock=clock)
        )
    tracker = BudgetTracker(Budget(max_turns=1))
    tracker.record_turn()
    with pytest.raises(PromptEvaluationError) as spent:
        adapter.evaluate(Prompt(TEMPLATE), session=Session(), budget=tracker)
    assert [(str(e.value), e.value.phase) for e in (late, spent)] == [
        ("The deadline passed before prompt 'review' finished.", "deadline"),
        ("Prompt 'review' stopped: the budget of 1 model turns is used up.", "budget"),
    ]


def test_without_the_sdk_the_error_names_the_install_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "claude_agent_sdk", None)
    with pytest.raises(ProviderError) as info:
        ClaudeAgentSDKAdapter().evaluate(Prompt(TEMPLATE), session=Session())
    assert (info.value.kind, info.value.hint) == (
        "unavailable",
        "pip install 'wink-decl[claude-agent]'",
    )


# -- the message stream --------------------------------------------------------------------


def test_messages_that_are_not_the_conversations_own_change_nothing() -> None:
    session = Session()
    talk = conversation(session=session)
    talk._observe(RateLimitEvent(RateLimitInfo(status="allowed"), uuid="u", session_id="s"))
    talk._observe(assistant(TextBlock("a subagent's"), parent_tool_use_id="toolu_9"))
    talk._observe(SystemMessage(subtype="api_retry", data={"error_status": 529}))  # retried
    talk._observe(UserMessage(content="the prompt, echoed"))
    talk._observe(UserMessage(content=[TextBlock("not a tool result")]))
    talk._observe(assistant(ThinkingBlock("hm", "signature"), usage={"output_tokens": 2}))
    talk._observe(result())

    assert [(m.role, m.content) for m in talk._transcript.messages[2:]] == [("assistant", "")]
    (responded,) = session.query(ModelResponded)
    assert (responded.text, responded.usage) == ("", TokenUsage(0, 2))
    assert talk._response().text == "ok"


def test_a_response_without_stream_events_is_a_turn_until_its_tool_result() -> None:
    session = Session()
    talk = conversation(session=session)
    usage = {"input_tokens": 5, "cache_read_input_tokens": 20, "output_tokens": 3}
    talk._observe(assistant(TextBlock("Let me look."), usage=usage))
    talk._observe(assistant(ToolUseBlock("toolu_1", "mcp__wink__look", {"at": "x"}), usage=usage))
    talk._observe(
        UserMessage(content=[ToolResultBlock("toolu_1", [{"type": "text", "text": "a"}])])
    )
    talk._observe(
        UserMessage(content=[ToolResultBlock("toolu_2", "b"), ToolResultBlock("toolu_3")])
    )
    talk._observe(result(result=None))

    (responded,) = session.query(ModelResponded)
    assert (responded.text, responded.usage) == ("Let me look.", TokenUsage(25, 3))
    assert responded.tool_calls[0].name == "look"
    assert [(m.role, m.content) for m in talk._transcript.messages[2:]] == [
        ("assistant", "Let me look."),
        ("tool", "a"),
        ("tool", "b"),
        ("tool", ""),
    ]
    assert talk._response().text == "Let me look."  # no result text: the last response's


def test_a_result_for_a_refused_call_follows_the_response_still_streaming() -> None:
    talk = conversation()
    talk._observe(stream({"type": "message_start", "message": {"usage": {"input_tokens": 4}}}))
    talk._observe(assistant(ToolUseBlock("toolu_1", "Bash", {"command": "ls"})))
    talk._observe(UserMessage(content=[ToolResultBlock("toolu_1", "Bash is not available")]))
    talk._observe(stream({"type": "ping"}))
    talk._observe(stream({"type": "message_delta", "usage": {"output_tokens": 6}}))
    talk._observe(stream({"type": "message_stop"}))
    talk._transcript.update_usage({"output_tokens": 99})  # after the turn: nothing to update

    assert [(m.role, m.tool_call_id) for m in talk._transcript.messages[2:]] == [
        ("assistant", None),
        ("tool", "toolu_1"),
    ]
    assert talk._budget.usage == TokenUsage(4, 6)


def test_the_first_reason_to_end_a_conversation_is_the_one_raised() -> None:
    talk = conversation()
    first, second = ProviderError("first", kind="other"), ProviderError("second", kind="other")

    async def end_twice() -> None:
        talk._listening = anyio.CancelScope()
        talk._end(first)
        talk._end(second)

    asyncio.run(end_twice())
    assert talk._ending is first
    assert talk._listening.cancel_called


def test_calls_get_the_ids_the_model_gave_them() -> None:
    transcript = Transcript(
        prompt_name="p",
        adapter_name="a",
        session=Session(),
        budget=BudgetTracker(),
        tool_names=(),
        opening=(),
        tool_prefix="mcp__wink__",
    )
    assert (transcript.last_text, transcript.last_called_tools) == ("", False)
    assert transcript.claim("look", {}) == "wink_call_1"
    transcript.start({})
    for call_id, arguments in (("t1", {"at": "x"}), ("t2", {"at": "y"}), ("t3", {"at": "x"})):
        transcript.add_call(call_id, "mcp__wink__look", arguments)
    transcript.add_call("t4", "mcp__other__look", {"at": "x"})
    asyncio.run(settle_after(transcript))

    assert [transcript.claim("look", {"at": a}) for a in ("y", "x", "x", "x")] == [
        "t2",
        "t1",
        "t3",
        "wink_call_2",
    ]
    assert transcript.last_called_tools


async def settle_after(transcript: Transcript) -> None:
    """A tool call waits until its response is complete; an unstreamed one does not wait."""
    async with anyio.create_task_group() as group:
        group.start_soon(transcript.settled)
        await anyio.lowlevel.checkpoint()
        transcript.finish()
    await transcript.settled()


def test_token_counts_take_cached_input_and_ignore_what_is_not_a_count() -> None:
    usage = {
        "input_tokens": 3,
        "cache_creation_input_tokens": 100,
        "cache_read_input_tokens": 1000,
        "output_tokens": None,
    }
    assert token_usage(usage) == TokenUsage(1103, 0)


# -- the answer ----------------------------------------------------------------------------


def test_an_answer_needs_a_result_that_is_not_an_error() -> None:
    talk = conversation()
    with pytest.raises(ProviderError, match=r"^Claude Code ended without a result\.$"):
        talk._response()
    talk._observe(assistant(TextBlock("API Error: 529"), model="<synthetic>", error="server_error"))
    talk._observe(result(is_error=True, result="API Error: 529 Overloaded"))
    with pytest.raises(ProviderError) as info:
        talk._response()
    assert (str(info.value), info.value.kind) == (
        "Claude Code stopped: API Error: 529 Overloaded",
        "server",
    )


def test_a_declared_output_is_read_from_structured_output_or_from_the_text() -> None:
    template = PromptTemplate(
        ns="tests", key="verdict", sections=TEMPLATE.sections, output_type=Verdict
    )
    talk = conversation(template)
    talk._observe(result(structured_output={"approved": True}, result="{}"))
    assert talk._response().output == Verdict(approved=True)

    talk = conversation(template)
    talk._observe(result(result='```json\n{"approved": false}\n```'))
    assert talk._response().output == Verdict(approved=False)

    talk = conversation(template)
    talk._observe(result(result="Approved!"))
    with pytest.raises(PromptEvaluationError) as info:
        talk._response()
    assert (str(info.value), info.value.phase) == (
        "The answer of prompt 'verdict' does not fit its output Verdict: it is not JSON "
        "(Expecting value: line 1 column 1 (char 0)).",
        "output",
    )


# -- failures ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("error", "message", "kind"),
    [
        (
            CLIConnectionError(f"Working directory does not exist: /{KEY}"),
            "Claude Code could not be started: Working directory does not exist: /[redacted]",
            "unavailable",
        ),
        (
            ProcessError("Command failed", exit_code=137),
            "Claude Code exited with code 137: nothing on stderr",
            "other",
        ),
        (
            ClaudeSDKError(f"odd {KEY}"),
            "Claude Code failed: ClaudeSDKError: odd [redacted]",
            "other",
        ),
        (
            Exception("Control request timeout: initialize"),
            "The Claude Agent SDK failed: Exception: Control request timeout: initialize",
            "other",
        ),
    ],
    ids=["cannot-start", "killed", "sdk", "other"],
)
def test_exceptions_become_one_line_provider_errors(
    error: Exception, message: str, kind: str
) -> None:
    failure = from_exception(error, stderr=[], secrets=[KEY])
    assert (str(failure), failure.kind) == (message, kind)


def test_a_long_message_is_cut_after_the_key_is_redacted() -> None:
    text = "x" * 280 + KEY + "\n" + "y" * 100
    failure = from_exception(ProcessError("failed", exit_code=1), stderr=[text], secrets=[KEY])
    said = str(failure).removeprefix("Claude Code exited with code 1: ")
    assert said == "x" * 280 + "[redacted] " + "y" * 6 + "..."
    assert len(said) == 300


@pytest.mark.parametrize(
    ("changes", "assistant_error", "message", "kind", "status"),
    [
        (
            {"api_error_status": 429, "result": "API Error: 429 slow down"},
            "rate_limit",
            "The provider's rate limit was reached (429): 429 slow down.",
            "rate_limit",
            429,
        ),
        (
            {"result": "API Error: Request timed out."},
            "unknown",
            "Claude Code stopped: API Error: Request timed out.",
            "timeout",
            None,
        ),
        (
            {"result": "API Error: credit balance is too low"},
            "billing_error",
            "Claude Code stopped: API Error: credit balance is too low",
            "permission",
            None,
        ),
        (
            {"subtype": "error_during_execution", "result": None, "errors": ["a", "b"]},
            None,
            "Claude Code stopped: a; b",
            "other",
            None,
        ),
        (
            {"subtype": "error_max_structured_output_retries", "result": None},
            None,
            "Claude Code stopped: error_max_structured_output_retries",
            "other",
            None,
        ),
    ],
    ids=["status", "timeout", "billing", "errors", "subtype"],
)
def test_error_results_say_what_claude_code_said(
    changes: dict[str, Any],
    assistant_error: str | None,
    message: str,
    kind: str,
    status: int | None,
) -> None:
    attempted = Attempted("claude-test", "http://127.0.0.1:9")
    failure = from_result(
        result(is_error=True, **changes), assistant_error, attempted=attempted, secrets=[]
    )
    assert (str(failure), failure.kind, failure.status) == (message, kind, status)


def stream(event: dict[str, Any]) -> StreamEvent:
    return StreamEvent(uuid="u", session_id="s", event=event)
