"""The Chat Completions format both OpenAI-shaped adapters share: requests, strict schemas,
answers and streamed chunks."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Any

import pytest
from openai_replies import chunks, completion

from wink_decl.adapters._openai_format import (
    StreamedReply,
    call_timeout,
    chat_messages,
    chat_request,
    reply_from_completion,
    strict_schema,
)
from wink_decl.prompt.tool_schema import params_json_schema
from wink_decl.runtime.output import output_format
from wink_decl.runtime.provider import (
    ProviderMessage,
    ProviderReply,
    ProviderRequest,
    ProviderToolCall,
    TokenUsage,
)


def test_a_request_without_tools_or_output_carries_only_messages() -> None:
    request = ProviderRequest(messages=(ProviderMessage("system", "Be brief."),), tools=())
    assert chat_request(request) == {"messages": [{"role": "system", "content": "Be brief."}]}


def test_messages_of_every_role() -> None:
    messages = [
        ProviderMessage("system", "Be brief."),
        ProviderMessage("user", "Go."),
        ProviderMessage(
            "assistant",
            "Checking.",
            tool_calls=(
                ProviderToolCall("call_1", "read", '{"path": "a"}'),
                ProviderToolCall("call_2", "read", {"path": "b"}),  # decoded by another adapter
            ),
        ),
        ProviderMessage("tool", "A.", tool_call_id="call_1"),
        ProviderMessage("tool", "B.", tool_call_id="call_2"),
        ProviderMessage("assistant", ""),
    ]
    assert chat_messages(messages) == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Go."},
        {
            "role": "assistant",
            "content": "Checking.",
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "read", "arguments": '{"path": "a"}'},
                },
                {
                    "id": "call_2",
                    "type": "function",
                    "function": {"name": "read", "arguments": '{"path": "b"}'},
                },
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "A."},
        {"role": "tool", "tool_call_id": "call_2", "content": "B."},
        {"role": "assistant", "content": ""},
    ]


@dataclass(frozen=True)
class Step:
    name: str
    done: bool


@dataclass(frozen=True)
class Plan:
    steps: list[Step]
    owner: str | None = None


@dataclass(frozen=True)
class WithDefault:
    level: int = 1


@dataclass(frozen=True)
class WithOptionalText:
    note: str | None = "none yet"


@dataclass(frozen=True)
class WithPair:
    pair: tuple[int, str]


@dataclass(frozen=True)
class WithMapping:
    counts: dict[str, int]


@dataclass(frozen=True)
class WithAnything:
    value: Any


@dataclass(frozen=True)
class WithFactory:
    tags: list[str] = field(default_factory=list[str])


def test_a_schema_with_only_null_defaults_converts_to_strict() -> None:
    assert strict_schema(params_json_schema(Plan)) == {
        "type": "object",
        "properties": {
            "steps": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"name": {"type": "string"}, "done": {"type": "boolean"}},
                    "required": ["name", "done"],
                    "additionalProperties": False,
                },
            },
            "owner": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        },
        "required": ["steps", "owner"],
        "additionalProperties": False,
    }


@pytest.mark.parametrize(
    "shape",
    [WithDefault, WithOptionalText, WithPair, WithMapping, WithAnything, WithFactory],
    ids=["default", "non-null-default", "tuple", "mapping", "any", "default-factory"],
)
def test_schemas_strict_mode_would_change_are_not_made_strict(shape: type) -> None:
    assert strict_schema(params_json_schema(shape)) is None
    assert output_format(shape).schema == params_json_schema(shape)  # sent as it is


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
        {"type": "array", "items": [{"type": "integer"}, {"type": "string"}]},
    ],
    ids=["open-object", "items-per-position"],
)
def test_hand_written_schemas_strict_mode_would_change_are_not_made_strict(
    schema: dict[str, Any],
) -> None:
    assert strict_schema(schema) is None


def test_an_answer_with_a_refusal_and_calls_without_ids() -> None:
    answer = completion(None, [("", "read", '{"path": "a"}'), ("", "read", "")])
    answer["choices"][0]["message"]["refusal"] = "I can't help with that."
    for call in answer["choices"][0]["message"]["tool_calls"]:
        del call["id"]
    assert reply_from_completion(answer) == ProviderReply(
        text="I can't help with that.",
        tool_calls=(
            ProviderToolCall("call_0", "read", '{"path": "a"}'),
            ProviderToolCall("call_1", "read", ""),
        ),
        usage=TokenUsage(10, 5),
    )


def test_an_answer_without_usage_has_none() -> None:
    answer = completion("Hi.")
    del answer["usage"]
    assert reply_from_completion(answer) == ProviderReply(text="Hi.")


def test_a_stream_of_whole_calls_without_indexes_keeps_them_apart() -> None:
    stream = StreamedReply()
    for _, chunk in chunks("Reading.", [("c1", "read", '{"path": "a"}')], usage=None)[:-1]:
        stream.add(chunk)
    whole_calls = [
        {"id": "c2", "function": {"name": "read", "arguments": "{}"}},
        {"function": {"name": "list"}},
    ]
    for call in whole_calls:
        stream.add({"choices": [{"index": 0, "delta": {"tool_calls": [call]}}]})
    assert stream.reply() == ProviderReply(
        text="Reading.",
        tool_calls=(
            ProviderToolCall("c1", "read", '{"path": "a"}'),
            ProviderToolCall("c2", "read", "{}"),
            ProviderToolCall("call_2", "list", ""),
        ),
        usage=None,
    )


@pytest.mark.parametrize(
    ("configured", "remaining", "expected"),
    [(None, None, None), (30.0, None, 30.0), (None, 7.0, 7.0), (30.0, 7.0, 7.0), (5.0, 7.0, 5.0)],
)
def test_the_call_timeout_is_the_shorter_of_the_two(
    configured: float | None, remaining: float | None, expected: float | None
) -> None:
    assert call_timeout(configured, remaining) == expected


def test_naming_the_adapters_imports_no_sdk() -> None:
    """The SDKs are imported when an adapter is built, never when its module is."""
    code = (
        "import json, sys\n"
        "from wink_decl.adapters import LiteLLMAdapter, OpenAIAdapter\n"
        "print(json.dumps(sorted({'openai', 'litellm', 'httpx'} & set(sys.modules))))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert json.loads(result.stdout) == []
