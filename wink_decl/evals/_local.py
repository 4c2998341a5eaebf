"""Running a suite's cases on this machine, N at a time, each result kept as it finishes."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from queue import SimpleQueue
from typing import TYPE_CHECKING

from wink_decl.evals._execute import Finished, RunSettings, execute

if TYPE_CHECKING:
    from wink_decl.evals._matrix import CaseRun

__all__ = ["interruption_deferred", "run_locally"]


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
    flight = _Flight()
    try:
        try:
            with interruption_deferred():
                for _ in range(concurrency):
                    if not _start(pool, pending, flight, settings):
                        break
            while flight.runs:
                done = flight.next_done()  # the wait for a run is what Ctrl-C interrupts
                with interruption_deferred():
                    flight.runs.discard(done)
                    on_finished(done.result())
                with interruption_deferred():  # a Ctrl-C held above starts no more runs
                    _start(pool, pending, flight, settings)
        except KeyboardInterrupt:
            on_stopping(len(flight.runs))
            while flight.runs:
                on_finished(flight.next_left())
            raise
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


class _Flight:
    """The runs in flight, and the queue each one joins as it finishes.

    Taking the next finished run from a queue costs the same whatever number are in flight
    (``concurrent.futures.wait`` watches every one of them each time).
    """

    def __init__(self) -> None:
        self.runs: set[Future[Finished]] = set()
        self._finished: SimpleQueue[Future[Finished]] = SimpleQueue()

    def add(self, future: Future[Finished]) -> None:
        self.runs.add(future)
        future.add_done_callback(self._finished.put)

    def next_done(self) -> Future[Finished]:
        """A run that has finished (waiting for one), left in the flight for the caller to take.

        One at a time: others that finished meanwhile stay queued, and are taken at once next.
        An interruption before the caller takes it out leaves it for ``next_left`` to find.
        """
        return self._finished.get()

    def next_left(self) -> Finished:
        """Like ``next_done``, but found among the runs themselves, not taken from the queue.

        After an interruption: it may have come just after ``next_done`` took a run from the
        queue, and that run, still in flight for the set, would never be queued again.
        """
        done, _ = wait(self.runs, return_when=FIRST_COMPLETED)
        future = next(iter(done))
        self.runs.discard(future)
        return future.result()


@contextmanager
def interruption_deferred() -> Iterator[None]:
    """Hold a Ctrl-C that comes inside the block until the block is done, then raise it.

    Keeping a run is a cache write and a journal line, told on to the caller: a
    ``KeyboardInterrupt`` between them would keep the run by halves and lose it from the
    flight. Only the main thread sees Ctrl-C, and only while Python's own handler is set (a
    process that was started ignoring it goes on ignoring it).
    """
    if threading.current_thread() is not threading.main_thread() or (
        signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield
        return
    held: list[int] = []
    signal.signal(signal.SIGINT, lambda number, _frame: held.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if held:
        raise KeyboardInterrupt


def _start(
    pool: ThreadPoolExecutor,
    pending: Iterator[CaseRun],
    flight: _Flight,
    settings: RunSettings,
) -> bool:
    """Start the next run, if there is one; whether one was started."""
    run = next(pending, None)
    if run is None:
        return False
    flight.add(pool.submit(execute, run, settings))
    return True
