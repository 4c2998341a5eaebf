"""Serving the preview: bind the socket, say where, run uvicorn until interrupted."""

from __future__ import annotations

import socket
import webbrowser
from typing import TextIO

import uvicorn

from wink_decl.preview.app import create_app
from wink_decl.preview.files import PromptFolder
from wink_decl.preview.guard import site

__all__ = ["listen", "serve"]

_GRACE_SECONDS = 1
"""Open pages keep their change stream open: on shutdown it is cut after this long."""


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``; port 0 lets the system pick a free one.

    It listens before the address is printed, so a client that reads the address and
    connects at once waits in the backlog instead of being refused. Raises what
    ``getaddrinfo`` raises for a host it cannot resolve, and ``OSError`` when the address
    cannot be bound (a busy port); no socket is left open then.
    """
    family, kind, protocol, _, where = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, protocol)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(where)
        sock.listen()
    except OSError:
        sock.close()
        raise
    return sock


def serve(
    folder: PromptFolder,
    sock: socket.socket,
    out: TextIO,
    *,
    host: str,
    open_page: bool,
) -> None:
    """Print the address as the first line on ``out``, then serve on ``sock`` until interrupted.

    ``host`` is the name ``sock`` was bound for (``--host``): requests may name it.
    """
    bound, port = sock.getsockname()[:2]
    where = site(host, bound, port)
    out.write(where.url + "\n")
    out.flush()
    if open_page:
        webbrowser.open(where.url)
    config = uvicorn.Config(
        create_app(folder, where),
        log_level="warning",
        timeout_graceful_shutdown=_GRACE_SECONDS,
    )
    uvicorn.Server(config).run(sockets=[sock])
