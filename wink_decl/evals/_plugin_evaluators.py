"""The ``plugin`` check: custom evaluators found by entry-point name in ``wink_decl.evaluators``.

An entry point names a factory; called with the check's ``args`` as keyword arguments, it
returns the evaluator, a function ``(outcome, sample) -> Score`` (docs/plugins.md). Nothing is
imported until a check uses it, and nothing a plugin does stops a run: every problem, from a
name not installed to an evaluator that raises, is a failed check saying what went wrong.
"""

from __future__ import annotations

import functools
import json
import math
import threading
from collections.abc import Callable, Mapping
from typing import cast

from wink_decl.evals._eval_types import Evaluator, Outcome, Sample, Score
from wink_decl.evals._values import bounded, failing, one_line
from wink_decl.plugins import (
    EVALUATORS,
    PluginCatalog,
    PluginEntry,
    PluginLoadError,
    PluginProblem,
    plugin_raised,
    settings_misfit,
)

__all__ = ["PluginEvaluators", "installed_evaluators", "plugin"]

_CACHED = 256
"""Evaluators built and kept (a name and its args each): a factory may be costly to call."""
_SHAPE = "a function (outcome, sample) -> Score"


class PluginEvaluators:
    """Evaluators by entry-point name (``name`` or ``name@distribution``), built once each.

    With no ``catalog`` the installed distributions are read, on first use. Safe to share
    between threads: each evaluator is built once, under a lock.
    """

    __slots__ = ("_built", "_catalog", "_lock")

    def __init__(self, catalog: PluginCatalog | None = None) -> None:
        """Find evaluators in ``catalog`` (default: the installed distributions)."""
        self._catalog = PluginCatalog() if catalog is None else catalog
        self._built: dict[tuple[str, str], Evaluator] = {}
        self._lock = threading.Lock()

    def names(self) -> tuple[str, ...]:
        """Every evaluator name installed, sorted."""
        return self._catalog.names(EVALUATORS)

    def evaluator(self, reference: str, args: Mapping[str, object] | None = None) -> Evaluator:
        """The evaluator ``reference`` names, built with ``args`` (once for each args).

        One that cannot be found, imported or built is an evaluator that fails, saying why.
        """
        settings = dict(args or {})
        key = (reference, json.dumps(settings, sort_keys=True, default=repr))
        with self._lock:
            built = self._built.get(key)
            if built is None:
                found = self._factory(reference)
                made = found if isinstance(found, str) else _made(*found, settings)
                built = _failing(made) if isinstance(made, str) else made
                if len(self._built) < _CACHED:
                    self._built[key] = built
            return built

    def _factory(self, reference: str) -> tuple[PluginEntry, Callable[..., object]] | str:
        """The entry ``reference`` names and the factory it points at, or why there is none."""
        found = self._catalog.resolve(EVALUATORS, reference)
        if isinstance(found, PluginProblem):
            return f"{found.message} {found.hint[:1].upper()}{found.hint[1:]}."
        try:
            factory = self._catalog.load(found)
        except PluginLoadError as error:
            return error.message
        if not callable(factory):
            kind = type(factory).__name__
            return f"Evaluator {found.label} is a value of type '{kind}', not a function."
        return found, factory


def _made(
    entry: PluginEntry, factory: Callable[..., object], settings: dict[str, object]
) -> Evaluator | str:
    """The evaluator ``factory(**settings)`` builds, guarded; or why it could not be built."""
    where = f"Evaluator {entry.label}"
    misfit = settings_misfit(factory, settings, noun="arg", none="no args")
    if misfit is not None:
        return f"{where} {misfit}"
    try:
        built: object = factory(**settings)
    except Exception as error:  # noqa: BLE001  # plugin code may raise anything; say what
        return f"{where} refused its args: {one_line(error)}"
    if not callable(built):
        return f"{where} built a {type(built).__name__}, not {_SHAPE}."
    return _guarded(entry, built)


def _failing(reason: str) -> Evaluator:
    """An evaluator that always fails with ``reason``: how a plugin that cannot run is scored."""

    def check(outcome: Outcome, sample: Sample) -> Score:
        del outcome, sample  # the plugin never got to read them
        return failing(bounded(reason))

    return check


def _guarded(entry: PluginEntry, built: Callable[..., object]) -> Evaluator:
    """``built``, with what it raises or returns amiss turned into a failed check."""

    def check(outcome: Outcome, sample: Sample) -> Score:
        try:
            score = built(outcome, sample)
        except Exception as error:  # noqa: BLE001  # plugin code may raise anything: blame it
            return failing(bounded(plugin_raised(entry, error)))
        problem = _score_problem(score)
        if problem is not None:
            return failing(bounded(f"Evaluator {entry.label} {problem}"))
        return score  # pyright: ignore[reportReturnType]  # _score_problem checked it

    return check


def _score_problem(score: object) -> str | None:
    """Why what an evaluator returned is not a ``Score`` from 0 to 1, or None."""
    if not isinstance(score, Score):
        return f"returned a {type(score).__name__}, not a Score."
    value = cast("object", score.value)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return f"returned a Score whose value is a {type(value).__name__}, not a number."
    if not (math.isfinite(value) and 0 <= value <= 1):
        return f"returned a Score of {value!r}; a value is from 0 to 1."
    passed = cast("object", score.passed)
    if not isinstance(passed, bool):
        return f"returned a Score whose passed is a {type(passed).__name__}, not true or false."
    reason = cast("object", score.reason)
    if not isinstance(reason, str):
        return f"returned a Score whose reason is a {type(reason).__name__}, not text."
    return None


@functools.lru_cache(maxsize=1)
def installed_evaluators() -> PluginEvaluators:
    """The evaluators of the installed distributions (made on first use, then shared)."""
    return PluginEvaluators()


def plugin(
    name: str,
    args: Mapping[str, object] | None = None,
    *,
    plugins: PluginEvaluators | None = None,
) -> Evaluator:
    """The custom evaluator ``name`` (an entry point in ``wink_decl.evaluators``) with ``args``.

    ``plugins`` finds it (default: the installed distributions). Looked up when first called.
    """

    def check(outcome: Outcome, sample: Sample) -> Score:
        found = (plugins or installed_evaluators()).evaluator(name, args)
        return found(outcome, sample)

    return check
