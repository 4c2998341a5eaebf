"""Checking many prompt files, in worker processes when there are enough to pay for them."""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from wink_decl.compiler import PromptRegistry, compile_file
from wink_decl.diagnostics import Diagnostic
from wink_decl.limits import DEFAULT_LIMITS, Limits

__all__ = ["PARALLEL_MIN_FILES", "Checked", "Job", "available_cpus", "check_all", "check_chunk"]

PARALLEL_MIN_FILES = 64
"""Below this many files, starting worker processes costs more than it saves (measured)."""

_CHUNKS_PER_WORKER = 4
"""Several chunks per worker: a slow chunk does not leave the others idle at the end."""


@dataclass(frozen=True)
class Job:
    """One file to check, as shown in reports, and the root it compiles under."""

    path: str
    root: str
    cache_dir: str | None = None
    """Where results are kept between runs (``--cache-dir``); None: compile every file."""
    limits: Limits = DEFAULT_LIMITS
    """What checking the file may cost (``--limit``)."""


@dataclass(frozen=True)
class Checked:
    """What checking one file found; ``sources`` only for the files its diagnostics quote."""

    path: str
    ok: bool
    diagnostics: tuple[Diagnostic, ...]
    sources: dict[str, str] = field(default_factory=dict[str, str])


def check_chunk(jobs: Sequence[Job]) -> list[Checked]:
    """Compile each file (metadata only: no handler is imported); runs in a worker too."""
    checked: list[Checked] = []
    for job in jobs:
        if job.cache_dir is None:
            result = compile_file(job.path, root=job.root, display_path=job.path, limits=job.limits)
            ok, diagnostics, all_sources = result.ok, result.diagnostics, result.sources
        else:
            found = _registry(job.root, job.cache_dir, job.limits).check(job.path)
            ok, diagnostics, all_sources = found.ok, found.diagnostics, found.sources
        quoted = {d.file for d in diagnostics}
        # Only the quoted texts cross back from a worker: most files have nothing to quote.
        sources = {name: text for name, text in all_sources.items() if name in quoted}
        checked.append(Checked(job.path, ok, diagnostics, sources))
    return checked


_REGISTRIES: dict[tuple[str, str, Limits], PromptRegistry] = {}
"""One registry per root, cache folder and limits in each process: one plugin scan."""


def _registry(root: str, cache_dir: str, limits: Limits) -> PromptRegistry:
    registry = _REGISTRIES.get((root, cache_dir, limits))
    if registry is None:
        registry = PromptRegistry(root, cache_dir=cache_dir, limits=limits)
        _REGISTRIES[root, cache_dir, limits] = registry
    return registry


def available_cpus() -> int:
    """The CPUs this process may run on (``os.process_cpu_count`` arrives in Python 3.13)."""
    affinity = getattr(os, "sched_getaffinity", None)
    if affinity is not None:
        return len(affinity(0))
    return os.cpu_count() or 1


def check_all(jobs: Sequence[Job], workers: int, advance: Callable[[int], None]) -> list[Checked]:
    """Every job's result in the order given, with ``workers`` processes (1: in this one)."""
    if workers <= 1:
        results: list[Checked] = []
        for job in jobs:
            results.extend(check_chunk([job]))
            advance(1)
        return results
    size = math.ceil(len(jobs) / (workers * _CHUNKS_PER_WORKER))
    results = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        # map() yields in submission order, so the report is the serial one, byte for byte.
        for found in pool.map(check_chunk, _chunks(jobs, size)):
            results.extend(found)
            advance(len(found))
    return results


def _chunks(jobs: Sequence[Job], size: int) -> Iterator[Sequence[Job]]:
    for start in range(0, len(jobs), size):
        yield jobs[start : start + size]
