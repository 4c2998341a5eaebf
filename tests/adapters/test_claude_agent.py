"""ClaudeAgentSDKAdapter end to end: the real bundled Claude Code CLI against a local Messages API.

Each test starts Claude Code (about half a second to a second each); nothing leaves 127.0.0.1:
the adapter turns off the CLI's updater and telemetry, and a proxy that refuses everything but
127.0.0.1 catches anything else.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from anthropic_replies import stream_reply
from messages_fake import AnsweringServer, MessagesCall, ToolAnswer, call_tool, say
from provider_server import Reply

from wink_decl import (
    MarkdownSection,
    ModelRequested,
    ModelResponded,
    Prompt,
    PromptEvaluationError,
    PromptTemplate,
    ProviderError,
    SectionVisibility,
    Session,
    TokenUsage,
    Tool,
    ToolContext,
    ToolResult,
)
from wink_decl.adapters import ClaudeAgentSDKAdapter
from wink_decl.adapters.claude_agent._tool_server import ToolServer
from wink_decl.runtime.budget import Budget
from wink_decl.runtime.deadline import Deadline
from wink_decl.runtime.loop import MainLoop
from wink_decl.runtime.policies import SequentialDependencyPolicy
from wink_decl.runtime.session.metrics import (
    DISCLOSURE_DYNAMIC,
    DISCLOSURE_RESTARTS,
    TOOLS_INJECTED,
)
from wink_decl.runtime.session.tool_events import ToolInvoked

KEY = "sk-ant-test-4f9c2d71e8"
FULL = SectionVisibility.FULL
SUMMARY = SectionVisibility.SUMMARY


@dataclass(frozen=True)
class Target:
    name: str


@dataclass(frozen=True)
class Built:
    name: str


@dataclass(frozen=True)
class Nothing:
    pass


def build(params: Target, *, context: ToolContext) -> ToolResult[Built]:
    return ToolResult.ok(Built(params.name), f"built {params.name}")


def deploy(params: Target, *, context: ToolContext) -> ToolResult[None]:
    return ToolResult.ok(None, f"deployed {params.name}")


def read_log(params: Nothing, *, context: ToolContext) -> ToolResult[None]:
    return ToolResult.ok(None, "log:" + "x" * 150_000)


BUILD = Tool[Target, Built](name="build", description="Build a target.", handler=build)
DEPLOY = Tool[Target, None](name="deploy", description="Deploy a target.", handler=deploy)
READ_LOG = Tool[Nothing, None](name="read_log", description="Read the log.", handler=read_log)


def adapter_for(server: AnsweringServer, home: Path, **kwargs: Any) -> ClaudeAgentSDKAdapter:
    return ClaudeAgentSDKAdapter(
        "claude-test", api_key=KEY, base_url=server.url, env=isolated(home), cwd=home, **kwargs
    )


def isolated(home: Path) -> dict[str, str]:
    """A home of the test's own, and a proxy that refuses whatever is not for 127.0.0.1."""
    trap = "http://127.0.0.1:9"
    return {"HOME": str(home), "HTTPS_PROXY": trap, "HTTP_PROXY": trap, "NO_PROXY": "127.0.0.1"}


def cli_children() -> list[int]:
    """Claude Code processes this test process started and still has (none once a run ends)."""
    found: list[int] = []
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        if parent == os.getpid() and b"_bundled/claude" in command:
            found.append(int(entry.name))
    return found


@pytest.fixture
def no_cli_left() -> Iterator[None]:
    yield
    assert cli_children() == []


@pytest.mark.usefixtures("no_cli_left")
def test_tools_run_through_the_executor_and_a_denied_call_reaches_the_model(tmp_path: Path) -> None:
    template = PromptTemplate(
        ns="tests",
        key="ship",
        sections=[
            MarkdownSection(
                title="Task",
                key="task",
                template="Ship the app.",
                tools=[BUILD, DEPLOY, READ_LOG],
                policies=[SequentialDependencyPolicy(dependencies={"deploy": {"build"}})],
            )
        ],
    )
    moves: list[Callable[[MessagesCall], Reply]] = [
        lambda c: call_tool(
            "mcp__wink__deploy", {"name": "app"}, c, text="Deploying.", usage=(100, 7)
        ),
        lambda c: call_tool("mcp__wink__build", {"name": "app"}, c, usage=(120, 9)),
        lambda c: call_tool("mcp__wink__read_log", {}, c, usage=(140, 11)),
        lambda c: say("Shipped.", c, usage=(160, 13)),
    ]
    session = Session()
    with AnsweringServer(lambda c: moves[c.turn](c)) as server:
        response = adapter_for(server, tmp_path).evaluate(Prompt(template), session=session)
    calls = server.calls

    assert response.text == "Shipped."
    assert [c.turn for c in calls] == [0, 1, 2, 3]
    assert calls[0].system.endswith("\n## 1. Task (task)\n\nShip the app.")
    # Claude Code's own tools are off: the model is offered exactly the prompt's tools.
    assert calls[0].tool_names == ("mcp__wink__build", "mcp__wink__deploy", "mcp__wink__read_log")
    assert calls[0].tools["mcp__wink__build"]["input_schema"]["required"] == ["name"]
    assert [c.tool_results for c in calls[1:3]] == [
        (ToolAnswer("toolu_1", "Tool 'deploy' requires: build", is_error=True),),
        (ToolAnswer("toolu_2", 'built app\n\n{"name": "app"}', is_error=False),),
    ]
    # A long result stays inline instead of being saved to a file the model cannot read.
    assert calls[3].tool_results[0].text == "log:" + "x" * 150_000

    invoked = session.query(ToolInvoked)
    assert [(e.tool_name, e.call_id, e.result.success) for e in invoked] == [
        ("deploy", "toolu_1", False),
        ("build", "toolu_2", True),
        ("read_log", "toolu_3", True),
    ]
    assert response.usage == TokenUsage(520, 40)
    assert [(e.turn, e.tool_names, e.message_count) for e in session.query(ModelRequested)] == [
        (1, ("build", "deploy", "read_log"), 2),
        (2, ("build", "deploy", "read_log"), 4),
        (3, ("build", "deploy", "read_log"), 6),
        (4, ("build", "deploy", "read_log"), 8),
    ]
    responded = session.query(ModelResponded)
    assert [(e.turn, e.text, e.usage) for e in responded] == [
        (1, "Deploying.", TokenUsage(100, 7)),
        (2, "", TokenUsage(120, 9)),
        (3, "", TokenUsage(140, 11)),
        (4, "Shipped.", TokenUsage(160, 13)),
    ]
    assert [call.name for e in responded for call in e.tool_calls] == [
        "deploy",
        "build",
        "read_log",
    ]
    assert responded[0].created_at <= invoked[0].created_at
    assert [(m.role, m.tool_call_id) for m in response.messages] == [
        ("system", None),
        ("user", None),
        ("assistant", None),
        ("tool", "toolu_1"),
        ("assistant", None),
        ("tool", "toolu_2"),
        ("assistant", None),
        ("tool", "toolu_3"),
        ("assistant", None),
    ]
    assert response.messages[0].content == response.rendered.text


NOTES = MarkdownSection(
    title="Notes",
    key="notes",
    template="Version 2 is due.",
    summary="Release notes.",
    visibility=SUMMARY,
)
"""A summarized section without tools, in both prompts: reading it reveals nothing."""

RELEASE = PromptTemplate(
    ns="tests",
    key="release",
    sections=[
        MarkdownSection(title="Task", key="task", template="Release the app."),
        MarkdownSection(
            title="Release",
            key="release",
            template="Build before you release.",
            summary="Release tools are here.",
            visibility=SUMMARY,
            tools=[BUILD],
        ),
        NOTES,
    ],
)


def release_moves(call: MessagesCall) -> Reply:
    """Open 'release' (a restart if its tool is not offered), read 'notes', build, answer."""
    if "mcp__wink__build" not in call.tool_names:
        return call_tool("mcp__wink__read_section", {"section_key": "release"}, call)
    moves = [
        lambda: call_tool("mcp__wink__read_section", {"section_key": "notes"}, call),
        lambda: call_tool("mcp__wink__build", {"name": "app"}, call),
        lambda: say("Released.", call),
    ]
    return moves[call.turn]()


SHIP = PromptTemplate(
    ns="tests",
    key="ship",
    sections=[
        MarkdownSection(title="Task", key="task", template="Ship the app."),
        MarkdownSection(
            title="Build",
            key="build",
            template="Build first.",
            summary="Build tools.",
            visibility=SUMMARY,
            tools=[BUILD],
        ),
        NOTES,
        MarkdownSection(
            title="Deploy",
            key="deploy",
            template="Deploy last.",
            summary="Deploy tools.",
            visibility=SUMMARY,
            tools=[DEPLOY],
        ),
    ],
)


def ship_moves(call: MessagesCall) -> Reply:
    """Read a section, call the tool it revealed (or say it is missing), twice; then answer."""
    reveals = {1: "mcp__wink__build", 4: "mcp__wink__deploy"}
    wanted = reveals.get(call.turn)
    if wanted is not None and wanted not in call.revealed:
        return say(f"{wanted} is missing.", call)
    moves = [
        lambda: call_tool("mcp__wink__read_section", {"section_key": "build"}, call),
        lambda: call_tool("mcp__wink__build", {"name": "app"}, call),
        lambda: call_tool("mcp__wink__read_section", {"section_key": "notes"}, call),
        lambda: call_tool("mcp__wink__read_section", {"section_key": "deploy"}, call),
        lambda: call_tool("mcp__wink__deploy", {"name": "app"}, call),
        lambda: say("Shipped.", call),
    ]
    return moves[call.turn]()


@pytest.mark.usefixtures("no_cli_left")
def test_sections_with_tools_offer_them_in_the_same_conversation(tmp_path: Path) -> None:
    session = Session()
    with AnsweringServer(ship_moves) as server:
        adapter = adapter_for(server, tmp_path)
        response = MainLoop(adapter=adapter).execute(
            Prompt(SHIP), session=session, deadline=Deadline.after(120)
        )
    calls = server.calls

    assert response.text == "Shipped."
    # One conversation: Claude Code is never restarted.
    assert [c.turn for c in calls] == [0, 1, 2, 3, 4, 5]
    # Claude Code sends a revealed tool deferred, named in a tool_reference that loads it.
    assert [c.tool_names for c in calls] == [("mcp__wink__read_section",)] * 6
    assert [c.revealed for c in calls] == [
        (),
        ("mcp__wink__build",),
        ("mcp__wink__build",),
        ("mcp__wink__build",),
        ("mcp__wink__build", "mcp__wink__deploy"),
        ("mcp__wink__build", "mcp__wink__deploy"),
    ]
    assert calls[4].tools["mcp__wink__deploy"]["input_schema"]["required"] == ["name"]
    assert [c.tool_results for c in calls] == [
        (),
        (
            ToolAnswer(
                "toolu_1",
                "Content of section 'build':\n\n## 2. Build (build)\n\nBuild first.",
                is_error=False,
            ),
        ),
        (ToolAnswer("toolu_2", 'built app\n\n{"name": "app"}', is_error=False),),
        (
            ToolAnswer(
                "toolu_3",
                "Content of section 'notes':\n\n## 3. Notes (notes)\n\nVersion 2 is due.",
                is_error=False,
            ),
        ),
        (
            ToolAnswer(
                "toolu_4",
                "Content of section 'deploy':\n\n## 4. Deploy (deploy)\n\nDeploy last.",
                is_error=False,
            ),
        ),
        (ToolAnswer("toolu_5", "deployed app", is_error=False),),
    ]
    assert [(e.turn, e.tool_names, e.message_count) for e in session.query(ModelRequested)] == [
        (1, ("read_section",), 2),
        (2, ("build", "read_section"), 4),
        (3, ("build", "read_section"), 6),
        (4, ("build", "read_section"), 8),
        (5, ("build", "deploy", "read_section"), 10),
        (6, ("build", "deploy", "read_section"), 12),
    ]
    assert [(e.tool_name, e.call_id, e.result.success) for e in session.query(ToolInvoked)] == [
        ("read_section", "toolu_1", True),
        ("build", "toolu_2", True),
        ("read_section", "toolu_3", True),
        ("read_section", "toolu_4", True),
        ("deploy", "toolu_5", True),
    ]
    assert dict(session.visibility_overrides) == {("build",): FULL, ("deploy",): FULL}
    assert session.metrics.snapshot() == {DISCLOSURE_DYNAMIC: 2, TOOLS_INJECTED: 2}
    assert [(m.role, m.tool_call_id) for m in response.messages] == [
        ("system", None),
        ("user", None),
        *[part for n in range(1, 6) for part in (("assistant", None), ("tool", f"toolu_{n}"))],
        ("assistant", None),
    ]
    assert response.usage == TokenUsage(60, 30)


@pytest.mark.usefixtures("no_cli_left")
def test_tools_claude_code_does_not_list_in_time_restart_the_conversation_expanded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def never_listed(self: ToolServer, client: object, *, within: float) -> bool:
        return False

    monkeypatch.setattr(ToolServer, "announce", never_listed)
    session = Session()
    with AnsweringServer(release_moves) as server:
        adapter = adapter_for(server, tmp_path)
        response = MainLoop(adapter=adapter).execute(
            Prompt(RELEASE), session=session, deadline=Deadline.after(120)
        )
    first, second, third, fourth = server.calls

    assert response.text == "Released."
    # The first conversation ends at the read: Claude Code never asks the model again.
    assert first.tool_names == ("mcp__wink__read_section",)
    assert first.system.endswith('call `read_section` with key "notes".]')
    assert "Release tools are here." in first.system
    # The second starts with the section expanded and its tool offered.
    assert second.turn == 0
    assert second.tool_names == ("mcp__wink__build", "mcp__wink__read_section")
    assert "## 2. Release (release)\n\nBuild before you release." in second.system
    assert third.tool_results == (
        ToolAnswer(
            "toolu_1",
            "Content of section 'notes':\n\n## 3. Notes (notes)\n\nVersion 2 is due.",
            is_error=False,
        ),
    )
    assert fourth.tool_results == (
        ToolAnswer("toolu_2", 'built app\n\n{"name": "app"}', is_error=False),
    )
    assert dict(session.visibility_overrides) == {("release",): FULL}
    assert session.metrics.snapshot() == {
        DISCLOSURE_DYNAMIC: 1,
        TOOLS_INJECTED: 1,
        DISCLOSURE_RESTARTS: 1,
    }
    assert [e.tool_name for e in session.query(ToolInvoked)] == [
        "read_section",
        "read_section",
        "build",
    ]
    assert [e.turn for e in session.query(ModelRequested)] == [1, 1, 2, 3]
    assert response.usage == TokenUsage(40, 20)
    assert response.rendered.text == Prompt(RELEASE).render(session=session).text


@dataclass(frozen=True)
class Verdict:
    approved: bool
    reason: str


@pytest.mark.usefixtures("no_cli_left")
def test_a_declared_output_comes_back_parsed_even_from_inside_an_event_loop(
    tmp_path: Path,
) -> None:
    template = PromptTemplate(
        ns="tests",
        key="review",
        sections=[MarkdownSection(title="Task", key="task", template="Review the change.")],
        output_type=Verdict,
    )

    def answer(call: MessagesCall) -> Reply:
        verdict = {"approved": True, "reason": "tests pass"}
        return call_tool("StructuredOutput", verdict, call, usage=(30, 4))

    async def evaluate_in_a_loop(adapter: ClaudeAgentSDKAdapter, session: Session) -> Any:
        return adapter.evaluate(Prompt(template), session=session)

    session = Session()
    with AnsweringServer(answer) as server:
        adapter = adapter_for(server, tmp_path, allow_builtin_tools=["Read"])
        response = asyncio.run(evaluate_in_a_loop(adapter, session))
    (call,) = server.calls

    assert response.output == Verdict(approved=True, reason="tests pass")
    assert call.tool_names == ("Read", "StructuredOutput")
    assert call.tools["StructuredOutput"]["input_schema"]["required"] == ["approved", "reason"]
    assert response.usage == TokenUsage(30, 4)
    assert [e.tool_names for e in session.query(ModelRequested)] == [("Read",)]


@pytest.mark.usefixtures("no_cli_left")
def test_a_refused_key_fails_at_once_and_never_shows_the_key(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    def refuse(call: MessagesCall) -> Reply:
        return Reply(
            status=401,
            json={"type": "error", "error": {"type": "authentication_error", "message": KEY}},
        )

    caplog.set_level(logging.DEBUG)
    started = time.monotonic()
    with AnsweringServer(refuse) as server, pytest.raises(ProviderError) as info:
        adapter_for(server, tmp_path).evaluate(Prompt(RELEASE), session=Session())
    error = info.value

    # Claude Code would retry a 401 ten times over three minutes; the adapter stops it.
    assert time.monotonic() - started < 15
    assert len(server.calls) == 1
    assert (error.kind, error.status) == ("authentication", 401)
    assert (str(error), error.hint) == (
        "The provider refused the API key (401): authentication_failed.",
        "check the API key in ANTHROPIC_API_KEY",
    )
    assert KEY not in f"{error} {error.hint} {error!r} {caplog.text}"


@pytest.mark.usefixtures("no_cli_left")
def test_a_refused_connection_is_a_connection_error(tmp_path: Path) -> None:
    with AnsweringServer(lambda c: say("unused", c)) as server:
        url = server.url  # the port is free again once the server is closed
    adapter = ClaudeAgentSDKAdapter(
        api_key=KEY, base_url=url, env=isolated(tmp_path), cwd=tmp_path, max_retries=2
    )
    with pytest.raises(ProviderError) as info:
        adapter.evaluate(Prompt(RELEASE), session=Session())

    assert (str(info.value), info.value.kind) == (
        f"Could not connect to {url} after 3 attempts: connection refused — a firewall or proxy "
        "may be blocking it (ECONNREFUSED).",
        "connection",
    )


@pytest.mark.usefixtures("no_cli_left")
@pytest.mark.parametrize(
    ("status", "error_type", "message"),
    [
        (
            429,
            "rate_limit_error",
            "The provider's rate limit was reached (429) after 3 attempts: Request rejected (429) "
            "· Try later.",
        ),
        (
            500,
            "api_error",
            "The provider failed (500) after 3 attempts: 500 Try later. This is a server-side "
            "issue, usually temporary — try again in a moment. If it persists, check your "
            "inference gateway ({address}).",
        ),
    ],
    ids=["rate-limit", "server"],
)
def test_a_failure_that_outlasts_the_retries_counts_the_attempts(
    tmp_path: Path, status: int, error_type: str, message: str
) -> None:
    def fail(call: MessagesCall) -> Reply:
        body = {"type": "error", "error": {"type": error_type, "message": "Try later."}}
        return Reply(status=status, json=body, headers={"retry-after-ms": "1"})

    with AnsweringServer(fail) as server, pytest.raises(ProviderError) as info:
        adapter_for(server, tmp_path, max_retries=2).evaluate(Prompt(RELEASE), session=Session())

    address = server.url.removeprefix("http://")
    assert len(server.calls) == 3
    assert (str(info.value), info.value.status) == (message.format(address=address), status)


@pytest.mark.usefixtures("no_cli_left")
def test_a_passed_deadline_stops_claude_code(tmp_path: Path) -> None:
    release = threading.Event()

    def hang(call: MessagesCall) -> Reply:
        release.wait(30)
        return say("too late", call)

    with AnsweringServer(hang) as server:
        started = time.monotonic()
        with pytest.raises(ProviderError) as info:
            adapter_for(server, tmp_path).evaluate(
                Prompt(RELEASE), session=Session(), deadline=Deadline.after(3)
            )
        took = time.monotonic() - started
        release.set()

    assert info.value.kind == "timeout"
    assert str(info.value).startswith("Claude Code did not finish before the deadline; stopped ")
    assert 3 <= took < 5.5


@pytest.mark.usefixtures("no_cli_left")
def test_the_budget_ends_the_conversation_before_a_call_it_does_not_cover(tmp_path: Path) -> None:
    def two_builds(call: MessagesCall) -> Reply:
        builds = [("toolu_a", "mcp__wink__build", {"name": "a"})]
        builds.append(("toolu_b", "mcp__wink__build", {"name": "b"}))
        return stream_reply("", builds)

    template = PromptTemplate(
        ns="tests",
        key="builds",
        sections=[MarkdownSection(title="Task", key="task", template="Build.", tools=[BUILD])],
    )
    session = Session()
    with AnsweringServer(two_builds) as server, pytest.raises(PromptEvaluationError) as info:
        adapter_for(server, tmp_path).evaluate(
            Prompt(template), session=session, budget=Budget(max_tool_calls=1)
        )

    assert (str(info.value), info.value.phase) == (
        "Prompt 'builds' stopped: the budget of 1 tool calls is used up.",
        "budget",
    )
    assert [(e.call_id, e.params) for e in session.query(ToolInvoked)] == [("toolu_a", Target("a"))]
    assert len(server.calls) == 1


@pytest.mark.usefixtures("no_cli_left")
def test_the_turn_limit_ends_a_conversation_that_keeps_calling_tools(tmp_path: Path) -> None:
    template = PromptTemplate(
        ns="tests",
        key="loop",
        sections=[MarkdownSection(title="Task", key="task", template="Build.", tools=[BUILD])],
    )
    session = Session()
    with AnsweringServer(lambda c: call_tool("mcp__wink__build", {"name": "x"}, c)) as server:
        adapter = adapter_for(server, tmp_path, max_turns=2)
        with pytest.raises(PromptEvaluationError) as info:
            adapter.evaluate(Prompt(template), session=session)

    assert (str(info.value), info.value.phase) == (
        "Prompt 'loop' did not finish within 2 model turns.",
        "loop",
    )
    assert len(session.query(ToolInvoked)) == 1
    assert len(server.calls) == 2


@pytest.mark.usefixtures("no_cli_left")
def test_a_budget_of_more_turns_raises_the_turn_limit(tmp_path: Path) -> None:
    template = PromptTemplate(
        ns="tests",
        key="loop",
        sections=[MarkdownSection(title="Task", key="task", template="Build.", tools=[BUILD])],
    )
    session = Session()
    with AnsweringServer(lambda c: call_tool("mcp__wink__build", {"name": "x"}, c)) as server:
        adapter = adapter_for(server, tmp_path, max_turns=2)
        with pytest.raises(PromptEvaluationError) as info:
            adapter.evaluate(Prompt(template), session=session, budget=Budget(max_turns=3))

    assert (str(info.value), info.value.phase) == (
        "Prompt 'loop' did not finish within 3 model turns.",
        "loop",
    )
    assert len(session.query(ToolInvoked)) == 2
    assert len(server.calls) == 3


def test_a_crashing_cli_is_reported_with_its_stderr_redacted(tmp_path: Path) -> None:
    cli = tmp_path / "claude"
    cli.write_text(f"#!/bin/sh\necho 'fatal: bad key {KEY}' >&2\nsleep 0.3\nexit 3\n")
    cli.chmod(0o755)
    adapter = ClaudeAgentSDKAdapter(api_key=KEY, cli_path=cli, env=isolated(tmp_path))
    with pytest.raises(ProviderError) as info:
        adapter.evaluate(Prompt(RELEASE), session=Session())

    assert (str(info.value), info.value.kind) == (
        "Claude Code exited with code 3: fatal: bad key [redacted]",
        "other",
    )


def test_a_missing_cli_says_how_to_get_one(tmp_path: Path) -> None:
    adapter = ClaudeAgentSDKAdapter(cli_path=tmp_path / "nowhere" / "claude")
    with pytest.raises(ProviderError) as info:
        adapter.evaluate(Prompt(RELEASE), session=Session())

    assert info.value.kind == "unavailable"
    assert str(info.value) == (
        f"Claude Code was not found: Claude Code not found at: {tmp_path}/nowhere/claude"
    )
    assert info.value.hint == (
        "pip install 'wink-decl[claude-agent]' (its wheel bundles Claude Code), or pass cli_path"
    )
