"""The response cache: each model reply kept under the exact request that asked for it.

A re-run of an unchanged suite sends no request: every turn of every case finds its reply.
Entries are JSON data (never code), one file each, read as every other file is: a regular
file, bounded, and a malformed one is a miss, never an error.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from wink_decl._atomic import write_atomically
from wink_decl.loader.regular_files import read_capped
from wink_decl.runtime.provider import ProviderReply, ProviderToolCall, TokenUsage

if TYPE_CHECKING:
    from wink_decl.runtime.provider import ProviderMessage, ProviderRequest

__all__ = [
    "CACHE_FORMAT",
    "MAX_ENTRY_BYTES",
    "ResponseCache",
    "reply_from_json",
    "reply_to_json",
    "request_key",
]

CACHE_FORMAT = 1
"""Part of every key: a change of what a key covers makes every old entry a miss."""

MAX_ENTRY_BYTES = 16_000_000
"""An entry larger than this is not read (a reply is text and tool calls: far smaller)."""


def request_key(model: Mapping[str, object], request: ProviderRequest, repeat: int) -> str:
    """The key of ``request`` sent to ``model`` (provider, model, address, options).

    Everything the provider is sent is in it except the time left (``timeout``); ``repeat``
    gives each repetition of a case its own reply, as a model would.
    """
    payload = {
        "format": CACHE_FORMAT,
        "model": model,
        "repeat": repeat,
        "messages": [_message(m) for m in request.messages],
        "tools": list(request.tools),
        "tool_names": list(request.tool_names),
        "output": None
        if request.output is None
        else {
            "name": request.output.name,
            "schema": request.output.schema,
            "description": request.output.description,
        },
    }
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _message(message: ProviderMessage) -> dict[str, object]:
    return {
        "role": message.role,
        "content": message.content,
        "tool_calls": [_call(call) for call in message.tool_calls],
        "tool_call_id": message.tool_call_id,
        "is_error": message.is_error,
    }


def _call(call: ProviderToolCall) -> dict[str, object]:
    arguments = call.arguments if isinstance(call.arguments, str) else dict(call.arguments)
    return {"call_id": call.call_id, "name": call.name, "arguments": arguments}


def reply_to_json(reply: ProviderReply) -> dict[str, object]:
    """``reply`` as JSON data; arguments are kept as the provider sent them."""
    usage = reply.usage
    return {
        "text": reply.text,
        "tool_calls": [_call(call) for call in reply.tool_calls],
        "usage": None
        if usage is None
        else {"input_tokens": usage.input_tokens, "output_tokens": usage.output_tokens},
    }


def reply_from_json(data: object) -> ProviderReply | None:
    """The reply ``data`` holds, or None when it is not the shape ``reply_to_json`` writes."""
    if not isinstance(data, dict):
        return None
    entry = cast("dict[str, Any]", data)
    text, calls, usage = entry.get("text"), entry.get("tool_calls"), entry.get("usage")
    if set(entry) != {"text", "tool_calls", "usage"} or not isinstance(text, str):
        return None
    if not isinstance(calls, list):
        return None
    tool_calls = [_call_from_json(item) for item in cast("list[object]", calls)]
    counted = _usage_from_json(usage)
    if any(call is None for call in tool_calls) or counted is False:
        return None
    return ProviderReply(
        text, tuple(cast("list[ProviderToolCall]", tool_calls)), cast("TokenUsage | None", counted)
    )


def _call_from_json(data: object) -> ProviderToolCall | None:
    if not isinstance(data, dict):
        return None
    call = cast("dict[str, object]", data)
    call_id, name, arguments = call.get("call_id"), call.get("name"), call.get("arguments")
    if set(call) != {"call_id", "name", "arguments"}:
        return None
    if not (isinstance(call_id, str) and isinstance(name, str)):
        return None
    if isinstance(arguments, str):
        return ProviderToolCall(call_id, name, arguments)
    if isinstance(arguments, dict):
        return ProviderToolCall(call_id, name, cast("dict[str, Any]", arguments))
    return None


def _usage_from_json(data: object) -> TokenUsage | None | bool:
    """The usage, None when the provider did not say, or False when malformed."""
    if data is None:
        return None
    if not isinstance(data, dict):
        return False
    usage = cast("dict[str, object]", data)
    counts = [usage.get("input_tokens"), usage.get("output_tokens")]
    if set(usage) != {"input_tokens", "output_tokens"} or not all(
        type(count) is int and count >= 0 for count in counts
    ):
        return False
    return TokenUsage(cast("int", counts[0]), cast("int", counts[1]))


class ResponseCache:
    """Replies under ``folder``, one JSON file per key: ``<folder>/<key[:2]>/<key>.json``.

    Reading is safe from many threads; only the run's driver writes, each entry whole.
    """

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        """Keep entries under ``folder`` (made when the first entry is written)."""
        self.folder = Path(folder)
        self._made: set[str] = set()
        """The entries' folders made (or found) already: each is made once, not per entry."""

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def get(self, key: str) -> ProviderReply | None:
        """The reply kept under ``key``; None when there is none or it cannot be used."""
        try:
            content, _ = read_capped(self._path(key), MAX_ENTRY_BYTES)
            data: object = json.loads(content)
        except (OSError, ValueError, RecursionError):  # missing, not a file, too big, not JSON
            return None
        return reply_from_json(data)

    def put(self, key: str, reply: ProviderReply) -> None:
        """Keep ``reply`` under ``key``, replacing what was there."""
        text = json.dumps(reply_to_json(reply), ensure_ascii=False, separators=(",", ":"))
        path = self._path(key)
        if key[:2] not in self._made:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._made.add(key[:2])
        write_atomically(path, text + "\n")
