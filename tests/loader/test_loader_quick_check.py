"""The loaders' quick checks: the same verdict as their full walks, reached with less work.

A TOML file's data is walked value by value only when a quick look at each table's values
together finds something to change or to report; what it lets through must be what the full
walk would pass unchanged, with the same answer about numbers.
"""

# pyright: reportPrivateUsage=false

from __future__ import annotations

import copy
import datetime
from collections import defaultdict
from types import SimpleNamespace
from typing import Any, cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wink_decl.diagnostics import Span
from wink_decl.loader import Limits, load_text
from wink_decl.loader._toml import (
    QuickCheck,
    _Checker,
    _Stop,
)
from wink_decl.loader.file_kinds import PROMPT_FILE

TOML_VALUES = (
    st.text(max_size=3)
    | st.booleans()
    | st.integers(min_value=-(2**64), max_value=2**64)
    | st.floats()
    | st.dates()
    | st.times()
)
"""What tomli gives: text, booleans, numbers (some too large, some not finite) and dates."""


def toml_data() -> st.SearchStrategy[dict[str, Any]]:
    values = st.recursive(
        TOML_VALUES,
        lambda children: st.lists(children, max_size=3)
        | st.dictionaries(st.text(max_size=2), children, max_size=3),
        max_leaves=12,
    )
    return st.dictionaries(st.text(max_size=2), values, max_size=4)


def full_walk(data: dict[str, object], limits: Limits) -> tuple[bool, bool, bool] | None:
    """What the full walk finds: None when it reports or changes anything, else its numbers."""
    scan = SimpleNamespace(scan=SimpleNamespace(values=defaultdict(lambda: (0, 0))))
    checker = _Checker("x", cast("Any", scan), limits, lambda _: Span("p.toml", 1, 1), PROMPT_FILE)
    walked = copy.deepcopy(data)
    try:
        plain = checker.table(walked, (), 1)
    except _Stop:
        return None
    if plain != data or _holds_a_date(data):
        return None
    return True, checker.has_numbers, checker.bad_numbers


def _holds_a_date(value: object) -> bool:
    if isinstance(value, dict):
        return any(map(_holds_a_date, cast("dict[str, object]", value).values()))
    if isinstance(value, list):
        return any(map(_holds_a_date, cast("list[object]", value)))
    return isinstance(value, datetime.date | datetime.time)


def quick_check(data: dict[str, object], limits: Limits) -> tuple[bool, bool, bool] | None:
    quick = QuickCheck(limits)
    if not quick.table(data):
        return None
    return True, quick.has_numbers, quick.bad_numbers


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(toml_data(), st.integers(1, 4), st.integers(1, 14))
def test_the_toml_quick_check_agrees_with_the_full_walk(
    data: dict[str, object], max_depth: int, max_nodes: int
) -> None:
    limits = Limits(max_depth=max_depth, max_nodes=max_nodes)
    assert quick_check(data, limits) == full_walk(data, limits)


SMALL = Limits(max_depth=3, max_nodes=6)


NO_ITEMS: list[object] = []
CASES: list[tuple[dict[str, object], tuple[bool, bool, bool] | None]] = [
    ({"a": "x", "b": True}, (True, False, False)),
    ({"a": 1, "b": [1.5, {"c": "x"}]}, (True, True, False)),
    ({"a": [2**63]}, (True, True, True)),
    ({"a": {"b": float("nan")}}, (True, True, True)),
    ({"a": {"b": {"c": {}}}}, None),  # a table too deep
    ({"a": [[NO_ITEMS]]}, None),  # an array too deep
    ({"a": [1, 2, 3], "b": {"c": 4, "d": 5}}, None),  # a value past max_nodes
    ({"a": "x", "b": datetime.date(2024, 1, 2)}, None),  # a date, kept as written
    ({"a": [datetime.time(1, 2)]}, None),
]


@pytest.mark.parametrize(("data", "found"), CASES)
def test_the_toml_quick_check(data: dict[str, object], found: tuple[bool, ...] | None) -> None:
    assert quick_check(data, SMALL) == found
    assert full_walk(data, SMALL) == found


def test_a_toml_date_is_still_kept_as_written() -> None:
    result = load_text("a = 2024-01-02\nb = 'x'\n", path="p.toml", format="toml")
    assert result.file is not None
    assert result.file.data == {"a": "2024-01-02", "b": "x"}
