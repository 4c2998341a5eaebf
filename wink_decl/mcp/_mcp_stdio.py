"""Serving over stdio, and the watch that tells clients when the prompt files change."""

from __future__ import annotations

import contextlib
import contextvars
import subprocess
import sys
from typing import TYPE_CHECKING, Protocol, Self, TypeVar

import anyio
import anyio.abc
import anyio.to_thread
import mcp_types as types
from anyio.streams.text import TextReceiveStream
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage

from wink_decl.errors import InputError
from wink_decl.mcp._mcp_closing import ClosesOnExit

if TYPE_CHECKING:
    from pathlib import Path

    from mcp.shared._stream_protocols import ReadStream

    from wink_decl.mcp._mcp_server import McpServer

__all__ = ["PARSE_ERROR_MESSAGE", "ParseErrorsAnswered", "serve_stdio", "watch_prompts"]

_T_contra = TypeVar("_T_contra", contravariant=True)


class _Sender(Protocol[_T_contra]):
    """The sending end of a stream, whichever kind the SDK made."""

    async def send(self, item: _T_contra, /) -> None:
        """Send one item."""
        ...


PARSE_ERROR_MESSAGE = "Parse error: a line that is not a JSON-RPC 2.0 message was ignored"


async def serve_stdio(server: McpServer, watched: list[Path]) -> None:
    """Serve one client on stdin and stdout until it closes stdin; logs go to stderr."""
    async with anyio.create_task_group() as tasks:
        stop = anyio.Event()
        # Watching first: a folder that cannot be watched ends it before stdio is taken.
        await tasks.start(watch_prompts, server, watched, stop)
        async with stdio_server() as (read_stream, write_stream):
            answering = ParseErrorsAnswered(read_stream, write_stream)
            await server.run(answering, write_stream)
        server.close()
        stop.set()
        tasks.cancel_scope.cancel()


class ParseErrorsAnswered(ClosesOnExit):
    """The SDK's read stream, answering a line that is not a message with -32700.

    The SDK's stdio transport drops such a line without a word, and the client waits: JSON-RPC
    asks for a parse error with a null id. Messages pass on as they come, in this task (a relay
    task would add two task switches to every request).
    """

    def __init__(
        self, inner: ReadStream[SessionMessage | Exception], write: _Sender[SessionMessage]
    ) -> None:
        """Read from ``inner``; answer on ``write``."""
        self._inner = inner
        self._write = write

    @property
    def last_context(self) -> contextvars.Context | None:
        """The sender's context of the last message, as the SDK's own streams give it."""
        context: contextvars.Context | None = getattr(self._inner, "last_context", None)
        return context

    async def receive(self) -> SessionMessage | Exception:
        """The next message; a line that is not one is answered and passed over."""
        while True:
            item = await self._inner.receive()
            if not isinstance(item, Exception):
                return item
            error = types.ErrorData(code=types.PARSE_ERROR, message=PARSE_ERROR_MESSAGE)
            answer = types.JSONRPCError(jsonrpc="2.0", id=None, error=error)
            await self._write.send(SessionMessage(answer))

    async def aclose(self) -> None:
        """Close the SDK's stream."""
        await self._inner.aclose()

    def __aiter__(self) -> Self:
        """Messages until the client closes stdin."""
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        """The next message; the end of stdin ends the iteration."""
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None


_WATCHER = """\
import os, sys, threading
from watchfiles._rust_notify import RustNotify
threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
try:
    notify = RustNotify(sys.argv[1:], False, False, 300, True, False)
except OSError as error:
    print(error, flush=True)
    raise SystemExit(1) from None
with notify:
    print("ready", flush=True)
    while True:
        if notify.watch(50, 50, 0, None) == "signal":
            break
        print("changed", flush=True)
"""
"""The watch, in a child process: one line once it watches, then one per batch of changes.

A folder it cannot watch (gone, or past the system's watch limits) makes it print why instead
of ``ready``, and end.

watchfiles' watcher thread keeps the GIL between its steps, which cost every request of a
server watching in its own process about 2 ms (benchmarks/mcp.py). The child ends when its
stdin closes, so it never outlives the server.
"""


async def watch_prompts(
    server: McpServer,
    watched: list[Path],
    stop: anyio.Event,
    *,
    task_status: anyio.abc.TaskStatus[None] = anyio.TASK_STATUS_IGNORED,
) -> None:
    """Compile again after each batch of changes, until ``stop``; tell clients of a new list.

    Started with ``TaskGroup.start``, it returns once the files are watched; ``InputError``
    when they cannot be.
    """
    command = [sys.executable, "-c", _WATCHER, *(str(path) for path in watched)]
    child = await anyio.open_process(command, stderr=subprocess.DEVNULL)
    try:
        lines = TextReceiveStream(_stdout(child))
        first = await lines.receive()
        if not first.startswith("ready"):  # the child failed, and said why
            said = (first + "".join([rest async for rest in lines])).strip()
            names = ", ".join(f"'{path}'" for path in watched)
            raise InputError(f"cannot watch {names} for changes: {said}")
        task_status.started()  # watching from now on
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(_cancel_on, stop, tasks.cancel_scope)
            async for _batch in lines:
                if await anyio.to_thread.run_sync(server.prompts.catalog.refresh):
                    await server.prompts_changed()
    finally:
        with contextlib.suppress(ProcessLookupError):  # it may have ended, as a failed one does
            child.kill()
        with anyio.CancelScope(shield=True):
            await child.aclose()


def _stdout(child: anyio.abc.Process) -> anyio.abc.ByteReceiveStream:
    stdout = child.stdout
    assert stdout is not None  # noqa: S101  # opened with a pipe for stdout
    return stdout


async def _cancel_on(stop: anyio.Event, scope: anyio.CancelScope) -> None:
    await stop.wait()
    scope.cancel()
