"""A small Language Server Protocol client over stdio, for driving real editor servers in tests."""

from __future__ import annotations

import contextlib
import json
import subprocess
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Self, cast

DEFAULT_TIMEOUT = 30.0
"""Seconds to wait for any one answer; generous, since a cold Node start can be slow on CI."""

ServerRequestHandler = Callable[[Any], Any]
"""Answers one request the server sends to the client; gets its params, returns its result."""


class LspError(Exception):
    """The server answered a request with an error, or stopped talking."""


def _section(settings: Mapping[str, Any], section: str | None) -> Any:
    """The settings under a section; a dotted section such as ``yaml.format`` walks down."""
    if section is None:
        return dict(settings)
    if section in settings:
        return settings[section]
    node: Any = settings
    for part in section.split("."):
        if not isinstance(node, Mapping):
            return None
        level = cast("Mapping[str, Any]", node)
        if part not in level:
            return None
        node = level[part]
    return node


class LspClient:
    """A language server in a subprocess, spoken to with JSON-RPC and Content-Length framing.

    A reader thread routes what the server sends: responses wake the request that waits for
    them, server requests are answered at once (``workspace/configuration`` from ``settings``,
    registrations and progress tokens with null), and ``textDocument/publishDiagnostics``
    notifications are kept per document URI. Use it as a context manager: leaving shuts the
    server down politely and kills it if it does not exit.
    """

    def __init__(
        self,
        command: Sequence[str],
        *,
        settings: Mapping[str, Any],
        cwd: Path | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.settings = settings
        self.timeout = timeout
        self._process = subprocess.Popen(
            list(command),
            cwd=cwd,
            env=None if env is None else dict(env),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self._write_lock = threading.Lock()
        self._state = threading.Condition()
        self._next_id = 0
        self._responses: dict[int, dict[str, Any]] = {}
        self._diagnostics: dict[str, list[list[dict[str, Any]]]] = {}
        self._closed_reason: str | None = None
        self._stderr: list[bytes] = []
        self.notifications: list[dict[str, Any]] = []
        """Every notification the server sent, in order (logs, progress, diagnostics)."""
        self.server_requests: list[dict[str, Any]] = []
        """Every request the server sent, in order, as received."""
        self.handlers: dict[str, ServerRequestHandler] = {
            "workspace/configuration": self._configuration,
            "client/registerCapability": lambda _params: None,
            "client/unregisterCapability": lambda _params: None,
            "window/workDoneProgress/create": lambda _params: None,
            "workspace/workspaceFolders": lambda _params: None,
        }
        self._reader = threading.Thread(target=self._read_loop, name="lsp-reader", daemon=True)
        self._stderr_reader = threading.Thread(
            target=self._drain_stderr, name="lsp-stderr", daemon=True
        )
        self._reader.start()
        self._stderr_reader.start()

    # -- lifecycle ---------------------------------------------------------------------------

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def initialize(
        self, root: Path, capabilities: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """Send ``initialize`` and ``initialized``; the server's capabilities come back."""
        result: dict[str, Any] = self.request(
            "initialize",
            {
                "processId": None,
                "rootUri": root.as_uri(),
                "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
                "capabilities": capabilities if capabilities is not None else CAPABILITIES,
            },
        )
        self.notify("initialized", {})
        return result

    def close(self) -> None:
        """Shut the server down (``shutdown`` then ``exit``), killing it if it lingers."""
        if self._process.poll() is None and self._closed_reason is None:
            try:
                self.request("shutdown", None, timeout=5.0)
                self.notify("exit", None)
            except (LspError, TimeoutError):
                pass  # a server that will not stop politely is killed below
        try:
            self._process.wait(timeout=5.0)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        for stream in (self._process.stdin, self._process.stdout, self._process.stderr):
            if stream is not None:
                # stdin may hold unflushed bytes for a server that is gone
                with contextlib.suppress(OSError):
                    stream.close()
        self._reader.join(timeout=5.0)
        self._stderr_reader.join(timeout=5.0)

    @property
    def stderr(self) -> str:
        """What the server wrote to stderr so far (for failure messages)."""
        return b"".join(self._stderr).decode("utf-8", "replace")

    # -- sending -----------------------------------------------------------------------------

    def _send(self, message: Mapping[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        stdin = self._process.stdin
        assert stdin is not None
        try:
            with self._write_lock:
                stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
                stdin.flush()
        except OSError as error:  # the server died: say what it printed, not just EPIPE
            self._stderr_reader.join(timeout=1.0)
            raise LspError(f"cannot write to the server ({error})\n{self.stderr}") from error

    def notify(self, method: str, params: Any) -> None:
        """Send a notification (no answer expected)."""
        self._send({"method": method, "params": params})

    def request(self, method: str, params: Any, *, timeout: float | None = None) -> Any:
        """Send a request and wait for its result; an error answer raises ``LspError``."""
        with self._state:
            self._next_id += 1
            request_id = self._next_id
        self._send({"id": request_id, "method": method, "params": params})
        with self._state:
            answered = self._state.wait_for(
                lambda: request_id in self._responses or self._closed_reason is not None,
                timeout=self.timeout if timeout is None else timeout,
            )
            if not answered:
                raise TimeoutError(f"no answer to {method} (id {request_id})\n{self.stderr}")
            if request_id not in self._responses:
                raise LspError(f"{method}: {self._closed_reason}\n{self.stderr}")
            response = self._responses.pop(request_id)
        if "error" in response:
            raise LspError(f"{method}: {response['error']}")
        return response.get("result")

    # -- documents ---------------------------------------------------------------------------

    def open_document(self, path: Path, language_id: str, text: str | None = None) -> str:
        """Send ``textDocument/didOpen`` for a file (its text from disk unless given)."""
        uri = path.as_uri()
        contents = path.read_text(encoding="utf-8") if text is None else text
        self.notify(
            "textDocument/didOpen",
            {
                "textDocument": {
                    "uri": uri,
                    "languageId": language_id,
                    "version": 1,
                    "text": contents,
                }
            },
        )
        return uri

    def diagnostics(self, uri: str, *, after: int = 0) -> list[dict[str, Any]]:
        """The diagnostics of the first publication for ``uri`` past the first ``after`` ones."""
        with self._state:
            published = self._state.wait_for(
                lambda: len(self._diagnostics.get(uri, [])) > after
                or self._closed_reason is not None,
                timeout=self.timeout,
            )
            if not published:
                raise TimeoutError(f"no diagnostics for {uri}\n{self.stderr}")
            found = self._diagnostics.get(uri, [])
            if len(found) <= after:
                raise LspError(f"no diagnostics for {uri}: {self._closed_reason}\n{self.stderr}")
            return found[after]

    def publications(self, uri: str) -> int:
        """How many diagnostics publications arrived for ``uri`` so far."""
        with self._state:
            return len(self._diagnostics.get(uri, []))

    @staticmethod
    def position(line: int, character: int, uri: str) -> dict[str, Any]:
        """The params of a position request (completion, hover) in LSP's 0-based terms."""
        return {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}

    # -- receiving ---------------------------------------------------------------------------

    def _configuration(self, params: Any) -> list[Any]:
        items: list[dict[str, Any]] = params["items"]
        return [_section(self.settings, item.get("section")) for item in items]

    def _drain_stderr(self) -> None:
        stream: IO[bytes] | None = self._process.stderr
        assert stream is not None
        try:
            for line in iter(stream.readline, b""):
                self._stderr.append(line)
        except (OSError, ValueError):
            return  # the stream was closed under us by close()

    def _read_loop(self) -> None:
        stream: IO[bytes] | None = self._process.stdout
        assert stream is not None
        reason = "the server closed its output"
        try:
            while (message := _read_message(stream)) is not None:
                self._dispatch(message)
        except (OSError, ValueError) as error:
            reason = f"reading from the server failed: {error}"
        with self._state:
            self._closed_reason = reason
            self._state.notify_all()

    def _dispatch(self, message: dict[str, Any]) -> None:
        method: str | None = message.get("method")
        if method is None:  # a response to one of our requests
            with self._state:
                self._responses[message["id"]] = message
                self._state.notify_all()
        elif "id" in message:  # a request from the server: answer it right away
            self.server_requests.append(message)
            handler = self.handlers.get(method)
            if handler is None:
                error = {"code": -32601, "message": f"unhandled: {method}"}
                self._send({"id": message["id"], "error": error})
            else:
                self._send({"id": message["id"], "result": handler(message.get("params"))})
        else:
            with self._state:
                self.notifications.append(message)
                if method == "textDocument/publishDiagnostics":
                    params: dict[str, Any] = message["params"]
                    self._diagnostics.setdefault(params["uri"], []).append(params["diagnostics"])
                self._state.notify_all()


def _read_message(stream: IO[bytes]) -> dict[str, Any] | None:
    """One framed JSON-RPC message, or None at the end of the stream."""
    length: int | None = None
    while True:
        line = stream.readline()
        if not line:
            return None
        if line in {b"\r\n", b"\n"}:
            break
        name, _, value = line.decode("ascii").partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    if length is None:
        raise ValueError("a message without Content-Length")
    body = stream.read(length)
    if len(body) < length:
        return None
    message: dict[str, Any] = json.loads(body)
    return message


CAPABILITIES: dict[str, Any] = {
    "workspace": {"configuration": True, "didChangeConfiguration": {"dynamicRegistration": True}},
    "textDocument": {
        "synchronization": {"dynamicRegistration": True},
        "publishDiagnostics": {"relatedInformation": True},
        "completion": {
            "completionItem": {
                "snippetSupport": True,
                "documentationFormat": ["markdown", "plaintext"],
                "labelDetailsSupport": True,
            },
            "contextSupport": True,
        },
        "hover": {"contentFormat": ["markdown", "plaintext"]},
    },
    "window": {"workDoneProgress": True},
}
"""What a plain editor supports: enough for diagnostics, completion and hover in Markdown."""
