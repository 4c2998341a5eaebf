"""Checking prompt and eval files, as ``wink-decl validate`` and ``wink_decl.validate`` do.

Each file is compiled once; a valid prompt with override files is checked against them in the
same step (and with ``--cache-dir``, kept on disk with it). Many files are checked in worker
processes when there are enough to pay for them. Files of one root with one address are
compared once all are checked (``with_unserved``): a registry serves only one of them.
"""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from wink_decl.compiler import EVAL_SUFFIXES, compile_file
from wink_decl.diagnostics import Diagnostic, sort_diagnostics
from wink_decl.limits import DEFAULT_LIMITS, Limits

if TYPE_CHECKING:
    from wink_decl.compiler import CompiledPrompt, CompileResult, PromptRegistry
    from wink_decl.overrides import LocalOverrideStore

__all__ = [
    "PARALLEL_MIN_FILES",
    "Checked",
    "EvalSettings",
    "Job",
    "Overrides",
    "available_cpus",
    "check_all",
    "check_chunk",
    "is_eval_file",
    "overrides_in",
    "with_unserved",
]

PARALLEL_MIN_FILES = 64
"""Below this many files, starting worker processes costs more than it saves (measured)."""

_CHUNKS_PER_WORKER = 4
"""Several chunks per worker: a slow chunk does not leave the others idle at the end."""


# Tuples, not dataclasses: one of each is made for every file, and a named tuple costs a
# tenth of a frozen dataclass to define and a third to make (start-up and per file, measured).


class Overrides(NamedTuple):
    """A prompt root's overrides folder, looked up once for all its files (docs/overrides.md)."""

    folder: str
    tagged: frozenset[str]
    """The ``ns/key`` of each prompt with a file there: only those are checked against them."""
    strict: bool = False
    """A stale entry, and a tag without a file, are errors (``--strict``)."""


def overrides_in(folder: str | os.PathLike[str], *, strict: bool = False) -> Overrides | None:
    """The overrides folder ``folder`` as checks use it; None when it holds no override file.

    One walk of the folder per prompt root: a root without override files costs its files
    nothing more.
    """
    if not os.path.isdir(folder):  # noqa: PTH112  # a str: the common case costs one stat
        return None
    from wink_decl.overrides import LocalOverrideStore  # noqa: PLC0415  # a folder is there

    tagged = frozenset(LocalOverrideStore(folder).files_by_address())
    return Overrides(os.fspath(folder), tagged, strict) if tagged else None


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
    overrides: Overrides | None = None
    """The root's override files (None: it has none): a prompt with some is checked with them."""
    evals: EvalSettings | None = None
    """Set for an eval file (``*.wink-eval.*``): it is checked as one, not compiled."""


class Checked(NamedTuple):
    """What checking one file found; ``sources`` only for the files its diagnostics quote."""

    path: str
    ok: bool
    diagnostics: tuple[Diagnostic, ...]
    sources: Mapping[str, str] = MappingProxyType({})
    address: str | None = None
    """The prompt's ``ns/key`` when it compiles (its plugins or override files may still be
    wrong): what a registry under the file's root serves it as."""


def check_chunk(jobs: Sequence[Job]) -> list[Checked]:
    """Check each file; runs in a worker too. Plugins are imported only for ``import_plugins``."""
    checked: list[Checked] = []
    for job in jobs:
        (ok, diagnostics, all_sources), address = _check(job)
        quoted = {d.file for d in diagnostics}
        # Only the quoted texts cross back from a worker: most files have nothing to quote.
        sources = {name: text for name, text in all_sources.items() if name in quoted}
        checked.append(Checked(job.path, ok, diagnostics, sources, address))
    return checked


def with_unserved(jobs: Sequence[Job], results: Sequence[Checked]) -> list[Checked]:
    """``results`` (one per job, in order), each file no registry serves warned of.

    Two files of one root with one address (``x.wink.yaml`` and ``x.wink.toml``, or one
    ``key:`` twice): a registry there serves the first in sorted order, whatever order they
    were checked in, so the warning lands on the others. Only the files checked are compared.
    """
    by_root: dict[str, list[tuple[str, str]]] = {}
    for job, checked in zip(jobs, results, strict=True):
        if checked.address is not None:
            by_root.setdefault(job.root, []).append((checked.path, checked.address))
    from wink_decl.compiler import unserved_files  # noqa: PLC0415  # its module is small

    warned: dict[str, list[Diagnostic]] = {}
    for root, found in _roots_alike(by_root):
        for warning in unserved_files(found, root):
            warned.setdefault(warning.file, []).append(warning)
    if not warned:
        return list(results)
    return [
        checked._replace(diagnostics=(*checked.diagnostics, *warned[checked.path]))
        if checked.path in warned
        else checked
        for checked in results
    ]


def _roots_alike(
    by_root: Mapping[str, list[tuple[str, str]]],
) -> Iterator[tuple[str, list[tuple[str, str]]]]:
    """The files of each root, roots spelled two ways (``p``, ``./p/..``) taken as one."""
    merged: dict[str, tuple[str, list[tuple[str, str]]]] = {}
    for root, found in by_root.items():
        real = os.path.realpath(root)
        if real in merged:
            merged[real][1].extend(found)
        else:
            merged[real] = (root, list(found))
    yield from merged.values()


_Found = tuple[bool, tuple[Diagnostic, ...], Mapping[str, str]]
"""Whether the file is valid, its diagnostics, and the texts they may quote."""


def _check(job: Job) -> tuple[_Found, str | None]:
    """What checking ``job``'s file found, and its address when it compiles."""
    if job.evals is not None:
        return _check_eval(job, job.evals), None
    if job.import_plugins:
        # Binding needs the compiled prompt, which a result kept on disk does not hold.
        if job.cache_dir is None:
            result = _compile(job)
        else:
            result = _registry(job.root, job.cache_dir, job.limits).compile(job.path)
        return _with_overrides(job, _bound(result), result.prompt), result.address
    if job.cache_dir is not None:
        return _check_kept(job, job.cache_dir)
    # Metadata only: compile_file imports no plugin code. Every check, and no runtime prompt
    # (nothing built after the checks reports anything) unless override files need one.
    result = _compile_for(job)
    ok = not any(d.severity == "error" for d in result.diagnostics)
    found = _with_overrides(job, (ok, result.diagnostics, result.sources), result.prompt)
    return found, result.address


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


def _compile(job: Job, *, check_only: bool = False, content: bytes | None = None) -> CompileResult:
    return compile_file(
        job.path,
        root=job.root,
        display_path=job.path,
        limits=job.limits,
        check_only=check_only,
        content=content,
    )


def _compile_for(job: Job) -> CompileResult:
    """The file checked only; built (once) when it may be a prompt with override files.

    Which prompt a file is, its ``ns/key``, is read from its bytes first where the root has
    override files (``claimed_address``: not sure means built); the compile uses those bytes.
    """
    overrides = job.overrides
    if overrides is None:
        return _compile(job, check_only=True)
    from wink_decl.compiler import claimed_address  # noqa: PLC0415  # override files only
    from wink_decl.loader import read_stamped  # noqa: PLC0415  # override files only

    try:
        content, _ = read_stamped(job.path, job.limits)
    except OSError:  # the compile tries again, and says why it cannot
        return _compile(job, check_only=True)
    claimed = claimed_address(content, job.path, Path(job.root))
    tagged = claimed is None or claimed in overrides.tagged
    return _compile(job, check_only=not tagged, content=content)


def _bound(result: CompileResult) -> _Found:
    """The file's diagnostics and, once it compiles, those of importing its plugins."""
    prompt = result.prompt
    if prompt is None:
        return False, result.diagnostics, result.sources
    from wink_decl.compiler import bind_plugins  # noqa: PLC0415  # --import-plugins only

    problems = bind_plugins(prompt)
    diagnostics = tuple(sort_diagnostics([*result.diagnostics, *problems]))
    return not problems, diagnostics, result.sources


def _with_overrides(job: Job, found: _Found, prompt: CompiledPrompt | None) -> _Found:
    """``found`` and, for a valid prompt with override files, what checking them found."""
    overrides = job.overrides
    if overrides is None or prompt is None or not found[0]:
        return found  # invalid prompts are reported already
    if prompt.address not in overrides.tagged:
        return found
    return _joined(found, _override_problems(prompt, _store(job, overrides), overrides.strict))


def _check_kept(job: Job, cache_dir: str) -> tuple[_Found, str | None]:
    """``check`` through the registry and its disk cache, override files too; the address."""
    registry = _registry(job.root, cache_dir, job.limits)
    checked = registry.check(job.path)
    found = checked.ok, checked.diagnostics, checked.sources
    artifact = checked.artifact
    address = None if artifact is None else _address_of(artifact)
    if artifact is None or address is None:
        return found, None
    overrides = job.overrides
    if overrides is None or address not in overrides.tagged:
        return found, address
    store = _store(job, overrides)
    ns, _, key = address.rpartition("/")  # a key has no '/'; an ns may
    files = store.fingerprint(ns, key)
    # What the check reads besides the prompt, and how it counts a stale entry: its key.
    inputs = None if files is None else b"strict\0" * overrides.strict + files
    problems = registry.check_further(
        job.path,
        artifact["content_hash"],
        inputs,
        lambda prompt: _override_problems(prompt, store, overrides.strict),
    )
    return _joined(found, problems), address


def _address_of(artifact: Mapping[str, Any]) -> str | None:
    """The ``ns/key`` a kept artifact names; None when it names none (signed, yet not ours)."""
    try:
        return f"{artifact['prompt']['ns']}/{artifact['prompt']['key']}"
    except (KeyError, TypeError):
        return None


def _store(job: Job, overrides: Overrides) -> LocalOverrideStore:
    from wink_decl.overrides import LocalOverrideStore  # noqa: PLC0415  # override files only

    return LocalOverrideStore(overrides.folder, limits=job.limits)


def _override_problems(
    prompt: CompiledPrompt, store: LocalOverrideStore, strict: bool
) -> tuple[list[Diagnostic], dict[str, str]]:
    from wink_decl.overrides import override_problems  # noqa: PLC0415  # override files only

    problems, sources, _ = override_problems(prompt.template, store, strict=strict)
    return problems, sources


def _joined(found: _Found, further: tuple[Sequence[Diagnostic], Mapping[str, str]]) -> _Found:
    ok, diagnostics, sources = found
    problems, texts = further
    valid = ok and all(problem.severity == "warning" for problem in problems)
    return valid, (*diagnostics, *problems), {**sources, **texts}


_REGISTRY_LIMIT = 32
"""Registries kept per process; past this, the one used longest ago is forgotten."""
_REGISTRIES: dict[tuple[str, str, Limits], PromptRegistry] = {}
"""One registry per root, cache folder and limits in each process: one plugin scan.

Keyed by what a caller was given, so a long-running process that checks ever new roots
keeps only the ``_REGISTRY_LIMIT`` used last (in the order of use: a hit moves to the end).
"""
_registries_lock = threading.Lock()


def _registry(root: str, cache_dir: str, limits: Limits) -> PromptRegistry:
    key = (root, cache_dir, limits)
    with _registries_lock:
        registry = _REGISTRIES.pop(key, None)
        if registry is None:
            from wink_decl.compiler import PromptRegistry  # noqa: PLC0415  # --cache-dir only

            registry = PromptRegistry(root, cache_dir=cache_dir, limits=limits)
            if len(_REGISTRIES) >= _REGISTRY_LIMIT:
                del _REGISTRIES[next(iter(_REGISTRIES))]
        _REGISTRIES[key] = registry
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
