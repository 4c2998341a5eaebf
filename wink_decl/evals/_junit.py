"""The report as JUnit XML, the test report CI systems show (GitLab, Jenkins, GitHub reporters).

One ``testsuite`` per experiment and model, one ``testcase`` per run: a failed run has a
``failure`` naming its failing checks, a run that errored an ``error``. Only the elements and
attributes of the common subset those systems read are written (docs/evals.md, "JUnit XML").
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence

from wink_decl.evals._eval_report import EvalReport, RunCounts, run_counts, run_name
from wink_decl.evals._eval_types import CaseResult

__all__ = ["render_junit"]

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
"""Characters XML 1.0 cannot hold at all, not even escaped (NUL, ESC, lone surrogates...)."""
_LATIN_1 = 0x100
_DEFAULT_NAME = "wink-decl eval"


def render_junit(report: EvalReport) -> str:
    """The report as a JUnit XML document (UTF-8 declared), ending with a line break."""
    results = report.results
    counts = run_counts(results)
    root = ET.Element("testsuites", _attributes(report.suite or _DEFAULT_NAME, results))
    for (experiment, model), summary in report.by_experiment().items():
        runs = [r for r in results if r.experiment == experiment and r.model == model]
        attributes = _attributes(f"{experiment} x {model}", runs)
        suite = ET.SubElement(root, "testsuite", {**attributes, "skipped": "0"})
        properties = ET.SubElement(suite, "properties")
        for name, value in (
            ("experiment", experiment),
            ("model", model),
            ("threshold", repr(summary.threshold)),
        ):
            ET.SubElement(properties, "property", {"name": name, "value": _xml_text(value)})
        for run in runs:
            _testcase(suite, run, counts)
    ET.indent(root, space="  ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, "unicode") + "\n"


def _attributes(name: str, runs: Sequence[CaseResult]) -> dict[str, str]:
    errors = sum(r.error is not None for r in runs)
    failures = sum(not r.passed for r in runs if r.error is None)
    return {
        "name": _xml_text(name),
        "tests": str(len(runs)),
        "failures": str(failures),
        "errors": str(errors),
        "time": _seconds(sum(_milliseconds(r) for r in runs)),
    }


def _testcase(suite: ET.Element, run: CaseResult, counts: RunCounts) -> None:
    case = ET.SubElement(
        suite,
        "testcase",
        {
            "name": _xml_text(run_name(run, counts)),
            "classname": _xml_text(f"{run.experiment} x {run.model}"),
            "time": _seconds(_milliseconds(run)),
        },
    )
    if run.error is not None:
        error = ET.SubElement(case, "error", {"message": _xml_text(run.error), "type": "error"})
        error.text = _xml_text(run.error)
    elif not run.passed:
        failing = [(label, score) for label, score in run.checks if not score.passed]
        message = "; ".join(label for label, _ in failing) or f"score {run.score:.2f}"
        failure = ET.SubElement(case, "failure", {"message": _xml_text(message), "type": "failed"})
        lines = [
            f"{label} -- {score.reason}" if score.reason else label for label, score in failing
        ]
        failure.text = _xml_text("\n".join([*lines, f"score {run.score:.2f}"]))
        if run.outcome is not None:
            ET.SubElement(case, "system-out").text = _xml_text(run.outcome.text)


def _milliseconds(run: CaseResult) -> float:
    """The run's latency; 0 without one, or for one no ``time`` attribute can hold (NaN, < 0)."""
    latency = 0.0 if run.outcome is None else run.outcome.latency_ms
    return latency if math.isfinite(latency) and latency > 0 else 0.0


def _seconds(milliseconds: float) -> str:
    return f"{milliseconds / 1000:.3f}"


def _xml_text(text: str) -> str:
    """``text`` with what XML cannot hold (ESC, NUL...) written as its Python escape.

    ElementTree escapes the rest: ``&``, ``<``, quotes, line breaks in attributes.
    """
    return _NOT_XML.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < _LATIN_1 else f"\\u{code:04x}"
