"""A base URL with or without ``/v1`` reaches the same path, for every provider (issue 24).

Each adapter runs its real SDK (LiteLLM through its OpenAI and Anthropic routes) against a
scripted server on 127.0.0.1, which records the path each request asked for.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anthropic_replies as claude
import openai_replies as gpt
import pytest
from anthropic_prompts import KEY, PLAIN_TEMPLATE
from provider_server import ProviderServer, Reply

from wink_decl import Prompt, Session
from wink_decl.adapters import AnthropicAdapter, LiteLLMAdapter, OpenAIAdapter
from wink_decl.adapters.adapter_support import anthropic_root, openai_root
from wink_decl.adapters.claude_agent import ClaudeAgentSettings
from wink_decl.runtime.adapter import ProviderAdapter
from wink_decl.runtime.loop import MainLoop

Build = Callable[[str], ProviderAdapter]


ADAPTERS: list[tuple[str, Build, Reply, str]] = [
    (
        "anthropic",
        lambda url: AnthropicAdapter("claude-test", api_key=KEY, base_url=url, max_retries=0),
        claude.reply("Done."),
        "/v1/messages",
    ),
    (
        "openai",
        lambda url: OpenAIAdapter("gpt-test", api_key=KEY, base_url=url, max_retries=0),
        gpt.reply("Done."),
        "/v1/chat/completions",
    ),
    (
        "litellm-anthropic",
        lambda url: LiteLLMAdapter("anthropic/claude-test", api_key=KEY, base_url=url),
        claude.reply("Done."),
        "/v1/messages",
    ),
    (
        "litellm-openai",
        lambda url: LiteLLMAdapter("openai/gpt-test", api_key=KEY, base_url=url),
        gpt.reply("Done."),
        "/v1/chat/completions",
    ),
]


@pytest.mark.parametrize(
    "suffix", ["", "/", "/v1", "/v1/"], ids=["bare", "slash", "v1", "v1-slash"]
)
@pytest.mark.parametrize(
    ("build", "answer", "path"),
    [(build, answer, path) for _, build, answer, path in ADAPTERS],
    ids=[name for name, *_ in ADAPTERS],
)
def test_the_base_url_reaches_the_api_with_or_without_v1(
    build: Build, answer: Reply, path: str, suffix: str
) -> None:
    with ProviderServer([answer]) as server:
        adapter: Any = build(server.url + suffix)
        with adapter:
            response = MainLoop(adapter=adapter).execute(Prompt(PLAIN_TEMPLATE), session=Session())
    assert (response.text, [request.path for request in server.requests]) == ("Done.", [path])


@pytest.mark.parametrize(
    ("given", "sent"),
    [
        ("http://127.0.0.1:8000/v1", "http://127.0.0.1:8000"),
        ("http://127.0.0.1:8000/v1/", "http://127.0.0.1:8000"),
        ("http://127.0.0.1:8000", "http://127.0.0.1:8000"),
        ("http://127.0.0.1:8000/proxy/v1", "http://127.0.0.1:8000/proxy"),
    ],
)
def test_claude_code_is_given_the_root_without_v1(given: str, sent: str) -> None:
    settings = ClaudeAgentSettings(base_url=given)
    assert settings.environment()["ANTHROPIC_BASE_URL"] == sent
    assert anthropic_root(given) == sent


@pytest.mark.parametrize(
    ("given", "sent"),
    [
        ("http://localhost:11434", "http://localhost:11434/v1"),
        ("http://localhost:11434/", "http://localhost:11434/v1"),
        ("http://localhost:11434/v1", "http://localhost:11434/v1"),
        ("http://localhost:8000/openai/deployments", "http://localhost:8000/openai/deployments"),
        ("localhost:11434", "localhost:11434"),
    ],
    ids=["bare", "slash", "v1", "other-path-kept", "no-scheme-kept"],
)
def test_an_openai_root_gets_v1_only_on_a_bare_host(given: str, sent: str) -> None:
    assert openai_root(given) == sent
