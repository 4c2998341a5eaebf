"""OpenAIAdapter end to end: the real ``openai`` SDK against a scripted server on 127.0.0.1."""

from __future__ import annotations

import importlib
import importlib.util
import logging
import os
import subprocess
import sys
from dataclasses import dataclass
from typing import Any

import openai
import pytest
from chat_adapters import (
    DEPLOY_SPEC,
    KEY,
    OPENED_SECTION,
    SUMMARIZED_TEXT,
    Verdict,
    hanging_up_server,
    release_template,
    silent_server,
    unused_port,
)
from concurrency import run_threads
from openai_replies import chunks, error_reply, reply, stream_reply
from provider_server import ProviderServer, Reply

from wink_decl import (
    Prompt,
    PromptEvaluationError,
    PromptResponse,
    PromptTemplate,
    ProviderError,
    Session,
    TokenUsage,
)
from wink_decl.adapters import OpenAIAdapter
from wink_decl.prompt.tool_schema import to_openai_tools
from wink_decl.runtime.deadline import Deadline
from wink_decl.runtime.loop import MainLoop
from wink_decl.runtime.provider import OPENING_MESSAGE

FAST_RETRY = {"retry-after-ms": "1"}
"""The SDK waits what the server asks; ``retry-after: 0`` would mean its own 0.5 s backoff."""

READ_SECTION_SPEC = to_openai_tools(Prompt(release_template()).render(session=Session()).tools)[0]

READ_CALL = ("call_read", "read_section", '{"section_key": "release"}')
DEPLOY_CALL = ("call_deploy", "deploy", '{"environment": "staging"}')
DEPLOY_RESULT = 'deployed to staging\n\n{"environment": "staging"}'


def assistant_calls(*calls: tuple[str, str, str]) -> dict[str, Any]:
    """The assistant message that carries ``calls``, as the adapter sends it back."""
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": i, "type": "function", "function": {"name": n, "arguments": a}}
            for i, n, a in calls
        ],
    }


OPENING = {"role": "user", "content": OPENING_MESSAGE}


def adapter_for(server: ProviderServer, **settings: Any) -> OpenAIAdapter:
    return OpenAIAdapter("gpt-test", api_key=KEY, base_url=f"{server.url}/v1", **settings)


def run(adapter: OpenAIAdapter, template: PromptTemplate[Any] | None = None) -> PromptResponse:
    prompt = Prompt(template or release_template())
    with adapter:  # closes the client the adapter made: no connection left to the collector
        return MainLoop(adapter=adapter).execute(prompt, session=Session())


def failure(adapter: OpenAIAdapter) -> ProviderError:
    with pytest.raises(ProviderError) as info:
        run(adapter)
    return info.value


def test_a_revealed_tool_is_offered_called_and_answered() -> None:
    script = [
        reply(tool_calls=[READ_CALL], usage=(100, 10)),
        reply(tool_calls=[DEPLOY_CALL], usage=(150, 12)),
        reply("Deployed to staging.", usage=(200, 8)),
    ]
    with ProviderServer(script) as server:
        response = run(adapter_for(server))

    assert (response.text, response.usage) == ("Deployed to staging.", TokenUsage(450, 30))
    first, second, third = server.requests
    assert [(r.method, r.path) for r in server.requests] == [("POST", "/v1/chat/completions")] * 3
    assert first.headers["authorization"] == f"Bearer {KEY}"
    assert first.json == {
        "model": "gpt-test",
        "messages": [{"role": "system", "content": SUMMARIZED_TEXT}, OPENING],
        "tools": [READ_SECTION_SPEC],
    }
    # Opening the section reveals 'deploy' (and leaves nothing summarized to read).
    assert second.json == {
        "model": "gpt-test",
        "messages": [
            {"role": "system", "content": SUMMARIZED_TEXT},
            OPENING,
            assistant_calls(READ_CALL),
            {"role": "tool", "tool_call_id": "call_read", "content": OPENED_SECTION},
        ],
        "tools": [DEPLOY_SPEC],
    }
    assert third.json["tools"] == [DEPLOY_SPEC]
    assert third.json["messages"][4:] == [
        assistant_calls(DEPLOY_CALL),
        {"role": "tool", "tool_call_id": "call_deploy", "content": DEPLOY_RESULT},
    ]


def test_the_exchange_streamed_assembles_calls_text_and_usage() -> None:
    script = [
        stream_reply(tool_calls=[READ_CALL], usage=(100, 10)),
        stream_reply("Deploying now.", tool_calls=[DEPLOY_CALL], usage=(150, 12)),
        stream_reply("Deployed to staging.", usage=(200, 8)),
    ]
    with ProviderServer(script) as server:
        response = run(adapter_for(server, stream=True))

    assert (response.text, response.usage) == ("Deployed to staging.", TokenUsage(450, 30))
    first, second, third = server.requests
    assert first.json == {
        "model": "gpt-test",
        "messages": [{"role": "system", "content": SUMMARIZED_TEXT}, OPENING],
        "tools": [READ_SECTION_SPEC],
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    assert second.json["tools"] == [DEPLOY_SPEC]
    assert third.json["messages"][4:] == [
        {**assistant_calls(DEPLOY_CALL), "content": "Deploying now."},
        {"role": "tool", "tool_call_id": "call_deploy", "content": DEPLOY_RESULT},
    ]


def interleaved_parallel_calls() -> list[tuple[str | None, Any]]:
    """Two calls whose argument pieces arrive alternately, as OpenAI streams parallel calls."""
    events = chunks(tool_calls=[READ_CALL, ("call_prod", "deploy", "")], usage=(30, 9))
    head, tail = events[:1], events[-3:]  # the role chunk; finish, usage and [DONE]
    template = events[0][1]

    def delta(call: dict[str, Any]) -> tuple[str | None, Any]:
        return None, {**template, "choices": [{"index": 0, "delta": {"tool_calls": [call]}}]}

    def opening(index: int, call_id: str, name: str) -> tuple[str | None, Any]:
        function = {"name": name, "arguments": ""}
        return delta({"index": index, "id": call_id, "type": "function", "function": function})

    def piece(index: int, arguments: str) -> tuple[str | None, Any]:
        return delta({"index": index, "function": {"arguments": arguments}})

    return [
        *head,
        opening(0, "call_read", "read_section"),
        opening(1, "call_prod", "deploy"),
        piece(0, '{"section_key": '),
        piece(1, '{"environment": '),
        piece(0, '"release"}'),
        piece(1, '"prod"}'),
        *tail,
    ]


def test_parallel_calls_streamed_interleaved_are_each_executed_and_answered() -> None:
    script = [Reply(events=interleaved_parallel_calls()), stream_reply("Done.", usage=(40, 2))]
    with ProviderServer(script) as server:
        response = run(adapter_for(server, stream=True))

    assert (response.text, response.usage) == ("Done.", TokenUsage(70, 11))
    assert server.requests[1].json["messages"][2:] == [
        assistant_calls(READ_CALL, ("call_prod", "deploy", '{"environment": "prod"}')),
        {"role": "tool", "tool_call_id": "call_read", "content": OPENED_SECTION},
        {
            "role": "tool",
            "tool_call_id": "call_prod",
            "content": 'deployed to prod\n\n{"environment": "prod"}',
        },
    ]


def test_two_parallel_calls_in_one_response_are_executed_in_order() -> None:
    prod = ("call_prod", "deploy", '{"environment": "prod"}')
    script = [reply(tool_calls=[READ_CALL, prod]), reply("Done.")]
    with ProviderServer(script) as server:
        run(adapter_for(server))

    assert server.requests[1].json["messages"][2:] == [
        assistant_calls(READ_CALL, prod),
        {"role": "tool", "tool_call_id": "call_read", "content": OPENED_SECTION},
        {
            "role": "tool",
            "tool_call_id": "call_prod",
            "content": 'deployed to prod\n\n{"environment": "prod"}',
        },
    ]


def test_malformed_arguments_and_an_unknown_tool_are_answered_and_the_run_goes_on() -> None:
    script = [
        reply(tool_calls=[("call_bad", "read_section", '{"section_key": ')]),
        reply(tool_calls=[("call_unknown", "launch", "{}")]),
        reply("Gave up."),
    ]
    with ProviderServer(script) as server:
        response = run(adapter_for(server))

    assert response.text == "Gave up."
    assert server.requests[2].json["messages"][2:] == [
        assistant_calls(("call_bad", "read_section", '{"section_key": ')),
        {
            "role": "tool",
            "tool_call_id": "call_bad",
            "content": "Invalid arguments for tool 'read_section': Arguments are not valid JSON: "
            "Expecting value: line 1 column 17 (char 16).",
        },
        assistant_calls(("call_unknown", "launch", "{}")),
        {
            "role": "tool",
            "tool_call_id": "call_unknown",
            "content": "Unknown tool 'launch'. Available tools: read_section.",
        },
    ]


def test_a_rate_limit_is_retried_by_the_sdk() -> None:
    script = [error_reply(429, "Rate limit reached.", headers=FAST_RETRY), reply("Done.")]
    with ProviderServer(script) as server:
        response = run(adapter_for(server))

    assert response.text == "Done."
    assert [r.headers["x-stainless-retry-count"] for r in server.requests] == ["0", "1"]


def test_a_server_error_that_persists_after_the_retries_is_reported() -> None:
    failing = error_reply(500, "The server had an error.", headers=FAST_RETRY)
    with ProviderServer([failing] * 3) as server:
        error = failure(adapter_for(server, max_retries=2))

    assert len(server.requests) == 3
    assert (str(error), error.kind, error.status, error.hint) == (
        "The provider failed (500) after 3 attempts: The server had an error.",
        "server",
        500,
        "the provider failed; try again later",
    )


def test_a_refused_key_is_reported_without_the_key(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    refusal = error_reply(401, f"Incorrect API key provided: {KEY}.", code="invalid_api_key")
    with ProviderServer([refusal]) as server:
        error = failure(adapter_for(server))

    assert len(server.requests) == 1  # a refused key is not retried
    assert (str(error), error.kind, error.status, error.hint) == (
        "The provider refused the API key (401): Incorrect API key provided: [redacted].",
        "authentication",
        401,
        "check the API key in OPENAI_API_KEY",
    )
    assert error.__cause__ is None
    assert error.__suppress_context__
    for text in (str(error), repr(error), error.hint or "", caplog.text):
        assert KEY not in text
    assert "401" in caplog.text  # the SDK did log the exchange


def test_an_unknown_model_is_named() -> None:
    missing = error_reply(
        404,
        "The model `gpt-x` does not exist or you do not have access to it.",
        code="model_not_found",
    )
    with ProviderServer([missing]) as server:
        error = failure(OpenAIAdapter("gpt-x", api_key=KEY, base_url=f"{server.url}/v1"))

    assert (str(error), error.kind, error.status, error.hint) == (
        "Model 'gpt-x' was not found (404): The model `gpt-x` does not exist or you do not have "
        "access to it.",
        "not_found",
        404,
        "check the model name and the base URL",
    )


@pytest.mark.parametrize(
    ("answer", "message", "kind"),
    [
        (
            Reply(status=404, json={"error": "model 'gpt-test' not found"}),
            "Model 'gpt-test' was not found (404): model 'gpt-test' not found.",
            "not_found",
        ),
        (
            Reply(status=422, json={"detail": "Field required"}),
            "The provider rejected the request (422): Field required.",
            "bad_request",
        ),
        (Reply(status=400, json={}), "The provider rejected the request (400).", "bad_request"),
        (
            Reply(status=502, body=b"<html>\n<body>Bad gateway</body>\n</html>"),
            "The provider failed (502): <html> <body>Bad gateway</body> </html>.",
            "server",
        ),
        (
            Reply(status=502, body=b"x" * 400),
            f"The provider failed (502): {'x' * 300} [...].",
            "server",
        ),
        (
            error_reply(403, "Project does not have access to model gpt-test."),
            "The provider refused access to model 'gpt-test' (403): Project does not have "
            "access to model gpt-test.",
            "permission",
        ),
        (
            error_reply(429, "Rate limit reached."),
            "The provider's rate limit was reached (429): Rate limit reached.",
            "rate_limit",
        ),
        (
            error_reply(408, "Request timeout."),
            "The provider timed out (408): Request timeout.",
            "timeout",
        ),
        (error_reply(418, "I'm a teapot."), "The provider answered 418: I'm a teapot.", "other"),
        (
            Reply(body=b"not json"),
            "The provider's answer is not JSON: Expecting value: line 1 column 1 (char 0).",
            "other",
        ),
        (
            Reply(json={"id": "1", "object": "chat.completion", "model": "m", "choices": []}),
            "The provider answered without a message (no choices).",
            "other",
        ),
    ],
    ids=[
        "ollama-body",
        "fastapi-body",
        "no-message",
        "html-page",
        "long-page",
        "forbidden",
        "rate-limit",
        "request-timeout",
        "other-status",
        "not-json",
        "no-choices",
    ],
)
def test_what_servers_answer_is_explained(answer: Reply, message: str, kind: str) -> None:
    with ProviderServer([answer]) as server:
        error = failure(adapter_for(server, max_retries=0))
    assert (str(error), error.kind) == (message, kind)


def test_an_error_event_in_a_stream_is_reported() -> None:
    events: list[tuple[str | None, Any]] = [(None, {"error": {"message": "Overloaded."}})]
    with ProviderServer([Reply(events=events)]) as server:
        error = failure(adapter_for(server, stream=True))
    assert (str(error), error.kind, error.status) == (
        "The provider failed: APIError: Overloaded.",
        "other",
        None,
    )


def test_a_refused_connection_names_the_address() -> None:
    base_url = f"http://127.0.0.1:{unused_port()}/v1"
    error = failure(OpenAIAdapter("gpt-test", api_key=KEY, base_url=base_url, max_retries=0))
    assert (str(error), error.kind, error.status, error.hint) == (
        f"Could not connect to {base_url}: connection refused.",
        "connection",
        None,
        "check the base URL and that the server is running",
    )


def test_a_server_that_hangs_up_is_reported_as_a_connection_failure() -> None:
    with hanging_up_server() as url:
        error = failure(OpenAIAdapter("gpt-test", api_key=KEY, base_url=url, max_retries=0))
    assert (str(error), error.kind) == (
        # A bare host gets /v1 (docs/adapters/openai.md): the URL named is the one asked.
        f"Could not connect to {url}/v1: server disconnected without sending a response.",
        "connection",
    )


def test_a_server_slower_than_the_timeout_is_reported() -> None:
    with silent_server() as url:
        adapter = OpenAIAdapter("gpt-test", api_key=KEY, base_url=url, timeout=0.2, max_retries=0)
        error = failure(adapter)
    assert (str(error), error.kind, error.hint) == (
        "The request timed out after 0.2 seconds.",
        "timeout",
        "allow more time with --timeout, or try again",
    )


def test_a_timeout_retried_counts_its_attempts_as_the_other_failures_do() -> None:
    with silent_server() as url:
        adapter = OpenAIAdapter("gpt-test", api_key=KEY, base_url=url, timeout=0.2, max_retries=1)
        error = failure(adapter)
    assert (str(error), error.kind, error.hint) == (
        "The request timed out after 2 attempts (0.2 seconds each).",
        "timeout",
        "allow more time with --timeout, or try again",
    )


def test_without_any_timeout_the_message_names_none() -> None:
    with silent_server() as url:
        client = openai.OpenAI(api_key=KEY, base_url=url, timeout=0.2, max_retries=0)
        error = failure(OpenAIAdapter("gpt-test", client=client))
    assert (str(error), error.kind) == ("The request timed out.", "timeout")


def test_the_time_left_before_the_deadline_shortens_the_request_timeout() -> None:
    deadline = Deadline(expires_at=107.0, clock=lambda: 100.0)
    with ProviderServer([reply("Done."), reply("Done.")]) as server:
        for configured in (30.0, 5.0):
            MainLoop(adapter=adapter_for(server, timeout=configured)).execute(
                Prompt(release_template()), session=Session(), deadline=deadline
            )
    assert [r.headers["x-stainless-read-timeout"] for r in server.requests] == ["7.0", "5.0"]


def test_a_missing_key_names_the_variable() -> None:
    with pytest.raises(ProviderError) as info:
        OpenAIAdapter("gpt-test")
    error = info.value
    assert (str(error), error.kind, error.hint) == (
        "OpenAIAdapter has no API key: pass api_key, or set OPENAI_API_KEY.",
        "authentication",
        "set OPENAI_API_KEY (any value will do for a local server that needs no key)",
    )


def test_the_key_and_the_address_come_from_the_environment_as_in_the_sdk(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with ProviderServer([reply("Done.")]) as server:
        monkeypatch.setenv("OPENAI_API_KEY", KEY)
        monkeypatch.setenv("OPENAI_BASE_URL", f"{server.url}/v1")
        assert run(OpenAIAdapter("gpt-test")).text == "Done."
    assert server.requests[0].headers["authorization"] == f"Bearer {KEY}"


def test_options_go_with_every_request_and_a_client_can_be_given() -> None:
    with ProviderServer([reply("Done.")]) as server:
        client = openai.OpenAI(api_key=KEY, base_url=f"{server.url}/v1")
        adapter = OpenAIAdapter("gpt-test", client=client, temperature=0.0, max_tokens=64, seed=7)
        run(adapter)
    assert adapter.client is client
    assert (adapter.name, adapter.supports_dynamic_tools) == ("openai", True)
    body = server.requests[0].json
    assert (body["temperature"], body["max_tokens"], body["seed"]) == (0.0, 64, 7)


def test_a_client_and_connection_arguments_do_not_go_together() -> None:
    client = openai.OpenAI(api_key=KEY, base_url="http://127.0.0.1:9/v1")
    with pytest.raises(ValueError, match=r"^OpenAIAdapter takes either client or api_key, "):
        OpenAIAdapter("gpt-test", client=client, timeout=5)


def test_options_the_adapter_sets_itself_are_refused() -> None:
    with pytest.raises(
        ValueError, match=r"^OpenAIAdapter sets 'tools' itself; leave it out of the options\.$"
    ):
        OpenAIAdapter("gpt-test", api_key=KEY, tools=[])


@dataclass(frozen=True)
class Review:
    approved: bool
    note: str | None = None


REVIEW_SCHEMA = {
    "type": "object",
    "properties": {
        "approved": {"type": "boolean"},
        "note": {"anyOf": [{"type": "string"}, {"type": "null"}]},
    },
    "required": ["approved", "note"],
    "additionalProperties": False,
}


def test_a_declared_output_is_asked_for_strictly_when_that_keeps_its_meaning() -> None:
    with ProviderServer([reply('{"approved": true, "note": null}')]) as server:
        response = run(adapter_for(server), release_template(Review))

    assert response.output == Review(approved=True)
    assert server.requests[0].json["response_format"] == {
        "type": "json_schema",
        "json_schema": {
            "name": "final_answer",
            "description": "The final answer, as the prompt's declared output.",
            "schema": REVIEW_SCHEMA,
            "strict": True,
        },
    }


def test_a_declared_output_with_a_default_is_asked_for_without_strict() -> None:
    with ProviderServer([reply('{"approved": false}')]) as server:
        response = run(adapter_for(server), release_template(Verdict))

    assert response.output == Verdict(approved=False)
    assert server.requests[0].json["response_format"]["json_schema"] == {
        "name": "final_answer",
        "description": "The final answer, as the prompt's declared output.",
        "schema": {
            "type": "object",
            "properties": {
                "approved": {"type": "boolean"},
                "reason": {"type": "string", "default": ""},
            },
            "required": ["approved"],
            "additionalProperties": False,
        },
        "strict": False,
    }


def test_an_answer_that_does_not_fit_is_sent_back_once_then_fails() -> None:
    script = [reply("Looks fine to me."), reply('{"approved": "yes"}')]
    with ProviderServer(script) as server, pytest.raises(PromptEvaluationError) as info:
        run(adapter_for(server), release_template(Verdict))

    assert (str(info.value), info.value.phase) == (
        "The answer of prompt 'release' does not fit its output Verdict: Field 'approved' must "
        "be a boolean, got string.",
        "output",
    )
    assert server.requests[1].json["messages"][2:] == [
        {"role": "assistant", "content": "Looks fine to me."},
        {
            "role": "user",
            "content": "Your answer does not fit the required output: it is not JSON (Expecting "
            "value: line 1 column 1 (char 0)). Answer again with only the JSON object the output "
            "schema describes.",
        },
    ]


def test_without_the_sdk_the_error_names_the_install_line(monkeypatch: pytest.MonkeyPatch) -> None:
    real_find_spec = importlib.util.find_spec

    def without_openai(name: str, package: str | None = None) -> object:
        return None if name == "openai" else real_find_spec(name, package)

    monkeypatch.setattr("importlib.util.find_spec", without_openai)
    with pytest.raises(ProviderError) as info:
        OpenAIAdapter("gpt-test", api_key=KEY)
    assert (str(info.value), info.value.kind, info.value.hint) == (
        "OpenAIAdapter needs the 'openai' package, which is not installed.",
        "unavailable",
        "pip install 'wink-decl[openai]'",
    )


def test_the_sdk_is_imported_and_its_client_built_on_the_first_request() -> None:
    code = (
        "import sys\nfrom wink_decl.adapters import OpenAIAdapter\n"
        "adapter = OpenAIAdapter('gpt-test')\n"
        "print('openai' in sys.modules, adapter.secrets, adapter.supports_dynamic_tools)\n"
        "adapter.close()\n"
        "print('openai' in sys.modules, type(adapter.client).__name__, 'openai' in sys.modules)"
    )
    shown = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "OPENAI_API_KEY": KEY},
        timeout=60,
    ).stdout
    assert shown == f"False ('{KEY}',) True\nFalse OpenAI True\n"


def test_threads_sharing_an_adapter_get_one_client() -> None:
    adapter = OpenAIAdapter("gpt-test", api_key=KEY, base_url="http://127.0.0.1:9/v1")
    clients = run_threads(lambda _index: adapter.client, threads=8)
    adapter.close()
    assert (OpenAIAdapter.thread_safe, {id(client) for client in clients}) == (
        True,
        {id(adapter.client)},
    )
