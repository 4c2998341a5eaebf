"""What the OpenAI and LiteLLM adapter tests share: a prompt with a summarized tool, servers that
misbehave (never answer, hang up, are not there), and a guard that keeps every test on 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from wink_decl import (
    MarkdownSection,
    PromptTemplate,
    SectionVisibility,
    Tool,
    ToolContext,
    ToolResult,
)

__all__ = [
    "DEPLOY_SPEC",
    "KEY",
    "OPENED_SECTION",
    "SUMMARIZED_TEXT",
    "Verdict",
    "block_the_network",
    "hanging_up_server",
    "release_template",
    "silent_server",
    "unused_port",
]

KEY = "sk-test-0123456789"
"""The API key every test uses; it must never show in an error, a hint or a log."""


@dataclass(frozen=True)
class Target:
    environment: str


@dataclass(frozen=True)
class Deployed:
    environment: str


@dataclass(frozen=True)
class Verdict:
    approved: bool
    reason: str = ""


def deploy(params: Target, *, context: ToolContext) -> ToolResult[Deployed]:
    return ToolResult.ok(Deployed(params.environment), f"deployed to {params.environment}")


def release_template(output_type: type | None = None) -> PromptTemplate[Any]:
    """A task, and a summarized 'release' section whose tool only ``read_section`` reveals."""
    return PromptTemplate(
        ns="tests",
        key="release",
        sections=[
            MarkdownSection(title="Task", key="task", template="Deploy the service."),
            MarkdownSection(
                title="Release",
                key="release",
                template="Deploy with the deploy tool.",
                summary="Release tools are available.",
                visibility=SectionVisibility.SUMMARY,
                tools=[
                    Tool[Target, Deployed](
                        name="deploy", description="Deploy the service.", handler=deploy
                    )
                ],
            ),
        ],
        output_type=output_type,
    )


SUMMARIZED_TEXT = (
    "## 1. Task (task)\n\nDeploy the service.\n\n## 2. Release (release)\n\n"
    "Release tools are available.\n\n---\n[This section is summarized. To view full content, "
    'call `read_section` with key "release".]'
)
OPENED_SECTION = (
    "Content of section 'release':\n\n## 2. Release (release)\n\nDeploy with the deploy tool."
)
DEPLOY_SPEC = {
    "type": "function",
    "function": {
        "name": "deploy",
        "description": "Deploy the service.",
        "parameters": {
            "type": "object",
            "properties": {"environment": {"type": "string"}},
            "required": ["environment"],
            "additionalProperties": False,
        },
    },
}

_LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


def block_the_network(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Refuse (and list) every host name lookup beyond this machine, for the test's duration.

    SDKs that fetch something of their own swallow the failure and go on, so the test asserts
    the returned list is empty rather than relying on an exception.
    """
    attempts: list[str] = []
    lookup = socket.getaddrinfo

    def local_only(host: Any, *args: Any, **kwargs: Any) -> Any:
        name = host.decode() if isinstance(host, bytes) else str(host)
        if name not in _LOCAL_HOSTS:
            attempts.append(name)
            raise socket.gaierror(socket.EAI_NONAME, f"{name}: blocked by the test")
        return lookup(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", local_only)
    return attempts


def unused_port() -> int:
    """A port nothing listens on (just released by the system)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@contextlib.contextmanager
def silent_server() -> Iterator[str]:
    """``http://127.0.0.1:PORT``: accepts connections, reads the request, never answers."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)  # the system completes the handshakes; nobody ever replies
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"


@contextlib.contextmanager
def hanging_up_server() -> Iterator[str]:
    """``http://127.0.0.1:PORT``: reads each request, then closes the connection without a word."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    listener.settimeout(0.05)  # so the thread sees the stop signal soon after the test
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            with contextlib.suppress(OSError):
                connection, _ = listener.accept()
                with connection:
                    _drain(connection)

    def _drain(connection: socket.socket) -> None:
        # Reading everything first makes the close a clean end of stream, not a reset.
        connection.settimeout(0.05)
        with contextlib.suppress(OSError):
            while connection.recv(65536):
                pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        listener.close()
        thread.join(timeout=5)
