"""OpenAI SDK failures (and LiteLLM's, which subclass them) as one-line ``ProviderError``s.

Every text that came back from the server or the SDK is redacted of the secrets in use, and the
SDK's exception is not chained (``from None``), so no traceback shows an API key either.
See docs/adapters/openai.md for the messages.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from wink_decl._nouns import noun_for
from wink_decl.adapters._failure_wording import (
    connection_failed,
    refused_key_hint,
    status_lead,
    timed_out,
)
from wink_decl.adapters.adapter_support import kind_of_status, provider_error
from wink_decl.errors import ProviderError

if TYPE_CHECKING:
    import openai

__all__ = ["CallContext", "provider_failure", "server_message"]

_DETAIL_LIMIT = 300
"""Server messages longer than this (an HTML error page, say) are cut: the message is one line."""


@dataclass(slots=True, frozen=True)
class CallContext:
    """What a failure message needs to know about the call that failed."""

    model: str
    base_url: str
    """Where the request went, as people write it (no trailing slash)."""
    timeout: float | None
    """The timeout of the call, in seconds; None when the SDK's default applied."""
    secrets: tuple[str | None, ...]
    """Values that must never appear in a message: the API keys in use."""
    key_variable: str
    """The environment variable the provider's key is read from, named when it is refused."""


def provider_failure(error: Exception, context: CallContext) -> ProviderError:
    """The ``ProviderError`` that explains ``error``, an OpenAI (or LiteLLM) SDK exception."""
    import openai  # noqa: PLC0415  # the SDK is optional: its adapter imported it already

    links = tuple(_causes(error))
    if any(isinstance(link, openai.APITimeoutError | TimeoutError) for link in links):
        return _timed_out(context, attempts=_attempts(links))
    if any(_is_connection_failure(link) for link in links):
        return provider_error(
            connection_failed(
                context.base_url, _connection_reason(links), attempts=_attempts(links)
            ),
            kind="connection",
            secrets=context.secrets,
        )
    if isinstance(error, openai.APIStatusError):
        return _status_failure(error, context)
    if isinstance(error, json.JSONDecodeError):  # a 200 whose body (or event) is not JSON
        return provider_error(
            f"The provider's answer is not JSON: {error}.",
            kind="other",
            secrets=context.secrets,
        )
    return provider_error(
        f"The provider failed: {type(error).__name__}: {_one_line(_message_of(error))}.",
        kind="other",
        secrets=context.secrets,
    )


def _causes(error: BaseException) -> Iterator[BaseException]:
    """``error`` and what it was raised from or during, innermost last."""
    seen: set[int] = set()
    link: BaseException | None = error
    while link is not None and id(link) not in seen:
        seen.add(id(link))
        yield link
        link = link.__cause__ or link.__context__


def _is_connection_failure(link: BaseException) -> bool:
    import openai  # noqa: PLC0415  # see provider_failure

    # LiteLLM raises its APIConnectionError subclass for failures of its own too, so only the
    # OpenAI SDK's own class, or a socket error underneath, means the connection failed.
    return isinstance(link, OSError) or type(link) is openai.APIConnectionError


def _connection_reason(links: tuple[BaseException, ...]) -> str:
    """What the socket said ("connection refused"), else the innermost error's words."""
    reasons = [link.strerror for link in links if isinstance(link, OSError) and link.strerror]
    reason = reasons[-1] if reasons else str(links[-1]).rstrip(".")
    return reason[:1].lower() + reason[1:]


def _timed_out(context: CallContext, *, attempts: int) -> ProviderError:
    timeout = context.timeout
    limit = None if timeout is None else f"{timeout:g} {noun_for(timeout, 'second')}"
    message = timed_out(limit, attempts=attempts)
    return provider_error(message, kind="timeout", secrets=context.secrets)


def _status_failure(error: openai.APIStatusError, context: CallContext) -> ProviderError:
    status = error.status_code
    kind = kind_of_status(status)
    detail = server_message(error)
    said = f": {detail}." if detail else "."
    attempts = _attempts(tuple(_causes(error)))
    lead = status_lead(kind, status=status, model=context.model, attempts=attempts)
    hint = refused_key_hint(context.key_variable) if kind == "authentication" else None
    return provider_error(lead + said, kind=kind, status=status, secrets=context.secrets, hint=hint)


def _attempts(links: tuple[BaseException, ...]) -> int:
    """How often the SDK sent the request: it numbers each retry in a request header.

    LiteLLM raises an error of its own while handling the OpenAI SDK's, whose request has the
    header; an error without one (LiteLLM's own routes, which do not retry) made one attempt.
    """
    import openai  # noqa: PLC0415  # see provider_failure

    for link in links:
        if isinstance(link, openai.APIStatusError | openai.APIConnectionError):
            sent = link.request.headers.get("x-stainless-retry-count", "")
            if sent.isdigit():
                return int(sent) + 1
    return 1


def server_message(error: openai.APIStatusError) -> str:
    """The server's own explanation, on one line (LiteLLM's wrapping taken off), or ""."""
    text = _message_in(error.body) or _response_message(error)
    if not text:
        text = _unwrapped_litellm_message(_message_of(error))
    return "" if _BARE_STATUS.fullmatch(text) else _one_line(text)


_BARE_STATUS = re.compile(r"Error code: \d+")
"""What the SDK says when the server said nothing: the status, which the message has already."""


def _message_in(data: object) -> str:
    """The message in an error body, in the shapes OpenAI, Anthropic and compatible servers use."""
    if isinstance(data, str):
        return data
    if not isinstance(data, Mapping):
        return ""
    body = cast("Mapping[str, object]", data)  # a JSON object: its keys are text
    inner = body.get("error")
    if isinstance(inner, str):  # {"error": "model 'x' not found"} (Ollama)
        return inner
    if isinstance(inner, Mapping):  # {"error": {"message": ...}} (OpenAI, Anthropic)
        return _message_in(cast("Mapping[str, object]", inner).get("message"))
    for key in ("message", "detail"):  # {"message": ...}, {"detail": ...} (FastAPI servers)
        value = body.get(key)
        if isinstance(value, str):
            return value
    return ""


def _response_message(error: openai.APIStatusError) -> str:
    """The message in the HTTP response's body (LiteLLM keeps the response, not the body)."""
    text = error.response.text
    try:
        return _message_in(json.loads(text))
    except ValueError:  # not JSON: an HTML error page, plain text, or nothing
        return text


_LITELLM_WRAPPING = re.compile(
    r"^litellm\.\w+: (?:\w+: )?(?:\w+(?:Exception|Error) - )?(?P<rest>.*)$", re.DOTALL
)
_LITELLM_ADVICE = re.compile(r"\.?\s*Handle with `litellm\.\w+`\.?\s*$")


def _unwrapped_litellm_message(message: str) -> str:
    """``litellm.NotFoundError: AnthropicException - {"error": ...}`` -> the server's words."""
    matched = _LITELLM_WRAPPING.match(message)
    if matched is None:
        return message
    rest = _LITELLM_ADVICE.sub("", matched["rest"])
    try:
        return _message_in(json.loads(rest)) or rest
    except ValueError:
        return rest


def _message_of(error: BaseException) -> str:
    message = getattr(error, "message", None)
    return message if isinstance(message, str) else str(error)


def _one_line(text: str) -> str:
    line = " ".join(text.split()).rstrip(".")
    return line if len(line) <= _DETAIL_LIMIT else line[:_DETAIL_LIMIT].rstrip() + " [...]"
