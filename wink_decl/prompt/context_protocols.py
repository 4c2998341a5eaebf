"""What the prompt side sees of a run, as protocols the runtime's classes satisfy structurally.

Tools, predicates and ``render(session=...)`` need a little of the session, the adapter, the
deadline and the budget; the prompt package names that little here so it never imports
``wink_decl.runtime`` (docs/runtime.md, "Layers").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, TypeVar

if TYPE_CHECKING:
    from collections.abc import Mapping

    from wink_decl.prompt.resources import ResourceRegistry
    from wink_decl.prompt.visibility import SectionPath, SectionVisibility

__all__ = [
    "AdapterView",
    "BudgetView",
    "DeadlineView",
    "Dispatcher",
    "PromptView",
    "RenderedPromptView",
    "SessionView",
    "TemplateView",
]

S = TypeVar("S")


class Dispatcher(Protocol):
    """Something events can be published to (``context.session.dispatcher``)."""

    def dispatch(self, event: object) -> None:
        """Publish ``event`` to the reducers listening for its type."""
        ...


class SessionView(Protocol):
    """The session surface that tools, predicates and rendering use."""

    def dispatch(self, event: object) -> None:
        """Run every reducer registered for ``type(event)``."""
        ...

    def is_registered(self, event_type: type) -> bool:
        """Whether a reducer listens for ``event_type`` (exact type)."""
        ...

    def query(self, slice_type: type[S]) -> tuple[S, ...]:
        """Return every item of the slice ``slice_type``, oldest first."""
        ...

    def latest(self, slice_type: type[S]) -> S | None:
        """Return the newest item of the slice ``slice_type``, if any."""
        ...

    @property
    def visibility_overrides(self) -> Mapping[SectionPath, SectionVisibility]:
        """The current visibility overrides, read-only."""
        ...

    @property
    def dispatcher(self) -> Dispatcher:
        """Where tool handlers publish events."""
        ...


class AdapterView(Protocol):
    """The provider adapter running the evaluation, as a tool sees it."""

    @property
    def name(self) -> str:
        """The adapter's name."""
        ...

    @property
    def supports_dynamic_tools(self) -> bool:
        """Whether tools revealed mid-conversation can be offered without a restart."""
        ...


class DeadlineView(Protocol):
    """The run's wall-clock limit."""

    def remaining(self) -> float:
        """Seconds left; zero or negative once passed."""
        ...

    def expired(self) -> bool:
        """True once the deadline has passed."""
        ...


class BudgetView(Protocol):
    """The run's turn, tool-call and token budget."""

    def exhausted(self) -> str | None:
        """Why the budget is spent, or None while some is left."""
        ...


class TemplateView(Protocol):
    """The template a bound prompt renders."""

    @property
    def label(self) -> str:
        """``ns/key``."""
        ...

    @property
    def defaults(self) -> Mapping[type, object]:
        """The first ``default_params`` declared for each params type."""
        ...

    @property
    def engine(self) -> object:
        """The renderer (its identity tells templates apart)."""
        ...


class PromptView(Protocol):
    """The bound prompt a tool runs under."""

    @property
    def name(self) -> str:
        """The template's name."""
        ...

    @property
    def template(self) -> TemplateView:
        """The template this prompt renders."""
        ...

    @property
    def params(self) -> Mapping[type, object]:
        """The params bound now, by dataclass type."""
        ...

    @property
    def resources(self) -> ResourceRegistry:
        """The resources tools may use."""
        ...


class RenderedPromptView(Protocol):
    """The render the model was given."""

    @property
    def tool_names(self) -> tuple[str, ...]:
        """The tools' names, in order."""
        ...

    @property
    def visibility_overrides(
        self,
    ) -> Mapping[SectionPath, SectionVisibility] | Mapping[str, SectionVisibility]:
        """The overrides this render was asked for."""
        ...
