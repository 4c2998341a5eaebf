"""The report as a terminal table: the summaries, the comparisons, the failed runs, the verdict.

Everything a run wrote (answers, reasons, errors) is shown with control characters escaped
and cut to a line; docs/evals.md ("The table") shows an example.
"""

from __future__ import annotations

from collections.abc import Sequence

from wink_decl.diagnostics import clip, printable, some_of
from wink_decl.evals._eval_report import (
    Comparison,
    EvalReport,
    RunCounts,
    Summary,
    run_counts,
    run_name,
)
from wink_decl.evals._eval_types import CaseResult

__all__ = [
    "COMPARISON_HEADER",
    "FAILED_RUNS_SHOWN",
    "FAILING_CHECKS_SHOWN",
    "LINE",
    "SUMMARY_HEADER",
    "comparison_cells",
    "headline",
    "render_table",
    "summary_cells",
    "threshold_text",
    "verdict",
]

FAILED_RUNS_SHOWN = 20
"""Failed runs listed at most; the JSON report has them all."""
FAILING_CHECKS_SHOWN = 5
"""Failing checks listed at most under one run."""
LINE = 100
"""Characters of a failed run's line at most (a check and its reason, an error)."""
_GAP = "  "
_NONE = "-"

SUMMARY_HEADER = (
    "experiment",
    "model",
    "pass rate",
    "passed",
    "failed",
    "errors",
    "score",
    "p50 ms",
    "p95 ms",
    "tokens in",
    "tokens out",
)
"""The columns of the summaries, one row per experiment and model."""
COMPARISON_HEADER = (
    "experiment",
    "model",
    "pairs",
    "errored",
    "unpaired",
    "change",
    "95% interval",
    "b",
    "c",
    "McNemar p",
)
"""The columns of the comparisons with the baseline."""
_TEXT_COLUMNS = 2
"""The first two columns of each table are names, aligned left; the rest are numbers."""


def render_table(report: EvalReport) -> str:
    """The report for a terminal, ending with ``PASS`` or ``FAIL: ...`` and a line break."""
    summaries = list(report.by_experiment().values())
    lines = [headline(report), "", *_grid(SUMMARY_HEADER, [summary_cells(s) for s in summaries])]
    comparisons = report.comparisons()
    if comparisons:
        lines += [
            "",
            "Against the baseline, on the same cases "
            "(b: passed on the baseline only; c: passed on the experiment only)",
            *_grid(COMPARISON_HEADER, [comparison_cells(c) for c in comparisons]),
        ]
    failed = [r for r in report.results if not r.passed or r.error is not None]
    if failed:
        lines += [
            "",
            "Runs that failed or errored",
            *_failed_runs(run_counts(report.results), failed),
        ]
    lines += ["", verdict(report, summaries)]
    return "\n".join(lines) + "\n"


def headline(report: EvalReport) -> str:
    """The first line: the suite, and how many runs passed, failed and errored."""
    results = report.results
    errors = sum(r.error is not None for r in results)
    passed = sum(r.passed for r in results if r.error is None)
    counts = (
        f"{_count(len(results), 'run')}, {passed} passed, "
        f"{len(results) - errors - passed} failed, {_count(errors, 'error')}"
    )
    return counts if report.suite is None else f"{printable(report.suite)}: {counts}"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def summary_cells(summary: Summary) -> list[str]:
    """A summary as the cells of a row under ``SUMMARY_HEADER``."""
    return [
        printable(summary.experiment),
        printable(summary.model),
        _fraction(summary.pass_rate),
        str(summary.passed),
        str(summary.failed),
        str(summary.errors),
        _fraction(summary.mean_score),
        _milliseconds(summary.latency_p50_ms),
        _milliseconds(summary.latency_p95_ms),
        str(summary.input_tokens),
        str(summary.output_tokens),
    ]


def comparison_cells(comparison: Comparison) -> list[str]:
    """A comparison as the cells of a row under ``COMPARISON_HEADER``."""
    model = comparison.model
    if comparison.baseline_model != model:
        model = f"{model} vs {comparison.baseline_model}"
    interval = (
        _NONE
        if comparison.ci_low is None or comparison.ci_high is None
        else f"[{comparison.ci_low:+.2f}, {comparison.ci_high:+.2f}]"
    )
    return [
        printable(comparison.treatment),
        printable(model),
        str(comparison.pairs),
        str(comparison.errored),
        str(comparison.unpaired),
        _NONE if comparison.change is None else f"{comparison.change:+.2f}",
        interval,
        str(comparison.b),
        str(comparison.c),
        _p_value(comparison.p_value),
    ]


def _fraction(value: float | None) -> str:
    return _NONE if value is None else f"{value:.2f}"


def _milliseconds(value: float | None) -> str:
    return _NONE if value is None else f"{value:.0f}"


def _p_value(value: float) -> str:
    return f"{value:.3f}" if value >= 0.001 else "<0.001"  # noqa: PLR2004  # the shown precision


def _grid(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        aligned = [
            cell.ljust(width) if i < _TEXT_COLUMNS else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(cells, widths, strict=True))
        ]
        return _GAP.join(aligned).rstrip()

    return [line(header), *(line(row) for row in rows)]


def _failed_runs(counts: RunCounts, failed: Sequence[CaseResult]) -> list[str]:
    lines: list[str] = []
    for result in failed[:FAILED_RUNS_SHOWN]:
        where = f"{run_name(result, counts)}  {result.experiment} x {result.model}"
        if result.error is not None:
            lines.append(clip(printable(f"{where}  error: {result.error}"), LINE))
            continue
        lines.append(clip(printable(f"{where}  score {result.score:.2f}"), LINE))
        failing = [(label, score) for label, score in result.checks if not score.passed]
        for label, score in failing[:FAILING_CHECKS_SHOWN]:
            said = f"{label} -- {score.reason}" if score.reason else label
            lines.append(clip(printable(f"  - {said}"), LINE))
        if len(failing) > FAILING_CHECKS_SHOWN:
            lines.append(f"  - and {len(failing) - FAILING_CHECKS_SHOWN} more failing checks")
    if len(failed) > FAILED_RUNS_SHOWN:
        hidden = len(failed) - FAILED_RUNS_SHOWN
        lines.append(f"and {hidden} more (the JSON report lists every run)")
    return lines


def verdict(report: EvalReport, summaries: Sequence[Summary]) -> str:
    """``PASS``, or ``FAIL:`` and what missed the threshold (``summaries``: the report's)."""
    if not summaries:
        return "FAIL: no runs"
    missed = [_missed(s) for s in summaries if not s.threshold_met]
    if not missed:
        return "PASS"
    return printable(
        f"FAIL: threshold {threshold_text(report.threshold)} not met by {some_of(missed)}"
    )


def _missed(summary: Summary) -> str:
    group = f"{summary.experiment} x {summary.model}"
    if summary.pass_rate is None:
        return f"{group} (every run errored)"
    return f"{group} ({summary.pass_rate:.2f})"


def threshold_text(value: float) -> str:
    """Two decimals (``0.80``), or as many as the threshold has (``0.875``)."""
    shown = f"{value:.2f}"
    return shown if float(shown) == value else repr(value)
