"""``ScriptedAdapter``: replays a scripted conversation, for offline use, examples and tests."""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from dataclasses import dataclass

from wink_decl.errors import EvaluationPhase, PromptEvaluationError
from wink_decl.runtime.adapter import ProviderAdapter
from wink_decl.runtime.provider import (
    ProviderReply,
    ProviderRequest,
    ProviderToolCall,
    TokenUsage,
)

__all__ = ["ScriptedAdapter", "ScriptedTurn"]

_call_ids = itertools.count(1)


@dataclass(slots=True, frozen=True)
class ScriptedTurn:
    """One model turn: some text and the tool calls the model makes."""

    text: str = ""
    tool_calls: tuple[ProviderToolCall, ...] = ()
    usage: TokenUsage | None = None

    @classmethod
    def answer(cls, text: str, usage: TokenUsage | None = None) -> ScriptedTurn:
        """A final answer: text and no tool calls."""
        return cls(text=text, usage=usage)

    @classmethod
    def call(cls, name: str, text: str = "", **arguments: object) -> ScriptedTurn:
        """A turn that makes one tool call with keyword ``arguments``."""
        return cls(text=text, tool_calls=(tool_call(name, **arguments),))


def tool_call(name: str, **arguments: object) -> ProviderToolCall:
    """A tool call with a fresh id and JSON arguments, as providers send them."""
    return ProviderToolCall(f"call_{next(_call_ids)}", name, json.dumps(arguments))


class ScriptedAdapter(ProviderAdapter):
    """Answers each request with the next scripted turn, in either capability mode.

    ``requests`` records what the loop sent, so tests can check the tools on offer.
    After a restart the script simply continues: the model's next turn follows.
    """

    def __init__(
        self,
        turns: Sequence[ScriptedTurn],
        *,
        supports_dynamic_tools: bool = False,
        name: str = "scripted",
    ) -> None:
        """Replay ``turns`` in order."""
        self.name = name
        self._turns = list(turns)
        self._position = 0
        self._dynamic = supports_dynamic_tools
        self.requests: list[ProviderRequest] = []

    @property
    def supports_dynamic_tools(self) -> bool:
        """As configured."""
        return self._dynamic

    @property
    def remaining(self) -> int:
        """Turns not yet replayed."""
        return len(self._turns) - self._position

    def complete(self, request: ProviderRequest) -> ProviderReply:
        """The next scripted turn; a clear error when the script has run out."""
        self.requests.append(request)
        if self._position >= len(self._turns):
            raise PromptEvaluationError(
                f"The script has no turn left: {_replayed(len(self._turns))}.",
                phase=EvaluationPhase.PROVIDER,
            )
        turn = self._turns[self._position]
        self._position += 1
        return ProviderReply(text=turn.text, tool_calls=turn.tool_calls, usage=turn.usage)


def _replayed(turns: int) -> str:
    return "its one turn was replayed" if turns == 1 else f"all {turns} turns were replayed"
