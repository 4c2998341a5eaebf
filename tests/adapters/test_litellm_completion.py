"""LiteLLMAdapter end to end: real ``litellm.completion`` calls against scripted servers on
127.0.0.1, through its OpenAI route (``openai/...``) and its Anthropic translation
(``anthropic/...``)."""

from __future__ import annotations

import importlib
import logging
import os
from typing import Any

import anthropic_replies as claude
import openai_replies as gpt
import pytest
from chat_adapters import (
    DEPLOY_SPEC,
    KEY,
    OPENED_SECTION,
    SUMMARIZED_TEXT,
    Verdict,
    release_template,
    silent_server,
    unused_port,
)
from provider_server import ProviderServer, RecordedRequest, Reply

from wink_decl import (
    Prompt,
    PromptEvaluationError,
    PromptResponse,
    PromptTemplate,
    ProviderError,
    Session,
    TokenUsage,
)
from wink_decl.adapters import LiteLLMAdapter
from wink_decl.adapters.litellm_completion import OPENING_MESSAGE, with_opening_user_turn
from wink_decl.runtime.loop import MainLoop

FAST_RETRY = {"retry-after-ms": "1"}
"""LiteLLM's OpenAI route retries through the OpenAI SDK, which waits what the server asks."""

DEPLOY_RESULT = 'deployed to staging\n\n{"environment": "staging"}'
OPENING = {"role": "user", "content": OPENING_MESSAGE}
DEPLOY_TOOL = {
    "name": "deploy",
    "input_schema": {
        "type": "object",
        "properties": {"environment": {"type": "string"}},
        "required": ["environment"],
        "additionalProperties": False,
    },
    "type": "custom",
    "description": "Deploy the service.",
}
CLAUDE_SYSTEM = [{"type": "text", "text": SUMMARIZED_TEXT}]


def gpt_adapter(server: ProviderServer, **settings: Any) -> LiteLLMAdapter:
    settings.setdefault("api_key", KEY)
    return LiteLLMAdapter("openai/gpt-test", base_url=f"{server.url}/v1", **settings)


def claude_adapter(
    server: ProviderServer, model: str = "claude-test", **settings: Any
) -> LiteLLMAdapter:
    settings.setdefault("api_key", KEY)
    return LiteLLMAdapter(f"anthropic/{model}", base_url=server.url, **settings)


def run(adapter: LiteLLMAdapter, template: PromptTemplate[Any] | None = None) -> PromptResponse:
    prompt = Prompt(template or release_template())
    with adapter:  # closes the clients LiteLLM cached: no connection left to the collector
        return MainLoop(adapter=adapter).execute(prompt, session=Session())


def failure(adapter: LiteLLMAdapter) -> ProviderError:
    with pytest.raises(ProviderError) as info:
        run(adapter)
    return info.value


def without_defaults(request: RecordedRequest) -> dict[str, Any]:
    """The Anthropic request without ``max_tokens``, which LiteLLM fills in per model."""
    body: dict[str, Any] = request.json
    del body["max_tokens"]
    return body


def test_the_openai_route_offers_the_revealed_tool_and_answers_its_call() -> None:
    script = [
        gpt.reply(tool_calls=[("call_read", "read_section", '{"section_key": "release"}')]),
        gpt.reply(tool_calls=[("call_deploy", "deploy", '{"environment": "staging"}')]),
        gpt.reply("Deployed to staging.", usage=(200, 8)),
    ]
    with ProviderServer(script) as server:
        response = run(gpt_adapter(server))

    assert (response.text, response.usage) == ("Deployed to staging.", TokenUsage(220, 18))
    second, third = server.requests[1:]
    assert server.requests[0].headers["authorization"] == f"Bearer {KEY}"
    assert second.json == {
        "model": "gpt-test",
        "messages": [
            {"role": "system", "content": SUMMARIZED_TEXT},
            OPENING,
            {
                "role": "assistant",
                "tool_calls": [
                    {
                        "id": "call_read",
                        "type": "function",
                        "function": {
                            "name": "read_section",
                            "arguments": '{"section_key": "release"}',
                        },
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "call_read", "content": OPENED_SECTION},
        ],
        "tools": [DEPLOY_SPEC],
    }
    assert third.json["messages"][-1] == {
        "role": "tool",
        "tool_call_id": "call_deploy",
        "content": DEPLOY_RESULT,
    }


def test_the_anthropic_route_translates_tools_calls_and_results() -> None:
    script = [
        claude.reply(tool_uses=[("toolu_read", "read_section", {"section_key": "release"})]),
        claude.reply("Deploying.", [("toolu_deploy", "deploy", {"environment": "staging"})]),
        claude.reply("Deployed to staging.", usage=(200, 8)),
    ]
    with ProviderServer(script) as server:
        response = run(claude_adapter(server))

    assert (response.text, response.usage) == ("Deployed to staging.", TokenUsage(220, 18))
    assert [r.path for r in server.requests] == ["/v1/messages"] * 3
    assert server.requests[0].headers["x-api-key"] == KEY
    assert [tool["name"] for tool in server.requests[0].json["tools"]] == ["read_section"]
    assert without_defaults(server.requests[2]) == {
        "model": "claude-test",
        "system": CLAUDE_SYSTEM,
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": OPENING_MESSAGE}]},
            {
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": "toolu_read",
                        "name": "read_section",
                        "input": {"section_key": "release"},
                    }
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_read", "content": OPENED_SECTION}
                ],
            },
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "Deploying."},
                    {
                        "type": "tool_use",
                        "id": "toolu_deploy",
                        "name": "deploy",
                        "input": {"environment": "staging"},
                    },
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_deploy", "content": DEPLOY_RESULT}
                ],
            },
        ],
        "tools": [DEPLOY_TOOL],
    }


def test_parallel_calls_through_anthropic_are_answered_together_in_order() -> None:
    calls = [
        ("toolu_read", "read_section", {"section_key": "release"}),
        ("toolu_prod", "deploy", {"environment": "prod"}),
    ]
    with ProviderServer([claude.reply(tool_uses=calls), claude.reply("Done.")]) as server:
        run(claude_adapter(server))

    assert server.requests[1].json["messages"][-1] == {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "toolu_read", "content": OPENED_SECTION},
            {
                "type": "tool_result",
                "tool_use_id": "toolu_prod",
                "content": 'deployed to prod\n\n{"environment": "prod"}',
            },
        ],
    }


def test_malformed_arguments_and_an_unknown_tool_are_answered_and_the_run_goes_on() -> None:
    script = [
        gpt.reply(tool_calls=[("call_bad", "read_section", "{")]),
        gpt.reply(tool_calls=[("call_unknown", "launch", "{}")]),
        gpt.reply("Gave up."),
    ]
    with ProviderServer(script) as server:
        response = run(gpt_adapter(server))

    assert response.text == "Gave up."
    tool_messages = [m for m in server.requests[2].json["messages"] if m["role"] == "tool"]
    assert tool_messages == [
        {
            "role": "tool",
            "tool_call_id": "call_bad",
            "content": "Invalid arguments for tool 'read_section': Arguments are not valid JSON: "
            "Expecting property name enclosed in double quotes: line 1 column 2 (char 1).",
        },
        {
            "role": "tool",
            "tool_call_id": "call_unknown",
            "content": "Unknown tool 'launch'. Available tools: read_section.",
        },
    ]


def test_a_rate_limit_is_retried_by_the_provider_client() -> None:
    script = [gpt.error_reply(429, "Rate limit reached.", headers=FAST_RETRY), gpt.reply("Done.")]
    with ProviderServer(script) as server:
        response = run(gpt_adapter(server, max_retries=1))

    assert response.text == "Done."
    assert [r.headers["x-stainless-retry-count"] for r in server.requests] == ["0", "1"]


def test_a_server_error_that_persists_after_the_retries_is_reported() -> None:
    failing = gpt.error_reply(500, "The server had an error.", headers=FAST_RETRY)
    with ProviderServer([failing] * 3) as server:
        error = failure(gpt_adapter(server, max_retries=2))

    assert len(server.requests) == 3  # counted from the OpenAI SDK's error under LiteLLM's
    assert (str(error), error.kind, error.status) == (
        "The provider failed (500) after 3 attempts: The server had an error.",
        "server",
        500,
    )


def test_a_refused_key_is_reported_without_the_key(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    caplog.set_level(logging.DEBUG, logger="LiteLLM")
    refusal = gpt.error_reply(401, f"Incorrect API key provided: {KEY}.", code="invalid_api_key")
    with ProviderServer([refusal]) as server:
        error = failure(gpt_adapter(server))

    assert len(server.requests) == 1
    assert (str(error), error.kind, error.status, error.hint) == (
        "The provider refused the API key (401): Incorrect API key provided: [redacted].",
        "authentication",
        401,
        "check the API key in OPENAI_API_KEY",
    )
    for text in (str(error), repr(error), error.hint or "", caplog.text):
        assert KEY not in text
    assert "POST Request Sent from LiteLLM" in caplog.text  # LiteLLM did log the request


def test_a_key_from_the_environment_is_redacted_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    refusal = gpt.error_reply(401, f"Incorrect API key provided: {KEY}.")
    with ProviderServer([refusal]) as server:
        error = failure(gpt_adapter(server, api_key=None))

    assert server.requests[0].headers["authorization"] == f"Bearer {KEY}"
    assert (str(error), error.kind, error.status) == (
        "The provider refused the API key (401): Incorrect API key provided: [redacted].",
        "authentication",
        401,
    )


@pytest.mark.parametrize(
    ("model", "variable"),
    [("openai/gpt-test", "OPENAI_API_KEY"), ("anthropic/claude-test", "ANTHROPIC_API_KEY")],
    ids=["openai", "anthropic"],
)
def test_a_missing_key_names_the_variable(model: str, variable: str) -> None:
    with ProviderServer([]) as server:
        error = failure(LiteLLMAdapter(model, base_url=server.url))
    assert server.requests == []
    assert (str(error), error.kind, error.hint) == (
        f"No API key for model '{model}': pass api_key, or set {variable}.",
        "authentication",
        f"set {variable}",
    )


@pytest.mark.parametrize(
    ("route", "answer", "message"),
    [
        (
            "openai",
            gpt.error_reply(404, "The model `gpt-test` does not exist.", code="model_not_found"),
            "Model 'openai/gpt-test' was not found (404): The model `gpt-test` does not exist.",
        ),
        (
            "anthropic",
            claude.error_reply(404, "not_found_error", "model: claude-test"),
            "Model 'anthropic/claude-test' was not found (404): model: claude-test.",
        ),
    ],
    ids=["openai", "anthropic"],
)
def test_an_unknown_model_is_named(route: str, answer: Reply, message: str) -> None:
    with ProviderServer([answer]) as server:
        adapter = gpt_adapter(server) if route == "openai" else claude_adapter(server)
        error = failure(adapter)
    assert (str(error), error.kind, error.status) == (message, "not_found", 404)


@pytest.mark.parametrize(
    ("route", "answer", "message", "kind"),
    [
        (
            "anthropic",
            claude.error_reply(529, "overloaded_error", "Overloaded"),
            "The provider failed (500): Overloaded.",  # LiteLLM reports 529 as a 500
            "server",
        ),
        (
            "anthropic",
            claude.error_reply(429, "rate_limit_error", "Number of requests exceeds your limit."),
            "The provider's rate limit was reached (429): Number of requests exceeds your limit.",
            "rate_limit",
        ),
        (
            "openai",
            Reply(status=502, body=b"<html>Bad gateway</html>"),
            "The provider failed (502): <html>Bad gateway</html>.",
            "server",
        ),
        (
            "openai",
            Reply(status=400, json={}),
            "The provider rejected the request (400).",
            "bad_request",
        ),
        (
            "openai",
            Reply(status=404, json={"error": "model 'gpt-test' not found"}),
            "Model 'openai/gpt-test' was not found (404): model 'gpt-test' not found.",
            "not_found",
        ),
    ],
    ids=["anthropic-overloaded", "anthropic-rate-limit", "html-page", "no-message", "ollama-body"],
)
def test_what_servers_answer_is_explained(
    route: str, answer: Reply, message: str, kind: str
) -> None:
    with ProviderServer([answer]) as server:
        if route == "openai":
            error = failure(gpt_adapter(server, max_retries=0))
        else:
            error = failure(claude_adapter(server))
    assert (str(error), error.kind) == (message, kind)


@pytest.mark.parametrize("model", ["openai/gpt-test", "anthropic/claude-test"])
def test_a_refused_connection_names_the_address(model: str) -> None:
    base_url = f"http://127.0.0.1:{unused_port()}"
    error = failure(LiteLLMAdapter(model, api_key=KEY, base_url=base_url, max_retries=0))
    assert (str(error), error.kind, error.status) == (
        f"Could not connect to {base_url}: connection refused.",
        "connection",
        None,
    )


@pytest.mark.parametrize("model", ["openai/gpt-test", "anthropic/claude-test"])
def test_a_server_slower_than_the_timeout_is_reported(model: str) -> None:
    with silent_server() as url:
        adapter = LiteLLMAdapter(model, api_key=KEY, base_url=url, timeout=0.2, max_retries=0)
        error = failure(adapter)
    assert (str(error), error.kind) == ("The request timed out after 0.2 seconds.", "timeout")


def test_a_failure_of_litellm_itself_is_reported_with_its_words() -> None:
    error = failure(LiteLLMAdapter("no-such-provider/model", api_key=KEY))
    assert error.kind == "bad_request"
    assert str(error).startswith(
        "The provider rejected the request (400): LLM Provider NOT provided."
    )


def test_without_a_base_url_a_connection_failure_names_the_model(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OLLAMA_API_BASE", f"http://127.0.0.1:{unused_port()}")
    error = failure(LiteLLMAdapter("ollama_chat/llama3", api_key=KEY, timeout=1))
    assert (str(error), error.kind) == (
        "Could not connect to the provider of 'ollama_chat/llama3': connection refused.",
        "connection",
    )


VERDICT_SCHEMA = {
    "type": "object",
    "properties": {
        "approved": {"type": "boolean"},
        "reason": {"type": "string", "default": ""},
    },
    "required": ["approved"],
    "additionalProperties": False,
}


def test_a_declared_output_goes_as_response_format_on_the_openai_route() -> None:
    with ProviderServer([gpt.reply('{"approved": true, "reason": "tests pass"}')]) as server:
        response = run(gpt_adapter(server), release_template(Verdict))

    assert response.output == Verdict(approved=True, reason="tests pass")
    assert server.requests[0].json["response_format"] == {
        "type": "json_schema",
        "json_schema": {
            "name": "final_answer",
            "description": "The final answer, as the prompt's declared output.",
            "schema": VERDICT_SCHEMA,
            "strict": False,
        },
    }


def test_a_declared_output_becomes_anthropic_structured_output_next_to_the_tools() -> None:
    with ProviderServer([claude.reply('{"approved": true}')]) as server:
        response = run(claude_adapter(server, "claude-sonnet-4-5"), release_template(Verdict))

    assert response.output == Verdict(approved=True)
    request = server.requests[0]
    assert request.headers["anthropic-beta"] == "structured-outputs-2025-11-13"
    assert (request.json["output_format"], [t["name"] for t in request.json["tools"]]) == (
        {"type": "json_schema", "schema": VERDICT_SCHEMA},
        ["read_section"],
    )
    assert "tool_choice" not in request.json


def test_without_native_structured_output_litellm_forces_its_json_tool() -> None:
    """A known limit (docs/adapters/litellm.md): the forced tool leaves the model no other."""
    answer = claude.reply(tool_uses=[("toolu_1", "json_tool_call", {"approved": False})])
    with ProviderServer([answer]) as server:
        response = run(claude_adapter(server), release_template(Verdict))

    assert response.output == Verdict(approved=False)
    request = server.requests[0].json
    assert request["tool_choice"] == {"name": "json_tool_call", "type": "tool"}
    assert [tool["name"] for tool in request["tools"]] == ["json_tool_call", "read_section"]


def test_an_answer_that_does_not_fit_is_sent_back_once_then_fails() -> None:
    script = [gpt.reply("Looks fine."), gpt.reply('{"approved": "yes"}')]
    with ProviderServer(script) as server, pytest.raises(PromptEvaluationError) as info:
        run(gpt_adapter(server), release_template(Verdict))

    assert (str(info.value), info.value.phase) == (
        "The answer of prompt 'release' does not fit its output Verdict: Field 'approved' must "
        "be a boolean, got string.",
        "output",
    )
    assert server.requests[1].json["messages"][-2:] == [
        {"role": "assistant", "content": "Looks fine."},
        {
            "role": "user",
            "content": "Your answer does not fit the required output: it is not JSON (Expecting "
            "value: line 1 column 1 (char 0)). Answer again with only the JSON object the output "
            "schema describes.",
        },
    ]


def test_options_go_with_every_request() -> None:
    with ProviderServer([gpt.reply("Done.")]) as server:
        adapter = gpt_adapter(server, temperature=0.0, max_tokens=64, seed=7)
        run(adapter)
    body = server.requests[0].json
    assert (body["temperature"], body["max_tokens"], body["seed"]) == (0.0, 64, 7)
    assert (adapter.name, adapter.supports_dynamic_tools) == ("litellm", True)


def test_options_the_adapter_sets_itself_are_refused() -> None:
    with pytest.raises(
        ValueError, match=r"^LiteLLMAdapter sets 'api_base' itself; leave it out of the options\.$"
    ):
        LiteLLMAdapter("openai/gpt-test", api_base="http://127.0.0.1:9")


def test_litellm_is_kept_offline_and_quiet() -> None:
    import litellm  # noqa: PLC0415  # the adapter's import settings come first

    LiteLLMAdapter("openai/gpt-test")
    assert os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] == "True"
    assert os.environ["LITELLM_OFFLINE_MODE"] == "true"
    assert litellm.suppress_debug_info is True


@pytest.mark.parametrize(
    ("messages", "expected"),
    [
        ([], [OPENING]),
        ([{"role": "system", "content": "S"}], [{"role": "system", "content": "S"}, OPENING]),
        (
            [{"role": "system", "content": "S"}, {"role": "assistant", "content": "A"}],
            [
                {"role": "system", "content": "S"},
                OPENING,
                {"role": "assistant", "content": "A"},
            ],
        ),
        (
            [{"role": "system", "content": "S"}, {"role": "user", "content": "U"}],
            [{"role": "system", "content": "S"}, {"role": "user", "content": "U"}],
        ),
    ],
    ids=["empty", "system-only", "assistant-first", "user-first"],
)
def test_a_conversation_opens_with_a_user_turn(
    messages: list[dict[str, Any]], expected: list[dict[str, Any]]
) -> None:
    assert with_opening_user_turn(messages) == expected


def test_without_litellm_the_error_names_the_install_line(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = importlib.import_module

    def without_litellm(name: str, package: str | None = None) -> object:
        if name == "litellm":
            raise ModuleNotFoundError("No module named 'litellm'", name="litellm")
        return real_import(name, package)

    monkeypatch.setattr("importlib.import_module", without_litellm)
    with pytest.raises(ProviderError) as info:
        LiteLLMAdapter("openai/gpt-test")
    assert (str(info.value), info.value.kind, info.value.hint) == (
        "LiteLLMAdapter needs the 'litellm' package, which is not installed.",
        "unavailable",
        "pip install 'wink-decl[litellm]'",
    )
