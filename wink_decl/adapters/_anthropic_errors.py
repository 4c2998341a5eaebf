"""The Anthropic SDK's failures as ``ProviderError``: one line for people, never the API key."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from wink_decl.adapters._failure_wording import (
    connection_failed,
    refused_key_hint,
    status_lead,
    timed_out,
)
from wink_decl.adapters.adapter_support import kind_of_status, provider_error
from wink_decl.errors import ProviderError, ProviderErrorKind

if TYPE_CHECKING:
    from types import ModuleType

    import httpx2
    from anthropic import (
        Anthropic,
        APIConnectionError,
        APIStatusError,
        APITimeoutError,
    )

__all__ = ["SdkErrors", "translate"]


@dataclass(slots=True, frozen=True)
class SdkErrors:
    """The SDK's exception classes, taken from the module once it is imported."""

    failures: tuple[type[Exception], ...]
    """What the SDK raises when a call fails: its own errors, and ``ValueError`` for an answer
    that is not JSON or a request it refuses to send."""
    status: type[APIStatusError]
    timeout: type[APITimeoutError]
    connection: type[APIConnectionError]

    @classmethod
    def of(cls, sdk: ModuleType) -> SdkErrors:
        """The classes of the imported ``anthropic`` module."""
        return cls(
            (sdk.AnthropicError, ValueError),
            sdk.APIStatusError,
            sdk.APITimeoutError,
            sdk.APIConnectionError,
        )


_KEY_VARIABLE = "ANTHROPIC_API_KEY"

# The ``error.type`` of an error event inside a stream (its HTTP status was already 200).
_KIND_OF_ERROR_TYPE: dict[str, ProviderErrorKind] = {
    "invalid_request_error": "bad_request",
    "authentication_error": "authentication",
    "permission_error": "permission",
    "not_found_error": "not_found",
    "request_too_large": "bad_request",
    "rate_limit_error": "rate_limit",
    "timeout_error": "timeout",
    "api_error": "server",
    "overloaded_error": "server",
}


def translate(
    error: Exception,
    errors: SdkErrors,
    *,
    client: Anthropic,
    model: str,
    timeout: float | None,
) -> ProviderError:
    """``error`` as a ``ProviderError`` of the right kind, the client's secrets redacted.

    ``timeout`` is the limit the request was sent with, when the adapter chose one.
    """
    secrets = (client.api_key, client.auth_token)
    if isinstance(error, errors.status):
        kind, status, message = _status_failure(error, model)
        hint = refused_key_hint(_KEY_VARIABLE) if kind == "authentication" else None
        return provider_error(message, kind=kind, status=status, secrets=secrets, hint=hint)
    if isinstance(error, errors.timeout):
        limit = None if timeout is None else _seconds(timeout)
        message = timed_out(limit, attempts=_retries_taken(error.request) + 1)
        return provider_error(message, kind="timeout", secrets=secrets)
    if isinstance(error, errors.connection):
        url = str(client.base_url).rstrip("/")
        reason = _connection_reason(error)
        attempts = _retries_taken(error.request) + 1
        message = connection_failed(url, reason, attempts=attempts)
        return provider_error(message, kind="connection", secrets=secrets)
    message = f"The Anthropic SDK failed: {type(error).__name__}: {_sentence(str(error))}"
    return provider_error(message, kind="other", secrets=secrets)


def _status_failure(error: APIStatusError, model: str) -> tuple[ProviderErrorKind, int | None, str]:
    status = error.status_code
    detail = _sentence(error.api_message or error.response.reason_phrase or "no details given")
    if status < 400:  # noqa: PLR2004  # an error event in a stream that had begun well
        kind = _KIND_OF_ERROR_TYPE.get(error.type or "", "other")
        return kind, None, f"The provider failed while streaming ({error.type}): {detail}"
    kind = kind_of_status(status)
    attempts = _retries_taken(error.request) + 1
    lead = status_lead(kind, status=status, model=model, attempts=attempts)
    return kind, status, f"{lead}: {detail}"


def _retries_taken(request: httpx2.Request) -> int:
    """The retries made before ``request``: the SDK numbers each attempt in this header."""
    return int(request.headers.get("x-stainless-retry-count", "0"))


def _seconds(value: float) -> str:
    number = f"{value:.2f}".rstrip("0").rstrip(".")
    return f"{number} second" if number == "1" else f"{number} seconds"


def _connection_reason(error: BaseException) -> str:
    """The operating system's words for the failure ("connection refused"), or the last cause's."""
    reason = "the connection failed"
    link = error.__cause__ or error.__context__
    while link is not None:
        if isinstance(link, OSError) and link.strerror:
            return _lower_first(link.strerror)
        reason = str(link) or reason
        link = link.__cause__ or link.__context__
    return _lower_first(reason.rstrip("."))


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _sentence(text: str) -> str:
    """``text`` on one line, ending with a full stop."""
    line = " ".join(text.split())
    return line if line.endswith((".", "!", "?")) else f"{line}."
