"""What every adapter shares: SDK imports with an install line, redaction, error kinds."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

import anthropic
import pytest

from wink_decl import ProviderError, adapters
from wink_decl.adapters import (
    AnthropicAdapter,
    ClaudeAgentSDKAdapter,
    LiteLLMAdapter,
    OpenAIAdapter,
    ScriptedAdapter,
)
from wink_decl.adapters.adapter_support import kind_of_status, provider_error, redact, require_sdk
from wink_decl.runtime.adapter import ProviderAdapter


def test_a_missing_sdk_names_the_install_line() -> None:
    with pytest.raises(ProviderError) as info:
        require_sdk("wink_no_such_sdk", extra="nothing", adapter="NothingAdapter")
    error = info.value
    assert (
        str(error) == "NothingAdapter needs the 'wink_no_such_sdk' package, which is not installed."
    )
    assert (error.kind, error.hint, error.phase) == (
        "unavailable",
        "pip install 'wink-decl[nothing]'",
        "provider",
    )


def test_an_installed_sdk_is_imported() -> None:
    assert require_sdk("json", extra="-", adapter="-") is sys.modules["json"]


def test_an_sdk_whose_own_import_breaks_shows_that(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(name: str) -> object:
        raise ModuleNotFoundError("No module named 'jiter'", name="jiter")

    monkeypatch.setattr("importlib.import_module", broken)
    with pytest.raises(ModuleNotFoundError, match="jiter"):
        require_sdk("openai", extra="openai", adapter="OpenAIAdapter")


def test_secrets_are_redacted_wherever_they_appear() -> None:
    text = "Incorrect API key provided: sk-test-123456. Key sk-test-123456 refused."
    assert redact(text, ["sk-test-123456", None, "abc"]) == (
        "Incorrect API key provided: [redacted]. Key [redacted] refused."
    )


@pytest.mark.parametrize(
    ("status", "kind"),
    [
        (400, "bad_request"),
        (401, "authentication"),
        (403, "permission"),
        (404, "not_found"),
        (408, "timeout"),
        (422, "bad_request"),
        (429, "rate_limit"),
        (500, "server"),
        (503, "server"),
        (418, "other"),
    ],
)
def test_statuses_map_to_kinds(status: int, kind: str) -> None:
    assert kind_of_status(status) == kind


def test_provider_errors_carry_a_hint_and_no_secret() -> None:
    error = provider_error(
        "The provider refused the API key sk-live-987654 (401).",
        kind="authentication",
        status=401,
        secrets=["sk-live-987654"],
    )
    assert (str(error), error.kind, error.status, error.hint) == (
        "The provider refused the API key [redacted] (401).",
        "authentication",
        401,
        "check the API key the provider expects",
    )
    custom = provider_error(
        "Odd.", kind="other", hint="ask sk-live-987654", secrets=["sk-live-987654"]
    )
    assert (custom.hint, provider_error("Odd.", kind="other").hint) == ("ask [redacted]", None)


def test_the_package_names_adapters_lazily() -> None:
    assert adapters.ScriptedAdapter.__name__ == "ScriptedAdapter"
    with pytest.raises(AttributeError, match="has no attribute 'NoSuchAdapter'"):
        _ = adapters.NoSuchAdapter  # pyright: ignore[reportAttributeAccessIssue]


KEY = "sk-test-held-0123456789"
OTHER = "credential-held-0123456789"
"""An auth token, or a credential of the environment's (which LiteLLM may read)."""
NOWHERE = "http://127.0.0.1:9"  # never asked: building an adapter sends nothing


def anthropic_with_a_token() -> ProviderAdapter:
    client = anthropic.Anthropic(auth_token=OTHER, base_url=NOWHERE)
    return AnthropicAdapter("claude-test", client=client)


HOLDERS: dict[str, tuple[Callable[[], ProviderAdapter], tuple[str, ...]]] = {
    "openai": (lambda: OpenAIAdapter("gpt-test", api_key=KEY, base_url=NOWHERE), (KEY,)),
    "anthropic": (lambda: AnthropicAdapter("claude-test", api_key=KEY), (KEY,)),
    "anthropic-token": (anthropic_with_a_token, (OTHER,)),
    "litellm": (lambda: LiteLLMAdapter("openai/gpt-test", api_key=KEY), (KEY, OTHER)),
    "claude-agent": (lambda: ClaudeAgentSDKAdapter(api_key=KEY), (KEY,)),
    "scripted": (lambda: ScriptedAdapter([]), ()),
}


@pytest.mark.parametrize(("build", "held"), HOLDERS.values(), ids=HOLDERS)
def test_each_adapter_names_the_credentials_it_holds(
    monkeypatch: pytest.MonkeyPatch, build: Callable[[], ProviderAdapter], held: tuple[str, ...]
) -> None:
    """What the loop redacts from failed tool calls (tests/runtime/test_tool_failure_secrets)."""
    for name in list(os.environ):
        if name.endswith(("KEY", "TOKEN", "SECRET")):
            monkeypatch.delenv(name)
    monkeypatch.setenv("RULES_SERVICE_TOKEN", OTHER)
    adapter = build()
    with adapter:
        assert adapter.secrets == held
