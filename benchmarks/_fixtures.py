"""What the benchmarks share: the review prompt file, numbered files, children, best figures.

A benchmark imports this module by name; one run by path from elsewhere (as the tests run
them) first puts its own folder on ``sys.path``.
"""

from __future__ import annotations

import os
import resource
import subprocess
import time
import timeit
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

SCHEMA_REFERENCE = "../schema/wink-decl.schema.json"
"""The schema line's target, from a prompt folder beside ``schema/`` (as the bundled ones)."""

REVIEW_YAML = """\
# yaml-language-server: $schema={schema}
key: review-{i}
name: Review {i}
{description}params:
  language: {{type: string, description: Language of the change.}}
  strict: {{type: boolean, default: false}}
sections:
  - key: task
    title: Task
    template: Review the ${{language}} change number {i}.
  - key: reference
    title: Reference
    visibility: summary
    summary: Style rules for ${{language}} are available.
    template: Rule {i} applies.
    children:
      - key: naming
        title: Naming
        template: Names say what things are for.
      - key: errors
        title: Errors
        enabled: {{param: strict}}
        template: Catch narrow exceptions.
"""


def review_yaml(i: int, *, described: bool = False) -> str:
    """Small valid prompt file number ``i``; ``described`` gives it a description line too."""
    description = f"description: Reviews change number {i}.\n" if described else ""
    return REVIEW_YAML.format(i=i, schema=SCHEMA_REFERENCE, description=description)


def write_numbered(folder: Path, count: int, file: Callable[[int], tuple[str, str]]) -> list[Path]:
    """``count`` files under ``folder``: file ``i`` has the name and text ``file(i)`` gives.

    A name may hold folders; they are made as needed.
    """
    paths: list[Path] = []
    for i in range(count):
        name, text = file(i)
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


def child_environment(cache: str) -> dict[str, str]:
    """This process's environment, bytecode kept under ``cache``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = cache
    return env


def run_child(
    command: list[str], env: dict[str, str], cwd: Path, *, name: str
) -> tuple[str, float]:
    """What a fresh process printed, and the seconds it took; one that fails stops the benchmark.

    ``name`` says which process failed.
    """
    start = time.perf_counter()
    done = subprocess.run(  # noqa: S603  # this interpreter or its tools, fixed command lines
        command, capture_output=True, text=True, env=env, cwd=cwd, check=False
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{name} failed ({done.returncode}): {done.stdout}{done.stderr}")
    return done.stdout, elapsed


def child_cpu_seconds(command: list[str], env: dict[str, str], cwd: Path, *, name: str) -> float:
    """The CPU time (user and system) a fresh process took: what it costs on one core.

    Wall-clock time on a shared machine also counts the time other processes held the core.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run_child(command, env, cwd, name=name)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def every_round(
    sides: Sequence[Callable[[], T]], rounds: int, *, warm_up: bool = False
) -> list[list[T]]:
    """Each side's figures over ``rounds`` rounds that run every side in turn, in round order.

    Alternating the sides lets a busy machine slow them alike, so the figures of one round
    compare side by side. With ``warm_up`` a first round runs too, untimed (a child writes
    its bytecode then).
    """
    figures: list[list[T]] = [[] for _ in sides]
    for round_number in range(rounds + 1 if warm_up else rounds):
        for index, side in enumerate(sides):
            figure = side()
            if round_number or not warm_up:
                figures[index].append(figure)
    return figures


def best_of_rounds(
    sides: Sequence[Callable[[], float]], rounds: int, *, warm_up: bool = False
) -> list[float]:
    """The least figure each side gives over ``rounds`` rounds (see ``every_round``)."""
    return [min(figures) for figures in every_round(sides, rounds, warm_up=warm_up)]


def ratio_spread(peer: Sequence[float], ours: Sequence[float]) -> str:
    """The least and the greatest of the rounds' ratios ``peer / ours``, as ``1.10-1.30x``."""
    ratios = [theirs / mine for theirs, mine in zip(peer, ours, strict=True)]
    return f"{min(ratios):.2f}-{max(ratios):.2f}x"


def per_call_us(statement: Callable[[], object], number: int, repeat: int = 5) -> float:
    """Microseconds per call of ``statement``: the best of ``repeat`` runs of ``number`` calls."""
    return min(timeit.repeat(statement, number=number, repeat=repeat)) / number * 1e6
