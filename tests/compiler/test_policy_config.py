"""A policy plugin's config is checked against its factory in our words, alike on every Python."""

# pyright: reportPrivateUsage=false

from __future__ import annotations

from typing import Any

import pytest
from compiler_plugins import CallLimit, call_limit, no_methods

from wink_decl.compiler._lazy import _build_policy
from wink_decl.plugins import POLICIES, PluginEntry, PluginLoadError

ENTRY = PluginEntry(
    POLICIES, "test.call_limit", "compiler_plugins:call_limit", "test-plugins", "1.0"
)
WHERE = "Policy 'test.call_limit' (test-plugins 1.0, value 'compiler_plugins:call_limit')"


def no_settings() -> CallLimit:
    return CallLimit(1)


class Unreadable:
    """A factory whose signature cannot be read: the call itself decides."""

    __signature__ = "not a signature"

    def __call__(self, **config: Any) -> CallLimit:
        return CallLimit(**config)


def strict(*, limit: int) -> CallLimit:
    if limit < 1:
        raise ValueError("limit must be at least 1")
    return CallLimit(limit)


@pytest.mark.parametrize(
    ("factory", "config", "problem"),
    [
        (
            call_limit,
            {"limits": 1},
            f"{WHERE} has no config setting 'limits'; it takes limit. Did you mean 'limit'?",
        ),
        (
            call_limit,
            {"limit": 1, "colour": "red"},
            f"{WHERE} has no config setting 'colour'; it takes limit.",
        ),
        (
            no_settings,
            {"limit": 1},
            f"{WHERE} has no config setting 'limit'; it takes no settings.",
        ),
        (call_limit, {}, f"{WHERE} needs the config setting 'limit'."),
        (no_methods, {"x": 1}, f"{WHERE} built a dict, which has no check or on_result()."),
        (dict, {"limit": 1}, f"{WHERE} built a dict, which has no check or on_result()."),
    ],
    ids=[
        "misspelled",
        "unknown",
        "takes-none",
        "missing",
        "any-settings",
        "builtin",
    ],
)
def test_a_config_that_does_not_fit_is_named_before_the_call(
    factory: object, config: dict[str, Any], problem: str
) -> None:
    assert _build_policy(factory, config, ENTRY) == (None, problem)


@pytest.mark.parametrize(
    "factory", [call_limit, Unreadable()], ids=["checked", "signature-unreadable"]
)
def test_a_config_that_fits_builds_the_policy(factory: object) -> None:
    assert _build_policy(factory, {"limit": 2}, ENTRY) == (CallLimit(2), None)


def test_a_factory_that_raises_is_refused_with_its_exception_as_the_cause() -> None:
    with pytest.raises(PluginLoadError) as info:
        _build_policy(strict, {"limit": 0}, ENTRY)
    assert (info.value.message, info.value.entry) == (
        f"{WHERE} refused its config: ValueError: limit must be at least 1",
        ENTRY,
    )
    assert repr(info.value.__cause__) == "ValueError('limit must be at least 1')"
