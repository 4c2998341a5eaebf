"""A model provider played by the test: an HTTP server on 127.0.0.1 that answers from a script.

Each request gets the next scripted ``Reply``, or the one a ``responder`` makes of it (a JSON
body, an error status with headers, or a stream of server-sent events), and is recorded
(method, path, query, headers, JSON body), so a test drives a real provider SDK end to end and
then asserts exactly what the SDK sent. Nothing leaves the machine.

```python
with ProviderServer([Reply(json={...}), Reply(status=429, headers={"retry-after": "0"})]) as s:
    client = openai.OpenAI(base_url=s.url + "/v1", api_key="test-key")
    ...
    assert s.requests[0].json["model"] == "gpt-test"
```
"""

from __future__ import annotations

import json
import socket
import sys
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self
from urllib.parse import parse_qs, urlsplit

__all__ = ["ProviderServer", "RecordedRequest", "Reply", "sse"]


@dataclass(frozen=True)
class Reply:
    """One scripted answer: ``json`` as the body, or ``events`` as server-sent events."""

    status: int = 200
    json: Any = None
    events: Sequence[tuple[str | None, Any]] | None = None
    """(event name or None, data) pairs; data that is not a str is sent as JSON."""
    headers: Mapping[str, str] = field(default_factory=dict[str, str])
    body: bytes | None = None
    """Raw bytes instead of ``json`` (a malformed body, say)."""
    delay: float = 0.0
    """Seconds to wait before answering: a provider slower than the client's timeout."""


@dataclass(frozen=True)
class RecordedRequest:
    """What the SDK sent."""

    method: str
    path: str
    query: Mapping[str, list[str]]
    headers: Mapping[str, str]
    """Lower-cased names."""
    body: bytes

    @property
    def json(self) -> Any:
        """The body decoded as JSON."""
        return json.loads(self.body)


def sse(events: Iterable[tuple[str | None, Any]]) -> bytes:
    """Server-sent events as the providers write them: ``event:`` and ``data:`` lines."""
    chunks: list[str] = []
    for name, data in events:
        text = data if isinstance(data, str) else json.dumps(data)
        head = f"event: {name}\n" if name is not None else ""
        chunks.append(f"{head}data: {text}\n\n")
    return "".join(chunks).encode()


class _Server(ThreadingHTTPServer):
    """A ``ThreadingHTTPServer`` that lets a client leave as a provider's server does.

    A client that resets or drops a kept-alive connection (an SDK closing its pool, a process
    ending) is the end of that connection, not an error: the standard server would print a
    traceback to the test's stderr, which the tests compare whole.
    """

    def handle_error(
        self, request: socket.socket | tuple[bytes, socket.socket], client_address: Any
    ) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


class ProviderServer:
    """Serves the script on 127.0.0.1 (a free port) in a background thread while in use.

    A request that finds the script used up gets a 500 with a message saying so, and the test's
    ``requests`` shows how many were made.
    """

    def __init__(
        self,
        replies: Iterable[Reply] = (),
        *,
        responder: Callable[[RecordedRequest], Reply] | None = None,
    ) -> None:
        """Answer from ``replies`` in order, or (``responder``) by what each request holds."""
        self._replies = list(replies)
        self._responder = responder
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self.requests: list[RecordedRequest] = []
        self._server = _Server(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        # A short poll interval lets __exit__ stop the server at once (the default waits 0.5 s).
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
        )

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT`` (no trailing slash)."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def remaining(self) -> int:
        """Replies not yet served."""
        with self._lock:
            return len(self._replies)

    def add(self, *replies: Reply) -> None:
        """Script more replies."""
        with self._lock:
            self._replies.extend(replies)

    def __enter__(self) -> Self:
        """Start serving."""
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        """Stop serving and release the port."""
        self._stopping.set()  # a delayed answer stops waiting
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def next_reply(self, request: RecordedRequest) -> Reply:
        """Record ``request`` and take the next reply (a 500 when the script is used up)."""
        with self._lock:
            self.requests.append(request)
            if self._responder is not None:
                return self._responder(request)
            if not self._replies:
                return Reply(status=500, json={"error": {"message": "the test's script ran out"}})
            return self._replies.pop(0)

    def pause(self, seconds: float) -> None:
        """Wait ``seconds``, or less when the server stops meanwhile."""
        self._stopping.wait(seconds)


def _handler_for(server: ProviderServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Headers and body go out as two writes: without this, Nagle and delayed ACKs hold the
        # body back about 40 ms on every answer.
        disable_nagle_algorithm = True

        def do_POST(self) -> None:
            self._answer()

        def do_GET(self) -> None:
            self._answer()

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002  # the base's name
            """Keep test output clean."""

        def _answer(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            body = self.rfile.read(length) if length else b""
            parts = urlsplit(self.path)
            request = RecordedRequest(
                self.command,
                parts.path,
                parse_qs(parts.query),
                {name.lower(): value for name, value in self.headers.items()},
                body,
            )
            reply = server.next_reply(request)
            if reply.delay:
                server.pause(reply.delay)
            if reply.events is not None:
                payload, content_type = sse(reply.events), "text/event-stream"
            elif reply.body is not None:
                payload, content_type = reply.body, "application/json"
            else:
                payload, content_type = json.dumps(reply.json).encode(), "application/json"
            self.send_response(reply.status)
            self.send_header("content-type", content_type)
            self.send_header("content-length", str(len(payload)))
            for name, value in reply.headers.items():
                self.send_header(name, value)
            try:
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True  # the client stopped waiting (its timeout passed)

    return Handler
