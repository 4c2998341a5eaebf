"""``benchmarks/overrides.py`` runs and prints its table (timings are its business, not ours)."""

from __future__ import annotations

from pathlib import Path

from concurrency import run_python


def test_the_overrides_benchmark_runs() -> None:
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "overrides.py"
    done = run_python(
        script, args=["--sizes", "3,12", "--renders", "2", "--rounds", "2"], timeout=120.0
    )
    assert (done.returncode, done.stderr) == (0, "")
    lines = done.stdout.splitlines()
    assert lines[0] == ("render us without tag, with tag, ratio (target <= 1.10), apply once")
    assert [line.split()[0] for line in lines[1:]] == ["n=3", "n=12"]
