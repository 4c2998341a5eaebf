"""The OpenAI Chat Completions format, shared by the adapters that speak it (OpenAI, LiteLLM).

Requests are built as plain JSON data and answers are read from plain JSON data (the SDKs'
``model_dump()``), so the same code serves every SDK that returns OpenAI-shaped objects.
See docs/adapters/openai.md.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any

from wink_decl.adapters.adapter_support import provider_error
from wink_decl.errors import WinkDeclError
from wink_decl.runtime.provider import (
    OutputFormat,
    ProviderMessage,
    ProviderReply,
    ProviderRequest,
    ProviderToolCall,
    TokenUsage,
)

__all__ = [
    "StreamedReply",
    "call_timeout",
    "chat_messages",
    "chat_request",
    "check_options",
    "reply_from_completion",
    "response_format",
    "strict_schema",
    "usage_from",
    "without_none",
]

_Json = dict[str, Any]
"""Wire JSON, untyped: it is also spread as keywords into the SDK's typed calls."""


def chat_request(request: ProviderRequest) -> _Json:
    """The request's part of a ``chat.completions.create`` call: messages, tools, output shape.

    ``tools`` is left out when none are on offer: some compatible servers reject an empty list.
    """
    arguments: _Json = {"messages": chat_messages(request.messages)}
    if request.tools:
        arguments["tools"] = [dict(spec) for spec in request.tools]
    if request.output is not None:
        arguments["response_format"] = response_format(request.output)
    return arguments


def check_options(options: Iterable[str], *, reserved: AbstractSet[str], adapter: str) -> None:
    """Refuse request options the adapter fills in itself.

    Raises:
        ValueError: An option is one of ``reserved``.
    """
    for name in options:
        if name in reserved:
            raise ValueError(f"{adapter} sets '{name}' itself; leave it out of the options.")


def call_timeout(configured: float | None, remaining: float | None) -> float | None:
    """The adapter's timeout, shortened to the time left before the run's deadline."""
    given = [seconds for seconds in (configured, remaining) if seconds is not None]
    return min(given) if given else None


def without_none(values: Mapping[str, Any]) -> _Json:
    """``values`` without the unset ones, so the SDK's defaults apply to those."""
    return {name: value for name, value in values.items() if value is not None}


def chat_messages(messages: Iterable[ProviderMessage]) -> list[_Json]:
    """Provider-neutral messages as Chat Completions messages."""
    return [_chat_message(message) for message in messages]


def _chat_message(message: ProviderMessage) -> _Json:
    if message.role == "tool":
        return {"role": "tool", "tool_call_id": message.tool_call_id, "content": message.content}
    if message.role != "assistant" or not message.tool_calls:
        return {"role": message.role, "content": message.content}
    # A turn that only calls tools has no text: the API wants null there, not "".
    return {
        "role": "assistant",
        "content": message.content or None,
        "tool_calls": [_chat_tool_call(call) for call in message.tool_calls],
    }


def _chat_tool_call(call: ProviderToolCall) -> _Json:
    arguments = call.arguments
    if not isinstance(arguments, str):  # decoded by another adapter: the API wants JSON text
        arguments = json.dumps(dict(arguments))
    return {
        "id": call.call_id,
        "type": "function",
        "function": {"name": call.name, "arguments": arguments},
    }


def response_format(output: OutputFormat) -> _Json:
    """The ``response_format`` asking for ``output``: strict when strict mode keeps its meaning."""
    strict = strict_schema(output.schema)
    return {
        "type": "json_schema",
        "json_schema": {
            "name": output.name,
            "description": output.description,
            "schema": dict(output.schema) if strict is None else strict,
            "strict": strict is not None,
        },
    }


_STRICT_KEYWORDS = frozenset(
    {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "anyOf",
        "enum",
        "const",
        "description",
        "title",
    }
)
"""Keywords OpenAI's strict mode accepts (of those our schemas use); any other means no strict."""


class _NotStrict(WinkDeclError):  # noqa: N818  # a signal inside strict_schema, never raised out
    """Strict mode would change what the schema means."""


def strict_schema(schema: Mapping[str, Any]) -> _Json | None:
    """``schema`` as OpenAI's strict mode needs it, or None when that would change its meaning.

    Strict mode wants every object closed and every property required. An optional property
    whose default is null and that accepts null converts faithfully (required, and the model
    sends null for "not given"); any other default, an open mapping, a fixed-length tuple or an
    untyped value cannot, and the schema is then sent as it is, without strict.
    """
    try:
        return _strict_node(schema)
    except _NotStrict:
        return None


def _strict_node(node: Mapping[str, Any]) -> _Json:
    if not node.keys() <= _STRICT_KEYWORDS or not ("type" in node or "anyOf" in node):
        raise _NotStrict
    converted = dict(node)
    if "anyOf" in node:
        converted["anyOf"] = [_strict_node(option) for option in node["anyOf"]]
    if "items" in node:
        if not isinstance(node["items"], Mapping):  # a fixed-length tuple: items per position
            raise _NotStrict
        converted["items"] = _strict_node(node["items"])  # pyright: ignore[reportUnknownArgumentType]
    if "properties" in node:
        converted.update(_strict_object(node))
    elif node.get("type") == "object":  # a mapping: its keys are not known in advance
        raise _NotStrict
    return converted


def _strict_object(node: Mapping[str, Any]) -> _Json:
    if node.get("additionalProperties") is not False:
        raise _NotStrict
    required = set(node.get("required", ()))
    properties = {
        name: _strict_node(schema if name in required else _null_for_default(schema))
        for name, schema in node["properties"].items()
    }
    return {"properties": properties, "required": list(properties), "additionalProperties": False}


def _null_for_default(schema: Mapping[str, Any]) -> Mapping[str, Any]:
    """An optional property made required, faithful only when null stands for its default."""
    nullable = any(option.get("type") == "null" for option in schema.get("anyOf", ()))
    if not nullable or "default" not in schema or schema["default"] is not None:
        raise _NotStrict
    return {key: value for key, value in schema.items() if key != "default"}


def reply_from_completion(completion: Mapping[str, Any]) -> ProviderReply:
    """A ``chat.completion`` (as JSON data) as the loop's reply: text, tool calls, usage."""
    choices: Sequence[Mapping[str, Any]] = completion.get("choices") or ()
    if not choices:
        raise provider_error("The provider answered without a message (no choices).", kind="other")
    message: Mapping[str, Any] = choices[0].get("message") or {}
    calls = tuple(
        _tool_call(position, call) for position, call in enumerate(message.get("tool_calls") or ())
    )
    return ProviderReply(
        text=_text_of(message), tool_calls=calls, usage=usage_from(completion.get("usage"))
    )


def _text_of(message: Mapping[str, Any]) -> str:
    # A refusal (structured outputs) comes instead of content; it is the model's answer.
    return message.get("content") or message.get("refusal") or ""


def _tool_call(position: int, call: Mapping[str, Any]) -> ProviderToolCall:
    function: Mapping[str, Any] = call.get("function") or {}
    return ProviderToolCall(
        # Some compatible servers send no id; the next request still needs one to answer.
        call_id=call.get("id") or f"call_{position}",
        name=function.get("name") or "",
        # Kept as the model sent it: malformed JSON is the executor's to report to the model.
        arguments=function.get("arguments") or "",
    )


def usage_from(usage: Mapping[str, Any] | None) -> TokenUsage | None:
    """Token counts of a ``usage`` object; None when the provider sent none."""
    if not usage:
        return None
    return TokenUsage(usage.get("prompt_tokens") or 0, usage.get("completion_tokens") or 0)


@dataclass(slots=True)
class _PartialCall:
    call_id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list[str])

    def add(self, delta: Mapping[str, Any]) -> None:
        function: Mapping[str, Any] = delta.get("function") or {}
        # The id and name come once, in the call's first delta; only arguments are split.
        self.call_id = self.call_id or delta.get("id") or ""
        self.name = self.name or function.get("name") or ""
        self.arguments.append(function.get("arguments") or "")


@dataclass(slots=True)
class StreamedReply:
    """Assembles ``chat.completion.chunk`` objects (as JSON data) into one reply.

    Text deltas are joined; tool-call deltas are gathered by their ``index``, so parallel calls
    whose pieces arrive interleaved come out whole and in order; usage comes from the chunk
    that carries it (the last one, with ``stream_options={"include_usage": true}``).
    """

    _text: list[str] = field(default_factory=list[str])
    _calls: dict[int, _PartialCall] = field(default_factory=dict[int, _PartialCall])
    _usage: TokenUsage | None = None

    def add(self, chunk: Mapping[str, Any]) -> None:
        """Take one chunk."""
        self._usage = usage_from(chunk.get("usage")) or self._usage
        for choice in chunk.get("choices") or ():
            delta: Mapping[str, Any] = choice.get("delta") or {}
            self._text.append(delta.get("content") or delta.get("refusal") or "")
            for call in delta.get("tool_calls") or ():
                # Servers that send each call whole in one delta may leave out its index.
                index = call.get("index", len(self._calls))
                self._calls.setdefault(index, _PartialCall()).add(call)

    def reply(self) -> ProviderReply:
        """Everything received so far, as the loop's reply."""
        calls = tuple(
            ProviderToolCall(call.call_id or f"call_{index}", call.name, "".join(call.arguments))
            for index, call in sorted(self._calls.items())
        )
        return ProviderReply(text="".join(self._text), tool_calls=calls, usage=self._usage)
