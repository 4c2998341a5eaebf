"""Every provider words a failed call alike: the attempts made, the key variable (issue 24).

Each adapter runs its real SDK (LiteLLM through its OpenAI route, as the one that retries)
against a scripted server on 127.0.0.1; the whole message and hint are compared.
"""

from __future__ import annotations

from collections.abc import Callable

import anthropic_replies as claude
import openai_replies as gpt
import pytest
from anthropic_prompts import KEY, PLAIN_TEMPLATE
from chat_adapters import unused_port
from provider_server import ProviderServer, Reply

from wink_decl import Prompt, ProviderError, Session
from wink_decl.adapters import AnthropicAdapter, LiteLLMAdapter, OpenAIAdapter
from wink_decl.runtime.adapter import ProviderAdapter
from wink_decl.runtime.loop import MainLoop

Build = Callable[[str], ProviderAdapter]
FAST_RETRY = {"retry-after-ms": "1"}
SERVER_HINT = "the provider failed; try again later"
RATE_HINT = "wait a little and run again, or ask the provider for a higher limit"
CONNECTION_HINT = "check the base URL and that the server is running"


def key_hint(variable: str) -> str:
    return f"check the API key in {variable}"


def failure(adapter: ProviderAdapter) -> ProviderError:
    with adapter, pytest.raises(ProviderError) as info:
        MainLoop(adapter=adapter).execute(Prompt(PLAIN_TEMPLATE), session=Session())
    return info.value


def openai_adapter(url: str) -> ProviderAdapter:
    return OpenAIAdapter("gpt-test", api_key=KEY, base_url=url + "/v1", max_retries=2)


def anthropic_adapter(url: str) -> ProviderAdapter:
    return AnthropicAdapter("claude-test", api_key=KEY, base_url=url, max_retries=2)


def litellm_adapter(url: str) -> ProviderAdapter:
    return LiteLLMAdapter("openai/gpt-test", api_key=KEY, base_url=url + "/v1", max_retries=2)


def litellm_anthropic_adapter(url: str) -> ProviderAdapter:
    return LiteLLMAdapter("anthropic/claude-test", api_key=KEY, base_url=url)


def openai_error(status: int, text: str) -> Reply:
    return gpt.error_reply(status, text, headers=FAST_RETRY)


def anthropic_error(status: int, text: str) -> Reply:
    kinds = {401: "authentication_error", 429: "rate_limit_error", 500: "api_error"}
    return claude.error_reply(status, kinds[status], text, headers=FAST_RETRY)


ERRORS: dict[str, tuple[Build, Callable[[int, str], Reply], str]] = {
    "openai": (openai_adapter, openai_error, "OPENAI_API_KEY"),
    "anthropic": (anthropic_adapter, anthropic_error, "ANTHROPIC_API_KEY"),
    "litellm": (litellm_adapter, openai_error, "OPENAI_API_KEY"),
    "litellm-anthropic": (litellm_anthropic_adapter, anthropic_error, "ANTHROPIC_API_KEY"),
}


@pytest.mark.parametrize(("build", "error", "variable"), ERRORS.values(), ids=ERRORS)
def test_a_refused_key_names_the_variable_it_comes_from(
    build: Build, error: Callable[[int, str], Reply], variable: str
) -> None:
    with ProviderServer([error(401, "Invalid API key.")]) as server:
        refused = failure(build(server.url))
    assert (str(refused), refused.kind, refused.status, refused.hint) == (
        "The provider refused the API key (401): Invalid API key.",
        "authentication",
        401,
        key_hint(variable),
    )


RETRIED = {name: ERRORS[name] for name in ("openai", "anthropic", "litellm")}


@pytest.mark.parametrize(("build", "error", "variable"), RETRIED.values(), ids=RETRIED)
@pytest.mark.parametrize(
    ("status", "said", "message", "hint"),
    [
        (
            429,
            "Too many requests.",
            "The provider's rate limit was reached (429) after 3 attempts: Too many requests.",
            RATE_HINT,
        ),
        (
            500,
            "The server had an error.",
            "The provider failed (500) after 3 attempts: The server had an error.",
            SERVER_HINT,
        ),
    ],
    ids=["rate-limit", "server"],
)
def test_a_failure_that_outlasts_the_retries_counts_the_attempts(  # a table
    build: Build,
    error: Callable[[int, str], Reply],
    variable: str,  # the table's
    status: int,
    said: str,
    message: str,
    hint: str,
) -> None:
    with ProviderServer([error(status, said)] * 3) as server:
        failed = failure(build(server.url))
    assert len(server.requests) == 3
    assert (str(failed), failed.status, failed.hint) == (message, status, hint)


@pytest.mark.parametrize(("build", "error", "variable"), RETRIED.values(), ids=RETRIED)
def test_a_refused_connection_counts_the_attempts(
    build: Build,
    error: Callable[[int, str], Reply],  # the table's
    variable: str,  # the table's
) -> None:
    url = f"http://127.0.0.1:{unused_port()}"
    adapter = build(url)
    failed = failure(adapter)
    where = url if isinstance(adapter, AnthropicAdapter) else url + "/v1"
    assert (str(failed), failed.kind, failed.hint) == (
        f"Could not connect to {where} after 3 attempts: connection refused.",
        "connection",
        CONNECTION_HINT,
    )
