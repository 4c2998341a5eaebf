import re
from dataclasses import dataclass

import pytest

import wink_decl.runtime.session as session_package
from wink_decl.prompt.context_protocols import Dispatcher
from wink_decl.runtime.session import (
    Reducer,
    Session,
    SessionProtocol,
    SlicePolicy,
    Snapshot,
    VisibilityOverrides,
)


@dataclass(frozen=True, slots=True)
class Added:
    value: int


@dataclass(frozen=True, slots=True)
class Total:
    amount: int


@dataclass(frozen=True, slots=True)
class Audit:
    note: str


@dataclass(frozen=True, slots=True)
class Ping:
    seq: int


@dataclass(frozen=True)
class Note:
    text: str


def add_to_total(items: tuple[Total, ...], event: Added) -> tuple[Total, ...]:
    previous = items[-1].amount if items else 0
    return (*items, Total(previous + event.value))


def audit_added(items: tuple[Audit, ...], event: Added) -> tuple[Audit, ...]:
    return (*items, Audit(f"added {event.value}"))


def keep_unchanged(items: tuple[Total, ...], event: Added) -> tuple[Total, ...]:
    return items


@pytest.fixture
def session() -> Session:
    session = Session()
    session.register_reducer(Added, add_to_total, slice_type=Total)
    session.register_reducer(Added, audit_added, slice_type=Audit, policy=SlicePolicy.LOG)
    return session


def isort_style(name: str) -> tuple[int, str]:
    # ruff's RUF022 order: CONSTANTS, then Classes, then functions, each alphabetical.
    group = 0 if name.isupper() else 1 if name[0].isupper() else 2
    return (group, name)


def test_all_is_sorted_and_complete():
    public = {
        name
        for name in vars(session_package)
        if not name.startswith("_")
        and name
        not in {
            "annotations",
            "metrics",
            "model_events",
            "protocols",
            "session",
            "tool_events",
            "visibility_slice",
        }
    }
    assert session_package.__all__ == sorted(session_package.__all__, key=isort_style)
    assert set(session_package.__all__) == public


def test_session_satisfies_the_protocols():
    session: SessionProtocol = Session()
    dispatcher: Dispatcher = session.dispatcher
    assert dispatcher is session


def test_reducer_alias_accepts_a_reducer():
    reducer: Reducer[Total, Added] = add_to_total
    assert reducer((), Added(2)) == (Total(2),)


def test_empty_session_has_no_items():
    session = Session()
    assert session.query(Total) == ()
    assert session.latest(Total) is None


def test_reducers_for_one_event_run_in_registration_order(session: Session):
    order: list[str] = []

    def first(items: tuple[Ping, ...], event: Added) -> tuple[Ping, ...]:
        order.append("first")
        return items

    def second(items: tuple[Ping, ...], event: Added) -> tuple[Ping, ...]:
        order.append("second")
        return items

    session.register_reducer(Added, first, slice_type=Ping)
    session.register_reducer(Added, second, slice_type=Ping)
    session.dispatch(Added(1))
    session.dispatch(Added(2))
    assert order == ["first", "second", "first", "second"]
    assert session.query(Total) == (Total(1), Total(3))
    assert session.latest(Total) == Total(3)
    assert session.query(Audit) == (Audit("added 1"), Audit("added 2"))


def test_dispatch_matches_the_exact_event_type(session: Session):
    @dataclass(frozen=True, slots=True)
    class AddedTwice(Added):
        pass

    session.dispatch(AddedTwice(5))
    assert session.query(Total) == ()
    assert session.query(AddedTwice) == (AddedTwice(5),)


def test_unhandled_events_are_appended_to_a_log_slice_of_their_type(session: Session):
    snapshot = session.snapshot()
    session.dispatch(Ping(1))
    session.dispatch(Ping(2))
    assert session.query(Ping) == (Ping(1), Ping(2))
    session.restore(snapshot)
    assert session.query(Ping) == (Ping(1), Ping(2))
    assert session.latest(Ping) == Ping(2)


def test_log_query_view_is_cached_until_the_next_append():
    session = Session()
    session.dispatch(Ping(1))
    first = session.query(Ping)
    assert session.query(Ping) is first
    session.dispatch(Ping(2))
    second = session.query(Ping)
    assert second == (Ping(1), Ping(2))
    assert second is not first


def test_unhandled_event_whose_type_is_a_state_slice_is_rolled_back():
    session = Session()

    def to_ping(items: tuple[Ping, ...], event: Added) -> tuple[Ping, ...]:
        return (*items, Ping(event.value))

    session.register_reducer(Added, to_ping, slice_type=Ping)
    session.dispatch(Added(1))
    snapshot = session.snapshot()
    session.dispatch(Ping(2))
    assert session.query(Ping) == (Ping(1), Ping(2))
    session.restore(snapshot)
    assert session.query(Ping) == (Ping(1),)


def test_log_slice_written_by_a_reducer_is_kept_by_restore(session: Session):
    session.dispatch(Added(1))
    snapshot = session.snapshot()
    session.dispatch(Added(2))
    session.restore(snapshot)
    assert session.query(Total) == (Total(1),)
    assert session.query(Audit) == (Audit("added 1"), Audit("added 2"))


def test_reducer_returning_its_input_keeps_the_same_tuple():
    session = Session()
    session.register_reducer(Added, add_to_total, slice_type=Total)
    session.register_reducer(Added, keep_unchanged, slice_type=Total)
    session.dispatch(Added(4))
    items = session.query(Total)
    assert items == (Total(4),)
    assert session.snapshot().slices[Total] is items


def test_state_slice_created_after_a_snapshot_becomes_empty_on_restore(session: Session):
    snapshot = session.snapshot()
    session.dispatch(Added(1))
    assert session.query(Total) == (Total(1),)
    session.restore(snapshot)
    assert session.query(Total) == ()
    assert session.latest(Total) is None


def test_restore_can_be_repeated_and_go_forward(session: Session):
    session.dispatch(Added(1))
    early = session.snapshot()
    session.dispatch(Added(2))
    late = session.snapshot()
    session.restore(early)
    assert session.query(Total) == (Total(1),)
    session.restore(late)
    assert session.query(Total) == (Total(1), Total(3))
    session.restore(early)
    assert session.query(Total) == (Total(1),)


def test_snapshot_captures_state_and_log_slices_apart(session: Session):
    session.dispatch(Added(1))
    session.dispatch(Ping(1))
    snapshot = session.snapshot()
    assert snapshot.slice_types == (Total,)
    assert snapshot.log_types == (Audit, Ping)
    assert repr(snapshot) == "Snapshot(slice_types=(Total), log_types=(Audit, Ping))"


def test_snapshot_repr_names_every_slice():
    session = Session()
    session.register_reducer(Added, add_to_total, slice_type=Total)
    session.dispatch(Added(1))
    session.dispatch(session_package.ClearAllVisibilityOverrides())
    assert repr(session.snapshot()) == (
        "Snapshot(slice_types=(Total, VisibilityOverrides), log_types=())"
    )
    assert session.snapshot().slice_types == (Total, VisibilityOverrides)


def test_restore_keeps_log_slices_unless_asked_not_to(session: Session):
    session.dispatch(Added(1))
    session.dispatch(Ping(1))
    snapshot = session.snapshot()
    session.dispatch(Added(2))
    session.dispatch(Ping(2))
    session.dispatch(Note("a slice the snapshot did not have"))

    session.restore(snapshot)
    assert session.query(Total) == (Total(1),)
    assert session.query(Audit) == (Audit("added 1"), Audit("added 2"))
    assert session.query(Ping) == (Ping(1), Ping(2))
    assert session.query(Note) == (Note("a slice the snapshot did not have"),)

    session.restore(snapshot, preserve_logs=False)
    assert session.query(Total) == (Total(1),)
    assert session.query(Audit) == (Audit("added 1"),)
    assert session.query(Ping) == (Ping(1),)
    assert session.query(Note) == ()


def test_log_versions_held_by_snapshots_never_change(session: Session):
    session.dispatch(Ping(1))
    one = session.snapshot()
    session.dispatch(Ping(2))
    two = session.snapshot()
    session.restore(one, preserve_logs=False)
    session.dispatch(Ping(3))  # appends after a rollback: must not overwrite Ping(2)
    three = session.snapshot()
    assert session.query(Ping) == (Ping(1), Ping(3))

    session.restore(two, preserve_logs=False)
    assert session.query(Ping) == (Ping(1), Ping(2))
    session.restore(three, preserve_logs=False)
    assert session.query(Ping) == (Ping(1), Ping(3))
    session.restore(one, preserve_logs=False)
    assert session.query(Ping) == (Ping(1),)
    session.dispatch(Ping(4))
    assert session.query(Ping) == (Ping(1), Ping(4))
    session.restore(two, preserve_logs=False)
    assert session.query(Ping) == (Ping(1), Ping(2))


def test_snapshots_compare_by_identity(session: Session):
    first = session.snapshot()
    second = session.snapshot()
    assert first != second
    assert hash(first) != hash(second)


@pytest.mark.parametrize("events", [10, 10_000], ids=["10-events", "10000-events"])
def test_snapshot_shares_item_tuples_instead_of_copying(session: Session, events: int):
    for value in range(events):
        session.dispatch(Added(value))
    snapshot = session.snapshot()
    assert snapshot.slice_types == (Total,)
    assert snapshot.slices[Total] is session.query(Total)
    assert len(snapshot.slices[Total]) == events
    session.dispatch(Added(1))
    assert len(snapshot.slices[Total]) == events


def test_foreign_snapshot_is_refused(session: Session):
    other = Session()
    other.register_reducer(Added, add_to_total, slice_type=Total)
    other.dispatch(Added(9))
    expected = (
        "cannot restore a snapshot taken from another session; "
        "a session restores only its own snapshots"
    )
    with pytest.raises(ValueError, match=f"^{re.escape(expected)}$"):
        session.restore(other.snapshot())
    assert session.query(Total) == ()


def test_registering_a_slice_with_another_policy_is_refused(session: Session):
    expected = (
        "slice Audit already has policy 'log'; the reducer for Ping asks for 'state', "
        "and a slice keeps one policy for the life of the session"
    )
    with pytest.raises(ValueError, match=f"^{re.escape(expected)}$"):
        session.register_reducer(Ping, audit_ping, slice_type=Audit)


def audit_ping(items: tuple[Audit, ...], event: Ping) -> tuple[Audit, ...]:
    return (*items, Audit(f"ping {event.seq}"))


def test_registering_a_slice_again_with_the_same_policy_is_allowed(session: Session):
    session.register_reducer(Ping, audit_ping, slice_type=Audit, policy=SlicePolicy.LOG)
    session.dispatch(Ping(7))
    assert session.query(Audit) == (Audit("ping 7"),)


def test_an_unhandled_log_slice_cannot_become_state_until_reset():
    session = Session()
    session.dispatch(Ping(1))

    def count_pings(items: tuple[Ping, ...], event: Added) -> tuple[Ping, ...]:
        return (*items, Ping(event.value))

    expected = (
        "slice Ping already has policy 'log'; the reducer for Added asks for 'state', "
        "and a slice keeps one policy for the life of the session"
    )
    with pytest.raises(ValueError, match=f"^{re.escape(expected)}$"):
        session.register_reducer(Added, count_pings, slice_type=Ping)
    session.reset()
    session.register_reducer(Added, count_pings, slice_type=Ping)
    session.dispatch(Added(3))
    assert session.query(Ping) == (Ping(3),)


def test_reset_empties_every_slice_and_keeps_registrations(session: Session):
    session.dispatch(Added(1))
    session.dispatch(Ping(1))
    session.reset()
    assert session.query(Total) == ()
    assert session.query(Audit) == ()
    assert session.query(Ping) == ()
    assert session.snapshot().slice_types == ()
    session.dispatch(Added(2))
    assert session.query(Total) == (Total(2),)
    assert session.query(Audit) == (Audit("added 2"),)


def test_reset_keeps_registered_policies(session: Session):
    session.reset()
    with pytest.raises(ValueError, match="already has policy 'log'"):
        session.register_reducer(Ping, audit_ping, slice_type=Audit)


def test_snapshot_taken_before_reset_still_restores(session: Session):
    session.dispatch(Added(1))
    snapshot = session.snapshot()
    session.reset()
    session.restore(snapshot)
    assert session.query(Total) == (Total(1),)
    assert session.query(Audit) == ()


def test_snapshot_type_is_exported():
    assert isinstance(Session().snapshot(), Snapshot)


def test_listeners_see_every_event_after_its_reducers_until_they_unsubscribe(session: Session):
    seen: list[tuple[object, tuple[Total, ...]]] = []
    unsubscribe = session.subscribe(lambda event: seen.append((event, session.query(Total))))
    session.dispatch(Added(2))
    session.dispatch(Ping(1))
    unsubscribe()
    unsubscribe()
    session.dispatch(Added(3))
    assert seen == [(Added(2), (Total(2),)), (Ping(1), (Total(2),))]
