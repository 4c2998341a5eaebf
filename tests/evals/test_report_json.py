"""The report as JSON: the whole text, the documented shape, and what keeps it standard JSON."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import cast

from eval_results import lines, paired, run

import wink_decl.evals
from wink_decl.evals import EvalReport, Score, ToolCall, render_json
from wink_decl.evals._json_report import report_to_json

DOC = Path(__file__).parents[2] / "docs" / "evals.md"
LEAVES = {"cases[].outcome.output", "cases[].outcome.tool_calls[].arguments"}
"""Fields holding the model's own JSON data: their insides are not the report's shape."""


def review() -> EvalReport:
    contains = "contains: a + b"
    tool = ("tool_called: read_file", Score(1.0, True))
    return EvalReport(
        [
            run(
                "add-bug",
                latency_ms=812.4,
                tokens=(1200, 340),
                text="Line 1 returns a - b; it should be a + b.",
                tool_calls=(
                    ToolCall("read_file", {"path": "calc.py"}, True, "def add(a, b): return a - b"),
                ),
                output={"verdict": "reject"},
                checks=((contains, Score(1.0, True)), tool),
            ),
            run(
                "add-bug",
                experiment="concise",
                passed=False,
                score=0.5,
                latency_ms=640.0,
                tokens=(1150, 120),
                text="Looks fine.",
                checks=((contains, Score(0.0, False, "'a + b' is not in the answer")), tool),
            ),
            run(
                "add-bug",
                experiment="bigger",
                model="openai:gpt-4.1",
                error="the provider refused: 429 Too Many Requests",
            ),
        ],
        threshold=0.8,
        suite="evals/review.wink-eval.yaml",
    )


SUMMARY_BASELINE = """\
    {
      "experiment": "baseline",
      "model": "openai:gpt-4.1-mini",
      "cases": 1,
      "passed": 1,
      "failed": 0,
      "errors": 0,
      "pass_rate": 1.0,
      "mean_score": 1.0,
      "latency_p50_ms": 812.4,
      "latency_p95_ms": 812.4,
      "input_tokens": 1200,
      "output_tokens": 340,
      "mean_input_tokens": 1200.0,
      "mean_output_tokens": 340.0,
      "threshold_met": true
    }"""
SUMMARY_CONCISE = """\
    {
      "experiment": "concise",
      "model": "openai:gpt-4.1-mini",
      "cases": 1,
      "passed": 0,
      "failed": 1,
      "errors": 0,
      "pass_rate": 0.0,
      "mean_score": 0.5,
      "latency_p50_ms": 640.0,
      "latency_p95_ms": 640.0,
      "input_tokens": 1150,
      "output_tokens": 120,
      "mean_input_tokens": 1150.0,
      "mean_output_tokens": 120.0,
      "threshold_met": false
    }"""
SUMMARY_BIGGER = """\
    {
      "experiment": "bigger",
      "model": "openai:gpt-4.1",
      "cases": 1,
      "passed": 0,
      "failed": 0,
      "errors": 1,
      "pass_rate": null,
      "mean_score": null,
      "latency_p50_ms": null,
      "latency_p95_ms": null,
      "input_tokens": 0,
      "output_tokens": 0,
      "mean_input_tokens": null,
      "mean_output_tokens": null,
      "threshold_met": false
    }"""
# ci_high: Newcombe's method 10 of (0, 0, 1, 0), 0.12210872068194178 in the throwaway script
# of test_report_stats.
COMPARISONS = """\
    {
      "baseline": "baseline",
      "treatment": "concise",
      "baseline_model": "openai:gpt-4.1-mini",
      "model": "openai:gpt-4.1-mini",
      "pairs": 1,
      "errored": 0,
      "unpaired": 0,
      "b": 1,
      "c": 0,
      "baseline_pass_rate": 1.0,
      "treatment_pass_rate": 0.0,
      "change": -1.0,
      "ci_low": -1.0,
      "ci_high": 0.12210872068194178,
      "p_value": 1.0
    },
    {
      "baseline": "baseline",
      "treatment": "bigger",
      "baseline_model": "openai:gpt-4.1-mini",
      "model": "openai:gpt-4.1",
      "pairs": 0,
      "errored": 1,
      "unpaired": 0,
      "b": 0,
      "c": 0,
      "baseline_pass_rate": null,
      "treatment_pass_rate": null,
      "change": null,
      "ci_low": null,
      "ci_high": null,
      "p_value": 1.0
    }"""
CASE_BASELINE = """\
    {
      "case": "add-bug",
      "experiment": "baseline",
      "model": "openai:gpt-4.1-mini",
      "repeat": 0,
      "passed": true,
      "score": 1.0,
      "error": null,
      "outcome": {
        "text": "Line 1 returns a - b; it should be a + b.",
        "output": {
          "verdict": "reject"
        },
        "tool_calls": [
          {
            "name": "read_file",
            "arguments": {
              "path": "calc.py"
            },
            "success": true,
            "message": "def add(a, b): return a - b"
          }
        ],
        "input_tokens": 1200,
        "output_tokens": 340,
        "turns": 1,
        "latency_ms": 812.4
      },
      "checks": [
        {
          "label": "contains: a + b",
          "passed": true,
          "value": 1.0,
          "reason": ""
        },
        {
          "label": "tool_called: read_file",
          "passed": true,
          "value": 1.0,
          "reason": ""
        }
      ]
    }"""
CASE_CONCISE = """\
    {
      "case": "add-bug",
      "experiment": "concise",
      "model": "openai:gpt-4.1-mini",
      "repeat": 0,
      "passed": false,
      "score": 0.5,
      "error": null,
      "outcome": {
        "text": "Looks fine.",
        "output": null,
        "tool_calls": [],
        "input_tokens": 1150,
        "output_tokens": 120,
        "turns": 1,
        "latency_ms": 640.0
      },
      "checks": [
        {
          "label": "contains: a + b",
          "passed": false,
          "value": 0.0,
          "reason": "'a + b' is not in the answer"
        },
        {
          "label": "tool_called: read_file",
          "passed": true,
          "value": 1.0,
          "reason": ""
        }
      ]
    }"""
CASE_BIGGER = """\
    {
      "case": "add-bug",
      "experiment": "bigger",
      "model": "openai:gpt-4.1",
      "repeat": 0,
      "passed": false,
      "score": 0.0,
      "error": "the provider refused: 429 Too Many Requests",
      "outcome": null,
      "checks": []
    }"""


def test_the_whole_json_report() -> None:
    assert render_json(review()) == lines(
        "{",
        '  "version": 1,',
        '  "suite": "evals/review.wink-eval.yaml",',
        '  "threshold": 0.8,',
        '  "ok": false,',
        '  "pass_rate": 0.5,',
        '  "summaries": [',
        f"{SUMMARY_BASELINE},",
        f"{SUMMARY_CONCISE},",
        SUMMARY_BIGGER,
        "  ],",
        '  "comparisons": [',
        COMPARISONS,
        "  ],",
        '  "cases": [',
        f"{CASE_BASELINE},",
        f"{CASE_CONCISE},",
        CASE_BIGGER,
        "  ]",
        "}",
    )


def test_an_empty_report() -> None:
    assert json.loads(render_json(EvalReport([]))) == {
        "version": 1,
        "suite": None,
        "threshold": 1.0,
        "ok": False,
        "pass_rate": None,
        "summaries": [],
        "comparisons": [],
        "cases": [],
    }


def paths(value: object, prefix: str = "") -> set[str]:
    """Every field path of ``value`` (``cases[].outcome.text``), not entering ``LEAVES``."""
    found: set[str] = set()
    if prefix in LEAVES:
        return found
    if isinstance(value, dict):
        for key, item in cast("dict[str, object]", value).items():
            path = f"{prefix}.{key}" if prefix else key
            found |= {path, *paths(item, path)}
    elif isinstance(value, list):
        for item in cast("list[object]", value):
            found |= paths(item, f"{prefix}[]")
    return found


def documented_fields() -> set[str]:
    """The fields the table of docs/evals.md, "The JSON report", lists."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("\n## The JSON report\n", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([^`]+)` \|", section, flags=re.MULTILINE))


def test_the_document_lists_every_field_the_report_writes_and_no_other() -> None:
    written = paths(report_to_json(review()))
    assert "cases[].outcome.tool_calls[].name" in written  # every kind of field was written
    assert sorted(written - documented_fields()) == []
    assert sorted(documented_fields() - written) == []


def test_numbers_that_are_not_finite_are_written_as_null() -> None:
    nan, inf = float("nan"), float("inf")
    result = run(
        "a",
        score=nan,
        latency_ms=inf,
        output={"x": [1.5, nan, {"y": -inf}], "z": (nan,)},
        tool_calls=(ToolCall("t", {"n": nan, "ok": 2.0}, True),),
        checks=(("plugin: odd", Score(nan, True)),),
    )
    data = json.loads(render_json(EvalReport([result])))
    case = data["cases"][0]
    assert (case["score"], case["outcome"]["latency_ms"]) == (None, None)
    assert case["outcome"]["output"] == {"x": [1.5, None, {"y": None}], "z": [None]}
    assert case["outcome"]["tool_calls"][0]["arguments"] == {"n": None, "ok": 2.0}
    assert case["checks"][0]["value"] is None
    summary = data["summaries"][0]
    assert (summary["mean_score"], summary["latency_p50_ms"], summary["latency_p95_ms"]) == (
        None,
        None,
        None,
    )


def test_what_could_drive_a_terminal_is_escaped_and_the_rest_kept() -> None:
    result = run("a", text="caf\u00e9 \x1b[2J \x85 \u202e")
    text = render_json(EvalReport([result]))
    assert '        "text": "caf\u00e9 \\u001b[2J \\u0085 \\u202e",' in text.split("\n")
    assert json.loads(text)["cases"][0]["outcome"]["text"] == "caf\u00e9 \x1b[2J \x85 \u202e"


def test_comparisons_follow_the_report() -> None:
    data = json.loads(render_json(EvalReport(paired("PF FP FP"))))
    assert [(c["b"], c["c"], c["change"]) for c in data["comparisons"]] == [(1, 2, 1 / 3)]


def test_render_json_is_part_of_the_public_api() -> None:
    assert wink_decl.evals.render_json is render_json
