"""The HTML report in a real headless Chromium, opened from its file: drawn, usable, inert.

Debian's chromium must be installed (``.ci/run`` installs it); without it this test fails.
"""

from __future__ import annotations

import json
import resource
from pathlib import Path

import pytest
from concurrency import run_python
from eval_pages import HOSTILE, HOSTILE_SHOWN, with_hostile_answer

from wink_decl.evals import render_html

SCENARIO = Path(__file__).parent / "html_report_scenario.py"
CHROMIUM = Path("/usr/bin/chromium")
HOSTILE_ARGUMENTS = (
    json.dumps({"html": HOSTILE}, indent=2, ensure_ascii=False)
    .replace("\u202e", "\\u202e")
    .replace("\u202c", "\\u202c")
)
"""The hostile tool call's arguments as the page shows them: JSON (controls as its escapes),
the marks that reorder text written as escapes too."""


def test_the_page_draws_its_charts_opens_a_run_and_loads_nothing(tmp_path: Path) -> None:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (.ci/run does)")
    page = tmp_path / "report.html"
    page.write_text(render_html(with_hostile_answer(), title="Code review"), encoding="utf-8")
    # Chromium reserves tens of GB of address space: no memory cap, but a time limit.
    done = run_python(
        SCENARIO, args=[str(page)], timeout=120, memory=resource.RLIM_INFINITY, cwd=tmp_path
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(done.stdout) == {
        "title": "Code review",
        "verdict": "FAIL: threshold 0.80 not met by baseline x openai:gpt-4.1-mini (0.33), "
        "bigger x openai:gpt-4.1 (0.00)",
        "charts": {
            "labels": [
                "baseline x openai:gpt-4.1-mini",
                "concise x openai:gpt-4.1-mini",
                "bigger x openai:gpt-4.1",
            ],
            "values": ["0.33 (1 of 3)", "1.00 (2 of 2)", "0.00 (0 of 1)"],
            "bars": [133.3, 400, 0],  # drawn widths, in pixels, of 400 for a pass rate of 1
            "bar classes": ["bar missed", "bar met", "bar missed"],
            "threshold": "threshold 0.80",
            "histograms": [
                "baseline x openai:gpt-4.1-mini: 3 runs",
                "concise x openai:gpt-4.1-mini: 2 runs",
                "bigger x openai:gpt-4.1: 1 run",
            ],
            "bins": [
                ["1", "1", "0", "1", "0"],
                ["0", "2", "0", "0", "0"],
                ["0", "0", "0", "0", "1"],
            ],
            "bin heights": [[50, 50, 0, 50, 0], [0, 100, 0, 0, 0], [0, 0, 0, 0, 50]],
            "edges": ["0", "500", "1000", "1500", "2000", "2500"],
        },
        "filters": {
            "buttons": ["All (7)", "Failed (3)", "Errors (1)"],
            "Failed": ["run-1", "run-5", "run-6"],
            "Errors": ["run-4"],
            "All": [f"run-{i}" for i in range(7)],
        },
        "failed run": {
            "hidden before": True,
            "line": [
                "add-bug",
                "baseline",
                "openai:gpt-4.1-mini",
                "2",
                "failed",
                "0.50",
                "1530",
                "1100",
                "420",
            ],
            "answer": "Use a + b.\nSee the diff.",
            "checks": [
                ["contains: a + b", "passed", "1.00", ""],
                ["regex: line \\d+", "failed", "0.00", "no match for 'line \\d+' in the answer"],
            ],
            "tool calls": [
                ["read_file", '{\n  "path": "src/add.py"\n}', "succeeded", "def add(a, b):"],
                ["write_file", '{\n  "path": "/etc/passwd"\n}', "failed", "not allowed"],
            ],
        },
        "hostile run": {
            "hidden before": True,
            "line": [
                "<b>x</b>",
                "baseline",
                "openai:gpt-4.1-mini",
                "1",
                "failed",
                "0.00",
                "100",
                "10",
                "5",
            ],
            "answer": HOSTILE_SHOWN,
            "checks": [['contains: "</script>"', "failed", "0.00", HOSTILE_SHOWN]],
            "tool calls": [["<i>tool</i>", HOSTILE_ARGUMENTS, "failed", HOSTILE_SHOWN]],
        },
        "scripts run": ["undefined", 1],  # the page's own script only, and it ran
        "requests": ["PAGE"],
        "console": [],
        "probe refused": ["img-src http://127.0.0.1:9/probe.png", "script-src-elem inline"],
        "probe ran": "undefined",
        "probe console": ["error", "error"],
        "refused": [],  # no request reached the network, not even the probe's
    }
