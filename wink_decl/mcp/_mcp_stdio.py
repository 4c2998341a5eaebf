"""Serving over stdio, and the watch that tells clients when the prompt files change."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, TypeVar

import anyio
import anyio.to_thread
import mcp_types as types
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from watchfiles import (
    awatch,  # pyright: ignore[reportUnknownVariableType]  # trio's Event in a union
)

if TYPE_CHECKING:
    from collections.abc import AsyncIterator
    from pathlib import Path

    from wink_decl.mcp._mcp_server import McpServer

__all__ = ["PARSE_ERROR_MESSAGE", "serve_stdio", "watch_prompts"]

_DEBOUNCE_MS = 50
"""watchfiles waits this long for more changes before it reports them (its default is 1.6 s)."""
_T_contra = TypeVar("_T_contra", contravariant=True)
_T_co = TypeVar("_T_co", covariant=True)


class _Receiver(Protocol[_T_co]):
    """The receiving end of a stream, whichever kind the SDK made."""

    def __aiter__(self) -> AsyncIterator[_T_co]:
        """The items, until the sending end closes."""
        ...

    async def aclose(self) -> None:
        """Close this end."""
        ...


class _Sender(Protocol[_T_contra]):
    """The sending end of a stream, whichever kind the SDK made."""

    async def send(self, item: _T_contra, /) -> None:
        """Send one item."""
        ...

    async def aclose(self) -> None:
        """Close this end."""
        ...


PARSE_ERROR_MESSAGE = "Parse error: a line that is not a JSON-RPC 2.0 message was ignored"


async def serve_stdio(server: McpServer, watched: list[Path]) -> None:
    """Serve one client on stdin and stdout until it closes stdin; logs go to stderr."""
    async with stdio_server() as (read_stream, write_stream), anyio.create_task_group() as tasks:
        relayed_send, relayed = anyio.create_memory_object_stream[SessionMessage | Exception]()
        tasks.start_soon(_answer_parse_errors, read_stream, relayed_send, write_stream)
        stop = anyio.Event()
        tasks.start_soon(watch_prompts, server, watched, stop)
        await server.server.run(relayed, write_stream, server.initialization_options())
        server.close()
        stop.set()  # the watch's thread ends at its next step, not after its 5 s timeout
        tasks.cancel_scope.cancel()


async def _answer_parse_errors(
    read_stream: _Receiver[SessionMessage | Exception],
    relay: _Sender[SessionMessage | Exception],
    write_stream: _Sender[SessionMessage],
) -> None:
    """Pass every message on; answer a line that is not one with -32700, as JSON-RPC asks.

    The SDK's stdio transport drops such a line without a word, and the client waits.
    """
    try:
        async for item in read_stream:
            if not isinstance(item, Exception):
                await relay.send(item)
                continue
            error = types.ErrorData(code=types.PARSE_ERROR, message=PARSE_ERROR_MESSAGE)
            answer = types.JSONRPCError(jsonrpc="2.0", id=None, error=error)
            await write_stream.send(SessionMessage(answer))
    finally:
        await relay.aclose()
        await read_stream.aclose()


async def watch_prompts(server: McpServer, watched: list[Path], stop: anyio.Event) -> None:
    """Compile again after each batch of changes, until ``stop``; tell clients of a new list."""
    async for _changes in awatch(*watched, debounce=_DEBOUNCE_MS, stop_event=stop):
        if await anyio.to_thread.run_sync(server.prompts.catalog.refresh):
            await server.prompts_changed()
