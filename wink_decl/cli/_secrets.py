"""Credentials in the environment: found so that no output of wink-decl ever shows them."""

from __future__ import annotations

import os

from wink_decl.adapters.adapter_support import redact

__all__ = ["redact_environment_secrets", "secrets_from_environment"]

_SECRET_SUFFIXES = ("_API_KEY", "_KEY", "_TOKEN", "_SECRET", "_PASSWORD")
_SHORTEST_SECRET = 8
"""Shorter values are placeholders (``x``, ``test``); redacting them would mangle text."""


def secrets_from_environment() -> tuple[str, ...]:
    """Values of environment variables whose names say they are credentials."""
    return tuple(
        value
        for name, value in os.environ.items()
        if name.upper().endswith(_SECRET_SUFFIXES) and len(value) >= _SHORTEST_SECRET
    )


def redact_environment_secrets(text: str) -> str:
    """``text`` without any credential the environment holds."""
    return redact(text, secrets_from_environment())
