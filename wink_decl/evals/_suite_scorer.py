"""Scoring a suite's cases in whichever process runs them: sent as what the scorer is made of.

The judge and the plugin evaluators keep locks and what they loaded, so they cannot be sent to
another process (a Ray worker): the scorer is sent as what makes them, and each process makes
them once, on first use (docs/evals.md, "Running on a Ray cluster").
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wink_decl.evals._evaluate import score_case
from wink_decl.evals._judge import Judge, make_judge
from wink_decl.evals._plugin_evaluators import PluginEvaluators

if TYPE_CHECKING:
    from wink_decl.evals._checks import Check
    from wink_decl.evals._eval_types import Outcome, Sample, Score
    from wink_decl.limits import Limits
    from wink_decl.runtime.loop import Evaluator as Adapter

__all__ = ["SuiteScorer"]


class SuiteScorer:
    """``score_case`` with a judge (``make_judge``'s) and the installed plugin evaluators.

    ``judge_adapter``, ``relative_to``, ``root`` and ``limits`` are ``make_judge``'s
    arguments (without ``judge_adapter``, a judge check fails saying there is no judge); it
    must pickle, as a module's function does. Pickled, the scorer is these four; relative
    paths are taken from each process's working directory.
    """

    def __init__(
        self,
        judge_adapter: Callable[[str | None], Adapter] | None = None,
        *,
        relative_to: str | Path | None = None,
        root: str | Path | None = None,
        limits: Limits | None = None,
    ) -> None:
        """Score with a judge whose adapters ``judge_adapter`` gives (None: no judge)."""
        self.judge_adapter = judge_adapter
        self.relative_to = relative_to
        self.root = root
        self.limits = limits
        self._made: tuple[Judge | None, PluginEvaluators] | None = None
        self._lock = threading.Lock()

    def __reduce__(self) -> tuple[Any, ...]:
        """What the judge and the evaluators are made of; they are made again on first use."""
        return (_suite_scorer, (self.judge_adapter, self.relative_to, self.root, self.limits))

    def __call__(
        self, checks: Sequence[Check], outcome: Outcome, sample: Sample
    ) -> tuple[bool, float, tuple[tuple[str, Score], ...]]:
        """Whether the case passed, its score, and each check's (see ``score_case``)."""
        judge, plugins = self._parts()
        return score_case(checks, outcome, sample, judge=judge, plugins=plugins)

    def _parts(self) -> tuple[Judge | None, PluginEvaluators]:
        with self._lock:  # the threads of one worker make them once between them
            if self._made is None:
                adapter_for = self.judge_adapter
                judge = None
                if adapter_for is not None:
                    judge = make_judge(
                        adapter_for,
                        relative_to=self.relative_to,
                        root=self.root,
                        limits=self.limits,
                    )
                self._made = (judge, PluginEvaluators())
            return self._made


def _suite_scorer(
    judge_adapter: Callable[[str | None], Adapter] | None,
    relative_to: str | Path | None,
    root: str | Path | None,
    limits: Limits | None,
) -> SuiteScorer:
    """``SuiteScorer`` made again from what ``__reduce__`` gave."""
    return SuiteScorer(judge_adapter, relative_to=relative_to, root=root, limits=limits)
