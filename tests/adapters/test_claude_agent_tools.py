"""ClaudeAgentSDKAdapter's MCP server without Claude Code: listing, calls, announcing new tools.

tests/adapters/test_claude_agent.py drives the same server with the real CLI; here a stand-in for
the SDK's control protocol plays each way an announcement can end.
"""
# pyright: reportPrivateUsage=false

from __future__ import annotations

import logging
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import anyio
import pytest
from mcp.types import CallToolRequestParams

from wink_decl import Tool, ToolContext, ToolResult
from wink_decl.adapters.claude_agent._tool_server import ToolAnswer, ToolServer

LOGGER = "wink_decl.adapters.claude_agent"


@dataclass(frozen=True)
class Target:
    name: str


def build(params: Target, *, context: ToolContext) -> ToolResult[None]:
    return ToolResult.ok(None, f"built {params.name}")


BUILD = Tool[Target, None](name="build", description="Build a target.", handler=build)
DEPLOY = Tool[Target, None](name="deploy", description="Deploy a target.", handler=build)


async def answer(name: str, arguments: dict[str, object]) -> ToolAnswer:
    return {"content": [{"type": "text", "text": f"{name} {arguments}"}], "is_error": False}


def context(request_id: int) -> Any:
    return SimpleNamespace(request_id=request_id)


class Query:
    """The SDK's control protocol as the server sees it: requests sent, answers written."""

    def __init__(
        self,
        server: ToolServer,
        *,
        lists: tuple[int, ...] = (),
        late: tuple[int, ...] = (),
        fails: bool = False,
    ) -> None:
        self.server = server
        self.lists = lists
        """The ids of the ``tools/list`` requests Claude Code answers a notification with."""
        self.late = late
        """Ids of ``tools/list`` requests listed earlier whose answers are written now."""
        self.fails = fails
        self.sent: list[dict[str, Any]] = []
        self.handled: list[dict[str, Any]] = []

    async def _send_control_request(self, request: dict[str, Any]) -> dict[str, Any]:
        self.sent.append(request)
        if self.fails:
            raise RuntimeError("Control request timeout: mcp_message")
        for request_id in self.lists:
            await self.server._list(context(request_id), None)
        for request_id in (*self.late, *self.lists):
            message = {"jsonrpc": "2.0", "id": request_id, "method": "tools/list"}
            await self._handle_control_request(
                {"request": {"subtype": "mcp_message", "message": message}}
            )
        return {}

    async def _handle_control_request(self, request: dict[str, Any]) -> None:
        self.handled.append(request)


def listed(server: ToolServer) -> list[str]:
    result = anyio.run(server._list, context(1), None)
    return [tool.name for tool in result.tools]


def test_the_tools_are_listed_with_their_schemas_and_inline_results() -> None:
    server = ToolServer((BUILD,), answer)
    result = anyio.run(server._list, context(1), None)

    assert [tool.model_dump(by_alias=True, exclude_none=True) for tool in result.tools] == [
        {
            "name": "build",
            "description": "Build a target.",
            "inputSchema": {
                "type": "object",
                "properties": {"name": {"type": "string"}},
                "required": ["name"],
                "additionalProperties": False,
            },
            "_meta": {"anthropic/maxResultSizeChars": 1_000_000},
        }
    ]
    options = server.config["instance"].create_initialization_options()
    assert options.capabilities.tools is not None
    assert options.capabilities.tools.list_changed is True


@pytest.mark.parametrize(
    ("name", "arguments", "text", "is_error"),
    [
        ("build", {"name": "app"}, "build {'name': 'app'}", False),
        ("build", {}, "Input validation error: 'name' is a required property", True),
        ("deploy", {"name": "app"}, "Tool 'deploy' not found", True),
    ],
    ids=["a call", "arguments that break the schema", "a tool not on offer"],
)
def test_a_call_is_checked_against_the_schema_before_it_runs(
    name: str, arguments: dict[str, Any], text: str, is_error: bool
) -> None:
    server = ToolServer((BUILD,), answer)
    params = CallToolRequestParams(name=name, arguments=arguments)
    result = anyio.run(server._run, context(2), params)

    assert [block.model_dump(by_alias=True, exclude_none=True) for block in result.content] == [
        {"type": "text", "text": text}
    ]
    assert result.is_error is is_error


def test_new_tools_are_announced_until_claude_code_has_been_answered_the_new_list() -> None:
    server = ToolServer((BUILD,), answer)
    query = Query(server, lists=(7,))
    client = SimpleNamespace(_query=query)

    server.offer((BUILD, DEPLOY))
    assert anyio.run(lambda: server.announce(client, within=5)) is True
    assert listed(server) == ["build", "deploy"]
    assert query.sent == [
        {
            "subtype": "mcp_message",
            "server_name": "wink",
            "message": {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"},
        }
    ]
    # A second announcement watches the same answers; a list nobody waits for changes nothing.
    query.lists = (9, 8)
    server.offer((DEPLOY,))
    assert anyio.run(lambda: server.announce(client, within=5)) is True
    assert [r["request"]["message"]["id"] for r in query.handled] == [7, 9, 8]


def test_a_list_answered_after_the_change_but_listed_before_it_does_not_count(
    caplog: pytest.LogCaptureFixture,
) -> None:
    server = ToolServer((BUILD,), answer)
    anyio.run(server._list, context(4), None)
    query = Query(server, late=(4,))
    client = SimpleNamespace(_query=query)
    caplog.set_level(logging.WARNING, LOGGER)

    server.offer((BUILD, DEPLOY))
    assert anyio.run(lambda: server.announce(client, within=0.2)) is False
    assert [r["request"]["message"]["id"] for r in query.handled] == [4]
    assert [(r.name, r.getMessage()) for r in caplog.records] == [
        (LOGGER, "Claude Code did not list the new tools within 0.2 s.")
    ]


@pytest.mark.parametrize(
    ("client", "warning"),
    [
        (SimpleNamespace(), "This claude-agent-sdk cannot tell Claude Code about new tools."),
        (
            SimpleNamespace(_query=Query(ToolServer((), answer), fails=True)),
            "Claude Code was not told about new tools: Control request timeout: mcp_message",
        ),
        (
            SimpleNamespace(_query=Query(ToolServer((), answer))),
            "Claude Code did not list the new tools within 0.1 s.",
        ),
    ],
    ids=["an SDK without the control protocol", "a refused notification", "no listing"],
)
def test_an_announcement_that_cannot_finish_asks_for_a_restart(
    client: object, warning: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, LOGGER)
    server = ToolServer((BUILD,), answer)
    server.offer((BUILD, DEPLOY))

    assert anyio.run(lambda: server.announce(client, within=0.1)) is False
    assert [(r.name, r.levelname, r.getMessage()) for r in caplog.records] == [
        (LOGGER, "WARNING", warning)
    ]
