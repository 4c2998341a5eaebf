"""What the executor and the loop rely on from a session, as a protocol."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from wink_decl.prompt.context_protocols import SessionView

if TYPE_CHECKING:
    from wink_decl.runtime.session.metrics import Metrics
    from wink_decl.runtime.session.session import Snapshot

__all__ = ["SessionProtocol"]


class SessionProtocol(SessionView, Protocol):
    """What tools see of a session (``SessionView``), and rollback and telemetry."""

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
    def metrics(self) -> Metrics:
        """The session's telemetry counters."""
        ...
