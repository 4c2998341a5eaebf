"""benchmarks/eval.py runs end to end with tiny sizes; its figures are not asserted."""

from __future__ import annotations

import re
from pathlib import Path

from concurrency import run_python

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "eval.py"


def test_the_eval_benchmark_runs() -> None:
    sizes = ["--cases", "4", "--rounds", "1", "--many", "12", "--latency", "1"]
    done = run_python(SCRIPT, args=[*sizes, "--concurrency", "3", "--no-peer"], timeout=180)
    assert (done.returncode, done.stderr) == (0, "")
    patterns = [
        r"runner cost: 4 cases at zero latency, one at a time, best of 1",
        r"  run_suite +\d+\.\d{3} ms/case \(CPU\)",
        r"  adapter alone +\d+\.\d{3} ms/case \(CPU\)",
        r"  runner's own +-?\d+\.\d{3} ms/case \(target 0\.5\)",
        r"12 cases at 1 ms, concurrency 3: ideal 0\.004 s, target 1\.15x",
        r"  run_suite +\d+\.\d{3} s +\d+\.\d\dx",
        r"  wink-decl eval +\d+\.\d{3} s +\d+\.\d\dx  CPU \d+\.\d{3} s",
        r"  inspect eval +left out",
        r"fully cached re-run of 12 cases: target under 1 s",
        r"  wink-decl eval +\d+\.\d{3} s  CPU \d+\.\d{3} s  0 model requests",
    ]
    lines = done.stdout.splitlines()
    assert len(lines) == len(patterns), done.stdout
    assert [p for p, line in zip(patterns, lines, strict=True) if not re.fullmatch(p, line)] == []
