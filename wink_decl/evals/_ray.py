"""Running a suite's cases on a Ray cluster, each result kept by the driver as it finishes.

Ray is an optional extra (``pip install 'wink-decl[ray]'``), imported here only, when a
suite is run on it. How the work is laid out, and why, is in docs/evals.md ("Running on a
Ray cluster"): a pool of actors, each keeping its compiled prompts and adapters from case
to case; the response cache read through one actor on the driver's machine; only the
driver writes.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import logging
import math
import pickle
import sys
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, NamedTuple

from wink_decl._install_hint import install_hint
from wink_decl.errors import InputError
from wink_decl.evals._cache import ResponseCache
from wink_decl.evals._execute import (
    AdapterPool,
    Finished,
    ModelAdapters,
    RunSettings,
    execute,
    failed_result,
)
from wink_decl.evals._local import interruption_deferred

if TYPE_CHECKING:
    from ray import ObjectRef

    from wink_decl.compiler import CompiledPrompt
    from wink_decl.evals._execute import AdapterFactory, Scorer
    from wink_decl.evals._matrix import CaseRun
    from wink_decl.runtime.provider import ProviderReply

__all__ = ["INSTALL_RAY", "MAX_ATTEMPTS", "WorkerSettings", "run_on_ray"]

INSTALL_RAY = install_hint("ray")
MAX_ATTEMPTS = 3
"""Times a case is started on a worker before a lost worker is its error."""

Lookup = Callable[[str], "ProviderReply | None"]

_READER_THREADS = 64
"""Lookups the cache reader serves at once (each reads one small file)."""


@dataclass(frozen=True)
class WorkerSettings:
    """What each worker makes its ``RunSettings`` of: sent to every worker, so picklable.

    ``prompts`` must be a ``TaggedPrompts`` (compiled prompts cannot be sent), and
    ``make_adapter`` and ``score`` (the maker of the checker, as ``drive`` takes it) must
    pickle, as a module's functions and ``SuiteScorer`` do. ``replies`` is the folder of
    replies that lookups read (the response cache, or the replies being replayed); None: none.
    """

    prompts: Mapping[str | None, CompiledPrompt]
    make_adapter: AdapterFactory
    score: Callable[[ModelAdapters], Scorer]
    replies: Path | None = None
    timeout: float | None = None
    max_turns: int | None = None
    secrets: tuple[str, ...] = field(default=())

    def settings(self, lookup: Lookup | None) -> RunSettings:
        """The settings of one worker, answering from the cache through ``lookup``."""
        adapters = AdapterPool(self.make_adapter)
        return RunSettings(
            self.prompts,
            adapters,
            self.score(ModelAdapters(adapters, lookup)),
            lookup=lookup,
            timeout=self.timeout,
            max_turns=self.max_turns,
            secrets=self.secrets,
        )


def run_on_ray(
    runs: Iterable[CaseRun],
    settings_factory: WorkerSettings,
    *,
    address: str | None,
    concurrency: int,
    on_finished: Callable[[Finished], None],
    on_stopping: Callable[[int], None] = lambda _in_flight: None,
) -> None:
    """Run every run on Ray, ``concurrency`` at a time, calling ``on_finished`` on this thread.

    As ``run_locally`` does: at most ``concurrency`` runs in flight; an interruption
    (``KeyboardInterrupt``) starts no more, tells ``on_stopping`` how many are in flight,
    hands each to ``on_finished`` as it finishes and is raised again; a second one is
    raised at once. A run whose worker is lost (its process or machine dies) is started
    again, up to ``MAX_ATTEMPTS`` times in all, and is then that case's error.

    The cluster is the one this process is connected to already (left connected), else the
    one at ``address``, else as Ray finds one: ``RAY_ADDRESS``, else the cluster ``ray
    start`` started on this machine, else a local one started here and stopped after.

    Raises:
        InputError: Ray is not installed.
        TypeError: ``settings_factory`` cannot be pickled.
    """
    todo = list(runs)
    ray = import_ray()
    _check_picklable(ray, settings_factory)
    if not todo:
        return
    # Ray prints its cluster's news (a worker died) on standard output: while it runs, they
    # go to standard error, and standard output keeps to what the command prints.
    with contextlib.redirect_stdout(sys.stderr):
        connected_here = _connect(ray, address)
        try:
            pool = _Pool(ray, settings_factory, concurrency)
            _drive_pool(pool, todo, concurrency, on_finished, on_stopping)
        finally:
            if connected_here:
                ray.shutdown()


def import_ray() -> ModuleType:
    """The ``ray`` module, or an ``InputError`` naming the line that installs it."""
    try:
        return importlib.import_module("ray")
    except ModuleNotFoundError as error:
        raise InputError(
            f"The Ray executor needs the 'ray' package, which cannot be imported ({error}).",
            hint=INSTALL_RAY,
        ) from None


def _check_picklable(ray: ModuleType, settings: WorkerSettings) -> None:
    """Refuse, before any cluster starts, settings that could not reach a worker."""
    try:
        ray.cloudpickle.dumps(settings)
    except (TypeError, AttributeError, pickle.PicklingError) as error:
        raise TypeError(
            f"The Ray executor sends the suite's settings to every worker, and they cannot "
            f"be pickled ({type(error).__name__}: {error}): give the prompts as "
            "TaggedPrompts, and make_adapter and score as a module's functions or objects."
        ) from error


def _connect(ray: ModuleType, address: str | None) -> bool:
    """Connect to the cluster to run on; whether this call connected (and must disconnect)."""
    if ray.is_initialized():
        return False
    # None: RAY_ADDRESS, else the cluster `ray start` started on this machine, else a new
    # local one (Ray's own rules). Workers' output stays in the cluster's logs.
    ray.init(
        address=address, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR
    )
    return True


class CacheReader:
    """Reads the response cache for the workers: an actor on the driver's machine.

    Workers never read the driver's files themselves: on a cluster, the files are on one
    machine only.
    """

    def __init__(self, folder: str) -> None:
        """Read replies under ``folder``."""
        self._cache = ResponseCache(folder)

    def get(self, key: str) -> ProviderReply | None:
        """The reply kept under ``key``, if any."""
        return self._cache.get(key)


def remote_lookup(ray: ModuleType, reader: Any) -> Lookup:
    """A lookup that asks ``reader`` (a ``CacheReader`` actor); a reader out of reach misses.

    ``reader`` is untyped: Ray makes an actor handle's methods as it runs (its types say
    ``Never`` of them).
    """
    errors = ray.exceptions.RayError

    def lookup(key: str) -> ProviderReply | None:
        try:
            return ray.get(reader.get.remote(key))
        except errors:  # the cache out of reach is a miss, as an unreadable entry is
            return None

    return lookup


class CaseWorker:
    """Runs cases on one Ray worker process, on as many threads as it is given.

    Its settings (prompts compiled on first use, an adapter per model and thread) are made
    once and kept from case to case.
    """

    def __init__(self, settings: WorkerSettings, reader: str | None) -> None:
        """Make this worker's settings; ``reader``: the name of the ``CacheReader``, if any.

        A name, not the actor: Ray could not restart a worker whose arguments held one.
        """
        ray = import_ray()
        lookup = None if reader is None else remote_lookup(ray, ray.get_actor(reader))
        self._settings = settings.settings(lookup)

    def run(self, run: CaseRun) -> Finished:
        """Run one case (never raises for what the case does)."""
        return execute(run, self._settings)


class _Attempt(NamedTuple):
    run: CaseRun
    worker: int
    tries: int


class _Pool:
    """The driver's side of the workers: starts runs on the least busy, takes them back."""

    def __init__(self, ray: ModuleType, settings: WorkerSettings, concurrency: int) -> None:
        self._ray = ray
        exceptions = ray.exceptions
        self._lost: tuple[type[BaseException], ...] = (
            exceptions.RayActorError,
            exceptions.WorkerCrashedError,
            exceptions.NodeDiedError,
            exceptions.ObjectLostError,
            exceptions.OutOfMemoryError,
        )
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        count = min(concurrency, cpus)
        threads = math.ceil(concurrency / count)
        self._reader: object = None  # held: the reader lives as long as its handle
        reader: str | None = None
        if settings.replies is not None:
            reader = f"wink-decl-cache-{uuid.uuid4().hex}"
            self._reader = _start_reader(ray, settings.replies, reader)
        worker_class = ray.remote(
            num_cpus=0, max_concurrency=threads, max_restarts=-1, max_task_retries=0
        )(CaseWorker)
        self._workers = [  # the settings go with each worker's spec, so a restart has them
            worker_class.options(scheduling_strategy="SPREAD").remote(settings, reader)
            for _ in range(count)
        ]
        self._busy = [0] * count
        self.in_flight: dict[ObjectRef[Finished], _Attempt] = {}

    def start(self, run: CaseRun, tries: int = 1) -> None:
        """Start ``run`` on the least busy worker (its ``tries``-th start)."""
        worker = self._busy.index(min(self._busy))
        self._busy[worker] += 1
        reference = self._workers[worker].run.remote(run)
        self.in_flight[reference] = _Attempt(run, worker, tries)

    def next_ready(self) -> ObjectRef[Finished]:
        """A run that finished (waiting for one), left in flight for ``take`` to take out."""
        (reference,), _ = self._ray.wait(list(self.in_flight), num_returns=1)
        return reference

    def take(self, reference: ObjectRef[Finished]) -> Finished | None:
        """The finished run of ``reference``, out of the runs in flight; None if it started again.

        A run whose worker was lost starts again, or after its last try is its error.
        """
        attempt = self.in_flight.pop(reference)
        self._busy[attempt.worker] -= 1
        try:
            finished: Finished = self._ray.get(reference)
        except self._lost:  # died, or restarting: down to timing, the cluster's logs say
            if attempt.tries < MAX_ATTEMPTS:
                self.start(attempt.run, attempt.tries + 1)
                return None
            return _lost(attempt.run)
        return dataclasses.replace(finished, run=attempt.run)  # the driver's own object


def _start_reader(ray: ModuleType, folder: Path, name: str) -> object:
    """A ``CacheReader`` of ``folder`` called ``name``, on this machine (where the folder is)."""
    strategies = importlib.import_module("ray.util.scheduling_strategies")
    here = strategies.NodeAffinitySchedulingStrategy(
        ray.get_runtime_context().get_node_id(), soft=False
    )
    reader_class = ray.remote(num_cpus=0, max_concurrency=_READER_THREADS, max_restarts=-1)(
        CacheReader
    )
    return reader_class.options(name=name, scheduling_strategy=here).remote(str(folder))


def _drive_pool(
    pool: _Pool,
    pending: Iterable[CaseRun],
    concurrency: int,
    on_finished: Callable[[Finished], None],
    on_stopping: Callable[[int], None],
) -> None:
    """``run_locally``'s loop, on the pool's workers."""
    waiting = iter(pending)
    try:
        with interruption_deferred():
            for run in waiting:
                pool.start(run)
                if len(pool.in_flight) == concurrency:
                    break
        while pool.in_flight:
            if _keep_next(pool, on_finished):
                with interruption_deferred():  # a Ctrl-C held while keeping starts no more runs
                    run = next(waiting, None)
                    if run is not None:
                        pool.start(run)
    except KeyboardInterrupt:
        on_stopping(len(pool.in_flight))
        while pool.in_flight:
            _keep_next(pool, on_finished)
        raise


def _keep_next(pool: _Pool, on_finished: Callable[[Finished], None]) -> bool:
    """Wait for a run to finish, then keep it whole; False when it was started again instead.

    Only the wait is cut short by Ctrl-C: a run taken out of the flight is kept before the
    interruption is raised.
    """
    ready = pool.next_ready()
    with interruption_deferred():
        finished = pool.take(ready)
        if finished is None:
            return False
        on_finished(finished)
    return True


def _lost(run: CaseRun) -> Finished:
    """``run``'s error after its worker was lost on every try."""
    reason = (
        f"The worker running this case was lost {MAX_ATTEMPTS} times; the Ray cluster's logs "
        "say why."
    )
    return Finished(run, failed_result(run, reason))
