"""benchmarks/mcp.py runs end to end with a few requests; its figures are not asserted."""

from __future__ import annotations

import re
from pathlib import Path

from concurrency import run_python

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "mcp.py"


def test_the_mcp_benchmark_runs() -> None:
    done = run_python(SCRIPT, args=["--rounds", "5"], timeout=180)
    assert (done.returncode, done.stderr) == (0, "")
    patterns = [
        r"stdio, median of 5 requests, the two servers asked in turn",
        r"  prompts/get  wink-decl mcp +\d+ us",
        r"  prompts/get  floor server +\d+ us",
        r"  ratio \d+\.\d\dx \(target 1\.5x\)",
        r"  tools/call   wink-decl mcp +\d+ us",
        r"  tools/call   floor server +\d+ us",
        r"  tools/call   executor only +\d+ us \(in process\)",
        r"  server cost beyond the executor +-?\d+ us",
        r"  server cost beyond the floor +-?\d+ us",
    ]
    lines = done.stdout.splitlines()
    assert [bool(re.fullmatch(p, line)) for p, line in zip(patterns, lines, strict=True)] == [
        True
    ] * len(patterns)
