"""Serving over streamable HTTP: only this server's own address, and a token when asked.

A page of another site can reach a server on this machine through DNS rebinding (its own name
made to point here): the ``Host`` and ``Origin`` headers give it away, and the SDK refuses both
unless they name this server. Another machine is served only with ``--token``: every request
must then carry ``Authorization: Bearer TOKEN``, compared in constant time.
"""

from __future__ import annotations

import hmac
import socket
from typing import TYPE_CHECKING, TextIO

import anyio
import uvicorn
from mcp.server.transport_security import TransportSecuritySettings
from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse

from wink_decl.mcp._mcp_stdio import watch_prompts

if TYPE_CHECKING:
    from pathlib import Path

    from starlette.types import ASGIApp, Receive, Scope, Send

    from wink_decl.mcp._mcp_server import McpServer

__all__ = ["BearerOnly", "http_app", "serve_http"]

_LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})
"""Names of this machine only: each reaches a server listening on any of them."""
_EVERY_ADDRESS = frozenset({"0.0.0.0", "::"})  # noqa: S104  # compared with, never bound here
PATH = "/mcp"
_GRACE_SECONDS = 1
"""How long a stopping server waits for open requests (a listen stream never ends itself)."""


class BearerOnly:
    """ASGI middleware: an HTTP request without ``Authorization: Bearer TOKEN`` gets a 401."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        """Guard ``app`` with ``token``."""
        self.app = app
        self._expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse a request whose token is missing or wrong; pass every other scope on."""
        if scope["type"] == "http":
            given = Headers(scope=scope).get("authorization", "").encode()
            if not hmac.compare_digest(given, self._expected):
                refused = PlainTextResponse(
                    "refused: this server needs Authorization: Bearer TOKEN (--token)\n",
                    status_code=401,
                    headers={"WWW-Authenticate": "Bearer"},
                )
                await refused(scope, receive, send)
                return
        await self.app(scope, receive, send)


IDLE_SECONDS = 300.0
"""A handshake session nobody used for this long ends, and its state with it: a client that
vanished without closing its session (no DELETE) leaves nothing behind for long."""
MAX_SESSIONS = 100
"""How many handshake sessions may be open at once. One more is refused (HTTP 503, the SDK's
JSON-RPC error "Too many open sessions") until one ends or expires: a client that opens sessions
in a loop cannot grow the server's memory without bound, and cannot end the sessions of others,
as evicting the least recently used one would let it do (docs/mcp.md, "Sessions")."""


def http_app(
    server: McpServer,
    host: str,
    port: int,
    token: str | None,
    *,
    idle: float = IDLE_SECONDS,
    sessions: int = MAX_SESSIONS,
) -> ASGIApp:
    """The streamable-HTTP app at ``/mcp``, answering only requests that name this server.

    ``idle``: how long an unused handshake session is kept; ``sessions``: how many may be open.
    """
    names: set[str] = {host.lower()}
    if host.lower() in _LOOPBACK:
        names |= _LOOPBACK
    shown = sorted(f"[{name}]" if ":" in name else name for name in names)
    security = TransportSecuritySettings(
        # On every address, any name of the machine may be used: the token (which --http
        # demands there) is what a rebinding page cannot have.
        enable_dns_rebinding_protection=host not in _EVERY_ADDRESS,
        allowed_hosts=[f"{name}:{port}" for name in shown],
        allowed_origins=[f"http://{name}:{port}" for name in shown],
    )
    app: ASGIApp = server.server.streamable_http_app(
        streamable_http_path=PATH,
        transport_security=security,
        host=host,
        session_idle_timeout=idle,
        max_sessions=sessions,
    )
    return app if token is None else BearerOnly(app, token)


async def serve_http(
    server: McpServer,
    sock: socket.socket,
    where: tuple[str, str | None],
    watched: list[Path],
    out: TextIO,
    idle: float = IDLE_SECONDS,
    sessions: int = MAX_SESSIONS,
) -> None:
    """Print the address as the first line on ``out``, then serve on ``sock`` until stopped.

    ``where``: the host ``sock`` was bound for (``--http``) and the token, if any; ``idle``:
    how long an unused handshake session is kept; ``sessions``: how many may be open at once.
    """
    host, token = where
    port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    config = uvicorn.Config(
        http_app(server, host, port, token, idle=idle, sessions=sessions),
        log_level="warning",
        timeout_graceful_shutdown=_GRACE_SECONDS,
    )
    try:
        async with anyio.create_task_group() as tasks:
            stop = anyio.Event()
            await tasks.start(watch_prompts, server, watched, stop)
            # The address only once the files are watched: a folder that cannot be is the
            # only thing said.
            out.write(f"http://{shown}:{port}{PATH}\n")
            out.flush()
            try:
                await uvicorn.Server(config).serve(sockets=[sock])
            finally:
                server.close()
                stop.set()
    finally:
        sock.close()
