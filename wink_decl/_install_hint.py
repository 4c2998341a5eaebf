"""The one way every message says how to install an optional extra."""

from __future__ import annotations

__all__ = ["install_hint"]


def install_hint(extra: str) -> str:
    """``pip install 'wink-decl[EXTRA]'``: quoted, so zsh and other shells take it as typed."""
    return f"pip install 'wink-decl[{extra}]'"
