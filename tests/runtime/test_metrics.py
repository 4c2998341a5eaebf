import re
from types import MappingProxyType

import pytest

from wink_decl.prompt.visibility import SectionVisibility
from wink_decl.runtime.session import (
    DISCLOSURE_DYNAMIC,
    DISCLOSURE_RESTARTS,
    TOOLS_INJECTED,
    Metrics,
    Session,
    SetVisibilityOverride,
)


def test_metric_names_match_the_spec():
    assert TOOLS_INJECTED == "wink.tools.injected"
    assert DISCLOSURE_RESTARTS == "wink.disclosure.restarts"
    assert DISCLOSURE_DYNAMIC == "wink.disclosure.dynamic"


def test_a_counter_never_incremented_is_zero():
    assert Metrics().value(TOOLS_INJECTED) == 0


def test_increment_adds_one_by_default_and_by_when_given():
    metrics = Metrics()
    metrics.increment(TOOLS_INJECTED)
    metrics.increment(TOOLS_INJECTED, by=3)
    metrics.increment(DISCLOSURE_DYNAMIC, by=0)
    assert metrics.value(TOOLS_INJECTED) == 4
    assert metrics.value(DISCLOSURE_DYNAMIC) == 0


def test_negative_increment_is_refused():
    metrics = Metrics()
    expected = "counter 'wink.disclosure.restarts' cannot be incremented by -1: must be >= 0"
    with pytest.raises(ValueError, match=f"^{re.escape(expected)}$"):
        metrics.increment(DISCLOSURE_RESTARTS, by=-1)
    assert metrics.value(DISCLOSURE_RESTARTS) == 0


def test_snapshot_is_sorted_read_only_and_detached():
    metrics = Metrics()
    metrics.increment(TOOLS_INJECTED, by=2)
    metrics.increment(DISCLOSURE_RESTARTS)
    metrics.increment(DISCLOSURE_DYNAMIC, by=5)
    snapshot = metrics.snapshot()
    assert isinstance(snapshot, MappingProxyType)
    assert list(snapshot.items()) == [
        ("wink.disclosure.dynamic", 5),
        ("wink.disclosure.restarts", 1),
        ("wink.tools.injected", 2),
    ]
    metrics.increment(TOOLS_INJECTED)
    assert snapshot[TOOLS_INJECTED] == 2


def test_reset_forgets_every_counter():
    metrics = Metrics()
    metrics.increment(TOOLS_INJECTED)
    metrics.reset()
    assert metrics.value(TOOLS_INJECTED) == 0
    assert dict(metrics.snapshot()) == {}


def test_session_restore_keeps_counters_and_reset_clears_them():
    session = Session()
    snapshot = session.snapshot()
    session.dispatch(SetVisibilityOverride(path=("a",), visibility=SectionVisibility.FULL))
    session.metrics.increment(DISCLOSURE_DYNAMIC)
    session.restore(snapshot)
    assert dict(session.visibility_overrides) == {}
    assert session.metrics.value(DISCLOSURE_DYNAMIC) == 1
    session.reset()
    assert session.metrics.value(DISCLOSURE_DYNAMIC) == 0


def test_session_metrics_is_one_object_for_the_life_of_the_session():
    session = Session()
    metrics = session.metrics
    session.reset()
    assert session.metrics is metrics
