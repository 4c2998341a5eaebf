"""``ToolContext``: the read-only view of the run that every handler receives."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from wink_decl.prompt.filesystem_protocol import Filesystem

if TYPE_CHECKING:
    from collections.abc import Callable

    from wink_decl.prompt.context_protocols import (
        AdapterView,
        BudgetView,
        DeadlineView,
        PromptView,
        RenderedPromptView,
        SessionView,
    )
    from wink_decl.prompt.resources import ResourceRegistry

__all__ = ["ToolContext"]


@dataclass(slots=True, frozen=True)
class ToolContext:
    """What a handler may see: prompt, render, adapter, session, deadline and resources.

    Built fresh for every call and discarded after it.
    """

    prompt: PromptView
    rendered_prompt: RenderedPromptView | None
    adapter: AdapterView | None
    session: SessionView
    deadline: DeadlineView | None = None
    budget_tracker: BudgetView | None = None
    heartbeat: Callable[[], None] | None = None

    @property
    def resources(self) -> ResourceRegistry:
        """The prompt's resources (filesystem, clients)."""
        return self.prompt.resources

    @property
    def filesystem(self) -> Filesystem | None:
        """The prompt's ``Filesystem`` resource, or None when no filesystem is attached."""
        return self.resources.get_optional(Filesystem)  # type: ignore[type-abstract]

    def beat(self) -> None:
        """Tell the orchestrator a long operation is still alive."""
        if self.heartbeat is not None:
            self.heartbeat()
