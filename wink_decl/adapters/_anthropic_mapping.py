"""The Messages API's shapes: the loop's conversation and tools as a request, the answer back."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, cast

from wink_decl.runtime.provider import (
    OPENING_MESSAGE,
    OutputFormat,
    ProviderMessage,
    ProviderReply,
    ProviderToolCall,
    TokenUsage,
)

if TYPE_CHECKING:
    from anthropic.types import (
        ContentBlock,
        Message,
        MessageDeltaUsage,
        MessageParam,
        RawContentBlockDelta,
        RawMessageStreamEvent,
        TextBlockParam,
        ToolParam,
        ToolResultBlockParam,
        ToolUseBlockParam,
        Usage,
    )

    _Block: TypeAlias = TextBlockParam | ToolUseBlockParam | ToolResultBlockParam

__all__ = [
    "FIRST_USER_MESSAGE",
    "anthropic_tools",
    "conversation",
    "reply_of_events",
    "reply_of_message",
    "with_output",
]

FIRST_USER_MESSAGE = OPENING_MESSAGE
"""The user turn a conversation opens with when it has none: the loop sends the whole prompt as
system text, and the Messages API needs a user turn before the first assistant turn."""

_Role: TypeAlias = Literal["user", "assistant"]


# -- the request -------------------------------------------------------------------------------


def conversation(messages: Sequence[ProviderMessage]) -> tuple[str, list[MessageParam]]:
    """The system text and the Messages API turns of a provider-neutral conversation.

    Tool messages answering one assistant turn become one user turn of ``tool_result`` blocks;
    turns of the same role next to each other are joined, and an assistant turn with nothing
    in it (the model said nothing) is left out, because the API refuses empty turns.
    """
    system = "\n\n".join(m.content for m in messages if m.role == "system")
    rest = [m for m in messages if m.role != "system"]
    opening: list[_Block] = [_text(FIRST_USER_MESSAGE)]
    turns: list[tuple[_Role, list[_Block]]] = (
        [] if rest and rest[0].role == "user" else [("user", opening)]
    )
    for message in rest:
        role, blocks = _turn(message)
        if not blocks:
            continue
        if turns and turns[-1][0] == role:
            turns[-1][1].extend(blocks)
        else:
            turns.append((role, blocks))
    return system, [_message(role, blocks) for role, blocks in turns]


def _turn(message: ProviderMessage) -> tuple[_Role, list[_Block]]:
    if message.role == "tool":
        result: ToolResultBlockParam = {
            "type": "tool_result",
            "tool_use_id": message.tool_call_id or "",
            "content": message.content,
        }
        if message.is_error:  # the model should read it as a failure, not as the tool's answer
            result["is_error"] = True
        return "user", [result]
    if message.role == "assistant":
        blocks: list[_Block] = [_text(message.content)] if message.content else []
        blocks += [_tool_use(call) for call in message.tool_calls]
        return "assistant", blocks
    return "user", [_text(message.content)]


def _text(text: str) -> TextBlockParam:
    return {"type": "text", "text": text}


def _tool_use(call: ProviderToolCall) -> ToolUseBlockParam:
    return {"type": "tool_use", "id": call.call_id, "name": call.name, "input": _input(call)}


def _input(call: ProviderToolCall) -> dict[str, object]:
    """The call's arguments as the object the API wants back; ``{}`` when they were not one.

    Streamed tool input arrives as JSON text the model may have got wrong; the tool's result
    already tells the model so, and the API refuses a ``tool_use`` whose input is no object.
    """
    try:
        arguments = call.decoded_arguments()
    except ValueError:
        return {}
    return cast("dict[str, object]", arguments) if isinstance(arguments, dict) else {}


def _message(role: _Role, blocks: list[_Block]) -> MessageParam:
    if role == "assistant":
        return {"role": "assistant", "content": blocks}
    return {"role": "user", "content": blocks}


def anthropic_tools(
    specs: Iterable[Mapping[str, Any]], output: OutputFormat | None = None
) -> list[ToolParam]:
    """OpenAI-style function specs as Messages API tools, and the output's forced tool last."""
    tools: list[ToolParam] = [
        {
            "name": function["name"],
            "description": function["description"],
            "input_schema": function["parameters"],
        }
        for function in (spec["function"] for spec in specs)
    ]
    if output is not None:
        tools.append(
            {
                "name": output.name,
                "description": output.description,
                "input_schema": dict(output.schema),
            }
        )
    return tools


# -- the answer --------------------------------------------------------------------------------


def reply_of_message(message: Message) -> ProviderReply:
    """A whole message's text, tool calls and usage."""
    text = "".join(block.text for block in message.content if block.type == "text")
    calls = tuple(
        ProviderToolCall(block.id, block.name, block.input)
        for block in message.content
        if block.type == "tool_use"
    )
    return ProviderReply(text, calls, _Tally().take(message.usage).usage)


def reply_of_events(
    events: Iterable[RawMessageStreamEvent],
) -> tuple[ProviderReply, str | None]:
    """The streamed message put together: text deltas, tool input JSON deltas and usage."""
    blocks: dict[int, _StreamedBlock] = {}
    tally = _Tally()
    stop_reason: str | None = None
    for event in events:
        if event.type == "message_start":
            tally.take(event.message.usage)
        elif event.type == "content_block_start":
            blocks[event.index] = _StreamedBlock.opened(event.content_block)
        elif event.type == "content_block_delta":
            blocks[event.index].add(event.delta)
        elif event.type == "message_delta":
            tally.take(event.usage)
            stop_reason = event.delta.stop_reason
    ordered = [blocks[index] for index in sorted(blocks)]
    text = "".join(block.text for block in ordered if block.kind == "text")
    calls = tuple(block.call() for block in ordered if block.kind == "tool_use")
    return ProviderReply(text, calls, tally.usage), stop_reason


@dataclass(slots=True)
class _StreamedBlock:
    """One content block of a stream: its opening and the deltas that followed."""

    kind: str
    opening: str = ""
    """The text the block opened with; for a tool call, its input as JSON."""
    call_id: str = ""
    name: str = ""
    parts: list[str] = field(default_factory=list[str])

    @classmethod
    def opened(cls, block: ContentBlock) -> _StreamedBlock:
        if block.type == "text":
            return cls("text", block.text)
        if block.type == "tool_use":
            return cls("tool_use", json.dumps(block.input), block.id, block.name)
        return cls(block.type)  # thinking and server-side blocks are not part of the answer

    def add(self, delta: RawContentBlockDelta) -> None:
        if delta.type == "text_delta":
            self.parts.append(delta.text)
        elif delta.type == "input_json_delta":
            self.parts.append(delta.partial_json)

    @property
    def text(self) -> str:
        return self.opening + "".join(self.parts)

    def call(self) -> ProviderToolCall:
        # Input normally arrives in deltas after an empty opening; some servers send it whole.
        return ProviderToolCall(self.call_id, self.name, "".join(self.parts) or self.opening)


@dataclass(slots=True)
class _Tally:
    """A response's token counts as the API reports them, through a stream's running totals."""

    input_tokens: int = 0
    cache_creation: int = 0
    cache_read: int = 0
    output_tokens: int = 0

    def take(self, usage: Usage | MessageDeltaUsage) -> _Tally:
        """Take the counts ``usage`` gives, replacing earlier ones.

        A ``message_delta`` reports running totals and leaves out input counts that did not
        change, so those keep their value.
        """
        self.input_tokens = _given(usage.input_tokens, self.input_tokens)
        self.cache_creation = _given(usage.cache_creation_input_tokens, self.cache_creation)
        self.cache_read = _given(usage.cache_read_input_tokens, self.cache_read)
        self.output_tokens = usage.output_tokens
        return self

    @property
    def usage(self) -> TokenUsage:
        # The API counts cached prompt tokens apart from input_tokens; all of them were input.
        inputs = self.input_tokens + self.cache_creation + self.cache_read
        return TokenUsage(inputs, self.output_tokens)


def _given(value: int | None, before: int) -> int:
    return before if value is None else value


def with_output(reply: ProviderReply, output: OutputFormat | None) -> ProviderReply:
    """A reply whose only calls are to the output tool, as the answer text the loop parses.

    When the model called other tools too, the output call is dropped: the others run and the
    model is asked again, so the conversation never holds a ``tool_use`` left unanswered.
    """
    if output is None:
        return reply
    answers = [call for call in reply.tool_calls if call.name == output.name]
    if not answers:
        return reply
    others = tuple(call for call in reply.tool_calls if call.name != output.name)
    if others:
        return replace(reply, tool_calls=others)
    arguments = answers[0].arguments
    text = arguments if isinstance(arguments, str) else json.dumps(dict(arguments))
    return ProviderReply(text, (), reply.usage)
