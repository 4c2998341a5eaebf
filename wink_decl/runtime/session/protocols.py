"""What the rest of the runtime relies on from a session, as protocols."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, TypeVar

if TYPE_CHECKING:
    from collections.abc import Mapping

    from wink_decl.runtime.session.metrics import Metrics
    from wink_decl.runtime.session.session import Snapshot
    from wink_decl.runtime.visibility import SectionPath, SectionVisibility

__all__ = ["Dispatcher", "SessionProtocol"]

S = TypeVar("S")


class Dispatcher(Protocol):
    """Something events can be published to (``context.session.dispatcher``)."""

    def dispatch(self, event: object) -> None:
        """Publish ``event`` to the reducers listening for its type."""
        ...


class SessionProtocol(Protocol):
    """The session surface that tools, policies, the executor and the loop use."""

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

    def snapshot(self) -> Snapshot:
        """Capture every slice so a failed step can be rolled back."""
        ...

    def restore(self, snapshot: Snapshot, *, preserve_logs: bool = True) -> None:
        """Put the state slices (and, unless ``preserve_logs``, the log slices) back."""
        ...

    def reset(self) -> None:
        """Empty every slice and counter, keeping reducer registrations."""
        ...

    @property
    def visibility_overrides(self) -> Mapping[SectionPath, SectionVisibility]:
        """The current visibility overrides, read-only."""
        ...

    @property
    def dispatcher(self) -> Dispatcher:
        """Where tool handlers publish events."""
        ...

    @property
    def metrics(self) -> Metrics:
        """The session's telemetry counters."""
        ...
