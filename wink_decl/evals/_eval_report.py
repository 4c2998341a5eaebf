"""What a suite's runs add up to: per experiment and model, and each experiment against another.

docs/evals.md ("The report") defines every number; the formats (``render_table``,
``render_json``, ``render_junit``) only lay them out.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from wink_decl.evals._eval_types import BASELINE, CaseResult
from wink_decl.evals._stats import mcnemar_exact, nearest_rank, paired_difference_interval

__all__ = ["BASELINE", "Comparison", "EvalReport", "RunCounts", "Summary", "run_counts", "run_name"]

Group = tuple[str, str]
"""An experiment and a model."""

RunCounts = Counter[tuple[str, str, str]]
"""How many runs each case has under each experiment and model."""


@dataclass(frozen=True, slots=True)
class Summary:
    """The runs of one experiment with one model, added up.

    ``cases`` counts runs (each repetition of a case is one): ``passed + failed + errors``.
    ``pass_rate`` is ``passed / (passed + failed)``, runs that errored left out; it and
    ``mean_score`` are None when every run errored. Latencies (nearest rank, in ms) and token
    means are over the runs that produced an outcome; None when none did.
    ``threshold_met``: a pass rate at or above ``threshold`` (never when every run errored).
    """

    experiment: str
    model: str
    cases: int
    passed: int
    failed: int
    errors: int
    pass_rate: float | None
    mean_score: float | None
    latency_p50_ms: float | None
    latency_p95_ms: float | None
    input_tokens: int
    output_tokens: int
    mean_input_tokens: float | None
    mean_output_tokens: float | None
    threshold: float
    threshold_met: bool


@dataclass(frozen=True, slots=True)
class Comparison:
    """A treatment against a baseline on the same cases: paired by case id and repetition.

    ``pairs`` are the pairs in which neither run errored; ``errored`` the pairs left out
    because one did; ``unpaired`` the runs on either side that have no counterpart.
    ``b``: pairs that pass on the baseline and fail on the treatment; ``c``: the reverse.
    ``change`` is ``treatment_pass_rate - baseline_pass_rate`` over the pairs, with its 95%
    interval ``ci_low``..``ci_high`` (Newcombe's hybrid score interval for paired data);
    ``p_value`` is McNemar's exact two-sided test on ``b`` and ``c``. With no pairs the rates,
    the change and its interval are None and ``p_value`` is 1.
    """

    baseline: str
    treatment: str
    baseline_model: str
    model: str
    pairs: int
    errored: int
    unpaired: int
    b: int
    c: int
    baseline_pass_rate: float | None
    treatment_pass_rate: float | None
    change: float | None
    ci_low: float | None
    ci_high: float | None
    p_value: float


class EvalReport:
    """Every run of a suite, and what they add up to (docs/evals.md, "The report").

    Experiments, models and cases are listed in the order they first appear in ``results``,
    the baseline's first: give the results in the suite's order. ``threshold`` is the pass
    rate every experiment and model must reach (1.0: every run must pass). ``suite`` names
    the eval file in the formats. Two results of the same run (case, repetition, experiment
    and model) are a ``ValueError``, as is a threshold outside 0..1.
    """

    __slots__ = ("_results", "_suite", "_threshold")

    def __init__(
        self, results: Iterable[CaseResult], *, threshold: float = 1.0, suite: str | None = None
    ) -> None:
        if not 0.0 <= threshold <= 1.0:
            raise ValueError(f"the threshold must be from 0 to 1, not {threshold!r}")
        self._results = tuple(results)
        self._threshold = threshold
        self._suite = suite
        _refuse_duplicates(self._results)

    @property
    def results(self) -> tuple[CaseResult, ...]:
        """Every run, in the order given."""
        return self._results

    @property
    def threshold(self) -> float:
        """The pass rate each experiment and model must reach."""
        return self._threshold

    @property
    def suite(self) -> str | None:
        """The eval file the runs come from, as the formats name it."""
        return self._suite

    @property
    def pass_rate(self) -> float | None:
        """Runs passed over runs that did not error, all groups together (None: no such run)."""
        return _rate(
            sum(r.passed for r in self._results if r.error is None),
            sum(r.error is None for r in self._results),
        )

    def by_experiment(self) -> Mapping[Group, Summary]:
        """Each (experiment, model) and its summary, the baseline's first."""
        return {group: self._summary(group, runs) for group, runs in self._groups().items()}

    @property
    def ok(self) -> bool:
        """Every experiment and model reached the threshold (and there was at least one run)."""
        summaries = self.by_experiment().values()
        return bool(summaries) and all(s.threshold_met for s in summaries)

    def compare(
        self,
        baseline: str,
        treatment: str,
        *,
        model: str | None = None,
        baseline_model: str | None = None,
    ) -> Comparison:
        """``treatment`` (its runs with ``model``) against ``baseline`` on the same cases.

        ``model`` may be left out when the treatment ran with one model only.
        ``baseline_model`` is ``model`` when the baseline ran with it, else the baseline's
        only model; an experiment with several to choose from, or none at all, is a
        ``ValueError``.
        """
        groups = self._groups()
        chosen = _model_of(groups, treatment, model, "model")
        if baseline_model is None and (baseline, chosen) in groups:
            baseline_model = chosen
        base = _model_of(groups, baseline, baseline_model, "baseline_model")
        return _compare(
            (baseline, base), groups[baseline, base], (treatment, chosen), groups[treatment, chosen]
        )

    def comparisons(self) -> tuple[Comparison, ...]:
        """Each experiment with each of its models against the baseline, as the formats list them.

        The baseline with the same model when it ran with it; otherwise (an experiment of its
        own model) against the baseline with each of its models. None without a baseline.
        """
        groups = self._groups()
        baseline_models = [model for experiment, model in groups if experiment == BASELINE]
        found: list[Comparison] = []
        for experiment, model in groups:
            if experiment == BASELINE:
                continue
            others = [model] if model in baseline_models else baseline_models
            runs = groups[experiment, model]
            found.extend(
                _compare((BASELINE, other), groups[BASELINE, other], (experiment, model), runs)
                for other in others
            )
        return tuple(found)

    def _groups(self) -> dict[Group, list[CaseResult]]:
        groups: dict[Group, list[CaseResult]] = {}
        for result in self._results:
            groups.setdefault((result.experiment, result.model), []).append(result)
        order = sorted(groups, key=lambda group: group[0] != BASELINE)  # stable: first seen
        return {group: groups[group] for group in order}

    def _summary(self, group: Group, runs: Sequence[CaseResult]) -> Summary:
        judged = [r for r in runs if r.error is None]
        passed = sum(r.passed for r in judged)
        outcomes = [r.outcome for r in runs if r.outcome is not None]
        latencies = [o.latency_ms for o in outcomes]
        input_tokens = sum(o.input_tokens for o in outcomes)
        output_tokens = sum(o.output_tokens for o in outcomes)
        pass_rate = _rate(passed, len(judged))
        return Summary(
            experiment=group[0],
            model=group[1],
            cases=len(runs),
            passed=passed,
            failed=len(judged) - passed,
            errors=len(runs) - len(judged),
            pass_rate=pass_rate,
            mean_score=_mean([r.score for r in judged]),
            latency_p50_ms=nearest_rank(latencies, 50),
            latency_p95_ms=nearest_rank(latencies, 95),
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            mean_input_tokens=_rate(input_tokens, len(outcomes)),
            mean_output_tokens=_rate(output_tokens, len(outcomes)),
            threshold=self._threshold,
            # Both sides are the nearest floats of the fraction and of the decimal written:
            # rounding keeps their order, and equal numbers compare equal.
            threshold_met=pass_rate is not None and pass_rate >= self._threshold,
        )


def run_counts(results: Iterable[CaseResult]) -> RunCounts:
    """How many runs each (case, experiment, model) has, for ``run_name``."""
    return Counter((r.case_id, r.experiment, r.model) for r in results)


def run_name(result: CaseResult, counts: RunCounts) -> str:
    """The case's id, with ``#n`` (its repetition, from 1) when it ran more than once."""
    if counts[result.case_id, result.experiment, result.model] == 1:
        return result.case_id
    return f"{result.case_id} #{result.repeat + 1}"


def _refuse_duplicates(results: Sequence[CaseResult]) -> None:
    seen: set[tuple[str, int, str, str]] = set()
    for r in results:
        key = (r.case_id, r.repeat, r.experiment, r.model)
        if key in seen:
            raise ValueError(
                f"two results for case {r.case_id!r} (repetition {r.repeat}) "
                f"of experiment {r.experiment!r} with model {r.model!r}"
            )
        seen.add(key)


def _model_of(
    groups: Mapping[Group, Sequence[CaseResult]], experiment: str, model: str | None, name: str
) -> str:
    """``model`` when ``experiment`` ran with it; with ``model`` None, its only model."""
    models = [m for e, m in groups if e == experiment]
    if not models:
        known = ", ".join(dict.fromkeys(e for e, _ in groups)) or "none"
        raise ValueError(f"no results for experiment {experiment!r} (experiments: {known})")
    if model is None:
        if len(models) > 1:
            raise ValueError(
                f"experiment {experiment!r} ran with {len(models)} models "
                f"({', '.join(models)}): choose one with {name}="
            )
        return models[0]
    if model not in models:
        raise ValueError(
            f"experiment {experiment!r} did not run with model {model!r} "
            f"(it ran with {', '.join(models)})"
        )
    return model


def _compare(
    baseline: Group,
    baseline_runs: Sequence[CaseResult],
    treatment: Group,
    treatment_runs: Sequence[CaseResult],
) -> Comparison:
    before = {(r.case_id, r.repeat): r for r in baseline_runs}
    after = {(r.case_id, r.repeat): r for r in treatment_runs}
    shared = [key for key in before if key in after]
    pairs = [
        (before[key].passed, after[key].passed)
        for key in shared
        if before[key].error is None and after[key].error is None
    ]
    counts = {(x, y): 0 for x in (True, False) for y in (True, False)}
    for pair in pairs:
        counts[pair] += 1
    b, c = counts[True, False], counts[False, True]
    interval = (
        paired_difference_interval(counts[True, True], c, b, counts[False, False])
        if pairs
        else None
    )
    n = len(pairs)
    before_rate = _rate(sum(x for x, _ in pairs), n)
    after_rate = _rate(sum(y for _, y in pairs), n)
    return Comparison(
        baseline=baseline[0],
        treatment=treatment[0],
        baseline_model=baseline[1],
        model=treatment[1],
        pairs=n,
        errored=len(shared) - n,
        unpaired=len(before) + len(after) - 2 * len(shared),
        b=b,
        c=c,
        baseline_pass_rate=before_rate,
        treatment_pass_rate=after_rate,
        change=None if interval is None else (c - b) / n,
        ci_low=None if interval is None else interval[0],
        ci_high=None if interval is None else interval[1],
        p_value=mcnemar_exact(b, c),
    )


def _rate(part: float, whole: int) -> float | None:
    return part / whole if whole else None


def _mean(values: Sequence[float]) -> float | None:
    return math.fsum(values) / len(values) if values else None
