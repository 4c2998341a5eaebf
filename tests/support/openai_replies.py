"""OpenAI Chat Completions answers for ``ProviderServer``: JSON completions and their chunks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from provider_server import Reply

__all__ = ["ToolCall", "chunks", "completion", "error_reply", "reply", "stream_reply"]

ToolCall = tuple[str, str, str]
"""(id, function name, arguments as JSON text) of one tool call."""


def completion(
    text: str | None = None,
    tool_calls: Sequence[ToolCall] = (),
    *,
    usage: tuple[int, int] = (10, 5),
    model: str = "gpt-test",
) -> dict[str, Any]:
    """A complete ``chat.completion`` object."""
    message: dict[str, Any] = {"role": "assistant", "content": text}
    if tool_calls:
        message["tool_calls"] = [
            {"id": i, "type": "function", "function": {"name": n, "arguments": a}}
            for i, n, a in tool_calls
        ]
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1700000000,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if tool_calls else "stop",
            }
        ],
        "usage": {
            "prompt_tokens": usage[0],
            "completion_tokens": usage[1],
            "total_tokens": sum(usage),
        },
    }


def chunks(
    text: str | None = None,
    tool_calls: Sequence[ToolCall] = (),
    *,
    usage: tuple[int, int] | None = (10, 5),
    model: str = "gpt-test",
) -> list[tuple[str | None, Any]]:
    """The same completion as ``stream: true`` chunks; usage comes last, as with
    ``stream_options={"include_usage": true}``, and the stream ends with ``[DONE]``."""
    base = {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 1700000000,
        "model": model,
    }

    def chunk(delta: dict[str, Any], finish: str | None = None) -> tuple[str | None, Any]:
        return None, {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    events = [chunk({"role": "assistant", "content": ""})]
    if text:
        events.append(chunk({"content": text}))
    for index, (call_id, name, arguments) in enumerate(tool_calls):
        opening = {
            "index": index,
            "id": call_id,
            "type": "function",
            "function": {"name": name, "arguments": ""},
        }
        events.append(chunk({"tool_calls": [opening]}))
        events.append(
            chunk({"tool_calls": [{"index": index, "function": {"arguments": arguments}}]})
        )
    events.append(chunk({}, "tool_calls" if tool_calls else "stop"))
    if usage is not None:
        events.append(
            (
                None,
                {
                    **base,
                    "choices": [],
                    "usage": {
                        "prompt_tokens": usage[0],
                        "completion_tokens": usage[1],
                        "total_tokens": sum(usage),
                    },
                },
            )
        )
    events.append((None, "[DONE]"))
    return events


def reply(text: str | None = None, tool_calls: Sequence[ToolCall] = (), **kwargs: Any) -> Reply:
    """A JSON answer."""
    return Reply(json=completion(text, tool_calls, **kwargs))


def stream_reply(
    text: str | None = None, tool_calls: Sequence[ToolCall] = (), **kwargs: Any
) -> Reply:
    """A streamed answer."""
    return Reply(events=chunks(text, tool_calls, **kwargs))


def error_reply(
    status: int, text: str, code: str | None = None, headers: dict[str, str] | None = None
) -> Reply:
    """An error as the OpenAI API words it."""
    body = {
        "error": {"message": text, "type": "invalid_request_error", "param": None, "code": code}
    }
    return Reply(status=status, json=body, headers=headers or {})
