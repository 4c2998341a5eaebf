"""``LiteLLMAdapter``: ``litellm.completion``, so one adapter reaches every provider LiteLLM knows.

LiteLLM answers in the OpenAI Chat Completions shape whatever the provider, so the request and
the answer go through the same conversion as ``OpenAIAdapter``. See docs/adapters/litellm.md.
"""

from __future__ import annotations

import inspect
import os
from typing import TYPE_CHECKING, Any, cast

from wink_decl.adapters._openai_errors import CallContext, provider_failure
from wink_decl.adapters._openai_format import (
    call_timeout,
    chat_request,
    check_options,
    reply_from_completion,
    without_none,
)
from wink_decl.adapters.adapter_support import (
    anthropic_root,
    openai_root,
    provider_error,
    require_sdk,
)
from wink_decl.runtime.adapter import ProviderAdapter
from wink_decl.runtime.provider import OPENING_MESSAGE, ProviderReply, ProviderRequest

if TYPE_CHECKING:
    from litellm import ModelResponse

    from wink_decl.errors import ProviderError

__all__ = ["OPENING_MESSAGE", "LiteLLMAdapter", "with_opening_user_turn"]

OFFLINE_SETTINGS = {"LITELLM_LOCAL_MODEL_COST_MAP": "True", "LITELLM_OFFLINE_MODE": "true"}
"""Set (unless already set) before LiteLLM is imported: without them importing it downloads a
model cost map, and an Anthropic call a table of beta headers (offline, each retries and waits
first). With them LiteLLM uses the copies it ships with and talks only to the provider."""

RESERVED_OPTIONS = frozenset(
    {
        "model",
        "messages",
        "tools",
        "response_format",
        "stream",
        "stream_options",
        "timeout",
        "api_key",
        "api_base",
        "base_url",
        "max_retries",
    }
)
"""Arguments the adapter passes itself, so they cannot be passed as options."""

# OPENING_MESSAGE is the runtime's: the user turn put after the system prompt when a
# conversation has none (the loop opens with one; a caller of complete() may not).

_SECRET_SUFFIXES = ("KEY", "TOKEN", "SECRET")
"""Environment variables whose values are redacted from messages: LiteLLM reads keys from many."""


class LiteLLMAdapter(ProviderAdapter):
    """Any provider through ``litellm.completion`` (``pip install 'wink-decl[litellm]'``).

    Args:
        model: The model as LiteLLM writes it: ``openai/gpt-4.1``, ``anthropic/claude-sonnet-4-5``,
            ``ollama_chat/llama3.1`` ...
        api_key: The key; None lets LiteLLM read the provider's variable (``OPENAI_API_KEY``,
            ``ANTHROPIC_API_KEY`` ...).
        base_url: The provider's API root (LiteLLM's ``api_base``); None keeps the provider's.
        timeout: Seconds one request may take; a run's deadline shortens it when less is left.
        max_retries: How often the provider's client retries a rate limit or a server error
            (for OpenAI-compatible providers the OpenAI SDK, which honours ``retry-after``);
            None keeps LiteLLM's default. LiteLLM's ``num_retries`` wrapper is not used: it
            retries every failure, a refused key included, without waiting (see the docs).
        temperature: Sampling temperature; None leaves it to the provider.
        max_tokens: The most tokens an answer may have; None leaves it to LiteLLM.
        **options: Any other ``litellm.completion`` argument, sent with every request.

    Raises:
        ProviderError: ``kind="unavailable"`` without LiteLLM installed.
        ValueError: An option the adapter sets itself.
    """

    name = "litellm"

    def __init__(
        self,
        model: str,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        timeout: float | None = None,
        max_retries: int | None = None,
        temperature: float | None = None,
        max_tokens: int | None = None,
        **options: object,
    ) -> None:
        _import_litellm()
        check_options(options, reserved=RESERVED_OPTIONS, adapter="LiteLLMAdapter")
        self.model = model
        self._api_key = api_key
        self._base_url = base_url
        self._timeout = timeout
        root = None if base_url is None else _api_root(model, base_url)
        connection = {"api_key": api_key, "api_base": root, "max_retries": max_retries}
        sampling = {"temperature": temperature, "max_tokens": max_tokens}
        self._options = {**without_none(connection), **without_none(sampling), **options}

    @property
    def supports_dynamic_tools(self) -> bool:
        """``litellm.completion`` takes a new tool list with every request."""
        return True

    @property
    def secrets(self) -> tuple[str, ...]:
        """``api_key`` and the environment's credentials, redacted from failure messages.

        LiteLLM reads keys from many variables: every one whose name ends as a secret's does.
        """
        return tuple(s for s in (self._api_key, *_environment_secrets()) if s)

    def close(self) -> None:
        """Close the HTTP clients LiteLLM keeps for its calls, and forget them.

        LiteLLM caches one client per provider address for the whole process and never closes
        them; closing here releases their connections (a later call opens new ones).
        """
        import litellm  # noqa: PLC0415  # optional: imported by __init__ (after the settings)

        cache: Any = litellm.in_memory_llm_clients_cache  # LiteLLM leaves its values untyped
        clients = cast("dict[object, object]", cache.cache_dict)
        for client in list(clients.values()):
            closing = getattr(client, "close", None)
            if callable(closing) and not inspect.iscoroutinefunction(closing):
                closing()
        cache.flush_cache()

    def complete(self, request: ProviderRequest) -> ProviderReply:
        """One ``litellm.completion`` call; every failure becomes a ``ProviderError``."""
        import litellm  # noqa: PLC0415  # optional: imported by __init__ (after the settings)

        timeout = call_timeout(self._timeout, request.timeout)
        arguments: dict[str, Any] = {
            **self._options,
            "model": self.model,
            **chat_request(request),
            **without_none({"timeout": timeout}),
        }
        arguments["messages"] = with_opening_user_turn(arguments["messages"])
        try:
            response = cast("ModelResponse", litellm.completion(**arguments))
        except Exception as error:  # noqa: BLE001  # LiteLLM raises many types; all are explained
            raise self._failure(error, timeout) from None
        return reply_from_completion(response.model_dump())  # pyright: ignore[reportUnknownMemberType]  # LiteLLM leaves its kwargs untyped

    def _failure(self, error: Exception, timeout: float | None) -> ProviderError:
        secrets = self.secrets
        missing = self._missing_key()
        if missing is not None:
            return provider_error(
                f"No API key for model '{self.model}': pass api_key, or set {missing}.",
                kind="authentication",
                hint=f"set {missing}",
                secrets=secrets,
            )
        place = self._base_url or f"the provider of '{self.model}'"
        context = CallContext(self.model, place, timeout, secrets, self._key_variable())
        return provider_failure(error, context)

    def _key_variable(self) -> str:
        """The variable LiteLLM reads the model's key from: its provider's, as in OPENAI_API_KEY."""
        import litellm  # noqa: PLC0415  # see complete

        try:
            provider = litellm.get_llm_provider(self.model)[1]
        except litellm.exceptions.BadRequestError:  # a model it cannot route, so no key was refused
            provider = self.model.partition("/")[0]
        return f"{provider.upper()}_API_KEY"

    def _missing_key(self) -> str | None:
        """The key variable LiteLLM looked for and did not find, when no key was passed."""
        if self._api_key is not None:
            return None
        import litellm  # noqa: PLC0415  # see complete

        report = cast("dict[str, list[str]]", litellm.validate_environment(model=self.model))  # pyright: ignore[reportUnknownMemberType]  # an untyped dict
        # Only a missing *_API_KEY: other entries (an API base, a region) are not about keys.
        keys = [name for name in report["missing_keys"] if name.endswith("_API_KEY")]
        return keys[0] if keys else None


def with_opening_user_turn(messages: list[dict[str, object]]) -> list[dict[str, object]]:
    """``messages`` with ``OPENING_MESSAGE`` after the system prompt, unless a user turn is there.

    Added on every request of a conversation, so each request shows the same history.
    """
    opening = next(
        (index for index, message in enumerate(messages) if message["role"] != "system"),
        len(messages),
    )
    if opening < len(messages) and messages[opening]["role"] == "user":
        return messages
    return [*messages[:opening], {"role": "user", "content": OPENING_MESSAGE}, *messages[opening:]]


def _import_litellm() -> None:
    for name, value in OFFLINE_SETTINGS.items():
        os.environ.setdefault(name, value)
    require_sdk("litellm", extra="litellm", adapter="LiteLLMAdapter")
    import litellm  # noqa: PLC0415  # the settings above must come first

    # Otherwise every failure also prints "Give Feedback / Get Help" to stdout.
    litellm.suppress_debug_info = True


def _environment_secrets() -> list[str]:
    return [value for name, value in os.environ.items() if name.endswith(_SECRET_SUFFIXES)]


_ROOTS = {"anthropic": anthropic_root, "openai": openai_root}
"""How LiteLLM's routes that add a versioned path want ``api_base``, as those SDKs do."""


def _api_root(model: str, base_url: str) -> str:
    """``base_url`` with or without ``/v1`` as the model's provider route needs it."""
    provider = model.partition("/")[0]
    return _ROOTS[provider](base_url) if provider in _ROOTS else base_url
