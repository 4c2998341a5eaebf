"""The response cache: each model reply kept under the exact request that asked for it.

A re-run of an unchanged suite sends no request: every turn of every case finds its reply.
Entries are JSON data (never code), JSON lines appended to a pack per run, read as every other
file is: regular files, bounded (the whole folder too), and a malformed entry is a miss, never
an error. See ``_cache_folder`` for the folder's reading and compaction.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Final, cast

from wink_decl.evals._cache_folder import (
    COMPACT_JSON,
    NEW_PACK_FLAGS,
    CacheLimits,
    compact_folder,
    new_pack_name,
    read_folder,
    write_whole,
)
from wink_decl.runtime.provider import ProviderReply, ProviderToolCall, TokenUsage

if TYPE_CHECKING:
    from wink_decl.runtime.provider import ProviderMessage, ProviderRequest

__all__ = [
    "CACHE_FORMAT",
    "LIMITS",
    "ResponseCache",
    "reply_from_json",
    "reply_to_json",
    "request_key",
]

CACHE_FORMAT = 1
"""Part of every key: a change of what a key covers makes every old entry a miss."""

LIMITS: Final = CacheLimits()
"""What a cache folder is read within, unless told otherwise (see ``read_folder``)."""


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
    entry = cast("dict[str, object]", data)
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
        return ProviderToolCall(call_id, name, cast("dict[str, object]", arguments))
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
    """Replies under ``folder``, appended as JSON lines to packs: ``<folder>/replies-*.jsonl``.

    The folder is read once, when the cache is made, within ``limits`` (see ``read_folder``):
    a lookup is then one look in memory, never a read of the folder. A writer (only a run's
    driver writes) appends to a pack of its own, one line an entry (``{"key": ..., "reply":
    ...}``) by one ``write``, so a kill leaves every line whole but perhaps the last, which a
    reader never takes; what it writes is found by its own lookups, not by a reader made
    before. The driver compacts the folder first (``compact``). ``notes`` says what was not
    read. Reading is safe from many threads.
    """

    def __init__(self, folder: str | os.PathLike[str], *, limits: CacheLimits = LIMITS) -> None:
        """Read the entries under ``folder`` (made when the first entry is written)."""
        self.folder = Path(folder)
        self._found = read_folder(self.folder, limits)
        self._index = self._found.index
        self._lock = threading.Lock()
        self._pack = -1

    @property
    def notes(self) -> tuple[str, ...]:
        """A line each thing the cache did not read or keep (for the run's warnings)."""
        return tuple(self._found.notes)

    def get(self, key: str) -> ProviderReply | None:
        """The reply kept under ``key``; None when there is none or it cannot be used."""
        line = self._index.lines.get(key)
        return None if line is None else reply_from_json(json.loads(line)["reply"])

    def put(self, key: str, reply: ProviderReply) -> None:
        """Keep ``reply`` under ``key`` (a later entry of a key wins over an earlier one)."""
        line = json.dumps({"key": key, "reply": reply_to_json(reply)}, **COMPACT_JSON) + "\n"
        data = line.encode()
        with self._lock:
            if self._pack < 0:
                self._open_pack()
            write_whole(self._pack, data)
            self._index.keep(key, data)

    def compact(self) -> None:
        """Merge the packs and old-layout entries read into one pack (before any ``put``)."""
        compact_folder(self.folder, self._found)

    def close(self) -> None:
        """Close this writer's pack; idempotent."""
        if self._pack >= 0:
            os.close(self._pack)
            self._pack = -1

    def _open_pack(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self._pack = os.open(self.folder / new_pack_name(), NEW_PACK_FLAGS, 0o666)
