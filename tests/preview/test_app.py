"""The ASGI app in this process (starlette's TestClient), the change stream and the watcher."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.types import Message, Scope

from wink_decl.preview.app import Hub, create_app, watch
from wink_decl.preview.files import PromptFolder
from wink_decl.preview.guard import site
from wink_decl.preview.html import file_list, view_json
from wink_decl.preview.page import Action, PageState, prompt_view

SITE = site("127.0.0.1", "127.0.0.1", 8000)
"""The app's address in these tests: the client's requests name it (tests/preview/test_guard.py)."""


def client_of(folder: Path) -> TestClient:
    app = create_app(PromptFolder(folder, folder), SITE)
    return TestClient(app, base_url=SITE.url.rstrip("/"))


@pytest.fixture
def client(served: Path) -> TestClient:
    return client_of(served)


def packaged(name: str) -> str:
    return resources.files("wink_decl.preview").joinpath("static", name).read_text("utf-8")


@pytest.mark.parametrize(
    ("url", "name", "kind"),
    [
        ("/", "index.html", "text/html; charset=utf-8"),
        ("/static/page.css", "page.css", "text/css; charset=utf-8"),
        ("/static/page.js", "page.js", "text/javascript; charset=utf-8"),
    ],
    ids=["page", "css", "js"],
)
def test_the_page_comes_from_package_data(
    client: TestClient, url: str, name: str, kind: str
) -> None:
    answer = client.get(url)
    assert (answer.status_code, answer.headers["content-type"], answer.text) == (
        200,
        kind,
        packaged(name),
    )


@pytest.mark.parametrize("name", ["__init__.py", "model.py", "index.htm"])
def test_nothing_else_is_served_from_the_package(client: TestClient, name: str) -> None:
    answer = client.get(f"/static/{name}")
    assert (answer.status_code, answer.text) == (404, "not found")


def test_the_file_list(client: TestClient, served: Path) -> None:
    listing = PromptFolder(served, served).listing()
    answer = client.get("/api/files", params={"file": "plain.wink.toml"})
    assert answer.json() == {"html": file_list(listing, "plain.wink.toml"), "version": 0}


def test_a_prompt_with_the_page_state(client: TestClient, served: Path) -> None:
    body = {"values": {"language": "Go"}, "actions": [["show", "checks", "summary"]]}
    answer = client.post("/api/prompt", params={"file": "review.wink.yaml"}, json=body)
    folder = PromptFolder(served, served)
    state = PageState({"language": "Go"}, (Action("show", "checks", "summary"),))
    expected = view_json(prompt_view(folder, served / "review.wink.yaml", state))
    assert (answer.status_code, answer.json()) == (200, expected)
    assert "[This section is summarized." in str(expected["prompt"])


def test_an_empty_body_is_the_empty_state(client: TestClient, served: Path) -> None:
    json_type = {"content-type": "application/json"}
    answer = client.post("/api/prompt", params={"file": "plain.wink.toml"}, headers=json_type)
    folder = PromptFolder(served, served)
    expected = view_json(prompt_view(folder, served / "plain.wink.toml", PageState()))
    assert (answer.status_code, answer.json()) == (200, expected)


@pytest.mark.parametrize(
    "name",
    ["../outside.wink.yaml", "PLACE/prompts/review.wink.yaml", "./../prompts/review.wink.yaml", ""],
    ids=["dot-dot", "absolute", "dot-dot-inside", "empty"],
)
def test_only_served_files_can_be_named(client: TestClient, served: Path, name: str) -> None:
    (served.parent / "outside.wink.yaml").write_text((served / "review.wink.yaml").read_text())
    name = name.replace("PLACE", str(served.parent))
    answer = client.post("/api/prompt", params={"file": name}, json={})
    assert (answer.status_code, answer.json()) == (
        404,
        {"error": f"not a prompt file under {served}: {json.dumps(name)}"},
    )


@pytest.mark.parametrize(
    ("body", "error"),
    [
        (b"{", "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"),
        (b'{"actions": 1}', "actions must be a list"),
    ],
    ids=["not-json", "wrong-state"],
)
def test_a_wrong_body_is_refused(client: TestClient, body: bytes, error: str) -> None:
    json_type = {"content-type": "application/json"}
    answer = client.post(
        "/api/prompt", params={"file": "plain.wink.toml"}, content=body, headers=json_type
    )
    assert (answer.status_code, answer.json()) == (400, {"error": error})


def test_the_watcher_runs_while_the_app_runs(served: Path) -> None:
    with client_of(served) as running:
        assert running.get("/api/files").status_code == 200


async def first_events(stream: AsyncIterator[str], count: int) -> list[str]:
    return [await anext(stream) for _ in range(count)]


def test_the_stream_sends_each_change_until_the_hub_closes() -> None:
    async def scenario() -> list[str]:
        hub = Hub()
        stream = hub.stream()
        seen = await first_events(stream, 1)
        hub.publish()
        hub.publish()
        seen += await first_events(stream, 2)
        hub.close()
        seen += [event async for event in stream]
        return seen

    assert asyncio.run(asyncio.wait_for(scenario(), 10)) == [
        "retry: 500\ndata: 0\n\n",
        "data: 1\n\n",
        "data: 2\n\n",
    ]


def test_a_change_on_disk_is_published(tmp_path: Path) -> None:
    async def scenario() -> int:
        hub = Hub()
        stop = asyncio.Event()
        task = asyncio.create_task(watch([tmp_path], hub, stop))
        stream = hub.stream()
        await first_events(stream, 1)
        await asyncio.sleep(0.3)  # watchfiles starts watching in a thread of its own
        (tmp_path / "new.wink.yaml").write_text("key: new\n")
        await first_events(stream, 1)
        stop.set()
        await task
        return hub.version

    assert asyncio.run(asyncio.wait_for(scenario(), 20)) >= 1


def test_the_events_endpoint_streams_until_the_page_goes(served: Path) -> None:
    """Called as a server calls it: the stream is infinite, so the client leaves after one event."""
    app = create_app(PromptFolder(served, served), SITE)
    sent: list[Message] = []
    gone = asyncio.Event()

    async def receive() -> Message:
        await gone.wait()
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        sent.append(message)
        if message.get("body"):
            gone.set()

    scope: Scope = {
        "type": "http",
        "method": "GET",
        "path": "/api/events",
        "raw_path": b"/api/events",
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"127.0.0.1:8000")],
        "scheme": "http",
        "http_version": "1.1",
        "server": ("127.0.0.1", 80),
        "client": ("127.0.0.1", 1),
    }
    asyncio.run(asyncio.wait_for(app(scope, receive, send), 10))
    start = sent[0]
    assert (start["type"], start["status"]) == ("http.response.start", 200)
    assert (b"content-type", b"text/event-stream; charset=utf-8") in start["headers"]
    assert (b"cache-control", b"no-store") in start["headers"]
    assert sent[1] == {
        "type": "http.response.body",
        "body": b"retry: 500\ndata: 0\n\n",
        "more_body": True,
    }
