"""Only the preview's own address, and only its own page: real requests to a running preview.

A real ``wink-decl preview --port 0`` runs in a thread (as tests/cli/test_preview_command.py
runs it), and ``http.client`` sends each request with the headers a browser would send, or
another site's page would make it send.
"""

from __future__ import annotations

import contextlib
import http.client
import io
import json
import threading
import time
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest
import uvicorn
from starlette.datastructures import Headers

from wink_decl.cli import _app
from wink_decl.cli._command import Console
from wink_decl.preview.files import PromptFolder
from wink_decl.preview.guard import Refusal, refusal, site
from wink_decl.preview.html import file_list, view_json
from wink_decl.preview.page import PageState, prompt_view

PLAIN = """\
key = "plain"

[[sections]]
key = "only"
title = "Only"
template = "Nothing to fill in."
"""

FOREIGN = "rebound.invalid"
"""A name another site controls and points at this machine (DNS rebinding); never looked up."""

JSON_TYPE = {"Content-Type": "application/json"}
WRONG_HOST = "refused: the Host header is not this preview's address, http://{address}:{port}/"
WRONG_ORIGIN = "refused: the Origin header names another origin"
WRONG_FETCH = "refused: Sec-Fetch-Site says another origin sent the request"
NOT_JSON = "refused: the body must be JSON, sent as Content-Type: application/json"


@contextlib.contextmanager
def running_preview(folder: Path, host: str) -> Iterator[int]:
    """``wink-decl preview FOLDER --host HOST --port 0`` serving in a thread; its port."""
    servers: list[uvicorn.Server] = []
    serve = uvicorn.Server.run

    def recorded(server: uvicorn.Server, sockets: list[object] | None = None) -> None:
        servers.append(server)
        serve(server, sockets=sockets)  # pyright: ignore[reportArgumentType]

    out, err = io.StringIO(), io.StringIO()
    argv = ["preview", str(folder), "--host", host, "--port", "0"]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(uvicorn.Server, "run", recorded)
        thread = threading.Thread(target=_app.run, args=(argv, Console(out, err)))
        thread.start()
        try:
            deadline = time.monotonic() + 20
            while not (servers and servers[0].started) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert (bool(servers), err.getvalue()) == (True, "")
            yield int(out.getvalue().rsplit(":", 1)[1].strip("/\n"))
        finally:
            for server in servers:
                server.should_exit = True
            thread.join(20)
    assert not thread.is_alive()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    served = tmp_path_factory.mktemp("prompts")
    (served / "plain.wink.toml").write_text(PLAIN)
    return served


@pytest.fixture(scope="module")
def port(folder: Path) -> Iterator[int]:
    """The port of a preview listening on 127.0.0.1."""
    with running_preview(folder, "127.0.0.1") as listening:
        yield listening


@pytest.fixture(scope="module")
def port6(folder: Path) -> Iterator[int]:
    """The port of a preview listening on ::1."""
    with running_preview(folder, "::1") as listening:
        yield listening


def ask(
    port: int,
    method: str,
    path: str,
    headers: dict[str, str],
    body: bytes | None = None,
    *,
    address: str = "127.0.0.1",
) -> tuple[int, str, str]:
    """Send one request with exactly these headers (Host included); status, type and body."""
    connection = http.client.HTTPConnection(address, port, timeout=10)
    try:
        connection.request(method, path, body, headers)
        answer = connection.getresponse()
        return answer.status, answer.getheader("content-type", ""), answer.read().decode()
    finally:
        connection.close()


def plain(status: int, text: str) -> tuple[int, str, str]:
    return status, "text/plain; charset=utf-8", text


def rendered(folder: Path) -> str:
    """What the page receives for plain.wink.toml and the empty state."""
    view = prompt_view(PromptFolder(folder, folder), folder / "plain.wink.toml", PageState())
    return json.dumps(view_json(view))


ROUTES = [
    ("GET", "/", None),
    ("GET", "/static/page.js", None),
    ("GET", "/api/files", None),
    ("GET", "/api/events", None),
    ("POST", "/api/prompt?file=plain.wink.toml", b"{}"),
]
ROUTE_IDS = ["page", "static", "files", "events", "prompt"]


@pytest.mark.parametrize(("method", "path", "body"), ROUTES, ids=ROUTE_IDS)
def test_every_route_refuses_a_rebound_name(
    port: int, method: str, path: str, body: bytes | None
) -> None:
    """The page of a rebound name is same-origin for the browser: only the Host tells."""
    headers = {"Host": f"{FOREIGN}:{port}", "Origin": f"http://{FOREIGN}:{port}", **JSON_TYPE}
    assert ask(port, method, path, headers, body) == plain(
        421, WRONG_HOST.format(address="127.0.0.1", port=port)
    )


@pytest.mark.parametrize(
    "host",
    [
        "127.0.0.1",
        "127.0.0.1:{other}",
        "127.0.0.1:0{port}",
        "localhost",
        "localhost.:{port}",
        "127.0.0.2:{port}",
        "[::1]:{port}",
        "{foreign}",
        "",
    ],
    ids=[
        "no-port",
        "other-port",
        "port-spelled-otherwise",
        "localhost-no-port",
        "localhost-dot",
        "other-loopback",
        "ipv6-loopback",
        "foreign-no-port",
        "empty",
    ],
)
def test_a_host_header_that_is_not_the_address_is_refused(port: int, host: str) -> None:
    written = host.format(port=port, other=port + 1, foreign=FOREIGN)
    assert ask(port, "GET", "/api/files", {"Host": written}) == plain(
        421, WRONG_HOST.format(address="127.0.0.1", port=port)
    )


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "LocalHost"])
def test_the_address_and_localhost_are_answered(port: int, folder: Path, host: str) -> None:
    status, kind, body = ask(port, "GET", "/api/files", {"Host": f"{host}:{port}"})
    listing = PromptFolder(folder, folder).listing()
    assert (status, kind) == (200, "application/json")
    assert json.loads(body) == {"html": file_list(listing, None), "version": 0}


@pytest.mark.parametrize(
    "origin",
    [
        "http://{foreign}",
        "http://{foreign}:{port}",
        "http://localhost:{port}",
        "https://127.0.0.1:{port}",
        "http://127.0.0.1:{other}",
        "null",
    ],
    ids=["foreign", "foreign-same-port", "localhost", "https", "other-port", "null"],
)
@pytest.mark.parametrize(("method", "path", "body"), ROUTES[2:], ids=ROUTE_IDS[2:])
def test_the_data_routes_refuse_another_origin(
    port: int, origin: str, method: str, path: str, body: bytes | None
) -> None:
    """``localhost`` is another origin than ``127.0.0.1``, though both are this server."""
    written = origin.format(port=port, other=port + 1, foreign=FOREIGN)
    headers = {"Host": f"127.0.0.1:{port}", "Origin": written, **JSON_TYPE}
    assert ask(port, method, path, headers, body) == plain(403, WRONG_ORIGIN)


@pytest.mark.parametrize("fetch_site", ["cross-site", "same-site"])
@pytest.mark.parametrize(("method", "path", "body"), ROUTES[2:], ids=ROUTE_IDS[2:])
def test_the_data_routes_refuse_a_request_from_another_page(
    port: int, fetch_site: str, method: str, path: str, body: bytes | None
) -> None:
    """``same-site`` too: a page on another port of 127.0.0.1 is same-site."""
    headers = {"Host": f"127.0.0.1:{port}", "Sec-Fetch-Site": fetch_site, **JSON_TYPE}
    assert ask(port, method, path, headers, body) == plain(403, WRONG_FETCH)


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None],
    ids=["text", "form", "multipart", "none"],
)
def test_a_render_needs_a_json_body(port: int, content_type: str | None) -> None:
    """What a cross-site form or a ``fetch`` without CORS can send: refused before the render."""
    headers = {"Host": f"127.0.0.1:{port}", "Origin": f"http://127.0.0.1:{port}"}
    if content_type is not None:
        headers["Content-Type"] = content_type
    path = "/api/prompt?file=plain.wink.toml"
    assert ask(port, "POST", path, headers, b"{}") == plain(415, NOT_JSON)


def test_a_cross_site_form_is_refused(port: int) -> None:
    """A form on another site posting here: its Origin is refused first."""
    headers = {
        "Host": f"127.0.0.1:{port}",
        "Origin": f"http://{FOREIGN}",
        "Sec-Fetch-Site": "cross-site",
        "Content-Type": "text/plain",
    }
    assert ask(port, "POST", "/api/prompt?file=plain.wink.toml", headers, b"{}") == plain(
        403, WRONG_ORIGIN
    )


@pytest.mark.parametrize(
    ("host", "headers"),
    [
        ("127.0.0.1", {"Origin": "http://127.0.0.1:{port}", "Sec-Fetch-Site": "same-origin"}),
        ("localhost", {"Origin": "http://localhost:{port}", "Sec-Fetch-Site": "same-origin"}),
        ("127.0.0.1", {"Content-Type": "application/json; charset=utf-8"}),
        ("127.0.0.1", {"Content-Type": "Application/JSON", "Sec-Fetch-Site": "none"}),
    ],
    ids=["the-page", "the-page-on-localhost", "charset", "case"],
)
def test_the_page_s_own_render_is_answered(
    port: int, folder: Path, host: str, headers: dict[str, str]
) -> None:
    sent = {"Host": f"{host}:{port}", **JSON_TYPE}
    sent.update({name: value.format(port=port) for name, value in headers.items()})
    status, kind, body = ask(port, "POST", "/api/prompt?file=plain.wink.toml", sent, b"{}")
    assert (status, kind, json.loads(body)) == (
        200,
        "application/json",
        json.loads(rendered(folder)),
    )


def test_the_page_itself_opens_from_a_link_on_another_site(port: int) -> None:
    """A navigation carries no data: a link from another site may open the page."""
    headers = {"Host": f"127.0.0.1:{port}", "Sec-Fetch-Site": "cross-site"}
    status, kind, body = ask(port, "GET", "/", headers)
    page = resources.files("wink_decl.preview").joinpath("static", "index.html")
    assert (status, kind, body) == (200, "text/html; charset=utf-8", page.read_text("utf-8"))


def test_the_page_s_own_change_stream_is_answered(port: int) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        headers = {"Host": f"localhost:{port}", "Sec-Fetch-Site": "same-origin"}
        connection.request("GET", "/api/events", headers=headers)
        answer = connection.getresponse()
        first = answer.read(len("retry: 500\ndata: 0\n\n")).decode()
        kind = answer.getheader("content-type")
    finally:
        connection.close()
    assert (answer.status, kind, first) == (
        200,
        "text/event-stream; charset=utf-8",
        "retry: 500\ndata: 0\n\n",
    )


@pytest.mark.parametrize("host", ["[::1]:{port}", "localhost:{port}"], ids=["ipv6", "localhost"])
def test_on_ipv6_loopback_the_address_and_localhost_are_answered(port6: int, host: str) -> None:
    headers = {"Host": host.format(port=port6)}
    status, kind, _ = ask(port6, "GET", "/api/files", headers, address="::1")
    assert (status, kind) == (200, "application/json")


@pytest.mark.parametrize(
    "host",
    ["127.0.0.1:{port}", "[::1]", "::1:{port}", "[::1]:{port}x", "{foreign}:{port}"],
    ids=["ipv4", "no-port", "no-brackets", "after-the-port", "foreign"],
)
def test_on_ipv6_loopback_another_host_is_refused(port6: int, host: str) -> None:
    headers = {"Host": host.format(port=port6, foreign=FOREIGN)}
    assert ask(port6, "GET", "/api/files", headers, address="::1") == plain(
        421, WRONG_HOST.format(address="[::1]", port=port6)
    )


@pytest.mark.parametrize(
    ("named", "bound", "port", "host", "named_by"),
    [
        ("127.0.0.1", "127.0.0.1", 80, "127.0.0.1", True),
        ("127.0.0.1", "127.0.0.1", 80, "127.0.0.1:80", True),
        ("127.0.0.1", "127.0.0.1", 80, "localhost", True),
        ("127.0.0.1", "127.0.0.1", 80, "127.0.0.1:8080", False),
        ("0.0.0.0", "0.0.0.0", 8000, "127.0.0.2:8000", True),  # noqa: S104  # not bound
        ("0.0.0.0", "0.0.0.0", 8000, "[::1]:8000", True),  # noqa: S104  # not bound
        ("0.0.0.0", "0.0.0.0", 8000, "127.0.0.2:8001", False),  # noqa: S104  # not bound
        ("0.0.0.0", "0.0.0.0", 8000, f"{FOREIGN}:8000", False),  # noqa: S104  # not bound
        ("0.0.0.0", "0.0.0.0", 8000, "localhost:8000", True),  # noqa: S104  # not bound
        ("Preview.invalid", "127.0.0.1", 8000, "preview.invalid:8000", True),
        ("Preview.invalid", "127.0.0.1", 8000, "PREVIEW.INVALID:8000", True),
        ("127.0.0.2", "127.0.0.2", 8000, "localhost:8000", False),
    ],
    ids=[
        "port-80-left-out",
        "port-80-written",
        "port-80-localhost",
        "port-80-other-port",
        "every-address-ipv4",
        "every-address-ipv6",
        "every-address-other-port",
        "every-address-a-name",
        "every-address-localhost",
        "the-name-given",
        "the-name-given-in-capitals",
        "localhost-is-127.0.0.1-only",
    ],
)
def test_which_hosts_name_the_site(
    named: str, bound: str, port: int, host: str, named_by: bool
) -> None:
    """Cases a test cannot listen on: port 80, every address, a name given to --host."""
    assert site(named, bound, port).is_named_by(host) is named_by


def test_the_site_s_address_puts_ipv6_in_brackets() -> None:
    assert site("::1", "::1", 8000).url == "http://[::1]:8000/"


def test_a_request_without_a_host_is_refused() -> None:
    """HTTP/1.0 may leave the Host out (the server refuses an HTTP/1.1 request without one)."""
    where = site("127.0.0.1", "127.0.0.1", 8000)
    assert refusal(where, "GET", "/", Headers({})) == Refusal(
        421, WRONG_HOST.format(address="127.0.0.1", port=8000)
    )
