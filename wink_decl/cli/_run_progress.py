"""What ``wink-decl run`` shows on a terminal while it works: each turn and tool call, briefly."""

from __future__ import annotations

from typing import TextIO

from wink_decl._nouns import noun_for
from wink_decl.adapters.adapter_support import redact
from wink_decl.runtime.session import (
    ModelRequested,
    ModelResponded,
    SetVisibilityOverride,
    ToolInvoked,
)

__all__ = ["Progress"]

_WIDTH = 100


class Progress:
    """A session listener writing one short line per turn, tool call and opened section."""

    def __init__(self, stream: TextIO, secrets: tuple[str, ...]) -> None:
        """Write to ``stream`` (a terminal), never showing ``secrets``."""
        self._stream = stream
        self._secrets = secrets

    def listen(self, event: object) -> None:
        """Show one event, if it is one worth a line."""
        line = _line(event)
        if line is not None:
            self._stream.write(_clip(redact(line, self._secrets)) + "\n")
            self._stream.flush()


def _line(event: object) -> str | None:
    if isinstance(event, ModelRequested):
        offered = len(event.tool_names)
        tools = f"{offered} {noun_for(offered, 'tool')}"
        return f"turn {event.turn}: asking the model ({tools} on offer)"
    if isinstance(event, ModelResponded) and event.tool_calls:
        return "  the model calls " + ", ".join(call.name for call in event.tool_calls)
    if isinstance(event, ToolInvoked):
        if event.result.success:
            return f"  {event.tool_name}: ok"
        first = (event.rendered_output.splitlines() or [""])[0]
        return f"  {event.tool_name} failed: {first}"
    if isinstance(event, SetVisibilityOverride):
        return f"  opened section {'.'.join(event.path)}"
    return None


def _clip(line: str) -> str:
    return line if len(line) <= _WIDTH else line[: _WIDTH - 3] + "..."
