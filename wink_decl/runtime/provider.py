"""Provider-neutral messages and tool calls: what flows between the loop and an adapter."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, Protocol

from wink_decl.runtime.json_errors import same_on_every_python

__all__ = [
    "OPENING_MESSAGE",
    "ModelClient",
    "OutputFormat",
    "ProviderMessage",
    "ProviderReply",
    "ProviderRequest",
    "ProviderToolCall",
    "TokenUsage",
]

Role = Literal["system", "user", "assistant", "tool"]

OPENING_MESSAGE = "Follow the instructions in the system prompt."
"""The user turn every conversation opens with, after the rendered prompt as system message.

The prompt is the whole task, but most providers (Anthropic, Bedrock, Gemini) and many local
models' chat templates refuse a conversation without a user turn; one fixed text everywhere
keeps requests alike across providers and runs."""


@dataclass(slots=True, frozen=True)
class ProviderToolCall:
    """A tool call the model made; ``arguments`` as JSON text or an already-decoded mapping."""

    call_id: str
    name: str
    arguments: str | Mapping[str, object] = "{}"

    def decoded_arguments(self) -> object:
        """The arguments as JSON data; ``ValueError`` with a readable reason when malformed."""
        if not isinstance(self.arguments, str):
            return dict(self.arguments)
        try:
            return json.loads(self.arguments or "{}")
        except json.JSONDecodeError as raised:
            error = same_on_every_python(raised)
            raise ValueError(f"Arguments are not valid JSON: {error}.") from None


@dataclass(slots=True, frozen=True)
class ProviderMessage:
    """One conversation message in a provider-neutral shape."""

    role: Role
    content: str
    tool_calls: tuple[ProviderToolCall, ...] = ()
    tool_call_id: str | None = None
    """For ``role="tool"``: the call this message answers."""
    is_error: bool = False
    """For ``role="tool"``: the call failed (was refused, raised, or returned an error)."""


@dataclass(slots=True, frozen=True)
class OutputFormat:
    """The shape the final answer must have: a declared output, as a JSON Schema."""

    name: str
    """A name for the shape (providers ask for one; a forced tool is called by it)."""
    schema: Mapping[str, object]
    """The closed JSON Schema of the output dataclass."""
    description: str = "The final answer, as the prompt's declared output."


@dataclass(slots=True, frozen=True)
class ProviderRequest:
    """One model turn: the conversation so far and the tools on offer, as provider specs."""

    messages: tuple[ProviderMessage, ...]
    tools: tuple[Mapping[str, object], ...]
    """OpenAI-style function specs; adapters convert them to their provider's format."""
    tool_names: tuple[str, ...] = field(default=())
    output: OutputFormat | None = None
    """When set, the final answer (a reply without tool calls) must be JSON of this shape."""
    timeout: float | None = None
    """Seconds left before the run's deadline, for the provider call; None: no deadline."""


@dataclass(slots=True, frozen=True)
class TokenUsage:
    """Tokens one response (or a whole run) used, as the provider counted them."""

    input_tokens: int = 0
    output_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        """Input and output together."""
        return self.input_tokens + self.output_tokens

    def __add__(self, other: TokenUsage) -> TokenUsage:
        """The sum of two counts."""
        return TokenUsage(
            self.input_tokens + other.input_tokens, self.output_tokens + other.output_tokens
        )


@dataclass(slots=True, frozen=True)
class ProviderReply:
    """The model's answer to one request: text, tool calls, or both."""

    text: str = ""
    tool_calls: tuple[ProviderToolCall, ...] = ()
    usage: TokenUsage | None = None
    """What the response cost, when the provider said."""


class ModelClient(Protocol):
    """What the inner loop needs of an adapter: its name, whether tools may change, one turn.

    ``ProviderAdapter`` satisfies it; the loop names only this, so it never imports the adapter.
    """

    @property
    def name(self) -> str:
        """The adapter's name, in events and messages."""
        ...

    @property
    def supports_dynamic_tools(self) -> bool:
        """True when the provider accepts a different tool list on every request."""
        ...

    @property
    def secrets(self) -> tuple[str, ...]:
        """The credentials the adapter holds, redacted from every failed tool call's message."""
        ...

    def complete(self, request: ProviderRequest) -> ProviderReply:
        """One model turn."""
        ...
