"""A Messages API that answers each request by reading it, for agents that run their own loop.

A scripted ``ProviderServer`` answers in order; an agent such as Claude Code also sends requests
a test does not plan (retries of a refused request, say). ``AnsweringServer`` hands every
``POST /v1/messages`` to a function of the request instead, records it, and lets the test
assert what the model was offered and what the tools answered.

```python
def answer(call: MessagesCall) -> Reply:
    if not call.tool_results:
        return call_tool("mcp__wink__lookup", {"key": "a"}, call)
    return say("Done.", call)

with AnsweringServer(answer) as server:
    ...  # run the agent with ANTHROPIC_BASE_URL=server.url
    assert server.calls[0].tool_names == ("mcp__wink__lookup",)
```

A tool revealed mid-conversation arrives deferred: ``revealed`` lists the ones a request names.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from anthropic_replies import error_reply, stream_reply
from provider_server import ProviderServer, RecordedRequest, Reply

__all__ = ["AnsweringServer", "MessagesCall", "ToolAnswer", "call_tool", "say"]

_REMINDER = re.compile(r"\s*<system-reminder>.*?</system-reminder>\s*", re.DOTALL)


@dataclass(frozen=True)
class ToolAnswer:
    """One ``tool_result`` block: what a tool answered the model."""

    call_id: str
    text: str
    """The result's text, without the ``<system-reminder>`` blocks an agent may append."""
    is_error: bool


@dataclass(frozen=True)
class MessagesCall:
    """One ``POST /v1/messages`` body, with the parts tests look at."""

    body: Mapping[str, Any]

    @property
    def system(self) -> str:
        """Every text block of the system prompt, one per line."""
        system: str | list[dict[str, Any]] = self.body.get("system") or []
        if isinstance(system, str):
            return system
        return "\n".join(str(block.get("text", "")) for block in system)

    @property
    def tool_names(self) -> tuple[str, ...]:
        """The tools offered, in order; deferred ones (``defer_loading``) are not offered."""
        return tuple(name for name, tool in self.tools.items() if not tool.get("defer_loading"))

    @property
    def tools(self) -> Mapping[str, Mapping[str, Any]]:
        """Every tool in the request (deferred ones too), by name, in order."""
        tools: list[dict[str, Any]] = self.body.get("tools") or []
        return {str(tool["name"]): tool for tool in tools}

    @property
    def revealed(self) -> tuple[str, ...]:
        """Deferred tools the request makes callable, by the ``tool_reference`` that names them.

        Claude Code sends a tool it learns of mid-conversation as deferred, and names it in a
        ``tool_addition`` block of a system message ("The following tools just became
        available ...").
        """
        blocks: list[dict[str, Any]] = [
            block
            for message in self.body["messages"]
            if isinstance(message["content"], list)
            for block in message["content"]
        ]
        references: list[dict[str, Any]] = [
            block["tool"] for block in blocks if block.get("type") == "tool_addition"
        ]
        return tuple(
            str(tool["name"])
            for tool in references
            if tool.get("type") == "tool_reference" and tool["name"] in self.tools
        )

    @property
    def turn(self) -> int:
        """How many answers of the model the conversation holds: 0 for its first request."""
        return sum(1 for message in self.body["messages"] if message["role"] == "assistant")

    @property
    def tool_results(self) -> tuple[ToolAnswer, ...]:
        """The tool results of the last user message (empty unless tools were called).

        Claude Code may put a system message after it (tools that became available).
        """
        last = [message for message in self.body["messages"] if message["role"] == "user"][-1]
        content: str | list[dict[str, Any]] = last["content"]
        blocks = content if isinstance(content, list) else []
        return tuple(
            ToolAnswer(
                str(block["tool_use_id"]), _text(block.get("content")), bool(block.get("is_error"))
            )
            for block in blocks
            if block.get("type") == "tool_result"
        )


def _text(content: str | list[dict[str, Any]] | None) -> str:
    """A tool result's text, without the reminders an agent appends."""
    if isinstance(content, list):
        content = "".join(
            str(block.get("text", "")) for block in content if block.get("type") == "text"
        )
    return _REMINDER.sub("", content or "").strip()


def say(text: str, call: MessagesCall, *, usage: tuple[int, int] = (10, 5)) -> Reply:
    """A streamed answer in text (its message id numbered by the turn)."""
    return stream_reply(text, usage=usage, message_id=f"msg_{call.turn + 1}")


def call_tool(
    name: str,
    arguments: Mapping[str, Any],
    call: MessagesCall,
    *,
    text: str = "",
    usage: tuple[int, int] = (10, 5),
) -> Reply:
    """A streamed answer that calls one tool (ids numbered by the turn: ``toolu_1``, ...)."""
    number = call.turn + 1
    return stream_reply(
        text, [(f"toolu_{number}", name, dict(arguments))], usage=usage, message_id=f"msg_{number}"
    )


class AnsweringServer(ProviderServer):
    """A ``ProviderServer`` whose answers come from ``answer(call)``; other paths get a 404."""

    def __init__(self, answer: Callable[[MessagesCall], Reply]) -> None:
        super().__init__([])
        self._answer = answer

    @property
    def calls(self) -> list[MessagesCall]:
        """Every ``POST /v1/messages`` so far, in order."""
        return [
            MessagesCall(request.json)
            for request in list(self.requests)
            if request.method == "POST" and request.path == "/v1/messages"
        ]

    def next_reply(self, request: RecordedRequest) -> Reply:
        """Record ``request`` and answer it."""
        with self._lock:
            self.requests.append(request)
        if request.method == "POST" and request.path == "/v1/messages":
            return self._answer(MessagesCall(request.json))
        return error_reply(404, "not_found_error", f"{request.method} {request.path} is not here")
