"""The providers ``wink-decl run --model PROVIDER:MODEL`` knows, and making their adapters."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from wink_decl.runtime.adapter import ProviderAdapter

__all__ = ["PROVIDERS", "Provider", "make_adapter"]


@dataclass(frozen=True)
class Provider:
    """One provider: where its adapter lives and what its model names look like."""

    module: str
    adapter: str
    example: str
    """A model name to show in help and hints."""
    takes_workspace: bool = False
    """Whether the adapter runs an agent in a folder (``cwd=``)."""


PROVIDERS: Mapping[str, Provider] = {
    "openai": Provider("wink_decl.adapters.openai_chat", "OpenAIAdapter", "gpt-4.1-mini"),
    "anthropic": Provider(
        "wink_decl.adapters.anthropic_messages", "AnthropicAdapter", "claude-sonnet-4-5"
    ),
    "litellm": Provider(
        "wink_decl.adapters.litellm_completion", "LiteLLMAdapter", "openai/gpt-4.1-mini"
    ),
    "claude-agent": Provider(
        "wink_decl.adapters.claude_agent",
        "ClaudeAgentSDKAdapter",
        "claude-sonnet-4-5",
        takes_workspace=True,
    ),
}
"""By the name written before the colon of ``--model``."""


def make_adapter(
    provider: str,
    model: str,
    *,
    base_url: str | None = None,
    workspace: str | None = None,
    options: Mapping[str, object] | None = None,
) -> ProviderAdapter:
    """The adapter for ``provider`` and ``model`` (``KeyError`` for an unknown provider).

    ``options`` are the adapter's keyword arguments (``temperature``, ``max_tokens``, ...; each
    adapter's page in docs/adapters/ lists them).

    Raises:
        ProviderError: the provider's SDK is not installed (the hint is the install line).
        TypeError, ValueError: an option the adapter does not take, or a wrong value for one.
    """
    chosen = PROVIDERS[provider]
    cls = getattr(importlib.import_module(chosen.module), chosen.adapter)
    extra = dict(options or {})
    if chosen.takes_workspace:
        return cast("ProviderAdapter", cls(model, base_url=base_url, cwd=workspace, **extra))
    return cast("ProviderAdapter", cls(model, base_url=base_url, **extra))
