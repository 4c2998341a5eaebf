"""The words every adapter uses for a failed call, so that each provider fails alike.

One table of message leads, one way to count the attempts made, one hint for a refused key that
names the variable the key comes from (docs/adapters/openai.md, "Failures", shows them all).
"""

from __future__ import annotations

from collections.abc import Mapping

from wink_decl.errors import ProviderErrorKind

__all__ = ["after_attempts", "connection_failed", "refused_key_hint", "status_lead", "timed_out"]

_LEADS: Mapping[ProviderErrorKind, str] = {
    "authentication": "The provider refused the API key ({status}){after}",
    "permission": "The provider refused access to model '{model}' ({status}){after}",
    "not_found": "Model '{model}' was not found ({status}){after}",
    "rate_limit": "The provider's rate limit was reached ({status}){after}",
    "timeout": "The provider timed out ({status}){after}",
    "bad_request": "The provider rejected the request ({status}){after}",
    "server": "The provider failed ({status}){after}",
}
_OTHER_LEAD = "The provider answered {status}{after}"


def after_attempts(attempts: int) -> str:
    """`` after 3 attempts`` when the request was sent more than once, else ``""``."""
    return f" after {attempts} attempts" if attempts > 1 else ""


def status_lead(kind: ProviderErrorKind, *, status: int, model: str, attempts: int) -> str:
    """The first half of a failure with an HTTP status; the server's own words follow it."""
    template = _LEADS.get(kind, _OTHER_LEAD)
    return template.format(status=status, model=model, after=after_attempts(attempts))


def connection_failed(url: str, reason: str, *, attempts: int) -> str:
    """The whole message for a connection that could not be made (``reason``: the socket's)."""
    return f"Could not connect to {url}{after_attempts(attempts)}: {reason}."


def timed_out(limit: str | None, *, attempts: int) -> str:
    """The whole message for a request that timed out; ``limit`` ("30 seconds") when known.

    ``The request timed out after 30 seconds.``, or after more than one attempt
    ``The request timed out after 3 attempts (30 seconds each).``
    """
    if attempts > 1:
        each = "" if limit is None else f" ({limit} each)"
        return f"The request timed out{after_attempts(attempts)}{each}."
    return "The request timed out." if limit is None else f"The request timed out after {limit}."


def refused_key_hint(variable: str) -> str:
    """The hint of a refused key: where the adapter read it from, unless one was passed."""
    return f"check the API key in {variable}"
