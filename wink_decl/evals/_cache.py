"""The response cache: each model reply kept under the exact request that asked for it.

A re-run of an unchanged suite sends no request: every turn of every case finds its reply.
Entries are JSON data (never code), JSON lines appended to a pack per run, read as every other
file is: regular files, bounded, and a malformed entry is a miss, never an error.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from wink_decl.loader.regular_files import open_regular, read_capped, read_up_to
from wink_decl.runtime.provider import ProviderReply, ProviderToolCall, TokenUsage

if TYPE_CHECKING:
    from wink_decl.runtime.provider import ProviderMessage, ProviderRequest

__all__ = [
    "CACHE_FORMAT",
    "MAX_ENTRY_BYTES",
    "MAX_PACK_BYTES",
    "PACK_PREFIX",
    "PACK_SUFFIX",
    "ResponseCache",
    "reply_from_json",
    "reply_to_json",
    "request_key",
    "write_whole",
]

CACHE_FORMAT = 1
"""Part of every key: a change of what a key covers makes every old entry a miss."""

MAX_ENTRY_BYTES = 16_000_000
"""An entry larger than this is not read (a reply is text and tool calls: far smaller)."""

MAX_PACK_BYTES = 1_000_000_000
"""A pack larger than this is not read: its entries are misses."""

PACK_PREFIX = "replies-"
PACK_SUFFIX = ".jsonl"
"""A pack's name: ``replies-<time>-<random>.jsonl`` for a run's, any name between for others."""

_NEW_PACK = (
    os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | getattr(os, "O_BINARY", 0)
)
_COMPACT: dict[str, Any] = {"ensure_ascii": False, "separators": (",", ":")}


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
    """Replies under ``folder``, appended as JSON lines to packs: ``<folder>/replies-*.jsonl``.

    Each writer appends to a pack of its own, one line an entry (``{"key": ..., "reply":
    ...}``), written by one ``write``, so a kill leaves every line whole but perhaps the last,
    which a reader never takes. A reader reads every pack once, then on a miss only what the
    packs gained since (a reader on another process sees the writer's new entries). Entries
    of the layout before packs, one file each (``<folder>/<key[:2]>/<key>.json``), are read
    too. Reading is safe from many threads; only the run's driver writes.
    """

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        """Keep entries under ``folder`` (made when the first entry is written)."""
        self.folder = Path(folder)
        self._entries: dict[str, object] = {}
        self._read: dict[str, int] = {}
        """Each pack's bytes taken so far (whole lines): a refresh reads only what follows."""
        self._legacy: frozenset[str] = frozenset()
        """The folders of one-file entries (the former layout) found: only those are looked in."""
        self._lock = threading.Lock()
        self._pack = -1
        self._pack_name = ""
        self._refresh()

    def get(self, key: str) -> ProviderReply | None:
        """The reply kept under ``key``; None when there is none or it cannot be used."""
        data = self._entries.get(key)
        if data is None:
            self._refresh()
            data = self._entries.get(key)
        if data is None:
            return self._one_file(key) if key[:2] in self._legacy else None
        return reply_from_json(data)

    def put(self, key: str, reply: ProviderReply) -> None:
        """Keep ``reply`` under ``key`` (a later entry of a key wins over an earlier one)."""
        line = json.dumps({"key": key, "reply": reply_to_json(reply)}, **_COMPACT) + "\n"
        data = line.encode()
        with self._lock:
            if self._pack < 0:
                self._open_pack()
            write_whole(self._pack, data)
            self._read[self._pack_name] = self._read.get(self._pack_name, 0) + len(data)
            self._take(data)

    def close(self) -> None:
        """Close this writer's pack; idempotent."""
        if self._pack >= 0:
            os.close(self._pack)
            self._pack = -1

    def _open_pack(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        # Named by time, so that packs are read oldest first and a newer entry wins.
        self._pack_name = f"{PACK_PREFIX}{time.time_ns():020d}-{secrets.token_hex(4)}{PACK_SUFFIX}"
        self._pack = os.open(self.folder / self._pack_name, _NEW_PACK, 0o666)

    def _refresh(self) -> None:
        """Take what the packs gained since last read, and note the one-file entries' folders."""
        with self._lock:
            try:
                found = sorted(os.scandir(self.folder), key=lambda entry: entry.name)
            except OSError:  # no folder yet (or not a folder): nothing kept
                return
            legacy: set[str] = set()
            for entry in found:
                name = entry.name
                if name.startswith(PACK_PREFIX) and name.endswith(PACK_SUFFIX):
                    self._take_pack(entry.path, name)
                elif len(name) == 2 and entry.is_dir(follow_symlinks=False):  # noqa: PLR2004
                    legacy.add(name)
            self._legacy = frozenset(legacy)

    def _take_pack(self, path: str, name: str) -> None:
        start = self._read.get(name, 0)
        try:
            descriptor, info = open_regular(path, follow_links=False)
        except OSError:  # not a regular file, or gone: no entry of it
            return
        try:
            if start >= info.st_size or info.st_size > MAX_PACK_BYTES:
                return
            os.lseek(descriptor, start, os.SEEK_SET)
            new = read_up_to(descriptor, info.st_size - start, MAX_PACK_BYTES - start)
        finally:
            os.close(descriptor)
        whole = new.rfind(b"\n") + 1  # a line still being written is taken once it is whole
        self._read[name] = start + whole
        self._take(new[:whole])

    def _take(self, lines: bytes) -> None:
        for line in lines.splitlines():
            entry = _pack_entry(line)
            if entry is not None:
                self._entries[entry[0]] = entry[1]

    def _one_file(self, key: str) -> ProviderReply | None:
        try:
            content, _ = read_capped(self.folder / key[:2] / f"{key}.json", MAX_ENTRY_BYTES)
            data: object = json.loads(content)
        except (OSError, ValueError, RecursionError):  # missing, not a file, too big, not JSON
            return None
        return reply_from_json(data)


def _pack_entry(line: bytes) -> tuple[str, object] | None:
    """The key and reply data of a pack's line; None when it is not what ``put`` writes."""
    if len(line) > MAX_ENTRY_BYTES:
        return None
    try:
        data: object = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    entry = cast("dict[str, object]", data)
    key = entry.get("key")
    if set(entry) != {"key", "reply"} or not isinstance(key, str):
        return None
    return key, entry["reply"]


def write_whole(descriptor: int, data: bytes) -> None:
    """Write all of ``data``: one ``write`` of an appending descriptor, short writes resumed."""
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view) :]
