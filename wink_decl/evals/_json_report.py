"""The report as one JSON object, for tools: its shape is documented in docs/evals.md.

"The JSON report" there lists every field written here; a test keeps the two the same.
A number that is not finite (a score a plugin got wrong, ``NaN`` in a model's answer, which
Python's JSON parser accepts) is written as null: the text is standard JSON.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import cast

from wink_decl.diagnostics import printable_json
from wink_decl.evals._eval_report import Comparison, EvalReport, Summary
from wink_decl.evals._eval_types import CaseResult
from wink_decl.evals._records import result_to_json

__all__ = ["JSON_REPORT_VERSION", "render_json", "report_to_json"]

JSON_REPORT_VERSION = 1
"""The shape's version: raised when a field changes meaning or goes away, not when one is added."""


def render_json(report: EvalReport) -> str:
    """``report_to_json(report)`` indented, terminal-safe, ending with a line break."""
    text = json.dumps(report_to_json(report), indent=2, ensure_ascii=False, allow_nan=False)
    return printable_json(text) + "\n"


def report_to_json(report: EvalReport) -> dict[str, object]:
    """The report as JSON data (docs/evals.md, "The JSON report")."""
    return {
        "version": JSON_REPORT_VERSION,
        "suite": report.suite,
        "threshold": report.threshold,
        "ok": report.ok,
        "pass_rate": report.pass_rate,
        "summaries": [_summary(s) for s in report.by_experiment().values()],
        "comparisons": [_comparison(c) for c in report.comparisons()],
        "cases": [_case(r) for r in report.results],
    }


def _summary(summary: Summary) -> dict[str, object]:
    return {
        "experiment": summary.experiment,
        "model": summary.model,
        "cases": summary.cases,
        "passed": summary.passed,
        "failed": summary.failed,
        "errors": summary.errors,
        "pass_rate": summary.pass_rate,
        "mean_score": _number(summary.mean_score),
        "latency_p50_ms": _number(summary.latency_p50_ms),
        "latency_p95_ms": _number(summary.latency_p95_ms),
        "input_tokens": summary.input_tokens,
        "output_tokens": summary.output_tokens,
        "mean_input_tokens": summary.mean_input_tokens,
        "mean_output_tokens": summary.mean_output_tokens,
        "threshold_met": summary.threshold_met,
    }


def _comparison(comparison: Comparison) -> dict[str, object]:
    return {
        "baseline": comparison.baseline,
        "treatment": comparison.treatment,
        "baseline_model": comparison.baseline_model,
        "model": comparison.model,
        "pairs": comparison.pairs,
        "errored": comparison.errored,
        "unpaired": comparison.unpaired,
        "b": comparison.b,
        "c": comparison.c,
        "baseline_pass_rate": comparison.baseline_pass_rate,
        "treatment_pass_rate": comparison.treatment_pass_rate,
        "change": comparison.change,
        "ci_low": comparison.ci_low,
        "ci_high": comparison.ci_high,
        "p_value": comparison.p_value,
    }


def _case(result: CaseResult) -> dict[str, object]:
    """The run as the results journal keeps it (``_records``), numbers that are not finite null."""
    return cast("dict[str, object]", _data(result_to_json(result)))


def _number(value: float | None) -> float | None:
    return value if value is None or math.isfinite(value) else None


def _data(value: object) -> object:
    """JSON data with every number that is not finite made null."""
    if isinstance(value, float):
        return _number(value)
    if isinstance(value, dict):
        return {key: _data(item) for key, item in cast("dict[object, object]", value).items()}
    if isinstance(value, list | tuple):
        return [_data(item) for item in cast("Sequence[object]", value)]
    return value
