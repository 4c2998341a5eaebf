"""``--transcript``: the run as JSON Lines, one object per event, then the token totals."""

from __future__ import annotations

import json
import os
import tempfile
import threading
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import IO

from wink_decl.adapters.adapter_support import redact
from wink_decl.prompt.serde import dump
from wink_decl.runtime.provider import TokenUsage
from wink_decl.runtime.session import (
    ModelRequested,
    ModelResponded,
    SetVisibilityOverride,
    ToolInvoked,
    ToolsInjected,
)

__all__ = ["Transcript", "event_records"]


def event_records(event: object) -> list[dict[str, object]]:
    """The transcript records of one session event (none for events it does not show)."""
    if isinstance(event, ModelRequested):
        return [
            {
                "event": "request",
                "turn": event.turn,
                "tools": list(event.tool_names),
                "messages": event.message_count,
            }
        ]
    if isinstance(event, ModelResponded):
        response: dict[str, object] = {"event": "response", "turn": event.turn, "text": event.text}
        response["usage"] = None if event.usage is None else usage_record(event.usage)
        calls = [
            {
                "event": "tool_call",
                "turn": event.turn,
                "call_id": call.call_id,
                "name": call.name,
                "arguments": _arguments(call.arguments),
            }
            for call in event.tool_calls
        ]
        return [response, *calls]
    if isinstance(event, ToolInvoked):
        return [
            {
                "event": "tool_result",
                "call_id": event.call_id,
                "name": event.tool_name,
                "success": event.result.success,
                "output": event.rendered_output,
            }
        ]
    if isinstance(event, SetVisibilityOverride):
        return [
            {
                "event": "visibility",
                "section": ".".join(event.path),
                "visibility": event.visibility.value,
            }
        ]
    if isinstance(event, ToolsInjected):
        section = event.section_key
        return [{"event": "tools_injected", "section": section, "tools": list(event.tool_names)}]
    return []


def usage_record(usage: TokenUsage) -> dict[str, int]:
    """Tokens as the transcript writes them."""
    return {
        "input_tokens": usage.input_tokens,
        "output_tokens": usage.output_tokens,
        "total_tokens": usage.total_tokens,
    }


def _arguments(arguments: object) -> object:
    """The model's arguments as JSON data; text that is not JSON is kept as text."""
    if not isinstance(arguments, str):
        return dump(arguments)
    try:
        return json.loads(arguments or "{}")
    except json.JSONDecodeError:
        return arguments


class Transcript:
    """Writes records to a temporary file beside ``path`` and moves it into place at ``close``.

    The file appears whole or not at all; a run that fails still gets its transcript, ending
    with the error and the totals. Every line has the secrets removed and ``t``, the seconds
    since the run started.
    """

    def __init__(self, path: str, secrets: Iterable[str]) -> None:
        """Open the temporary file; ``OSError`` when the folder cannot take it."""
        self._path = Path(path)
        self._secrets = tuple(secrets)
        self._start = time.monotonic()
        self._lock = threading.Lock()
        """Held while writing: a run abandoned at its timeout may write from another thread."""
        handle, self._temporary = tempfile.mkstemp(
            prefix=f".{self._path.name}.", suffix=".tmp", dir=self._path.parent
        )
        self._file: IO[str] = os.fdopen(handle, "w", encoding="utf-8")

    def listen(self, event: object) -> None:
        """Write the records of one session event."""
        self.write(event_records(event))

    def write(self, records: Iterable[Mapping[str, object]]) -> None:
        """Append records, one JSON object per line."""
        elapsed = round(time.monotonic() - self._start, 3)
        lines = [json.dumps({**record, "t": elapsed}, ensure_ascii=False) for record in records]
        with self._lock:
            if self._file.closed:
                return  # the run was stopped at its timeout and the transcript finished
            self._file.writelines(redact(line, self._secrets) + "\n" for line in lines)
            self._file.flush()

    def close(self) -> None:
        """Put the finished transcript in place."""
        with self._lock:
            self._file.close()
        Path(self._temporary).replace(self._path)
