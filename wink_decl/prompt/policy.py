"""The tool-policy protocol: checks that run before a handler, and updates after success."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from wink_decl.prompt.tool import Tool
    from wink_decl.prompt.tool_context import ToolContext
    from wink_decl.prompt.tool_result import ToolResult

__all__ = ["PolicyDecision", "ToolPolicy"]


@dataclass(slots=True, frozen=True)
class PolicyDecision:
    """Whether a tool call may proceed, and why not when it may not."""

    allowed: bool
    reason: str | None = None

    @classmethod
    def allow(cls) -> PolicyDecision:
        """The call may proceed."""
        return _ALLOW

    @classmethod
    def deny(cls, reason: str) -> PolicyDecision:
        """The call is refused; ``reason`` is shown to the model."""
        return cls(allowed=False, reason=reason)


_ALLOW = PolicyDecision(allowed=True)


@runtime_checkable
class ToolPolicy(Protocol):
    """A rule over tool calls; state lives in the session, never in the policy object."""

    @property
    def name(self) -> str:
        """A stable identifier, also the key of the policy's session state."""
        ...

    def check(self, tool: Tool[Any, Any], params: Any, *, context: ToolContext) -> PolicyDecision:
        """Decide before the handler runs."""
        ...

    def on_result(
        self,
        tool: Tool[Any, Any],
        params: Any,
        result: ToolResult[Any],
        *,
        context: ToolContext,
    ) -> None:
        """Record a successful call."""
        ...
