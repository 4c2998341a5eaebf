"""``AnthropicAdapter``: the Anthropic Messages API with tool use, through the official SDK.

The adapter only translates: the loop's conversation into a Messages request and the answer
back into a ``ProviderReply`` (docs/runtime.md describes what the loop does with it). Retries on
429, 529 and 5xx are the SDK's own (``max_retries``, honouring ``retry-after``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from wink_decl._loggers import package_logger
from wink_decl.adapters._anthropic_errors import SdkErrors, translate
from wink_decl.adapters._anthropic_mapping import (
    FIRST_USER_MESSAGE,
    anthropic_tools,
    conversation,
    reply_of_events,
    reply_of_message,
    with_output,
)
from wink_decl.adapters.adapter_support import anthropic_root, provider_error, require_sdk
from wink_decl.runtime.adapter import ProviderAdapter
from wink_decl.runtime.provider import ProviderReply, ProviderRequest

if TYPE_CHECKING:
    from types import ModuleType

    from anthropic import Anthropic, NotGiven
    from anthropic.types.message_create_params import MessageCreateParamsBase

__all__ = ["DEFAULT_MAX_TOKENS", "FIRST_USER_MESSAGE", "AnthropicAdapter"]

logger = package_logger("adapters.anthropic")

DEFAULT_MAX_TOKENS = 4096
"""Output tokens one model turn may use unless ``max_tokens`` says otherwise: room for a long
answer or several tool calls, and within the output limit of every current Claude model."""


class AnthropicAdapter(ProviderAdapter):
    """Runs prompts on Claude through the Messages API (``pip install 'wink-decl[anthropic]'``).

    ``api_key`` and ``base_url`` are taken as the SDK takes them: the arguments first, then
    ``ANTHROPIC_API_KEY`` / ``ANTHROPIC_BASE_URL``. ``timeout`` bounds each request in seconds
    (a run's deadline shortens it; None keeps the SDK's 10 minutes) and ``max_retries`` is the
    SDK's (None: its default of 2). ``stream=True`` receives each answer as server-sent events.
    ``extra_body`` adds Messages API fields to every request (``{"temperature": 0}``).
    ``client`` is an ``anthropic.Anthropic`` already configured; it replaces ``api_key``,
    ``base_url`` and ``max_retries``.

    A declared output is asked for as a forced tool named after it (``tool_choice`` "any");
    tool results of one turn go back in one user message. docs/runtime.md has the loop.

    Raises:
        ProviderError: ``kind="unavailable"`` without the SDK, ``kind="authentication"``
            when no API key is configured.
        ValueError: ``client`` together with ``api_key``, ``base_url`` or ``max_retries``.
    """

    name = "anthropic"

    def __init__(
        self,
        model: str,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        timeout: float | None = None,
        max_retries: int | None = None,
        stream: bool = False,
        extra_body: Mapping[str, object] | None = None,
        client: Anthropic | None = None,
    ) -> None:
        sdk = require_sdk("anthropic", extra="anthropic", adapter="AnthropicAdapter")
        if client is not None and (api_key, base_url, max_retries) != (None, None, None):
            raise ValueError(
                "AnthropicAdapter takes either client= or api_key/base_url/max_retries, not both: "
                "configure the client itself."
            )
        self.model = model
        self.max_tokens = max_tokens
        self.timeout = timeout
        self.stream = stream
        self._extra_body = None if extra_body is None else dict(extra_body)
        self._client = (
            client if client is not None else _new_client(sdk, api_key, base_url, max_retries)
        )
        self._owns_client = client is None
        self._errors = SdkErrors.of(sdk)
        self._not_given: NotGiven = sdk.not_given

    @property
    def supports_dynamic_tools(self) -> bool:
        """True: the Messages API is stateless, so every request may offer other tools."""
        return True

    @property
    def secrets(self) -> tuple[str, ...]:
        """The client's API key and auth token, redacted from failure messages."""
        return tuple(s for s in (self._client.api_key, self._client.auth_token) if s)

    def close(self) -> None:
        """Close the SDK client's connections, when the adapter made the client itself."""
        if self._owns_client:
            self._client.close()

    def complete(self, request: ProviderRequest) -> ProviderReply:
        """One model turn: a Messages request, and its answer as a ``ProviderReply``.

        Raises:
            ProviderError: the request failed; ``kind`` says how, the message never holds the
                API key.
        """
        params = self._params(request)
        seconds = min((t for t in (request.timeout, self.timeout) if t is not None), default=None)
        timeout = self._not_given if seconds is None else seconds
        try:
            reply, stop_reason = (
                self._streamed(params, timeout) if self.stream else self._created(params, timeout)
            )
        except self._errors.failures as error:
            raise translate(
                error,
                self._errors,
                client=self._client,
                model=self.model,
                timeout=seconds,
            ) from None  # the SDK's error holds the request, and with it the API key
        if stop_reason == "max_tokens":
            logger.warning(
                "The answer of model %s was cut off at max_tokens=%d; raise max_tokens if it "
                "needs more room.",
                self.model,
                self.max_tokens,
            )
        return with_output(reply, request.output)

    def _params(self, request: ProviderRequest) -> MessageCreateParamsBase:
        system, messages = conversation(request.messages)
        params: MessageCreateParamsBase = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "system": system,
            "messages": messages,
        }
        tools = anthropic_tools(request.tools, request.output)
        if tools:
            params["tools"] = tools
        if request.output is not None:
            # The model must end by calling the output tool, so its input is the answer.
            params["tool_choice"] = {"type": "any"}
        return params

    def _created(
        self, params: MessageCreateParamsBase, timeout: float | NotGiven
    ) -> tuple[ProviderReply, str | None]:
        message = self._client.messages.create(
            **params, timeout=timeout, extra_body=self._extra_body
        )
        return reply_of_message(message), message.stop_reason

    def _streamed(
        self, params: MessageCreateParamsBase, timeout: float | NotGiven
    ) -> tuple[ProviderReply, str | None]:
        with self._client.messages.create(
            **params, stream=True, timeout=timeout, extra_body=self._extra_body
        ) as events:
            return reply_of_events(events)


def _new_client(
    sdk: ModuleType, api_key: str | None, base_url: str | None, max_retries: int | None
) -> Anthropic:
    client: Anthropic = sdk.Anthropic(
        api_key=api_key,
        base_url=None if base_url is None else anthropic_root(base_url),
        max_retries=sdk.DEFAULT_MAX_RETRIES if max_retries is None else max_retries,
    )
    # The SDK also finds auth tokens and credential profiles; only when it found none at all
    # is the key missing (it would only say so at the first request, less clearly).
    if not (client.api_key or client.auth_token or client.credentials):
        client.close()
        raise provider_error(
            "AnthropicAdapter has no API key: pass api_key= or set ANTHROPIC_API_KEY.",
            kind="authentication",
            hint="export ANTHROPIC_API_KEY=<your key>",
        )
    return client
