"""Running a suite's cases on this machine, N at a time, each result kept as it finishes."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import TYPE_CHECKING

from wink_decl.evals._execute import Finished, RunSettings, execute

if TYPE_CHECKING:
    from wink_decl.evals._matrix import CaseRun

__all__ = ["run_locally"]


def run_locally(
    runs: Iterable[CaseRun],
    settings: RunSettings,
    *,
    concurrency: int,
    on_finished: Callable[[Finished], None],
    on_stopping: Callable[[int], None] = lambda _in_flight: None,
) -> None:
    """Run every run, ``concurrency`` at a time, calling ``on_finished`` on this thread.

    At most ``concurrency`` runs are in flight; the rest wait unstarted. An interruption
    (Ctrl-C: ``KeyboardInterrupt``) starts no more runs: ``on_stopping`` is told how many
    are in flight, those finish (each within its timeout) and are handed to
    ``on_finished``, and the interruption is raised again. A second interruption while
    they finish is raised at once, losing them.
    """
    pending = iter(runs)
    pool = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="wink-eval")
    in_flight: set[Future[Finished]] = set()
    try:
        try:
            for _ in range(concurrency):
                if not _start(pool, pending, in_flight, settings):
                    break
            while in_flight:
                on_finished(_next_done(in_flight))
                _start(pool, pending, in_flight, settings)
        except KeyboardInterrupt:
            on_stopping(len(in_flight))
            while in_flight:
                on_finished(_next_done(in_flight))
            raise
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def _start(
    pool: ThreadPoolExecutor,
    pending: Iterator[CaseRun],
    in_flight: set[Future[Finished]],
    settings: RunSettings,
) -> bool:
    """Start the next run, if there is one; whether one was started."""
    run = next(pending, None)
    if run is None:
        return False
    in_flight.add(pool.submit(execute, run, settings))
    return True


def _next_done(in_flight: set[Future[Finished]]) -> Finished:
    """The result of a run that has finished (waiting for one), taken out of ``in_flight``.

    One at a time: others that finished together stay, and are taken at once next time.
    """
    done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
    future = next(iter(done))
    in_flight.discard(future)
    return future.result()
