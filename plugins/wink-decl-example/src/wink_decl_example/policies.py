"""``example.max_length``: a tool policy, built from the config the prompt file gives it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from wink_decl import PolicyDecision, Tool, ToolContext, ToolResult


@dataclass(frozen=True)
class MaxLength:
    """Refuse a call whose text param is longer than ``limit`` characters.

    A policy keeps no state of its own (one object serves every session); a policy that must
    remember calls keeps that in the session, as the built-in ones do.
    """

    limit: int
    field: str = "text"
    name: str = "example.max_length"

    def check(self, tool: Tool[Any, Any], params: Any, *, context: ToolContext) -> PolicyDecision:
        """Decide before the handler runs: a denial's reason is shown to the model."""
        del context  # the session, for a policy that remembers calls
        value = getattr(params, self.field, None)
        if isinstance(value, str) and len(value) > self.limit:
            return PolicyDecision.deny(
                f"'{self.field}' has {len(value)} characters; {tool.name} takes at most "
                f"{self.limit}."
            )
        return PolicyDecision.allow()

    def on_result(
        self, tool: Tool[Any, Any], params: Any, result: ToolResult[Any], *, context: ToolContext
    ) -> None:
        """Called after each successful call; this policy has nothing to record."""


def max_length(*, limit: int, field: str = "text") -> MaxLength:
    """The factory the entry point names: called once with the prompt file's ``config:``."""
    return MaxLength(limit, field)
