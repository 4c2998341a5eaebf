"""Checking many prompt and eval files, in worker processes when there are enough for it."""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple

from wink_decl.compiler import EVAL_SUFFIXES, compile_file
from wink_decl.diagnostics import Diagnostic, sort_diagnostics
from wink_decl.limits import DEFAULT_LIMITS, Limits

if TYPE_CHECKING:
    from wink_decl.compiler import CompileResult, PromptRegistry

__all__ = [
    "PARALLEL_MIN_FILES",
    "Checked",
    "EvalSettings",
    "Job",
    "available_cpus",
    "check_all",
    "check_chunk",
    "is_eval_file",
]

PARALLEL_MIN_FILES = 64
"""Below this many files, starting worker processes costs more than it saves (measured)."""

_CHUNKS_PER_WORKER = 4
"""Several chunks per worker: a slow chunk does not leave the others idle at the end."""


# Tuples, not dataclasses: one of each is made for every file, and a named tuple costs a
# tenth of a frozen dataclass to define and a third to make (start-up and per file, measured).


class EvalSettings(NamedTuple):
    """Where an eval file's prompt and tags are looked for (``check_suite`` says how)."""

    root: str | None = None
    """``--root``: the prompt root, fixed."""
    configured_root: str | None = None
    """``[tool.wink-decl] root``, when no ``--root`` is given."""
    overrides: str | None = None
    """``--overrides`` or ``[tool.wink-decl] overrides``; None: beside the prompt root."""


class Job(NamedTuple):
    """One file to check, as shown in reports, and the root it compiles under."""

    path: str
    root: str
    cache_dir: str | None = None
    """Where results are kept between runs (``--cache-dir``); None: compile every file."""
    limits: Limits = DEFAULT_LIMITS
    """What checking the file may cost (``--limit``)."""
    import_plugins: bool = False
    """Also import the plugins the file names and check them (``--import-plugins``)."""
    evals: EvalSettings | None = None
    """Set for an eval file (``*.wink-eval.*``): it is checked as one, not compiled."""


class Checked(NamedTuple):
    """What checking one file found; ``sources`` only for the files its diagnostics quote."""

    path: str
    ok: bool
    diagnostics: tuple[Diagnostic, ...]
    sources: Mapping[str, str] = MappingProxyType({})


def check_chunk(jobs: Sequence[Job]) -> list[Checked]:
    """Check each file; runs in a worker too. Plugins are imported only for ``import_plugins``."""
    checked: list[Checked] = []
    for job in jobs:
        ok, diagnostics, all_sources = _check(job)
        quoted = {d.file for d in diagnostics}
        # Only the quoted texts cross back from a worker: most files have nothing to quote.
        sources = {name: text for name, text in all_sources.items() if name in quoted}
        checked.append(Checked(job.path, ok, diagnostics, sources))
    return checked


_Found = tuple[bool, tuple[Diagnostic, ...], Mapping[str, str]]
"""Whether the file is valid, its diagnostics, and the texts they may quote."""


def _check(job: Job) -> _Found:
    if job.evals is not None:
        return _check_eval(job, job.evals)
    if job.import_plugins:
        # Binding needs the compiled prompt, which a result kept on disk does not hold.
        if job.cache_dir is None:
            return _bound(_compile(job))
        return _bound(_registry(job.root, job.cache_dir, job.limits).compile(job.path))
    if job.cache_dir is None:  # metadata only: compile_file imports no plugin code
        # Every check, no runtime prompt: nothing built after the checks reports anything.
        result = _compile(job, check_only=True)
        ok = not any(d.severity == "error" for d in result.diagnostics)
        return ok, result.diagnostics, result.sources
    found = _registry(job.root, job.cache_dir, job.limits).check(job.path)
    return found.ok, found.diagnostics, found.sources


def _check_eval(job: Job, settings: EvalSettings) -> _Found:
    """An eval file, checked (no plugin code and no provider SDK imported, no cache kept)."""
    from wink_decl.evals import check_suite  # noqa: PLC0415  # a tree with eval files only

    checked = check_suite(
        job.path,
        root=settings.root,
        configured_root=settings.configured_root,
        overrides=settings.overrides,
        limits=job.limits,
    )
    return checked.ok, checked.diagnostics, checked.sources


def is_eval_file(path: str) -> bool:
    """True for a file named as an eval file (``*.wink-eval.yaml|yml|toml``, any case)."""
    return path.lower().endswith(EVAL_SUFFIXES)


def _compile(job: Job, *, check_only: bool = False) -> CompileResult:
    return compile_file(
        job.path, root=job.root, display_path=job.path, limits=job.limits, check_only=check_only
    )


def _bound(result: CompileResult) -> _Found:
    """The file's diagnostics and, once it compiles, those of importing its plugins."""
    prompt = result.prompt
    if prompt is None:
        return False, result.diagnostics, result.sources
    from wink_decl.compiler import bind_plugins  # noqa: PLC0415  # --import-plugins only

    problems = bind_plugins(prompt)
    diagnostics = tuple(sort_diagnostics([*result.diagnostics, *problems]))
    return not problems, diagnostics, result.sources


_REGISTRIES: dict[tuple[str, str, Limits], PromptRegistry] = {}
"""One registry per root, cache folder and limits in each process: one plugin scan."""


def _registry(root: str, cache_dir: str, limits: Limits) -> PromptRegistry:
    registry = _REGISTRIES.get((root, cache_dir, limits))
    if registry is None:
        from wink_decl.compiler import PromptRegistry  # noqa: PLC0415  # --cache-dir only

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
    # Imported here: worker processes cost a one-file check more than the check itself.
    from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415

    size = math.ceil(len(jobs) / (workers * _CHUNKS_PER_WORKER))
    results = []
    with _workers_without_the_working_folder(), ProcessPoolExecutor(max_workers=workers) as pool:
        # map() yields in submission order, so the report is the serial one, byte for byte.
        for found in pool.map(check_chunk, _chunks(jobs, size)):
            results.extend(found)
            advance(len(found))
    return results


@contextmanager
def _workers_without_the_working_folder() -> Iterator[None]:
    """Worker processes started meanwhile keep the working folder off their ``sys.path``.

    A worker started fresh (spawn or forkserver, as on macOS and Windows) is ``python -c``,
    which puts the working folder first on ``sys.path`` while it imports multiprocessing's
    modules, before it takes this process's path: a checkout's ``runpy.py`` would run there.
    PYTHONSAFEPATH keeps it off. A forked worker is a copy of this process and never looks.
    """
    before = os.environ.get(_SAFE_PATH)
    os.environ[_SAFE_PATH] = "1"
    try:
        yield
    finally:
        if before is None:
            del os.environ[_SAFE_PATH]
        else:
            os.environ[_SAFE_PATH] = before


_SAFE_PATH = "PYTHONSAFEPATH"


def _chunks(jobs: Sequence[Job], size: int) -> Iterator[Sequence[Job]]:
    for start in range(0, len(jobs), size):
        yield jobs[start : start + size]
