"""benchmarks/validate.py runs end to end with tiny sizes; its figures are not asserted."""

from __future__ import annotations

import re
from pathlib import Path

from concurrency import run_python

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "validate.py"


def test_the_validate_benchmark_runs() -> None:
    done = run_python(SCRIPT, args=["--files", "12", "--rounds", "1"], timeout=120)
    assert (done.returncode, done.stderr) == (0, "")
    lines = done.stdout.splitlines()
    assert lines[0] == "12 prompt files, one process each, best of 1 rounds"
    patterns = [
        r"  wink-decl validate -j 1 +\d+\.\d{3} s",
        r"  check-jsonschema \(schema only\) +\d+\.\d{3} s",
        r"  ratio \d+\.\d\dx \(check-jsonschema / wink-decl, target 5x\)",
    ]
    assert [bool(re.fullmatch(p, line)) for p, line in zip(patterns, lines[1:], strict=True)] == [
        True,
        True,
        True,
    ]
