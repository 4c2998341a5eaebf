"""Events of the conversation with the model: each request and each response (log slices)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from wink_decl.runtime.provider import ProviderToolCall, TokenUsage

__all__ = ["ModelRequested", "ModelResponded"]


@dataclass(slots=True, frozen=True)
class ModelRequested:
    """The loop asked the model for its next turn."""

    prompt_name: str
    adapter: str
    turn: int
    """1 for the first request of a conversation (a restarted conversation starts at 1 again)."""
    tool_names: tuple[str, ...]
    """The tools on offer in this request, in order."""
    message_count: int
    """How many messages the conversation had when it was sent."""
    created_at: float = field(default_factory=time.time)


@dataclass(slots=True, frozen=True)
class ModelResponded:
    """The model answered one request: text, tool calls, and what it cost."""

    prompt_name: str
    adapter: str
    turn: int
    text: str
    tool_calls: tuple[ProviderToolCall, ...]
    usage: TokenUsage | None
    """None when the provider did not say."""
    created_at: float = field(default_factory=time.time)
