import re
from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType
from typing import cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wink_decl.prompt.visibility import SectionPath, SectionVisibility
from wink_decl.runtime.session import (
    ClearAllVisibilityOverrides,
    ClearVisibilityOverride,
    Session,
    SetVisibilityOverride,
    Snapshot,
    VisibilityOverrides,
)

FULL = SectionVisibility.FULL
SUMMARY = SectionVisibility.SUMMARY


def test_no_overrides_at_first():
    session = Session()
    assert dict(session.visibility_overrides) == {}
    assert session.query(VisibilityOverrides) == ()


def test_set_adds_and_replaces_an_override():
    session = Session()
    session.dispatch(SetVisibilityOverride(path=("a",), visibility=FULL))
    session.dispatch(SetVisibilityOverride(path=("a", "b"), visibility=SUMMARY))
    session.dispatch(SetVisibilityOverride(path=("a",), visibility=SUMMARY))
    assert dict(session.visibility_overrides) == {("a",): SUMMARY, ("a", "b"): SUMMARY}
    assert len(session.query(VisibilityOverrides)) == 1


def test_overrides_view_is_read_only():
    session = Session()
    session.dispatch(SetVisibilityOverride(path=("a",), visibility=FULL))
    assert isinstance(session.visibility_overrides, MappingProxyType)
    assert isinstance(Session().visibility_overrides, MappingProxyType)


def test_slice_item_copies_its_mapping():
    source = {("a",): FULL}
    item = VisibilityOverrides(source)
    source[("b",)] = SUMMARY
    assert dict(item.overrides) == {("a",): FULL}
    assert isinstance(item.overrides, MappingProxyType)


def test_clear_removes_one_override_and_keeps_the_rest():
    session = Session()
    session.dispatch(SetVisibilityOverride(path=("a",), visibility=FULL))
    session.dispatch(SetVisibilityOverride(path=("b",), visibility=SUMMARY))
    session.dispatch(ClearVisibilityOverride(path=("a",)))
    assert dict(session.visibility_overrides) == {("b",): SUMMARY}


def test_clearing_the_last_override_empties_the_slice():
    session = Session()
    session.dispatch(SetVisibilityOverride(path=("a",), visibility=FULL))
    session.dispatch(ClearVisibilityOverride(path=("a",)))
    assert dict(session.visibility_overrides) == {}
    assert session.query(VisibilityOverrides) == ()


def test_clearing_an_absent_path_changes_nothing():
    session = Session()
    session.dispatch(SetVisibilityOverride(path=("a",), visibility=FULL))
    before = session.query(VisibilityOverrides)
    session.dispatch(ClearVisibilityOverride(path=("zzz",)))
    assert session.query(VisibilityOverrides) is before


def test_clear_all_drops_every_override():
    session = Session()
    session.dispatch(SetVisibilityOverride(path=("a",), visibility=FULL))
    session.dispatch(SetVisibilityOverride(path=("b",), visibility=SUMMARY))
    session.dispatch(ClearAllVisibilityOverrides())
    assert dict(session.visibility_overrides) == {}
    assert session.query(VisibilityOverrides) == ()


def test_overrides_are_state_rolled_back_by_restore():
    session = Session()
    session.dispatch(SetVisibilityOverride(path=("a",), visibility=FULL))
    snapshot = session.snapshot()
    session.dispatch(SetVisibilityOverride(path=("b",), visibility=FULL))
    session.dispatch(ClearVisibilityOverride(path=("a",)))
    session.restore(snapshot)
    assert dict(session.visibility_overrides) == {("a",): FULL}


def test_reset_drops_overrides_and_keeps_the_reducers():
    session = Session()
    session.dispatch(SetVisibilityOverride(path=("a",), visibility=FULL))
    session.reset()
    assert dict(session.visibility_overrides) == {}
    session.dispatch(SetVisibilityOverride(path=("b",), visibility=SUMMARY))
    assert dict(session.visibility_overrides) == {("b",): SUMMARY}


def set_override(path: object) -> object:
    # The cast lies on purpose: the point is to pass paths the type forbids.
    return SetVisibilityOverride(path=cast("SectionPath", path), visibility=FULL)


def clear_override(path: object) -> object:
    return ClearVisibilityOverride(path=cast("SectionPath", path))


@pytest.mark.parametrize(
    ("make", "path", "error", "message"),
    [
        (
            set_override,
            ["a"],
            TypeError,
            "SetVisibilityOverride.path must be a tuple of section keys, got list: ['a']",
        ),
        (
            set_override,
            "a",
            TypeError,
            "SetVisibilityOverride.path must be a tuple of section keys, got str: 'a'",
        ),
        (
            set_override,
            (),
            ValueError,
            "SetVisibilityOverride.path must name a section: got an empty tuple",
        ),
        (
            set_override,
            ("a", 1),
            TypeError,
            "SetVisibilityOverride.path must hold only str keys, got int 1 in ('a', 1)",
        ),
        (
            clear_override,
            (),
            ValueError,
            "ClearVisibilityOverride.path must name a section: got an empty tuple",
        ),
        (
            clear_override,
            None,
            TypeError,
            "ClearVisibilityOverride.path must be a tuple of section keys, got NoneType: None",
        ),
    ],
    ids=["set-list", "set-str", "set-empty", "set-non-str-key", "clear-empty", "clear-none"],
)
def test_invalid_paths_are_refused(
    make: Callable[[object], object], path: object, error: type[Exception], message: str
):
    with pytest.raises(error, match=f"^{re.escape(message)}$"):
        make(path)


# --- property: random operations agree with a plain dict model -----------------------------


@dataclass(frozen=True)
class TakeSnapshot:
    pass


@dataclass(frozen=True)
class RestoreSnapshot:
    index: int


paths = st.lists(st.sampled_from(["a", "b", "c"]), min_size=1, max_size=2).map(tuple)
operations = st.lists(
    st.one_of(
        st.builds(SetVisibilityOverride, path=paths, visibility=st.sampled_from(SectionVisibility)),
        st.builds(ClearVisibilityOverride, path=paths),
        st.just(ClearAllVisibilityOverrides()),
        st.just(TakeSnapshot()),
        st.builds(RestoreSnapshot, index=st.integers(min_value=0, max_value=20)),
    ),
    max_size=40,
)


@given(operations)
def test_overrides_follow_a_dict_model(ops: list[object]):
    session = Session()
    model: dict[SectionPath, SectionVisibility] = {}
    snapshots: list[tuple[Snapshot, dict[SectionPath, SectionVisibility]]] = []
    for op in ops:
        match op:
            case SetVisibilityOverride(path=path, visibility=visibility):
                session.dispatch(op)
                model[path] = visibility
            case ClearVisibilityOverride(path=path):
                session.dispatch(op)
                model.pop(path, None)
            case ClearAllVisibilityOverrides():
                session.dispatch(op)
                model.clear()
            case TakeSnapshot():
                snapshots.append((session.snapshot(), dict(model)))
            case RestoreSnapshot(index=index) if snapshots:
                snapshot, saved = snapshots[index % len(snapshots)]
                session.restore(snapshot)
                model = dict(saved)
            case _:
                pass  # a restore before any snapshot: nothing to restore
        assert dict(session.visibility_overrides) == model
    assert len(session.query(VisibilityOverrides)) == (1 if model else 0)
