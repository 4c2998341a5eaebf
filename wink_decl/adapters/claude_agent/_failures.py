"""Claude Code's failures as ``ProviderError``: one line each, kind and status set, no secrets."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from claude_agent_sdk import (
    ClaudeSDKError,
    CLIConnectionError,
    CLINotFoundError,
    ProcessError,
    ResultMessage,
)

from wink_decl._install_hint import install_hint
from wink_decl.adapters._failure_wording import connection_failed, refused_key_hint, status_lead
from wink_decl.adapters.adapter_support import kind_of_status, provider_error, redact
from wink_decl.errors import ProviderError, ProviderErrorKind

__all__ = [
    "FINAL_STATUSES",
    "Attempted",
    "from_exception",
    "from_result",
    "refused_retry",
    "timed_out",
]

FINAL_STATUSES = frozenset({400, 401, 403, 404, 413, 422})
"""Statuses Claude Code retries (up to ten times, minutes of back-off) that no retry can fix."""

_KEY_VARIABLE = "ANTHROPIC_API_KEY"
_API_ERROR = "API Error: "
"""How Claude Code begins the text of a failed request, before the server's or socket's words."""

_STDERR_LINES = 3
_LONGEST = 300

_ASSISTANT_ERRORS: dict[str, ProviderErrorKind] = {
    "authentication_failed": "authentication",
    "billing_error": "permission",
    "rate_limit": "rate_limit",
    "invalid_request": "bad_request",
    "server_error": "server",
}
"""``AssistantMessage.error`` values, for failures that carry no HTTP status."""

_NOT_FOUND_HINT = (
    f"{install_hint('claude-agent')} (its wheel bundles Claude Code), or pass cli_path"
)
_STDERR_HINT = "Claude Code's stderr is logged by 'wink_decl.adapters.claude_agent' at DEBUG"


def from_exception(
    error: Exception, *, stderr: Sequence[str], secrets: Iterable[str | None]
) -> ProviderError:
    """What an exception of the SDK (or of anything under it) means for the run."""
    secrets = tuple(secrets)
    if isinstance(error, CLINotFoundError):
        return provider_error(
            f"Claude Code was not found: {_line(error, secrets)}",
            kind="unavailable",
            secrets=secrets,
            hint=_NOT_FOUND_HINT,
        )
    if isinstance(error, ProcessError):
        said = _line(" | ".join(stderr[-_STDERR_LINES:]), secrets) or "nothing on stderr"
        return provider_error(
            f"Claude Code exited with code {error.exit_code}: {said}",
            kind="other",
            secrets=secrets,
            hint=_STDERR_HINT,
        )
    if isinstance(error, CLIConnectionError):
        return provider_error(
            f"Claude Code could not be started: {_line(error, secrets)}",
            kind="unavailable",
            secrets=secrets,
        )
    what = (
        "Claude Code failed" if isinstance(error, ClaudeSDKError) else "The Claude Agent SDK failed"
    )
    return provider_error(
        f"{what}: {type(error).__name__}: {_line(error, secrets)}", kind="other", secrets=secrets
    )


@dataclass(slots=True, frozen=True)
class Attempted:
    """What the words of a failed request need: where it went and how often it was sent."""

    model: str
    url: str
    attempts: int = 1


def from_result(
    result: ResultMessage,
    assistant_error: str | None,
    *,
    attempted: Attempted,
    secrets: Iterable[str | None],
) -> ProviderError:
    """A result Claude Code marked ``is_error``: an API failure, or the agent loop's own.

    A failed request is worded as every adapter words it (``_failure_wording``).
    """
    secrets = tuple(secrets)
    status = result.api_error_status
    text = _line("; ".join(result.errors or ()) or result.result or result.subtype, secrets)
    kind = _kind(status, assistant_error, text)
    if status is not None:
        return _status_failure(kind, status, text.removeprefix(_API_ERROR), attempted, secrets)
    if kind == "connection":
        reason = _lower_first(text.removeprefix(_API_ERROR).rstrip("."))
        message = connection_failed(attempted.url, reason, attempts=attempted.attempts)
        return provider_error(message, kind=kind, secrets=secrets)
    return provider_error(f"Claude Code stopped: {text}", kind=kind, secrets=secrets)


def refused_retry(
    status: int, error: str, *, attempted: Attempted, secrets: Iterable[str | None]
) -> ProviderError:
    """Claude Code is about to retry a request that was refused for good."""
    return _status_failure(kind_of_status(status), status, error, attempted, tuple(secrets))


def _status_failure(
    kind: ProviderErrorKind,
    status: int,
    detail: str,
    attempted: Attempted,
    secrets: tuple[str | None, ...],
) -> ProviderError:
    lead = status_lead(kind, status=status, model=attempted.model, attempts=attempted.attempts)
    said = detail.rstrip(".")
    return provider_error(
        f"{lead}: {said}.",
        kind=kind,
        status=status,
        secrets=secrets,
        hint=refused_key_hint(_KEY_VARIABLE) if kind == "authentication" else None,
    )


def timed_out(seconds: float) -> ProviderError:
    """The run's deadline passed while Claude Code was still working (``seconds`` in all)."""
    return provider_error(
        f"Claude Code did not finish before the deadline; stopped after {seconds:.1f} s.",
        kind="timeout",
    )


def _kind(status: int | None, assistant_error: str | None, text: str) -> ProviderErrorKind:
    if status is not None:
        return kind_of_status(status)
    lowered = text.lower()
    if "econn" in lowered or "connection" in lowered:
        return "connection"
    if "timed out" in lowered or "timeout" in lowered:
        return "timeout"
    return _ASSISTANT_ERRORS.get(assistant_error or "", "other")


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _line(value: object, secrets: Iterable[str | None]) -> str:
    """``value`` on one line of at most ``_LONGEST`` characters.

    Secrets are redacted first, so that shortening cannot leave part of one behind.
    """
    text = " ".join(redact(str(value), secrets).split())
    return text if len(text) <= _LONGEST else f"{text[: _LONGEST - 3]}..."
