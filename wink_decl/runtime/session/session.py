"""The session: typed slices of immutable state, changed only by reducers."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType
from typing import TYPE_CHECKING, TypeAlias, TypeVar, cast

from wink_decl.runtime.session.metrics import Metrics
from wink_decl.runtime.session.tool_events import (
    PolicyState,
    RecordPolicyInvocation,
    reduce_policy_invocation,
)
from wink_decl.runtime.session.visibility_slice import (
    ClearAllVisibilityOverrides,
    ClearVisibilityOverride,
    SetVisibilityOverride,
    VisibilityOverrides,
    reduce_clear_all_visibility_overrides,
    reduce_clear_visibility_override,
    reduce_set_visibility_override,
)

if TYPE_CHECKING:
    from wink_decl.prompt.context_protocols import Dispatcher
    from wink_decl.prompt.visibility import SectionPath, SectionVisibility

__all__ = ["Reducer", "Session", "SlicePolicy", "Snapshot"]

S = TypeVar("S")
E = TypeVar("E")

Reducer: TypeAlias = Callable[[tuple[S, ...], E], tuple[S, ...]]
"""Takes a slice's current items and an event, returns the slice's new items.

A reducer must not mutate anything: the items are shared with snapshots.
Returning ``items`` itself means "no change".
"""

_AnyReducer: TypeAlias = Callable[[tuple[object, ...], object], tuple[object, ...]]

_NO_OVERRIDES: Mapping[SectionPath, SectionVisibility] = MappingProxyType({})


class SlicePolicy(Enum):
    """What ``Session.restore`` does to a slice."""

    STATE = "state"
    """Rolled back by ``restore``: the slice is part of what a snapshot captures."""

    LOG = "log"
    """Kept by ``restore``: append-only telemetry that survives a rollback (unless the
    restore asks for ``preserve_logs=False``, as a failed tool call's does)."""


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Snapshot:
    """Every slice of one session at one moment; opaque, for ``Session.restore``.

    Snapshots compare by identity. ``owner``, ``slices`` and ``logs`` are internal.
    """

    owner: object
    """Token of the session that took the snapshot; restoring elsewhere is refused."""

    slices: Mapping[type[object], tuple[object, ...]]
    """State slice type -> items; the tuples are shared with the session, never copied."""

    logs: Mapping[type[object], _Ledger] = field(default_factory=lambda: MappingProxyType({}))
    """Log slice type -> its version at this moment (restored only on request)."""

    @property
    def slice_types(self) -> tuple[type[object], ...]:
        """The state slices captured, for debugging."""
        return tuple(self.slices)

    @property
    def log_types(self) -> tuple[type[object], ...]:
        """The log slices captured, for debugging."""
        return tuple(self.logs)

    def __repr__(self) -> str:
        """Name the captured slices without printing their (possibly many) items."""
        names = ", ".join(slice_type.__qualname__ for slice_type in self.slices)
        logs = ", ".join(slice_type.__qualname__ for slice_type in self.logs)
        return f"Snapshot(slice_types=({names}), log_types=({logs}))"


@dataclass(frozen=True, slots=True)
class _Registration:
    """One reducer listening to one event type."""

    slice_type: type[object]
    reducer: _AnyReducer
    policy: SlicePolicy


class _Ledger:
    """One version of an append-only log slice; versions share one list, never copying it.

    A version is the first ``length`` items of ``items``. Appending to the newest version
    appends to the shared list in O(1); every older version (held by a snapshot) still sees
    only its own prefix, which no append ever changes. Appending to an older version (after a
    rollback discarded newer items) first copies its prefix, so the discarded items are not
    overwritten under a snapshot that may still hold them. The tuple view is built once per
    version, on the first query.
    """

    __slots__ = ("_items", "_length", "_view")

    def __init__(self, items: list[object], length: int) -> None:
        self._items = items
        self._length = length
        self._view: tuple[object, ...] | None = None

    @classmethod
    def of(cls, items: tuple[object, ...]) -> _Ledger:
        ledger = cls(list(items), len(items))
        ledger._view = items
        return ledger

    def appended(self, item: object) -> _Ledger:
        items = self._items
        if len(items) != self._length:
            items = items[: self._length]
        items.append(item)
        return _Ledger(items, self._length + 1)

    def view(self) -> tuple[object, ...]:
        view = self._view
        if view is None:
            items = self._items
            view = self._view = tuple(
                items if len(items) == self._length else items[: self._length]
            )
        return view


class Session:
    """Typed slices of immutable state, changed by dispatching events to reducers.

    State slices are stored as tuples in a dict keyed by slice type, so a snapshot
    copies only that dict of references: its cost depends on the number of slices,
    never on the number of recorded items.
    """

    __slots__ = (
        "_listeners",
        "_logs",
        "_metrics",
        "_policies",
        "_reducers",
        "_state",
        "_token",
    )

    def __init__(self) -> None:
        """Create an empty session with the built-in visibility and policy reducers registered."""
        self._token = object()
        self._reducers: dict[type[object], list[_Registration]] = {}
        self._policies: dict[type[object], SlicePolicy] = {}
        self._state: dict[type[object], tuple[object, ...]] = {}
        self._logs: dict[type[object], _Ledger] = {}
        self._metrics = Metrics()
        self._listeners: tuple[Callable[[object], None], ...] = ()
        self._register_visibility_reducers()
        self.register_reducer(
            RecordPolicyInvocation, reduce_policy_invocation, slice_type=PolicyState
        )

    def _register_visibility_reducers(self) -> None:
        self.register_reducer(
            SetVisibilityOverride,
            reduce_set_visibility_override,
            slice_type=VisibilityOverrides,
        )
        self.register_reducer(
            ClearVisibilityOverride,
            reduce_clear_visibility_override,
            slice_type=VisibilityOverrides,
        )
        self.register_reducer(
            ClearAllVisibilityOverrides,
            reduce_clear_all_visibility_overrides,
            slice_type=VisibilityOverrides,
        )

    def register_reducer(
        self,
        event_type: type[E],
        reducer: Reducer[S, E],
        *,
        slice_type: type[S],
        policy: SlicePolicy = SlicePolicy.STATE,
    ) -> None:
        """Run ``reducer`` on the slice ``slice_type`` whenever an ``event_type`` is dispatched.

        Several reducers may listen to one event type; they run in registration order.

        Raises:
            ValueError: the slice already has a different policy.
        """
        known = self._policies.get(slice_type)
        if known is not None and known is not policy:
            raise ValueError(
                f"slice {slice_type.__qualname__} already has policy {known.value!r}; "
                f"the reducer for {event_type.__qualname__} asks for {policy.value!r}, "
                "and a slice keeps one policy for the life of the session"
            )
        self._policies[slice_type] = policy
        # Registrations are keyed by exact event type, so the reducer only ever sees
        # an E; widening its signature to object for storage is therefore safe.
        registration = _Registration(slice_type, cast("_AnyReducer", reducer), policy)
        self._reducers.setdefault(event_type, []).append(registration)

    def is_registered(self, event_type: type) -> bool:
        """Whether a reducer listens for ``event_type`` (exact type, as ``dispatch`` matches).

        Lets a tool suite register its reducers once per session, whoever calls first.
        """
        return event_type in self._reducers

    def dispatch(self, event: object) -> None:
        """Run every reducer registered for ``type(event)`` (exact type, no subclasses).

        An event nobody listens to is appended to a log slice of its own type, so
        telemetry events need no registration.
        """
        registrations = self._reducers.get(type(event))
        if registrations is None:
            self._append_unhandled(event)
        else:
            for registration in registrations:
                items = registration.reducer(self.query(registration.slice_type), event)
                self._store(registration.slice_type, registration.policy, tuple(items))
        for listener in self._listeners:
            listener(event)

    def subscribe(self, listener: Callable[[object], None]) -> Callable[[], None]:
        """Call ``listener`` with every event after its reducers ran; returns the unsubscribe.

        Listeners see events as they happen, for live telemetry (a progress display, a
        transcript): an event of a tool call that later fails and is rolled back was seen.
        """
        self._listeners = (*self._listeners, listener)

        def unsubscribe() -> None:
            self._listeners = tuple(known for known in self._listeners if known is not listener)

        return unsubscribe

    def _append_unhandled(self, event: object) -> None:
        slice_type = type(event)
        policy = self._policies.setdefault(slice_type, SlicePolicy.LOG)
        if policy is SlicePolicy.STATE:
            # The type is already a state slice (another event's reducer writes it);
            # appending keeps it rollback-able rather than splitting it in two.
            self._state[slice_type] = (*self._state.get(slice_type, ()), event)
            return
        log = self._logs.get(slice_type)
        self._logs[slice_type] = _Ledger([event], 1) if log is None else log.appended(event)

    def _store(
        self, slice_type: type[object], policy: SlicePolicy, items: tuple[object, ...]
    ) -> None:
        if policy is SlicePolicy.STATE:
            self._state[slice_type] = items
        else:
            self._logs[slice_type] = _Ledger.of(items)

    def query(self, slice_type: type[S]) -> tuple[S, ...]:
        """Return every item of the slice ``slice_type``, oldest first (empty if none)."""
        items = self._state.get(slice_type)
        if items is None:
            log = self._logs.get(slice_type)
            items = () if log is None else log.view()
        # Only reducers for slice_type (or its own events) write this slice.
        return cast("tuple[S, ...]", items)

    def latest(self, slice_type: type[S]) -> S | None:
        """Return the newest item of the slice ``slice_type``, or None if it is empty."""
        items = self.query(slice_type)
        return items[-1] if items else None

    def snapshot(self) -> Snapshot:
        """Capture every slice, state and log (metrics are not captured).

        Costs O(number of slices): state items are immutable tuples and log slices are
        versions of append-only lists, both shared rather than copied.
        """
        return Snapshot(
            owner=self._token,
            slices=MappingProxyType(dict(self._state)),
            logs=MappingProxyType(dict(self._logs)),
        )

    def restore(self, snapshot: Snapshot, *, preserve_logs: bool = True) -> None:
        """Put every state slice back as it was at ``snapshot``.

        Log slices (telemetry) are kept as they are unless ``preserve_logs`` is False; then
        they go back too, and the session is exactly as it was (metrics aside). The executor
        restores that way when a tool call fails, so nothing the call dispatched survives.

        Raises:
            ValueError: ``snapshot`` was taken from another session.
        """
        if snapshot.owner is not self._token:
            raise ValueError(
                "cannot restore a snapshot taken from another session; "
                "a session restores only its own snapshots"
            )
        self._state = dict(snapshot.slices)
        if not preserve_logs:
            self._logs = dict(snapshot.logs)

    def reset(self) -> None:
        """Empty every slice (state and log) and the metrics; keep reducer registrations."""
        self._state = {}
        self._logs = {}
        self._metrics.reset()
        # Log slices created by unhandled events are forgotten with their items.
        self._policies = {
            registration.slice_type: registration.policy
            for registrations in self._reducers.values()
            for registration in registrations
        }

    @property
    def visibility_overrides(self) -> Mapping[SectionPath, SectionVisibility]:
        """The current visibility overrides, as a read-only mapping."""
        current = self.latest(VisibilityOverrides)
        return _NO_OVERRIDES if current is None else current.overrides

    @property
    def dispatcher(self) -> Dispatcher:
        """Where tool handlers publish events: the session itself."""
        return self

    @property
    def metrics(self) -> Metrics:
        """The session's telemetry counters (kept by ``restore``, cleared by ``reset``)."""
        return self._metrics
