"""``updating_golden``: one reading of ``WINK_UPDATE_GOLDEN`` for every golden-file test."""

from __future__ import annotations

import pytest
from golden import SWITCH, updating_golden


@pytest.mark.parametrize("value", ["1", "true", "TRUE", "yes", "Yes", " 1 "])
def test_these_values_rewrite_golden_files(value: str) -> None:
    assert updating_golden({SWITCH: value}) is True


@pytest.mark.parametrize("value", ["0", "", "false", "False", "no", "NO", " 0 "])
def test_these_values_leave_golden_files_alone(value: str) -> None:
    assert updating_golden({SWITCH: value}) is False


def test_unset_leaves_golden_files_alone() -> None:
    assert updating_golden({}) is False


@pytest.mark.parametrize("value", ["2", "on", "ture"])
def test_any_other_value_is_refused(value: str) -> None:
    with pytest.raises(ValueError, match=r"^WINK_UPDATE_GOLDEN=") as info:
        updating_golden({SWITCH: value})
    assert str(info.value) == (
        f"WINK_UPDATE_GOLDEN={value!r}: use 1, true or yes to rewrite golden files, else 0"
    )


def test_the_environment_is_read_when_none_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SWITCH, "0")
    assert updating_golden() is False
    monkeypatch.setenv(SWITCH, "yes")
    assert updating_golden() is True
