"""Start-up: what a fresh process costs, as a ratio to the bare interpreter measured beside it.

Each command runs as a new process, ``--runs`` times; a round runs every command once, so a
busy machine slows them alike, and the median of each is printed with its ratio to
``python -c pass``. The targets: ``import wink_decl`` within 1.5x, ``wink-decl --version``
within 3x, and ``wink-decl validate`` of one small file (what a pre-commit hook runs) within
10x. The file is ``prompts/common/safety.wink.yaml``; a file naming plugins
(``prompts/agents/code-review.wink.yaml``) is shown too: it also reads the installed packages'
entry points. Both run from the repository, whose ``pyproject.toml`` sets the prompt root.

The children read bytecode as an installed package does: ``PYTHONDONTWRITEBYTECODE`` is
dropped and a first, untimed run of each command writes it under a temporary
``PYTHONPYCACHEPREFIX``, so nothing is written beside the sources.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also when run by path, not as a script

from _fixtures import child_environment, run_child  # after the path is set

REPO = Path(__file__).resolve().parent.parent
SMALL = "prompts/common/safety.wink.yaml"
WITH_PLUGINS = "prompts/agents/code-review.wink.yaml"

VALIDATE = ["-m", "wink_decl", "validate"]

Case = tuple[str, list[str], str]
"""A label, the command line after ``python``, and the target ratio ("" for none)."""

CASES: tuple[Case, ...] = (
    ("python -c pass", ["-c", "pass"], ""),
    ("import wink_decl", ["-c", "import wink_decl"], "1.5x"),
    ("wink-decl --version", ["-m", "wink_decl", "--version"], "3x"),
    ("wink-decl validate, one small file", [*VALIDATE, SMALL], "10x"),
    ("wink-decl validate, a file naming plugins", [*VALIDATE, WITH_PLUGINS], ""),
)


def run_once(arguments: list[str], env: dict[str, str]) -> float:
    """Seconds one fresh process takes; a command that fails stops the benchmark."""
    return run_child([sys.executable, *arguments], env, REPO, name=" ".join(arguments))[1]


def measure(runs: int, env: dict[str, str]) -> list[float]:
    """The median seconds of each case, over ``runs`` rounds after one untimed round."""
    for _, arguments, _ in CASES:
        run_once(arguments, env)  # writes the bytecode
    times: list[list[float]] = [[] for _ in CASES]
    for _ in range(runs):
        for index, (_, arguments, _) in enumerate(CASES):
            times[index].append(run_once(arguments, env))
    return [statistics.median(each) for each in times]


def main(argv: list[str] | None = None) -> int:
    """Print each command's median time and its ratio to the bare interpreter."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=21, help="processes per command")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as cache:
        medians = measure(args.runs, child_environment(cache))
    bare = medians[0]
    print(f"median of {args.runs} fresh processes each, and the ratio to python -c pass")
    for (label, _, target), seconds in zip(CASES, medians, strict=True):
        goal = f"  (target {target})" if target else ""
        print(f"  {label:<42} {seconds * 1000:7.1f} ms  {seconds / bare:5.2f}x{goal}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
