"""Anthropic Messages API answers for ``ProviderServer``: JSON messages and their SSE stream."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from provider_server import Reply

__all__ = ["ToolUse", "error_reply", "message", "message_events", "reply", "stream_reply"]

ToolUse = tuple[str, str, dict[str, Any]]
"""(id, name, input) of one ``tool_use`` block."""


def message(
    text: str = "",
    tool_uses: Sequence[ToolUse] = (),
    *,
    usage: tuple[int, int] = (10, 5),
    model: str = "claude-test",
    message_id: str = "msg_1",
) -> dict[str, Any]:
    """A complete assistant message, as ``POST /v1/messages`` returns it."""
    content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
    content += [
        {"type": "tool_use", "id": i, "name": n, "input": arguments}
        for i, n, arguments in tool_uses
    ]
    return {
        "id": message_id,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": "tool_use" if tool_uses else "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": usage[0], "output_tokens": usage[1]},
    }


def message_events(
    text: str = "",
    tool_uses: Sequence[ToolUse] = (),
    *,
    usage: tuple[int, int] = (10, 5),
    model: str = "claude-test",
    message_id: str = "msg_1",
) -> list[tuple[str | None, Any]]:
    """The same message as the server-sent events of ``stream: true``."""
    whole = message(text, tool_uses, usage=usage, model=model, message_id=message_id)
    start: dict[str, Any] = {
        **whole,
        "content": [],
        "stop_reason": None,
        "usage": {"input_tokens": usage[0], "output_tokens": 1},
    }
    events: list[tuple[str | None, Any]] = [
        ("message_start", {"type": "message_start", "message": start})
    ]
    for index, block in enumerate(whole["content"]):
        opening: dict[str, Any]
        if block["type"] == "text":
            opening = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        else:
            opening = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        events += [
            (
                "content_block_start",
                {"type": "content_block_start", "index": index, "content_block": opening},
            ),
            (
                "content_block_delta",
                {"type": "content_block_delta", "index": index, "delta": delta},
            ),
            ("content_block_stop", {"type": "content_block_stop", "index": index}),
        ]
    events += [
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": whole["stop_reason"], "stop_sequence": None},
                "usage": {"output_tokens": usage[1]},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
    return events


def reply(text: str = "", tool_uses: Sequence[ToolUse] = (), **kwargs: Any) -> Reply:
    """A JSON answer."""
    return Reply(json=message(text, tool_uses, **kwargs))


def stream_reply(text: str = "", tool_uses: Sequence[ToolUse] = (), **kwargs: Any) -> Reply:
    """A streamed answer."""
    return Reply(events=message_events(text, tool_uses, **kwargs))


def error_reply(
    status: int, error_type: str, text: str, headers: dict[str, str] | None = None
) -> Reply:
    """An error as the Messages API words it (``authentication_error``, ``rate_limit_error``)."""
    body = {"type": "error", "error": {"type": error_type, "message": text}}
    return Reply(status=status, json=body, headers=headers or {})
