"""Claude Code's failures as ``ProviderError``: one line each, kind and status set, no secrets."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from claude_agent_sdk import (
    ClaudeSDKError,
    CLIConnectionError,
    CLINotFoundError,
    ProcessError,
    ResultMessage,
)

from wink_decl._install_hint import install_hint
from wink_decl.adapters.adapter_support import kind_of_status, provider_error, redact
from wink_decl.errors import ProviderError, ProviderErrorKind

__all__ = ["FINAL_STATUSES", "from_exception", "from_result", "refused_retry", "timed_out"]

FINAL_STATUSES = frozenset({400, 401, 403, 404, 413, 422})
"""Statuses Claude Code retries (up to ten times, minutes of back-off) that no retry can fix."""

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


def from_result(
    result: ResultMessage, assistant_error: str | None, *, secrets: Iterable[str | None]
) -> ProviderError:
    """A result Claude Code marked ``is_error``: an API failure, or the agent loop's own."""
    secrets = tuple(secrets)
    status = result.api_error_status
    text = _line("; ".join(result.errors or ()) or result.result or result.subtype, secrets)
    kind = _kind(status, assistant_error, text)
    where = "" if status is None else f" (HTTP {status})"
    return provider_error(
        f"Claude Code stopped{where}: {text}", kind=kind, status=status, secrets=secrets
    )


def refused_retry(status: int, error: str, *, secrets: Iterable[str | None]) -> ProviderError:
    """Claude Code is about to retry a request that was refused for good."""
    return provider_error(
        f"The provider refused Claude Code's request (HTTP {status}, {error}).",
        kind=kind_of_status(status),
        status=status,
        secrets=secrets,
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


def _line(value: object, secrets: Iterable[str | None]) -> str:
    """``value`` on one line of at most ``_LONGEST`` characters.

    Secrets are redacted first, so that shortening cannot leave part of one behind.
    """
    text = " ".join(redact(str(value), secrets).split())
    return text if len(text) <= _LONGEST else f"{text[: _LONGEST - 3]}..."
