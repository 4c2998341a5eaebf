"""AnthropicAdapter end to end: the real ``anthropic`` SDK against a scripted local server."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anthropic
import pytest
from anthropic_prompts import (
    FORECAST_SCHEMA,
    FORECAST_TEMPLATE,
    KEY,
    LOOKUP_TOOL,
    MODEL,
    OPEN_TEMPLATE,
    PLAIN_TEMPLATE,
    SUMMARIZED_TEMPLATE,
    Forecast,
    evaluate,
)
from anthropic_replies import message, message_events, reply, stream_reply
from provider_server import ProviderServer, Reply

from wink_decl import Prompt, ProviderError, Session, adapters
from wink_decl.adapters._anthropic_mapping import conversation
from wink_decl.adapters.anthropic_messages import (
    DEFAULT_MAX_TOKENS,
    FIRST_USER_MESSAGE,
    AnthropicAdapter,
)
from wink_decl.runtime.deadline import Deadline
from wink_decl.runtime.provider import ProviderMessage, ProviderToolCall, TokenUsage

Replier = Callable[..., Reply]
REPLIERS = pytest.mark.parametrize("replier", [reply, stream_reply], ids=["json", "stream"])

SYSTEM = (
    "## 1. Task (task)\n\nSay what the weather is in Paris.\n\n## 2. Weather (weather)\n\n"
    "Weather tools are available.\n\n---\n[This section is summarized. To view full content, "
    'call `read_section` with key "weather".]'
)
OPEN_SYSTEM = (
    "## 1. Task (task)\n\nSay what the weather is in Paris.\n\n## 2. Weather (weather)\n\n"
    "Look the weather up before you answer."
)
FIRST_TURN = {"role": "user", "content": [{"type": "text", "text": FIRST_USER_MESSAGE}]}
READ_SECTION_TOOL = {
    "name": "read_section",
    "description": "Read the full content of a summarized section.",
    "input_schema": {
        "type": "object",
        "properties": {
            "section_key": {
                "type": "string",
                "description": "Key of the section to read, as shown in its summary. Nested "
                "sections use dot notation (e.g. 'context.examples').",
            }
        },
        "required": ["section_key"],
        "additionalProperties": False,
    },
}
OUTPUT_TOOL = {
    "name": "final_answer",
    "description": "The final answer, as the prompt's declared output.",
    "input_schema": FORECAST_SCHEMA,
}
PARIS = 'The weather in Paris:\n\n{"city": "Paris", "sky": "clear"}'


def tool_use(call_id: str, name: str, **arguments: Any) -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": name, "input": arguments}


def tool_result(call_id: str, content: str, *, error: bool = False) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": call_id, "content": content}
    return {**block, "is_error": True} if error else block


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def user(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {"role": "user", "content": list(blocks)}


def assistant(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {"role": "assistant", "content": list(blocks)}


def body(replier: Replier, **fields: Any) -> dict[str, Any]:
    """A whole request body as the SDK sends it."""
    sent = {"model": MODEL, "max_tokens": DEFAULT_MAX_TOKENS, **fields}
    return {**sent, "stream": True} if replier is stream_reply else sent


# -- a whole conversation ------------------------------------------------------------------------


@REPLIERS
def test_a_full_exchange_reads_a_section_runs_its_tool_and_answers(replier: Replier) -> None:
    replies = [
        replier(
            tool_uses=[("toolu_1", "read_section", {"section_key": "weather"})], usage=(100, 9)
        ),
        replier(
            "Looking it up.", [("toolu_2", "lookup_weather", {"city": "Paris"})], usage=(150, 20)
        ),
        replier("It is clear in Paris.", usage=(210, 7)),
    ]
    with ProviderServer(replies) as server:
        response = evaluate(server, SUMMARIZED_TEMPLATE, stream=replier is stream_reply)
    requests = server.requests

    assert (response.text, response.usage) == ("It is clear in Paris.", TokenUsage(460, 36))
    assert [(r.method, r.path) for r in requests] == [("POST", "/v1/messages")] * 3
    read = assistant(tool_use("toolu_1", "read_section", section_key="weather"))
    section = tool_result(
        "toolu_1",
        "Content of section 'weather':\n\n## 2. Weather (weather)\n\n"
        "Look the weather up before you answer.",
    )
    assert requests[0].json == body(
        replier, system=SYSTEM, messages=[FIRST_TURN], tools=[READ_SECTION_TOOL]
    )
    # The revealed tool is offered in the very next request: the Messages API is stateless.
    assert requests[1].json == body(
        replier, system=SYSTEM, messages=[FIRST_TURN, read, user(section)], tools=[LOOKUP_TOOL]
    )
    assert requests[2].json == body(
        replier,
        system=SYSTEM,
        messages=[
            FIRST_TURN,
            read,
            user(section),
            assistant(text("Looking it up."), tool_use("toolu_2", "lookup_weather", city="Paris")),
            user(tool_result("toolu_2", PARIS)),
        ],
        tools=[LOOKUP_TOOL],
    )


@REPLIERS
def test_parallel_tool_uses_run_in_order_and_are_answered_in_one_user_turn(
    replier: Replier,
) -> None:
    calls = [
        ("toolu_1", "lookup_weather", {"city": "Paris"}),
        ("toolu_2", "lookup_weather", {"city": "Atlantis"}),
    ]
    with ProviderServer([replier(tool_uses=calls), replier("Clear in Paris.")]) as server:
        response = evaluate(server, OPEN_TEMPLATE, stream=replier is stream_reply)

    assert response.text == "Clear in Paris."
    assert [m.content for m in response.messages if m.role == "tool"] == [
        PARIS,
        "No weather is known for Atlantis.",
    ]
    assert server.requests[1].json["messages"][1:] == [
        assistant(
            tool_use("toolu_1", "lookup_weather", city="Paris"),
            tool_use("toolu_2", "lookup_weather", city="Atlantis"),
        ),
        user(
            tool_result("toolu_1", PARIS),
            tool_result("toolu_2", "No weather is known for Atlantis.", error=True),
        ),
    ]


def stream_with_raw_input(call_id: str, name: str, partial_json: str) -> Reply:
    """A streamed tool call whose input deltas are ``partial_json`` as the model wrote it."""
    events = message_events(tool_uses=[(call_id, name, {})])
    for _, data in events:
        if data["type"] == "content_block_delta":
            data["delta"]["partial_json"] = partial_json
    return Reply(events=events)


@pytest.mark.parametrize(
    ("model_reply", "sent", "answer"),
    [
        (
            reply(tool_uses=[("toolu_1", "lookup_wether", {"city": "Paris"})]),
            tool_use("toolu_1", "lookup_wether", city="Paris"),
            "Unknown tool 'lookup_wether'. Did you mean 'lookup_weather'? Available tools: "
            "lookup_weather.",
        ),
        (
            reply(tool_uses=[("toolu_1", "lookup_weather", {"town": "Paris"})]),
            tool_use("toolu_1", "lookup_weather", town="Paris"),
            "Invalid arguments for tool 'lookup_weather': Missing required field 'city'. "
            "Unknown field 'town' (allowed: city).",
        ),
        (
            stream_with_raw_input("toolu_1", "lookup_weather", '{"city": "Paris"'),
            tool_use("toolu_1", "lookup_weather"),
            "Invalid arguments for tool 'lookup_weather': Arguments are not valid JSON: "
            "Expecting ',' delimiter: line 1 column 17 (char 16).",
        ),
        (
            stream_with_raw_input("toolu_1", "lookup_weather", '["Paris"]'),
            tool_use("toolu_1", "lookup_weather"),
            "Invalid arguments for tool 'lookup_weather': Expected an object, got array.",
        ),
    ],
    ids=["unknown-tool", "input-off-schema", "streamed-input-not-json", "streamed-input-a-list"],
)
def test_a_call_the_runtime_refuses_is_answered_and_the_run_goes_on(
    model_reply: Reply, sent: dict[str, Any], answer: str
) -> None:
    stream = model_reply.events is not None
    sorry = stream_reply("Sorry.") if stream else reply("Sorry.")
    with ProviderServer([model_reply, sorry]) as server:
        response = evaluate(server, OPEN_TEMPLATE, stream=stream)

    assert response.text == "Sorry."
    # The API wants an object back as the call's input, even when the model's was none.
    assert server.requests[1].json["messages"][1:] == [
        assistant(sent),
        user(tool_result("toolu_1", answer, error=True)),
    ]


# -- structured output ---------------------------------------------------------------------------


@REPLIERS
def test_a_declared_output_is_a_forced_tool_whose_input_is_the_answer(replier: Replier) -> None:
    answer = ("toolu_1", "final_answer", {"city": "Paris", "sky": "clear"})
    with ProviderServer([replier("Here it is.", [answer])]) as server:
        response = evaluate(server, FORECAST_TEMPLATE, stream=replier is stream_reply)

    assert response.output == Forecast("Paris", "clear")
    assert response.text == '{"city": "Paris", "sky": "clear"}'
    assert server.requests[0].json == body(
        replier,
        system=OPEN_SYSTEM,
        messages=[FIRST_TURN],
        tools=[LOOKUP_TOOL, OUTPUT_TOOL],
        tool_choice={"type": "any"},
    )


def test_an_output_call_made_beside_other_calls_is_dropped_and_asked_again() -> None:
    early = ("toolu_2", "final_answer", {"city": "Paris", "sky": "rain"})
    replies = [
        reply(tool_uses=[("toolu_1", "lookup_weather", {"city": "Paris"}), early]),
        reply(tool_uses=[("toolu_3", "final_answer", {"city": "Paris", "sky": "clear"})]),
    ]
    with ProviderServer(replies) as server:
        response = evaluate(server, FORECAST_TEMPLATE)

    assert response.output == Forecast("Paris", "clear")
    # No tool_use is left without its result: the early answer never enters the conversation.
    assert server.requests[1].json["messages"] == [
        FIRST_TURN,
        assistant(tool_use("toolu_1", "lookup_weather", city="Paris")),
        user(tool_result("toolu_1", PARIS)),
    ]
    assert server.requests[1].json["tool_choice"] == {"type": "any"}


def test_an_answer_that_does_not_fit_is_sent_back_as_a_user_turn() -> None:
    replies = [
        reply(tool_uses=[("toolu_1", "final_answer", {"city": "Paris"})]),
        reply(tool_uses=[("toolu_2", "final_answer", {"city": "Paris", "sky": "clear"})]),
    ]
    with ProviderServer(replies) as server:
        response = evaluate(server, FORECAST_TEMPLATE)

    assert response.output == Forecast("Paris", "clear")
    assert server.requests[1].json["messages"] == [
        FIRST_TURN,
        assistant(text('{"city": "Paris"}')),
        user(
            text(
                "Your answer does not fit the required output: Missing required field 'sky'. "
                "Answer again with only the JSON object the output schema describes."
            )
        ),
    ]


def test_an_empty_answer_is_left_out_because_the_api_refuses_empty_turns() -> None:
    replies = [
        reply(""),
        reply(tool_uses=[("toolu_1", "final_answer", {"city": "Paris", "sky": "clear"})]),
    ]
    with ProviderServer(replies) as server:
        response = evaluate(server, FORECAST_TEMPLATE)

    assert response.output == Forecast("Paris", "clear")
    (turn,) = server.requests[1].json["messages"]
    assert turn == user(
        text(FIRST_USER_MESSAGE),
        text(
            "Your answer does not fit the required output: it is not JSON (Expecting value: line "
            "1 column 1 (char 0)). Answer again with only the JSON object the output schema "
            "describes."
        ),
    )


# -- streaming details ---------------------------------------------------------------------------


def thinking_then_text() -> Reply:
    """A streamed answer that thinks first, as models with extended thinking do."""
    events = message_events("Clear.")
    start, rest = events[0], events[1:]
    thinking: list[tuple[str | None, Any]] = [
        (
            "content_block_start",
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {"type": "thinking", "thinking": "", "signature": ""},
            },
        ),
        (
            "content_block_delta",
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "thinking_delta", "thinking": "Paris is sunny."},
            },
        ),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
    ]
    for _, data in rest:
        if "index" in data:
            data["index"] += 1
    return Reply(events=[start, *thinking, *rest])


def test_streamed_thinking_is_not_part_of_the_answer() -> None:
    with ProviderServer([thinking_then_text()]) as server:
        response = evaluate(server, PLAIN_TEMPLATE, stream=True)

    assert (response.text, response.usage) == ("Clear.", TokenUsage(10, 5))


def test_streamed_tool_input_sent_whole_at_the_block_start_is_kept() -> None:
    events = message_events(tool_uses=[("toolu_1", "lookup_weather", {"city": "Paris"})])
    kept = [(name, data) for name, data in events if name != "content_block_delta"]
    for name, data in kept:
        if name == "content_block_start":
            data["content_block"]["input"] = {"city": "Paris"}
    with ProviderServer([Reply(events=kept), stream_reply("Clear.")]) as server:
        response = evaluate(server, OPEN_TEMPLATE, stream=True)

    assert [m.content for m in response.messages if m.role == "tool"] == [PARIS]


def test_usage_counts_cached_input_and_the_last_running_totals() -> None:
    whole = message("Clear.")
    whole["usage"] = {
        "input_tokens": 12,
        "cache_creation_input_tokens": 30,
        "cache_read_input_tokens": 50,
        "output_tokens": 7,
    }
    events = message_events("Clear.")
    events[0][1]["message"]["usage"] = {
        "input_tokens": 10,
        "cache_read_input_tokens": 50,
        "output_tokens": 1,
    }
    # message_delta's counts are running totals; the ones that did not change are left out.
    events[-2][1]["usage"] = {
        "input_tokens": 12,
        "cache_creation_input_tokens": 30,
        "output_tokens": 7,
    }
    with ProviderServer([Reply(json=whole), Reply(events=events)]) as server:
        plain = evaluate(server, PLAIN_TEMPLATE)
        streamed_response = evaluate(server, PLAIN_TEMPLATE, stream=True)

    assert plain.usage == streamed_response.usage == TokenUsage(92, 7)


# -- configuration -------------------------------------------------------------------------------


def test_key_and_url_come_from_the_environment_and_extra_body_is_sent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with ProviderServer([reply("Clear.")]) as server:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-env-key-42")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        with AnthropicAdapter(MODEL, extra_body={"temperature": 0}) as adapter:
            response = adapter.evaluate(Prompt(PLAIN_TEMPLATE), session=Session())

    assert response.text == "Clear."
    (request,) = server.requests
    assert request.headers["authorization"] == "Bearer sk-ant-env-key-42"
    # Without tools nothing about tools is sent.
    assert request.json == {
        "model": MODEL,
        "max_tokens": DEFAULT_MAX_TOKENS,
        "system": "## 1. Task (task)\n\nSay what the weather is in Paris.",
        "messages": [FIRST_TURN],
        "temperature": 0,
    }


@pytest.mark.parametrize(
    ("options", "seconds_left", "sent"),
    [
        ({}, 3600, 3600.0),
        ({"timeout": 7.5}, 3600, 7.5),
        ({"timeout": 7.5}, None, 7.5),
        ({}, None, 600.0),
    ],
    ids=["deadline", "timeout-before-deadline", "timeout", "sdk-default"],
)
def test_each_request_is_sent_with_the_time_it_may_take(
    options: dict[str, Any], seconds_left: float | None, sent: float
) -> None:
    deadline = None if seconds_left is None else Deadline.after(seconds_left)
    with ProviderServer([reply("Clear.")]) as server:
        evaluate(server, PLAIN_TEMPLATE, deadline=deadline, **options)

    # A deadline's time left shrinks while the test runs; the rest is exact.
    assert sent - 5 < float(server.requests[0].headers["x-stainless-timeout"]) <= sent


def test_a_configured_client_is_used_as_it_is() -> None:
    with (
        ProviderServer([reply("Clear.")]) as server,
        anthropic.Anthropic(api_key=KEY, base_url=server.url, max_retries=0) as client,
    ):
        with AnthropicAdapter(MODEL, client=client, max_tokens=100) as adapter:
            response = adapter.evaluate(Prompt(PLAIN_TEMPLATE), session=Session())
        assert not client.is_closed()  # the adapter closes only a client it made
        with pytest.raises(ValueError, match=r"^AnthropicAdapter takes either client= or"):
            AnthropicAdapter(MODEL, client=client, api_key=KEY)

    assert response.text == "Clear."
    assert server.requests[0].json["max_tokens"] == 100


def test_a_missing_key_names_the_variable(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in (
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_AUTH_TOKEN",
        "ANTHROPIC_PROFILE",
        "ANTHROPIC_CONFIG_DIR",
        "ANTHROPIC_FEDERATION_RULE_ID",
        "ANTHROPIC_IDENTITY_TOKEN",
        "ANTHROPIC_IDENTITY_TOKEN_FILE",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))  # no credential profile on disk either
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))

    with pytest.raises(ProviderError) as info:
        AnthropicAdapter(MODEL, base_url="http://127.0.0.1:9")
    error = info.value
    assert (str(error), error.kind, error.status, error.hint) == (
        "AnthropicAdapter has no API key: pass api_key= or set ANTHROPIC_API_KEY.",
        "authentication",
        None,
        "export ANTHROPIC_API_KEY=<your key>",
    )


def test_without_the_sdk_the_adapter_names_the_install_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def missing(name: str) -> object:
        raise ModuleNotFoundError(f"No module named '{name}'", name=name)

    monkeypatch.setattr("importlib.import_module", missing)
    with pytest.raises(ProviderError) as info:
        AnthropicAdapter(MODEL, api_key=KEY)
    error = info.value
    assert (str(error), error.kind, error.hint) == (
        "AnthropicAdapter needs the 'anthropic' package, which is not installed.",
        "unavailable",
        "pip install 'wink-decl[anthropic]'",
    )


def test_the_sdk_is_imported_only_when_an_adapter_is_made() -> None:
    code = (
        "import sys\nfrom wink_decl.adapters import AnthropicAdapter\n"
        "print('anthropic' in sys.modules, AnthropicAdapter.name)"
    )
    shown = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert shown == "False anthropic\n"
    assert adapters.AnthropicAdapter is AnthropicAdapter
    with AnthropicAdapter(MODEL, api_key=KEY) as adapter:
        assert adapter.supports_dynamic_tools is True


def test_an_answer_cut_off_at_max_tokens_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    cut = Reply(json={**message("It is cle"), "stop_reason": "max_tokens"})
    with ProviderServer([cut]) as server:
        response = evaluate(server, PLAIN_TEMPLATE, max_tokens=5)

    assert response.text == "It is cle"
    assert [(r.name, r.levelname, r.getMessage()) for r in caplog.records] == [
        (
            "wink_decl.adapters.anthropic",
            "WARNING",
            "The answer of model claude-test was cut off at max_tokens=5; raise max_tokens if it "
            "needs more room.",
        )
    ]


def test_a_conversation_that_opens_with_a_user_turn_gets_no_extra_one() -> None:
    system, turns = conversation(
        (
            ProviderMessage("system", "Be brief."),
            ProviderMessage("user", "Weather in Paris?"),
            ProviderMessage("assistant", "", (ProviderToolCall("toolu_1", "lookup_weather", "{"),)),
            ProviderMessage("tool", "Not JSON.", tool_call_id="toolu_1"),
        )
    )
    assert (system, turns) == (
        "Be brief.",
        [
            user(text("Weather in Paris?")),
            assistant(tool_use("toolu_1", "lookup_weather")),
            user(tool_result("toolu_1", "Not JSON.")),
        ],
    )
