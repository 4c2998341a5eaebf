"""Plugin factories called with keyword settings: what of the settings a factory cannot take."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping

from wink_decl.prompt.callables import builtin_name
from wink_decl.suggestions import did_you_mean_sentence

__all__ = ["settings_misfit"]

_SETTABLE = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
"""Parameters settings can set: they are passed as keyword arguments."""


def settings_misfit(
    factory: Callable[..., object],
    settings: Mapping[str, object],
    *,
    noun: str = "config setting",
    none: str = "no settings",
) -> str | None:
    """What in ``settings`` the factory's parameters cannot take, or None when all fit.

    ``noun`` names one setting in the message ("config setting" for a policy's ``config:``,
    "arg" for an evaluator's ``args``); ``none`` is what a factory that takes none takes.
    Checked before the call, in our own words: from 3.13 Python adds a "Did you mean" of its
    own to the TypeError of an unknown keyword, and the message must read the same on all.
    """
    parameters = _parameters(factory)
    if parameters is None:
        return None  # nothing to check against: the call itself tells
    settable = [p.name for p in parameters if p.kind in _SETTABLE]
    if not any(p.kind is p.VAR_KEYWORD for p in parameters):
        unknown = next((key for key in settings if key not in settable), None)
        if unknown is not None:
            takes = ", ".join(settable) if settable else none
            suggestion = did_you_mean_sentence(unknown, settable)
            return f"has no {noun} '{unknown}'; it takes {takes}.{suggestion}"
    required = [p.name for p in parameters if p.kind in _SETTABLE and p.default is p.empty]
    needed = next((name for name in required if name not in settings), None)
    return None if needed is None else f"needs the {noun} '{needed}'."


def _parameters(factory: Callable[..., object]) -> list[inspect.Parameter] | None:
    """The factory's parameters, or None for a builtin or a signature that cannot be read."""
    if builtin_name(factory) is not None:
        return None  # what inspect reads from C differs from one Python to the next
    try:
        return list(inspect.signature(factory).parameters.values())
    except (TypeError, ValueError):
        return None
