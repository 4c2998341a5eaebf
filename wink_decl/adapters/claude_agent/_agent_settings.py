"""How every conversation of one Claude Code adapter starts: its settings and environment.

A module of its own, below the adapter and the conversation, so that neither imports the other.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from wink_decl.adapters.adapter_support import anthropic_root
from wink_decl.runtime.loop import DEFAULT_MAX_TURNS
from wink_decl.runtime.provider import OPENING_MESSAGE

__all__ = ["DEFAULT_USER_MESSAGE", "ClaudeAgentSettings"]

DEFAULT_USER_MESSAGE = OPENING_MESSAGE
"""The conversation's first user turn: the rendered prompt is the system prompt."""

_QUIET = MappingProxyType(
    {"DISABLE_AUTOUPDATER": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}
)
"""A library run never updates the bundled CLI or sends telemetry; ``env`` may say otherwise."""

_SECRET_VARIABLES = ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN")


@dataclass(slots=True, frozen=True)
class ClaudeAgentSettings:
    """How every conversation of one adapter starts Claude Code."""

    model: str | None = None
    api_key: str | None = field(default=None, repr=False)
    base_url: str | None = None
    env: Mapping[str, str] = field(default_factory=dict[str, str], repr=False)
    cwd: str | None = None
    max_turns: int = DEFAULT_MAX_TURNS
    max_retries: int | None = None
    builtin_tools: tuple[str, ...] = ()
    cli_path: str | None = None
    user_message: str = DEFAULT_USER_MESSAGE

    def environment(self) -> dict[str, str]:
        """What the CLI's environment adds to this process's.

        Quiet defaults, then ``env``, then the key, base URL and retries the adapter was given.
        """
        merged = {**_QUIET, **self.env}
        if self.api_key is not None:
            merged["ANTHROPIC_API_KEY"] = self.api_key
        if self.base_url is not None:
            merged["ANTHROPIC_BASE_URL"] = anthropic_root(self.base_url)
        if self.max_retries is not None:
            merged["CLAUDE_CODE_MAX_RETRIES"] = str(self.max_retries)
        return merged

    def secrets(self) -> tuple[str, ...]:
        """Every credential the CLI may see, so that none reaches an error message."""
        merged = {**os.environ, **self.environment()}
        return tuple(merged[name] for name in _SECRET_VARIABLES if merged.get(name))
