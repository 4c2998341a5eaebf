"""benchmarks/cold_files.py runs end to end with tiny sizes; its figures are not asserted."""

from __future__ import annotations

import re
from pathlib import Path

from concurrency import run_python

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "cold_files.py"


def test_the_cold_files_benchmark_runs() -> None:
    done = run_python(SCRIPT, args=["--files", "4", "--rounds", "1"], timeout=120)
    assert (done.returncode, done.stderr) == (0, "")
    lines = done.stdout.splitlines()
    assert lines[0] == "4 distinct prompt files, load + render each once, best of 1 rounds"
    patterns = [
        r" +all files  YAML half  other half \(ms per file\)",
        r"  wink_decl\.load \+ render +\d+\.\d{3} +\d+\.\d{3} +\d+\.\d{3} TOML",
        r"  langchain_core load_prompt \+ format +\d+\.\d{3} +\d+\.\d{3} +\d+\.\d{3} JSON",
        r"  ratio \d+\.\d\dx, rounds \d+\.\d\d-\d+\.\d\dx \(LangChain / wink-decl, target 1\.2x\)",
        r"  YAML ratio \d+\.\d\dx, rounds \d+\.\d\d-\d+\.\d\dx",
        r"  TOML against JSON ratio \d+\.\d\dx, rounds \d+\.\d\d-\d+\.\d\dx",
    ]
    assert [bool(re.fullmatch(p, line)) for p, line in zip(patterns, lines[1:], strict=True)] == [
        True
    ] * len(patterns)
