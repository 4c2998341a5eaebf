"""A fake OpenAI-compatible provider on 127.0.0.1: every chat completion answered after a delay.

The benchmarks' own (they import nothing from tests/): a threaded HTTP server that answers
``POST .../chat/completions`` with one fixed assistant message after ``latency`` seconds and
counts the requests (``GET /requests`` says how many), so a client with N connections sees a
model that takes that long a turn. ``ProviderProcess`` serves it from a child process, so that
its threads do not take the measured process's interpreter lock (or its CPU time).
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import IO, Self, cast

__all__ = ["ANSWER", "LoopbackProvider", "ProviderProcess"]

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
        self._server = _Server(("127.0.0.1", 0), _handler_for(self))
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


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256
    """The listening backlog: many clients connect at once. A class attribute, since the
    server listens as it is made: with the default (5), the 6th of 16 clients connecting
    together had its connection dropped and retried a second later."""


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

        def do_GET(self) -> None:
            payload = json.dumps({"requests": provider.requests}).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002  # the base's name
            """Keep the benchmark's output clean."""

    return Handler


class ProviderProcess:
    """A ``LoopbackProvider`` served by a child process (this file run) while in use."""

    def __init__(self, latency: float = 0.0) -> None:
        """Answer each request ``latency`` seconds after it arrives."""
        self.latency = latency
        self.url = ""
        self._child: subprocess.Popen[str] | None = None

    @property
    def requests(self) -> int:
        """How many requests the child has answered so far."""
        address = self.url.removesuffix("/v1") + "/requests"
        with urllib.request.urlopen(address, timeout=10) as answer:  # noqa: S310  # 127.0.0.1
            return int(json.loads(answer.read())["requests"])

    def __enter__(self) -> Self:
        """Start the child and wait until it serves."""
        command = [sys.executable, __file__, str(self.latency)]
        self._child = subprocess.Popen(  # noqa: S603  # this interpreter, this file
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.url = _lines(self._child.stdout).readline().strip()
        return self

    def __exit__(self, *exc_info: object) -> None:
        """Stop the child (it stops when its input ends)."""
        child = self._child
        if child is not None:
            _lines(child.stdin).close()
            child.wait(timeout=10)


def _lines(stream: IO[str] | None) -> IO[str]:
    """A pipe of the child's: there always is one, since ``Popen`` was asked for it."""
    return cast("IO[str]", stream)


def _serve(latency: float) -> None:
    """Serve until standard input ends, having printed the address."""
    with LoopbackProvider(latency) as provider:
        print(provider.url, flush=True)
        sys.stdin.read()


if __name__ == "__main__":
    _serve(float(sys.argv[1]))
