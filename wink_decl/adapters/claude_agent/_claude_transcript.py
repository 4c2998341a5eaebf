"""The turns of one Claude Code conversation as the runtime records them: events, usage, messages.

Claude Code calls the model itself; this module turns what it reports (stream events, assistant
blocks, tool results) back into the runtime's record: a ``ModelRequested`` when a response
starts, a ``ModelResponded`` when it is complete, the budget's turns and tokens, and the
provider-neutral transcript of ``PromptResponse.messages``.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field

import anyio

from wink_decl.runtime.budget import BudgetTracker
from wink_decl.runtime.provider import ProviderMessage, ProviderToolCall, TokenUsage
from wink_decl.runtime.session import SessionProtocol
from wink_decl.runtime.session.model_events import ModelRequested, ModelResponded

__all__ = ["Transcript", "token_usage"]

_INPUT_KEYS = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
"""Claude Code caches the prompt, so most input arrives as cache reads: all of it is input."""


def token_usage(usage: Mapping[str, object]) -> TokenUsage:
    """A Messages API ``usage`` object as ``TokenUsage`` (cached input counted as input)."""
    return TokenUsage(
        sum(_count(usage.get(key)) for key in _INPUT_KEYS), _count(usage.get("output_tokens"))
    )


def _count(value: object) -> int:
    return value if isinstance(value, int) else 0


@dataclass(slots=True)
class _Turn:
    """One model response while it arrives."""

    number: int
    streamed: bool
    """Opened by a ``message_start`` event, so complete only at ``message_stop``."""
    usage: dict[str, object]
    text: list[str] = field(default_factory=list[str])
    calls: list[ProviderToolCall] = field(default_factory=list[ProviderToolCall])
    claimed: set[str] = field(default_factory=set[str])
    settled: anyio.Event = field(default_factory=anyio.Event)


class Transcript:
    """Records turns as Claude Code reports them; the MCP handlers wait on it for their call ids.

    A response streamed with ``message_start`` ... ``message_stop`` is one turn; a response
    that arrives without stream events (Claude Code's non-streaming fallback) opens a turn with
    its first assistant block and closes it with the next tool result, turn or the result.
    """

    def __init__(
        self,
        *,
        prompt_name: str,
        adapter_name: str,
        session: SessionProtocol,
        budget: BudgetTracker,
        tool_names: tuple[str, ...],
        opening: tuple[ProviderMessage, ...],
        tool_prefix: str,
    ) -> None:
        """Start with the ``opening`` messages (the system prompt and the user's message)."""
        self._prompt_name = prompt_name
        self._adapter_name = adapter_name
        self._session = session
        self._budget = budget
        self._tool_names = tool_names
        self._tool_prefix = tool_prefix
        self.messages: list[ProviderMessage] = list(opening)
        self._early_results: list[ProviderMessage] = []
        self._turns = 0
        self._open: _Turn | None = None
        self._last: _Turn | None = None
        self._fallback_ids = (f"wink_call_{n}" for n in itertools.count(1))

    @property
    def turns(self) -> int:
        """Model responses so far in this conversation."""
        return self._turns

    @property
    def last_text(self) -> str:
        """The text of the latest response ('' before the first)."""
        return "" if self._last is None else "".join(self._last.text)

    @property
    def last_called_tools(self) -> bool:
        """Whether the latest response called tools (so the model expects another turn)."""
        return self._last is not None and bool(self._last.calls)

    def offer(self, tool_names: tuple[str, ...]) -> None:
        """The tools offered from the next response on (a call revealed some)."""
        self._tool_names = tool_names

    def start(self, usage: Mapping[str, object]) -> None:
        """A streamed response begins: count the turn and record the request it answers."""
        self._begin(usage, streamed=True)

    def update_usage(self, usage: Mapping[str, object]) -> None:
        """``message_delta`` counts: they replace the opening ones (output is cumulative)."""
        if self._open is not None:
            self._open.usage.update(usage)

    def responding(self, usage: Mapping[str, object]) -> None:
        """Blocks of a response arrive: one without stream events opens a turn with them."""
        if self._open is None:
            self._begin(usage, streamed=False)

    def add_text(self, text: str) -> None:
        """A text block of the current response."""
        self._current().text.append(text)

    def add_call(self, call_id: str, name: str, arguments: Mapping[str, object]) -> None:
        """A ``tool_use`` block; the runtime's own tools lose their MCP prefix."""
        local = name.removeprefix(self._tool_prefix)
        self._current().calls.append(ProviderToolCall(call_id, local, dict(arguments)))

    def add_tool_result(self, call_id: str, text: str) -> None:
        """What a tool call answered, as the model reads it.

        Claude Code may answer a call it refuses (an unknown tool) while the response is still
        streaming: the answer then follows the response in the transcript.
        """
        message = ProviderMessage("tool", text, tool_call_id=call_id)
        if self._open is not None and self._open.streamed:
            self._early_results.append(message)
            return
        self.finish()
        self.messages.append(message)

    def finish(self) -> None:
        """The current response is complete: count its tokens and record it."""
        turn, self._open = self._open, None
        if turn is None:
            return
        usage = token_usage(turn.usage)
        self._budget.record_usage(usage)
        text, calls = "".join(turn.text), tuple(turn.calls)
        self.messages.append(ProviderMessage("assistant", text, calls))
        self.messages.extend(self._early_results)
        self._early_results.clear()
        self._session.dispatch(
            ModelResponded(self._prompt_name, self._adapter_name, turn.number, text, calls, usage)
        )
        turn.settled.set()

    async def settled(self) -> None:
        """Wait until a streamed response is complete, so its events precede its tool calls.

        Claude Code starts a tool as soon as its block is complete, before the response ends.
        """
        turn = self._open
        if turn is not None and turn.streamed:
            await turn.settled.wait()

    def claim(self, tool_name: str, arguments: Mapping[str, object]) -> str:
        """The model's id for a call of ``tool_name`` with these arguments.

        MCP does not hand the model's call id to the tool: the latest response's first
        unclaimed call that matches is the one; a made-up id stands in if none does.
        """
        turn = self._last
        if turn is not None:
            for call in turn.calls:
                if call.call_id in turn.claimed or call.name != tool_name:
                    continue
                if call.arguments == arguments:
                    turn.claimed.add(call.call_id)
                    return call.call_id
        return next(self._fallback_ids)

    def _current(self) -> _Turn:
        return self._open or self._begin({}, streamed=False)

    def _begin(self, usage: Mapping[str, object], *, streamed: bool) -> _Turn:
        self.finish()
        self._turns += 1
        self._budget.record_turn()
        self._session.dispatch(
            ModelRequested(
                self._prompt_name,
                self._adapter_name,
                self._turns,
                self._tool_names,
                len(self.messages),
            )
        )
        self._open = self._last = _Turn(self._turns, streamed, dict(usage))
        return self._open
