"""Which requests the preview answers: those for its own address, from its own page.

Another site's page can reach a server on this machine in two ways (docs/preview.md): through
DNS rebinding, its own name made to point here, which the ``Host`` header gives away; and
through requests the browser lets any page send (a form's POST, a ``fetch`` without CORS),
which carry another ``Origin`` or ``Sec-Fetch-Site`` and cannot carry a JSON body.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["OwnPageOnly", "Refusal", "Site", "refusal", "site"]

_LOOPBACK = frozenset({"127.0.0.1", "::1"})
"""Addresses ``localhost`` reaches: browsers never ask DNS for that name (RFC 6761)."""

_EVERY_ADDRESS = frozenset({"0.0.0.0", "::"})  # noqa: S104  # compared with, never bound here
_OWN_PAGE = frozenset({"same-origin", "none"})
"""``Sec-Fetch-Site`` of the page's own requests, and of an address typed by hand.

``same-site`` is refused too: a page on another port of this machine is same-site.
"""

_JSON = "application/json"
_DEFAULT_PORT = 80


@dataclass(frozen=True, slots=True)
class Site:
    """Where the preview listens, and so which ``Host`` headers name it."""

    url: str
    """The page's address, as printed."""
    names: frozenset[str]
    """Host names that reach it, lower case, IPv6 without brackets.

    The address listened on, the name given to ``--host``, and ``localhost`` when that
    reaches it (a loopback address, or every address): no other site can make one of these
    point here.
    """
    port: int
    every_address: bool
    """Listening on 0.0.0.0 or ::, so any IP address of the machine reaches it.

    An address typed as digits cannot be rebound, so any IP address is taken as a name.
    """

    def is_named_by(self, host: str) -> bool:
        """Whether a ``Host`` header names this site: one of its names and its port.

        The port may be left out only when it is 80, as browsers leave it out: any other
        port is always sent, so a Host without it is a request meant for another server.
        """
        name, port = _name_and_port(host.lower())
        if port != str(self.port) and not (port is None and self.port == _DEFAULT_PORT):
            return False
        return name in self.names or (self.every_address and _is_address(name))


def site(named: str, bound: str, port: int) -> Site:
    """The site of a socket bound to ``bound``:``port``, for ``--host named``."""
    names = {bound, named.lower()}
    if bound in _LOOPBACK | _EVERY_ADDRESS:
        names.add("localhost")
    shown = f"[{bound}]" if ":" in bound else bound
    return Site(f"http://{shown}:{port}/", frozenset(names), port, bound in _EVERY_ADDRESS)


@dataclass(frozen=True, slots=True)
class Refusal:
    """A request the preview does not answer: the status and the reason, in plain text."""

    status: int
    reason: str


def refusal(where: Site, method: str, path: str, headers: Headers) -> Refusal | None:
    """Why the preview refuses a request, or None when it answers it.

    Every route checks the ``Host``. The data routes (``/api/``: files, renders, the change
    stream) also refuse a request another origin's page sent; a POST must be JSON, which
    only a same-origin request (or one allowed by CORS, which the preview never allows) can
    send.
    """
    host = headers.get("host", "")
    if not where.is_named_by(host):
        reason = f"refused: the Host header is not this preview's address, {where.url}"
        return Refusal(421, reason)  # Misdirected Request: not a name this server answers for
    if path.startswith("/api/"):
        origin = headers.get("origin")
        if origin is not None and origin.lower() != f"http://{host.lower()}":
            return Refusal(403, "refused: the Origin header names another origin")
        if headers.get("sec-fetch-site", "none") not in _OWN_PAGE:
            return Refusal(403, "refused: Sec-Fetch-Site says another origin sent the request")
    if method == "POST" and not _is_json(headers.get("content-type", "")):
        return Refusal(415, f"refused: the body must be JSON, sent as Content-Type: {_JSON}")
    return None


class OwnPageOnly:
    """ASGI middleware: every HTTP request passes ``refusal`` before the app sees it.

    Other scopes pass on: the lifespan, and a WebSocket, which no route takes (the change
    stream is server-sent events, plain HTTP), so starlette refuses it.
    """

    def __init__(self, app: ASGIApp, where: Site) -> None:
        """Guard ``app``, served at ``where``."""
        self.app = app
        self.where = where

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer a refused request with its reason; pass every other scope on."""
        if scope["type"] == "http":
            headers = Headers(scope=scope)
            refused = refusal(self.where, scope["method"], scope["path"], headers)
            if refused is not None:
                answer = PlainTextResponse(refused.reason, status_code=refused.status)
                await answer(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _name_and_port(host: str) -> tuple[str, str | None]:
    """A Host header's name (IPv6 without brackets) and its port as written, if any."""
    if host.startswith("["):
        name, _, rest = host[1:].partition("]")
        return name, rest.removeprefix(":") if rest else None
    name, colon, port = host.rpartition(":")
    if not colon or ":" in name:  # no port, or an IPv6 address without brackets (invalid)
        return host, None
    return name, port


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _is_json(content_type: str) -> bool:
    return content_type.partition(";")[0].strip().lower() == _JSON
