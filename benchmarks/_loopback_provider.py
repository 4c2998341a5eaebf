"""A fake OpenAI-compatible provider on 127.0.0.1: every chat completion answered after a delay.

The benchmarks' own (they import nothing from tests/): a threaded HTTP server that answers
``POST .../chat/completions`` with one fixed assistant message after ``latency`` seconds and
counts the requests, so a client with N connections sees a model that takes that long a turn.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Self

__all__ = ["ANSWER", "LoopbackProvider"]

ANSWER = "Hello! The change looks right."
"""The text of every answer."""


def _completion(model: str) -> bytes:
    return json.dumps(
        {
            "id": "chatcmpl-bench",
            "object": "chat.completion",
            "created": 1,
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": ANSWER},
                    "finish_reason": "stop",
                }
            ],
            "usage": {"prompt_tokens": 20, "completion_tokens": 6, "total_tokens": 26},
        }
    ).encode()


class LoopbackProvider:
    """Serves on a free port of 127.0.0.1 in a background thread while in use."""

    def __init__(self, latency: float = 0.0) -> None:
        """Answer each request ``latency`` seconds after it arrives."""
        self.latency = latency
        self.requests = 0
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        self._server.request_queue_size = 256  # many clients connect at once
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
        )

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT/v1``: what an OpenAI client takes as its base URL."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def count(self) -> None:
        """Note one request."""
        with self._lock:
            self.requests += 1

    def __enter__(self) -> Self:
        """Start serving."""
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        """Stop serving and release the port."""
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


def _handler_for(provider: LoopbackProvider) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # otherwise each keep-alive answer waits ~40 ms

        def do_POST(self) -> None:
            started = time.perf_counter()
            length = int(self.headers.get("content-length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            provider.count()
            payload = _completion(str(body.get("model", "")))
            left = provider.latency - (time.perf_counter() - started)
            if left > 0:
                time.sleep(left)
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002  # the base's name
            """Keep the benchmark's output clean."""

    return Handler
