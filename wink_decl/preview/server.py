"""Serving the preview: bind the socket, say where, run uvicorn until interrupted."""

from __future__ import annotations

import socket
import webbrowser
from typing import TextIO

import uvicorn

from wink_decl.preview.app import create_app
from wink_decl.preview.files import PromptFolder

__all__ = ["address", "listen", "serve"]

_GRACE_SECONDS = 1
"""Open pages keep their change stream open: on shutdown it is cut after this long."""


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``; port 0 lets the system pick a free one.

    It listens before the address is printed, so a client that reads the address and
    connects at once waits in the backlog instead of being refused.
    """
    family, kind, protocol, _, where = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, protocol)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(where)
    sock.listen()
    return sock


def address(sock: socket.socket) -> str:
    """The page's URL on ``sock``."""
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def serve(
    folder: PromptFolder,
    host: str,
    port: int,
    out: TextIO,
    *,
    open_page: bool,
) -> None:
    """Print the address as the first line on ``out``, then serve until interrupted."""
    sock = listen(host, port)
    url = address(sock)
    out.write(url + "\n")
    out.flush()
    if open_page:
        webbrowser.open(url)
    config = uvicorn.Config(
        create_app(folder),
        log_level="warning",
        timeout_graceful_shutdown=_GRACE_SECONDS,
    )
    uvicorn.Server(config).run(sockets=[sock])
