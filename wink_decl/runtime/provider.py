"""Provider-neutral messages and tool calls: what flows between the loop and an adapter."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from wink_decl.runtime._json import same_on_every_python

__all__ = ["ProviderMessage", "ProviderReply", "ProviderRequest", "ProviderToolCall"]

Role = Literal["system", "user", "assistant", "tool"]


@dataclass(slots=True, frozen=True)
class ProviderToolCall:
    """A tool call the model made; ``arguments`` as JSON text or an already-decoded mapping."""

    call_id: str
    name: str
    arguments: str | Mapping[str, Any] = "{}"

    def decoded_arguments(self) -> object:
        """The arguments as JSON data; ``ValueError`` with a readable reason when malformed."""
        if not isinstance(self.arguments, str):
            return dict(self.arguments)
        try:
            return json.loads(self.arguments or "{}")
        except json.JSONDecodeError as raised:
            error = same_on_every_python(raised)
            raise ValueError(
                f"Arguments are not valid JSON: {error.msg} at position {error.pos}."
            ) from None


@dataclass(slots=True, frozen=True)
class ProviderMessage:
    """One conversation message in a provider-neutral shape."""

    role: Role
    content: str
    tool_calls: tuple[ProviderToolCall, ...] = ()
    tool_call_id: str | None = None
    """For ``role="tool"``: the call this message answers."""


@dataclass(slots=True, frozen=True)
class ProviderRequest:
    """One model turn: the conversation so far and the tools on offer, as provider specs."""

    messages: tuple[ProviderMessage, ...]
    tools: tuple[Mapping[str, Any], ...]
    """OpenAI-style function specs; adapters convert them to their provider's format."""
    tool_names: tuple[str, ...] = field(default=())


@dataclass(slots=True, frozen=True)
class ProviderReply:
    """The model's answer to one request: text, tool calls, or both."""

    text: str = ""
    tool_calls: tuple[ProviderToolCall, ...] = ()
