"""``OpenAIAdapter``: the official ``openai`` SDK's Chat Completions, with tools.

Any server that speaks the Chat Completions API works (vLLM, llama.cpp, Ollama): point
``base_url`` (or ``OPENAI_BASE_URL``) at it. See docs/adapters/openai.md.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from wink_decl.adapters._openai_errors import CallContext, provider_failure
from wink_decl.adapters._openai_format import (
    StreamedReply,
    call_timeout,
    chat_request,
    check_options,
    reply_from_completion,
    without_none,
)
from wink_decl.adapters.adapter_support import check_sdk, openai_root, provider_error
from wink_decl.runtime.adapter import ProviderAdapter
from wink_decl.runtime.provider import ProviderReply, ProviderRequest

if TYPE_CHECKING:
    import openai
    from openai.types.chat import ChatCompletion

__all__ = ["OpenAIAdapter"]

RESERVED_OPTIONS = frozenset(
    {"model", "messages", "tools", "response_format", "stream", "stream_options", "timeout"}
)
"""Request fields the adapter fills in itself, so they cannot be passed as options."""

_CONNECTION_ARGUMENTS = ("api_key", "base_url", "timeout", "max_retries")


class OpenAIAdapter(ProviderAdapter):
    """A Chat Completions API through the ``openai`` SDK (``pip install 'wink-decl[openai]'``).

    Args:
        model: The model to ask, as the server names it (``gpt-4.1``, ``llama3.1:8b``).
        api_key: The key; None takes ``OPENAI_API_KEY``, as the SDK does.
        base_url: The API's root (``http://localhost:8000/v1``); None takes
            ``OPENAI_BASE_URL``, then OpenAI's own.
        timeout: Seconds one request may take; None keeps the SDK's default (10 minutes). A run's
            deadline shortens it when less time is left.
        max_retries: How often the SDK retries a 408, 409, 429, 5xx or a dropped connection, with
            its own backoff (it honours ``retry-after``); None keeps its default (2).
        stream: Receive the answer as server-sent events (usage from the last chunk).
        client: An ``openai.OpenAI`` client to use instead of building one (then leave out
            ``api_key``, ``base_url``, ``timeout`` and ``max_retries``).
        temperature: Sampling temperature; None leaves it to the server.
        max_tokens: The most tokens an answer may have; None leaves it to the server. Sent as
            ``max_tokens``, which compatible servers understand; for OpenAI's reasoning models
            pass ``max_completion_tokens=...`` instead.
        **options: Any other ``chat.completions.create`` argument (``seed``, ``top_p``,
            ``reasoning_effort``, ``extra_body`` ...), sent with every request.

    Raises:
        ProviderError: ``kind="unavailable"`` without the SDK; ``kind="authentication"`` when
            there is no API key at all.
        ValueError: ``client`` together with connection arguments, or an option the adapter
            sets itself.
    """

    name = "openai"
    thread_safe = True  # the SDK's client is; the adapter keeps nothing between calls

    def __init__(
        self,
        model: str,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        timeout: float | None = None,
        max_retries: int | None = None,
        stream: bool = False,
        client: openai.OpenAI | None = None,
        temperature: float | None = None,
        max_tokens: int | None = None,
        **options: object,
    ) -> None:
        # The SDK is imported, and its client built, on the first request: importing it takes
        # most of a second, which a run answered wholly from a cache never needs to pay.
        check_sdk("openai", extra="openai", adapter="OpenAIAdapter")
        check_options(options, reserved=RESERVED_OPTIONS, adapter="OpenAIAdapter")
        self.model = model
        self.stream = stream
        self._timeout = timeout
        self._client: openai.OpenAI | None = client
        self._building = threading.Lock()  # threads sharing the adapter build one client
        self._connection = (base_url, timeout, max_retries)
        if client is None:
            key = os.environ.get("OPENAI_API_KEY") if api_key is None else api_key
            if key is None:  # as the SDK: an empty key is a key
                raise _no_key()
            self._key = key
        elif any(value is not None for value in (api_key, base_url, timeout, max_retries)):
            names = ", ".join(_CONNECTION_ARGUMENTS)
            raise ValueError(f"OpenAIAdapter takes either client or {names}, not both.")
        else:
            self._key = client.api_key
        self._owns_client = client is None
        sampling = {"temperature": temperature, "max_tokens": max_tokens}
        self._options = {**without_none(sampling), **options}

    def close(self) -> None:
        """Close the SDK client's connections, when the adapter made the client itself."""
        if self._owns_client and self._client is not None:
            self._client.close()

    @property
    def supports_dynamic_tools(self) -> bool:
        """Chat Completions takes a new tool list with every request."""
        return True

    @property
    def secrets(self) -> tuple[str, ...]:
        """The client's API key, redacted from failure messages (docs/adapters/openai.md)."""
        return (self._key,)

    @property
    def client(self) -> openai.OpenAI:
        """The SDK client the adapter sends through (built on first use)."""
        with self._building:
            if self._client is None:
                self._client = _build_client(self._key, *self._connection)
            return self._client

    def complete(self, request: ProviderRequest) -> ProviderReply:
        """One Chat Completions request; every SDK failure becomes a ``ProviderError``."""
        import openai  # noqa: PLC0415  # the SDK is optional; __init__ checked it is there

        timeout = call_timeout(self._timeout, request.timeout)
        arguments: dict[str, Any] = {
            **self._options,
            "model": self.model,
            **chat_request(request),
            **without_none({"timeout": timeout}),
        }
        try:
            if self.stream:
                return self._streamed(arguments)
            completion = cast("ChatCompletion", self.client.chat.completions.create(**arguments))
        # The SDK raises a bare JSONDecodeError (a ValueError) for an answer that is not JSON.
        except (openai.OpenAIError, ValueError) as error:
            raise provider_failure(error, self._context(timeout)) from None
        return reply_from_completion(completion.model_dump())

    def _streamed(self, arguments: Mapping[str, Any]) -> ProviderReply:
        chunks = self.client.chat.completions.create(
            **arguments, stream=True, stream_options={"include_usage": True}
        )
        assembled = StreamedReply()
        with chunks:
            for chunk in chunks:
                assembled.add(chunk.model_dump())
        return assembled.reply()

    def _context(self, timeout: float | None) -> CallContext:
        return CallContext(
            model=self.model,
            base_url=str(self.client.base_url).rstrip("/"),
            timeout=timeout,
            secrets=self.secrets,
            key_variable="OPENAI_API_KEY",
        )


def _build_client(
    api_key: str, base_url: str | None, timeout: float | None, max_retries: int | None
) -> openai.OpenAI:
    import openai  # noqa: PLC0415  # see OpenAIAdapter.complete

    # None would mean "no timeout" and is refused for max_retries: unset means the SDK's default.
    settings = without_none({"timeout": timeout, "max_retries": max_retries})
    root = None if base_url is None else openai_root(base_url)
    return openai.OpenAI(api_key=api_key, base_url=root, **settings)


def _no_key() -> Exception:
    return provider_error(
        "OpenAIAdapter has no API key: pass api_key, or set OPENAI_API_KEY.",
        kind="authentication",
        hint="set OPENAI_API_KEY (any value will do for a local server that needs no key)",
    )
