"""The prompt's tools, served to Claude Code from this process over MCP; the list may grow.

docs/adapters/claude-agent.md ("Tools revealed mid-conversation") says why ``announce`` waits for
Claude Code to list the tools again, and what was measured before relying on it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, TypedDict, cast

import anyio
import jsonschema
from claude_agent_sdk.types import McpSdkServerConfig
from mcp.server import Server
from mcp.server.lowlevel.server import NotificationOptions
from mcp.types import (
    CallToolRequestParams,
    CallToolResult,
    ListToolsResult,
    PaginatedRequestParams,
    TextContent,
    Tool,
)

from wink_decl._loggers import package_logger
from wink_decl.prompt.tool_schema import to_anthropic_tools

if TYPE_CHECKING:
    from mcp.server.context import ServerRequestContext
    from mcp.server.models import InitializationOptions
    from mcp.types import RequestId

    from wink_decl.prompt.tool import Tool as PromptTool

__all__ = ["MCP_SERVER", "TOOL_PREFIX", "ToolAnswer", "ToolCaller", "ToolServer"]

MCP_SERVER = "wink"
TOOL_PREFIX = f"mcp__{MCP_SERVER}__"
"""How Claude Code names the prompt's tools to the model."""

_INLINE_RESULT_CHARS = 1_000_000
"""Longer results Claude Code would save to a file and tell the model to Read, a tool it lacks."""

_LIST_CHANGED = {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}

_QUERY, _SEND, _HANDLE = "_query", "_send_control_request", "_handle_control_request"
"""The SDK's private control-protocol object on ``ClaudeSDKClient``, how it sends a request to
Claude Code and how it answers one: no public call sends an MCP notification of an in-process
server to Claude Code (the SDK drops them), and none says when an answer has been written."""


class ToolText(TypedDict):
    """A text item of a tool's answer."""

    type: Literal["text"]
    text: str


class ToolAnswer(TypedDict):
    """A tool call's answer in the MCP handler's terms."""

    content: list[ToolText]
    is_error: bool


ToolCaller: TypeAlias = Callable[[str, dict[str, object]], Awaitable[ToolAnswer]]
"""Runs one call of the named tool and answers in the MCP handler's terms."""

logger = package_logger("adapters.claude_agent")


class _ListChangingServer(Server[object]):
    """An MCP server that tells its client that its tool list may change."""

    def create_initialization_options(
        self,
        notification_options: NotificationOptions | None = None,
        experimental_capabilities: dict[str, dict[str, Any]] | None = None,
        extensions: dict[str, dict[str, Any]] | None = None,
    ) -> InitializationOptions:
        options = notification_options or NotificationOptions(tools_changed=True)
        return super().create_initialization_options(options, experimental_capabilities, extensions)


class ToolServer:
    """The tools on offer as an in-process MCP server named ``wink``, each call handled by ``call``.

    Calls are checked against the tool's JSON Schema first, as the SDK's own servers do. After
    ``offer`` changes the list, ``announce`` tells Claude Code and waits until it has been
    answered the new list.
    """

    def __init__(self, tools: tuple[PromptTool[Any, Any], ...], call: ToolCaller) -> None:
        """Serve ``tools``; nothing runs until Claude Code connects."""
        self._call = call
        self._tools: dict[str, Tool] = {}
        self._generation = 0
        self._served: dict[RequestId | None, int] = {}
        """Which generation of the list each ``tools/list`` request was answered with."""
        self._waiting: dict[int, anyio.Event] = {}
        """By generation: set once Claude Code has been answered that list."""
        self._watching: object = None
        """The SDK's control-protocol object whose answers are watched (one per client)."""
        self.offer(tools)
        self.config = McpSdkServerConfig(
            type="sdk",
            name=MCP_SERVER,
            instance=_ListChangingServer(
                MCP_SERVER, version="1", on_list_tools=self._list, on_call_tool=self._run
            ),
        )

    def offer(self, tools: tuple[PromptTool[Any, Any], ...]) -> None:
        """Serve ``tools`` from now on (Claude Code learns it from ``announce``)."""
        self._tools = {
            tool.name: Tool.model_validate(
                {
                    "name": tool.name,
                    "description": tool.description,
                    "inputSchema": spec["input_schema"],
                    "_meta": {"anthropic/maxResultSizeChars": _INLINE_RESULT_CHARS},
                }
            )
            for tool, spec in zip(tools, to_anthropic_tools(tools), strict=True)
        }
        self._generation += 1

    async def announce(self, client: object, *, within: float) -> bool:
        """Tell Claude Code the tools changed; True once it has been answered the new list.

        False when that did not happen within ``within`` seconds or cannot be done with this
        SDK (the conversation must then restart to offer the new tools).
        """
        query = getattr(client, _QUERY, None)
        send = getattr(query, _SEND, None)
        handle = getattr(query, _HANDLE, None)
        if send is None or handle is None:
            logger.warning("This claude-agent-sdk cannot tell Claude Code about new tools.")
            return False
        if self._watching is not query:
            setattr(query, _HANDLE, self._watched(handle))
            self._watching = query
        listed = self._waiting[self._generation] = anyio.Event()
        request: dict[str, object] = {
            "subtype": "mcp_message",
            "server_name": MCP_SERVER,
            "message": _LIST_CHANGED,
        }
        try:
            with anyio.move_on_after(within):
                await cast("Callable[[dict[str, object]], Awaitable[object]]", send)(request)
                await listed.wait()
                return True
        except Exception as error:  # noqa: BLE001  # any failure to announce means a restart
            logger.warning("Claude Code was not told about new tools: %s", error)
            return False
        logger.warning("Claude Code did not list the new tools within %.1f s.", within)
        return False

    def _watched(
        self, handle: Callable[[dict[str, object]], Awaitable[None]]
    ) -> Callable[[dict[str, object]], Awaitable[None]]:
        """``handle``, noting when an answer to ``tools/list`` has been written to Claude Code."""

        async def watched(request: dict[str, object]) -> None:
            await handle(request)
            request_id = _tools_list_id(request)
            if request_id is not None:
                listed = self._waiting.get(self._served.pop(request_id, 0))
                if listed is not None:
                    listed.set()

        return watched

    async def _list(
        self,
        context: ServerRequestContext[object],
        params: PaginatedRequestParams | None,  # noqa: ARG002  # the handler's signature
    ) -> ListToolsResult:
        self._served[context.request_id] = self._generation
        return ListToolsResult(tools=list(self._tools.values()))

    async def _run(
        self,
        context: ServerRequestContext[object],  # noqa: ARG002  # the handler's signature
        params: CallToolRequestParams,
    ) -> CallToolResult:
        tool = self._tools.get(params.name)
        if tool is None:
            return _error(f"Tool '{params.name}' not found")
        arguments = dict(params.arguments or {})
        try:
            jsonschema.validate(instance=arguments, schema=tool.input_schema)
        except jsonschema.ValidationError as error:
            return _error(f"Input validation error: {error.message}")
        answer = await self._call(params.name, arguments)
        return CallToolResult(
            content=[TextContent(type="text", text=item["text"]) for item in answer["content"]],
            is_error=bool(answer["is_error"]),
        )


def _tools_list_id(request: dict[str, object]) -> RequestId | None:
    """The JSON-RPC id of the ``tools/list`` request a control request carried, if it did."""
    carried = cast("dict[str, object]", request.get("request") or {})
    message = cast("dict[str, object]", carried.get("message") or {})
    if message.get("method") != "tools/list":
        return None
    return cast("RequestId", message.get("id"))


def _error(text: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)
