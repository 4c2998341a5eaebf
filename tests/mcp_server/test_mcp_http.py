"""The MCP server over streamable HTTP on 127.0.0.1: the SDK's client, many at once, the guards.

The server runs in this process's event loop beside its clients; every wait has a time limit.
"""

from __future__ import annotations

import gc
import io
import os
import signal
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import anyio
import httpx2
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.session import IncomingMessage
from mcp.client.streamable_http import streamable_http_client
from mcp_fixtures import GREET_TEXT, build_server, prompt_folder

from wink_decl.cli import main
from wink_decl.mcp import BearerOnly, McpServer, http_app, serve_http
from wink_decl.preview.server import listen

TIMEOUT = 30.0
TOKEN = "s3cret"  # noqa: S105  # a test's token, never a real one
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"},
    },
}
ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}

Body = Callable[[str, McpServer], Awaitable[None]]


def over_http(
    tmp_path: Path,
    body: Body,
    *,
    token: str | None = None,
    idle: float = 300,
    sessions: int | None = None,
) -> None:
    """Run ``body(url, server)`` against a server of the fixture folder with helper's tools.

    ``sessions``: the cap on open handshake sessions; without it, ``serve_http``'s default.
    """
    cap = () if sessions is None else (sessions,)
    prompts = prompt_folder(tmp_path)
    server, _log = build_server(prompts, tmp_path / "work")

    async def run() -> None:
        sock = listen("127.0.0.1", 0)
        out = io.StringIO()
        with anyio.fail_after(TIMEOUT):
            async with anyio.create_task_group() as tasks:
                where = ("127.0.0.1", token)
                tasks.start_soon(serve_http, server, sock, where, [prompts], out, idle, *cap)
                while not out.getvalue():  # noqa: ASYNC110  # the address is written first
                    await anyio.sleep(0.01)
                await body(out.getvalue().strip(), server)
                tasks.cancel_scope.cancel()

    anyio.run(run)


def names_of(tools: types.ListToolsResult) -> list[str]:
    return [tool.name for tool in tools.tools]


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_the_sdk_client_over_http(tmp_path: Path, mode: str) -> None:
    seen: list[object] = []
    notes: list[str] = []

    async def handle(message: IncomingMessage) -> None:
        if isinstance(message, types.ServerNotification):
            notes.append(message.method)
        await anyio.lowlevel.checkpoint()

    async def body(url: str, _server: McpServer) -> None:
        seen.append(url.endswith("/mcp") and url.startswith("http://127.0.0.1:"))
        async with Client(url, mode=mode, message_handler=handle) as client:
            seen.append([p.name for p in (await client.list_prompts()).prompts])
            result = await client.get_prompt(
                "team/greet", {"who": "Ada", "mood": "glad", "times": "2"}
            )
            content = result.messages[0].content
            assert isinstance(content, types.TextContent)
            seen.append(content.text)
            seen.append(names_of(await client.list_tools()))
            read = await client.call_tool("read_section", {"section_key": "notes"})
            seen.append(read.is_error)
            seen.append(names_of(await client.list_tools()))

    over_http(tmp_path, body)
    summarized = ["list_dir", "read_file", "read_section"]
    # A stateless request over HTTP names no client: what it revealed is not kept for the next.
    after = ["list_dir", "read_file", "write_file"] if mode == "legacy" else summarized
    assert seen == [True, ["agents/helper", "team/greet"], GREET_TEXT, summarized, False, after]
    assert notes == (["notifications/tools/list_changed"] if mode == "legacy" else [])


def test_stateless_clients_over_http_never_see_what_another_revealed(tmp_path: Path) -> None:
    found: list[object] = []

    async def body(url: str, _server: McpServer) -> None:
        async with (
            Client(url, mode="2026-07-28") as first,
            Client(url, mode="2026-07-28") as second,
            first.listen(tools_list_changed=True) as first_events,
            second.listen(tools_list_changed=True) as second_events,
        ):
            read = await first.call_tool("read_section", {"section_key": "notes"})
            found.append(read.content[0])
            found.append(names_of(await second.list_tools()))
            denied = await second.call_tool("write_file", {"path": "b", "text": ""})
            found.append((denied.content[0], denied.is_error))
            found.append(names_of(await first.list_tools()))
            with anyio.move_on_after(0.5):  # nothing changed for anyone: no event comes
                found.extend([event async for event in first_events])
                found.extend([event async for event in second_events])

    over_http(tmp_path, body)
    summarized = ["list_dir", "read_file", "read_section"]
    assert found == [
        types.TextContent(
            text="Content of section 'notes':\n\n## 2. Notes (notes)\n\nWrite notes with care."
        ),
        summarized,
        (
            types.TextContent(
                text="Unknown tool 'write_file'. Did you mean 'read_file'? Available tools: "
                "list_dir, read_file, read_section."
            ),
            True,
        ),
        summarized,
    ]


def test_many_clients_at_once_each_with_a_session_of_its_own(tmp_path: Path) -> None:
    found: dict[int, list[str]] = {}

    async def one(url: str, number: int) -> None:
        async with Client(url, mode="legacy") as client:
            if number % 2:
                await client.call_tool("read_section", {"section_key": "notes"})
            await client.call_tool("list_dir", {"path": "."})
            found[number] = names_of(await client.list_tools())

    async def body(url: str, _server: McpServer) -> None:
        async with anyio.create_task_group() as clients:
            for number in range(8):
                clients.start_soon(one, url, number)

    over_http(tmp_path, body)
    revealed = ["list_dir", "read_file", "write_file"]
    summarized = ["list_dir", "read_file", "read_section"]
    assert found == {n: revealed if n % 2 else summarized for n in range(8)}


def test_a_client_that_vanishes_mid_call_leaves_no_state(tmp_path: Path) -> None:
    seen: list[object] = []

    async def body(url: str, server: McpServer) -> None:
        async with httpx2.AsyncClient() as http:
            opened = await http.post(url, json=INITIALIZE, headers=ACCEPT)
            session = {**ACCEPT, "mcp-session-id": opened.headers["mcp-session-id"]}
            initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
            await http.post(url, json=initialized, headers=session)
            call = {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "tools/call",
                "params": {"name": "read_section", "arguments": {"section_key": "notes"}},
            }
            with anyio.move_on_after(0.001):  # gone before the answer, never to come back
                await http.post(url, json=call, headers=session)
        async with Client(url, mode="legacy") as other:  # the others are served as before
            seen.append(names_of(await other.list_tools()))
        await anyio.sleep(1.5)  # past the idle time: the vanished session ends
        gc.collect()
        seen.append(len(server._connections))  # pyright: ignore[reportPrivateUsage]

    over_http(tmp_path, body, idle=0.5)
    assert seen == [["list_dir", "read_file", "read_section"], 0]


TOO_MANY = (
    503,
    '{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"Too many open sessions"}}',
)
"""The answer to a request that would open one handshake session too many."""


async def open_session(http: httpx2.AsyncClient, url: str) -> tuple[int, str]:
    """POST an ``initialize`` without a session: its status and its session id (or its body)."""
    answer = await http.post(url, json=INITIALIZE, headers=ACCEPT)
    return answer.status_code, answer.headers.get("mcp-session-id", answer.text)


def test_sessions_past_the_cap_are_refused_and_the_open_ones_kept(tmp_path: Path) -> None:
    found: list[object] = []

    async def body(url: str, _server: McpServer) -> None:
        async with httpx2.AsyncClient() as http:
            opened = [await open_session(http, url) for _ in range(2)]
            found.append([status for status, _ in opened])
            found.append(await open_session(http, url))
            kept = {**ACCEPT, "mcp-session-id": opened[0][1]}
            ping = await http.post(
                url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"}, headers=kept
            )
            found.append(ping.status_code)
            async with Client(url, mode="2026-07-28") as stateless:  # no session: served
                found.append([p.name for p in (await stateless.list_prompts()).prompts])
            closed = await http.delete(url, headers={**ACCEPT, "mcp-session-id": opened[1][1]})
            found.append(closed.status_code)
            found.append((await open_session(http, url))[0])  # the room it left is taken
            found.append(await open_session(http, url))

    over_http(tmp_path, body, sessions=2)
    assert found == [
        [200, 200],
        TOO_MANY,
        200,
        ["agents/helper", "team/greet"],
        200,
        200,
        TOO_MANY,
    ]


def test_an_expired_session_makes_room(tmp_path: Path) -> None:
    found: list[object] = []

    async def body(url: str, _server: McpServer) -> None:
        async with httpx2.AsyncClient() as http:
            found.append((await open_session(http, url))[0])
            found.append(await open_session(http, url))
            await anyio.sleep(1.5)  # past the idle time: the session ends, its room is free
            found.append((await open_session(http, url))[0])

    over_http(tmp_path, body, idle=0.5, sessions=1)
    assert found == [200, TOO_MANY, 200]


def test_a_hundred_sessions_by_default(tmp_path: Path) -> None:
    found: list[object] = []

    async def body(url: str, _server: McpServer) -> None:
        async with httpx2.AsyncClient() as http:
            statuses = [(await open_session(http, url))[0] for _ in range(100)]
            found.append(statuses == [200] * 100)
            found.append(await open_session(http, url))

    over_http(tmp_path, body)
    assert found == [True, TOO_MANY]


def test_another_host_or_origin_is_refused(tmp_path: Path) -> None:
    answers: list[tuple[int, str]] = []

    async def body(url: str, _server: McpServer) -> None:
        port = url.split(":")[2].split("/")[0]
        async with httpx2.AsyncClient() as http:
            for extra in (
                {"Origin": "http://localhost:1"},
                {"Origin": "http://127.0.0.2:" + port},
                {"Host": "127.0.0.2:" + port},
            ):
                answer = await http.post(url, json=INITIALIZE, headers={**ACCEPT, **extra})
                answers.append((answer.status_code, answer.text))
            fine = await http.post(
                url, json=INITIALIZE, headers={**ACCEPT, "Origin": f"http://localhost:{port}"}
            )
            answers.append((fine.status_code, ""))

    over_http(tmp_path, body)
    assert answers == [
        (403, "Invalid Origin header"),
        (403, "Invalid Origin header"),
        (421, "Invalid Host header"),
        (200, ""),
    ]


def test_a_token_is_asked_for_and_compared(tmp_path: Path) -> None:
    answers: list[tuple[int, str, str | None]] = []
    names: list[list[str]] = []

    async def body(url: str, _server: McpServer) -> None:
        async with httpx2.AsyncClient() as http:
            for extra in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN}):
                answer = await http.post(url, json=INITIALIZE, headers={**ACCEPT, **extra})
                challenge = answer.headers.get("www-authenticate")
                answers.append((answer.status_code, answer.text, challenge))
        headers = {"Authorization": f"Bearer {TOKEN}"}
        async with (
            httpx2.AsyncClient(headers=headers) as http,
            Client(streamable_http_client(url, http_client=http), mode="legacy") as client,
        ):
            names.append([p.name for p in (await client.list_prompts()).prompts])

    over_http(tmp_path, body, token=TOKEN)
    refused = "refused: this server needs Authorization: Bearer TOKEN (--token)\n"
    assert answers == [(401, refused, "Bearer")] * 3
    assert names == [["agents/helper", "team/greet"]]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--token", "t"],
            "wink-decl: error: --token needs --http\n"
            "  hint: stdio has no tokens: the client starts it\n",
        ),
        (
            ["--http", "0.0.0.0:0"],
            "wink-decl: error: --http 0.0.0.0: serving other machines needs --token\n"
            "  hint: give --token T, and give clients the header Authorization: Bearer T\n",
        ),
        (
            ["--http", "127.0.0.1"],
            "wink-decl: error: argument --http: expected HOST:PORT with a port from 0 to "
            "65535, not '127.0.0.1'\n"
            "  run 'wink-decl mcp --help' for its options\n",
        ),
        (
            ["--http", "[::1]:70000"],
            "wink-decl: error: argument --http: expected HOST:PORT with a port from 0 to "
            "65535, not '[::1]:70000'\n"
            "  run 'wink-decl mcp --help' for its options\n",
        ),
        (
            ["--http", "no-such-host.invalid:0", "--token", "t"],
            "wink-decl: error: --http: no address found for 'no-such-host.invalid'\n",
        ),
    ],
    ids=["token-without-http", "other-machines", "no-port", "big-port", "unknown-host"],
)
def test_http_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    prompts = prompt_folder(tmp_path)
    assert main(["mcp", str(prompts), *args]) == 2
    assert capsys.readouterr().err == message


def test_a_port_in_use_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    prompts = prompt_folder(tmp_path)
    with listen("127.0.0.1", 0) as busy:
        port = busy.getsockname()[1]
        assert main(["mcp", str(prompts), "--http", f"127.0.0.1:{port}"]) == 2
    assert capsys.readouterr().err == (
        f"wink-decl: error: --http: cannot listen on 127.0.0.1:{port}: Address already in use\n"
        "  hint: choose another address, or port 0 for a free one\n"
    )


def test_on_every_address_the_token_guards_and_any_host_name_may_be_used(tmp_path: Path) -> None:
    prompts = prompt_folder(tmp_path)
    server, _log = build_server(prompts)
    app = http_app(server, "0.0.0.0", 8765, TOKEN)  # noqa: S104  # built, never bound
    assert isinstance(app, BearerOnly)
    answers: list[tuple[int, str]] = []

    async def run() -> None:
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://localhost") as http:
            answer = await http.post("/mcp", json=INITIALIZE, headers=ACCEPT)
            answers.append((answer.status_code, answer.text))

    anyio.run(run)
    assert answers == [(401, "refused: this server needs Authorization: Bearer TOKEN (--token)\n")]


@pytest.mark.usefixtures("interruptible")
def test_the_command_serves_http_until_interrupted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    prompts = prompt_folder(tmp_path)
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    seen: list[object] = []

    def client() -> None:
        deadline = time.monotonic() + TIMEOUT
        while not out.getvalue() and time.monotonic() < deadline:
            time.sleep(0.01)
        url = out.getvalue().strip()
        answer = httpx2.post(url, json=INITIALIZE, headers=ACCEPT, timeout=TIMEOUT)
        seen.append(answer.status_code)
        os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C: the server stops

    helper = threading.Thread(target=client, daemon=True)
    helper.start()
    status = main(["mcp", str(prompts), "--http", "127.0.0.1:0"])
    helper.join(TIMEOUT)
    assert (status, seen) == (130, [200])  # interrupted, as every command reports it
    assert out.getvalue().startswith("http://127.0.0.1:")
