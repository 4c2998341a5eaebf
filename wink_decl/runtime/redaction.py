"""Secrets (API keys, tokens) taken out of texts before anyone reads them."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["REDACTED", "redact"]

REDACTED = "[redacted]"


def redact(text: str, secrets: Iterable[str | None]) -> str:
    """``text`` with every secret (an API key, a token) replaced, however it was embedded."""
    for secret in secrets:
        if secret and len(secret) >= 4:  # noqa: PLR2004  # shorter "keys" are test placeholders
            text = text.replace(secret, REDACTED)
    return text
