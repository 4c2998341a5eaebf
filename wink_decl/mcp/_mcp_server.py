"""The MCP server: prompts, ``--agent``'s tools, change notifications, in both protocol eras.

Clients of the initialize handshake keep a connection, and what one has read with
``read_section`` lives on it (it goes when the connection goes). Clients of the stateless
2026-07-28 protocol have no connection between requests: over stdio (one process, one client)
their state is the server's own; over HTTP nothing in a request tells one client from another,
so each request gets a fresh state (docs/mcp.md, "Sessions"). They hear of changes only
through ``subscriptions/listen``, so every change is published there too.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any, TypeAlias

import mcp_types as types
from mcp.server.lowlevel.server import NotificationOptions, Server
from mcp.server.subscriptions import (
    InMemorySubscriptionBus,
    ListenHandler,
    PromptsListChanged,
    ToolsListChanged,
)
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from wink_decl._loggers import package_logger
from wink_decl.mcp._mcp_hold import HOLD_SECONDS, AnswersNoted, ListingHold
from wink_decl.version import __version__

if TYPE_CHECKING:
    from mcp.server.connection import Connection
    from mcp.server.context import ServerRequestContext
    from mcp.server.models import InitializationOptions
    from mcp.shared._stream_protocols import ReadStream, WriteStream
    from mcp.shared.message import SessionMessage

    from wink_decl.mcp._mcp_agent import Agent, AgentSession
    from wink_decl.mcp._mcp_prompts import PromptServing

__all__ = ["McpServer"]

logger = package_logger("mcp")

_Context: TypeAlias = "ServerRequestContext[dict[str, Any], object]"
"""A request's context. Its lifespan value is the SDK's default lifespan's, which the SDK
types ``dict[str, Any]`` (nothing here reads it); its transport request is only tested
against None."""

_STATE_KEY = "wink-decl.agent"
"""Where a handshake connection keeps its ``AgentSession`` (``Connection.state``)."""


class McpServer:
    """One server: the prompt catalog, the ``--agent`` tools, and who hears of changes."""

    def __init__(
        self, prompts: PromptServing, agent: Agent | None, *, hold: float = HOLD_SECONDS
    ) -> None:
        """Build the SDK's server with a handler for each method served.

        ``hold``: how long a stateless call that revealed tools waits at most for the client's
        next ``tools/list`` to be answered before its result goes (``ListingHold``).
        """
        self.prompts = prompts
        self.agent = agent
        self.bus = InMemorySubscriptionBus()
        self.listen = ListenHandler(self.bus)
        self._connections: weakref.WeakSet[Connection] = weakref.WeakSet()
        """Handshake connections seen: told when the prompts change."""
        self._stateless: AgentSession | None = None
        """The state of the stateless protocol's requests over stdio (made on first use)."""
        self.hold = ListingHold(hold)
        self._tool_listeners = 0
        """Open listen streams that asked for ``tools/list_changed``: who may list again."""
        tools = agent is not None
        self.server: Server[dict[str, Any]] = Server(
            "wink-decl",
            version=__version__,
            on_list_prompts=self._list_prompts,
            on_get_prompt=self._get_prompt,
            on_completion=self._complete,
            on_subscriptions_listen=self._listen,
            on_list_tools=self._list_tools if tools else None,
            on_call_tool=self._call_tool if tools else None,
        )
        self.server.middleware.clear()  # no tracing spans: nothing here exports them

    def initialization_options(self) -> InitializationOptions:
        """What the handshake announces: list changes of prompts (and tools) are sent."""
        changes = NotificationOptions(prompts_changed=True, tools_changed=self.agent is not None)
        return self.server.create_initialization_options(changes)

    async def prompts_changed(self) -> None:
        """Tell every client that the prompts changed, in its era's way."""
        await self.bus.publish(PromptsListChanged())
        for connection in list(self._connections):
            try:
                await connection.send_prompt_list_changed()
            except Exception:  # noqa: BLE001  # a client gone meanwhile misses nothing more
                logger.debug("a client could not be told the prompts changed", exc_info=True)

    async def run(
        self, read: ReadStream[SessionMessage | Exception], write: WriteStream[SessionMessage]
    ) -> None:
        """Serve the client of one pair of streams (stdio's) until it closes its side."""
        noted = AnswersNoted(write, self.hold.written)
        await self.server.run(read, noted, self.initialization_options())

    def close(self) -> None:
        """End every ``subscriptions/listen`` stream (the server is stopping)."""
        self.listen.close()

    # -- the handlers ------------------------------------------------------------------------

    async def _list_prompts(
        self, ctx: _Context, _params: types.PaginatedRequestParams | None
    ) -> types.ListPromptsResult:
        self._seen(ctx)
        return self.prompts.listing()

    async def _get_prompt(
        self, ctx: _Context, params: types.GetPromptRequestParams
    ) -> types.GetPromptResult:
        self._seen(ctx)
        return self.prompts.get(params.name, params.arguments)

    async def _complete(
        self, ctx: _Context, params: types.CompleteRequestParams
    ) -> types.CompleteResult:
        self._seen(ctx)
        ref = params.ref
        name = ref.name if isinstance(ref, types.PromptReference) else ""
        return self.prompts.complete(name, params.argument.name, params.argument.value)

    async def _list_tools(
        self, ctx: _Context, _params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        listing = self._agent_session(ctx).listing()
        self.hold.listing(ctx.request_id)
        return listing

    async def _listen(
        self,
        ctx: _Context,
        params: types.SubscriptionsListenRequestParams,
    ) -> types.SubscriptionsListenResult:
        tools = 1 if params.notifications.tools_list_changed else 0
        self._tool_listeners += tools
        try:
            return await self.listen(ctx, params)
        finally:
            self._tool_listeners -= tools

    async def _call_tool(
        self, ctx: _Context, params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        session = self._agent_session(ctx)
        result, changed = await session.call(params.name, params.arguments or {})
        if changed:
            await self._tools_changed(ctx)
        return result

    # -- clients -----------------------------------------------------------------------------

    def _seen(self, ctx: _Context) -> Connection | None:
        """The request's handshake connection (remembered, to be told of changes), or None."""
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            return None
        connection = _connection_of(ctx)
        self._connections.add(connection)
        return connection

    def _agent_session(self, ctx: _Context) -> AgentSession:
        agent = self.agent
        if agent is None:
            raise AssertionError("unreachable: the tools methods are served only with an agent")
        connection = self._seen(ctx)
        if connection is None:
            if _over_http(ctx):  # no way to tell its client from others: nothing is kept
                return agent.session()
            if self._stateless is None:
                self._stateless = agent.session()
            return self._stateless
        state = connection.state
        session: AgentSession | None = state.get(_STATE_KEY)
        if session is None:
            session = state[_STATE_KEY] = agent.session()
        return session

    async def _tools_changed(self, ctx: _Context) -> None:
        """After a call changed the tools on offer: tell the client that made it."""
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            if _over_http(ctx):  # its state went with the request: nothing changed for anyone
                return
            await self.bus.publish(ToolsListChanged())
            if self._tool_listeners:  # the client lists again: the result waits for that
                await self.hold.hold()
            return
        # On the call's own stream: over HTTP it reaches the client without a GET stream.
        await ctx.session.send_notification(
            types.ToolListChangedNotification(), related_request_id=ctx.request_id
        )


def _over_http(ctx: _Context) -> bool:
    """Whether a stateless request came over HTTP (its Starlette request is on it)."""
    return ctx.request is not None


def _connection_of(ctx: _Context) -> Connection:
    """The connection a handshake-era request came on (the SDK keeps it on the session)."""
    connection: Connection = getattr(ctx.session, "_connection")  # noqa: B009  # no public way
    return connection
