"""Run a test scenario under limits, so a deadlock or a runaway fails the test instead of CI.

Two helpers, one per kind of limit:

``run_threads(body, threads=16, timeout=60)``
    Calls ``body(index)`` in ``threads`` daemon threads released together by a barrier, and
    returns what each returned, in index order. The first exception a thread raised is raised
    again (noting the thread); a thread still running after ``timeout`` seconds fails the test.
    By default the interpreter switches threads every microsecond while the body runs, so a
    race shows in a short test: the assertions must hold for every interleaving.

``run_python(code, timeout=60, memory=1 GiB)``
    Runs ``code`` (a script) in a fresh interpreter whose address space is capped with
    ``RLIMIT_AS`` and whose run is cut at ``timeout`` seconds; returns the finished process.
    For what must not touch the test process: many processes at once, hostile inputs that
    might allocate without end, or anything that could hang in C.

Both report a missed limit with ``pytest.fail``, naming the limit that was hit.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import pytest

__all__ = ["GIB", "MIB", "AnnouncingLock", "run_python", "run_threads", "switching_every"]

T = TypeVar("T")

MIB = 1 << 20
GIB = 1 << 30

_SWITCH_INTERVAL = 1e-6
"""Seconds between forced thread switches while a body runs (CPython's default is 5 ms)."""

_LIMITED = """\
import resource, runpy, sys
limit, kind, script = int(sys.argv[1]), sys.argv[2], sys.argv[3]
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
if kind == "path":
    sys.argv = [script, *sys.argv[4:]]
    runpy.run_path(script, run_name="__main__")
else:
    sys.argv = ["-c", *sys.argv[4:]]
    exec(compile(script, "<run_python>", "exec"), {"__name__": "__main__"})
"""
"""Sets the limit inside the child before the script runs: ``preexec_fn`` is not safe to use
from a process that has threads, and a test process may."""


@contextmanager
def switching_every(seconds: float | None) -> Iterator[None]:
    """Make the interpreter switch threads every ``seconds`` (None: leave it as it is)."""
    if seconds is None:
        yield
        return
    before = sys.getswitchinterval()
    sys.setswitchinterval(seconds)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


@dataclass
class _Outcome:
    """What one thread left behind."""

    done: bool = False
    value: object = None
    error: BaseException | None = None


def run_threads(
    body: Callable[[int], T],
    *,
    threads: int = 16,
    timeout: float = 60.0,
    switch_interval: float | None = _SWITCH_INTERVAL,
) -> list[T]:
    """``body(i)`` for i in ``range(threads)``, each in its own thread, all started together.

    Returns the values in index order. Raises the first (lowest index) exception a thread
    raised. Fails the test when a thread has not finished ``timeout`` seconds after the start
    (the threads are daemons, so a stuck one cannot keep the test run from ending).
    """
    barrier = threading.Barrier(threads, timeout=timeout)
    outcomes = [_Outcome() for _ in range(threads)]

    def run(index: int) -> None:
        outcome = outcomes[index]
        try:
            barrier.wait()
            outcome.value = body(index)
        except BaseException as error:  # noqa: BLE001  # handed to the test's thread below
            outcome.error = error
        outcome.done = True

    workers = [
        threading.Thread(target=run, args=(i,), name=f"run_threads-{i}", daemon=True)
        for i in range(threads)
    ]
    with switching_every(switch_interval):
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(timeout)  # each waits at most `timeout`; the first ones take the most
    stuck = [i for i, outcome in enumerate(outcomes) if not outcome.done]
    if stuck:
        pytest.fail(f"threads {stuck} were still running after {timeout} s (a deadlock?)")
    for index, outcome in enumerate(outcomes):
        if outcome.error is not None:
            outcome.error.add_note(f"(raised in thread {index} of {threads})")
            raise outcome.error
    return [outcome.value for outcome in outcomes]  # pyright: ignore[reportReturnType]


def run_python(
    code: str | Path,
    *,
    args: Sequence[str] = (),
    timeout: float = 60.0,
    memory: int = GIB,
    cwd: str | Path | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run a script (its text, or the path of a file) in a fresh interpreter, under limits.

    The child's address space is capped at ``memory`` bytes (an allocation beyond it raises
    ``MemoryError`` there) and the run is killed after ``timeout`` seconds, which fails the
    test. ``sys.argv[1:]`` is ``args``; stdout and stderr come back as text. The exit code is
    not checked: assert on ``returncode`` (and show ``stderr``) in the test.
    """
    kind, script = ("path", str(code)) if isinstance(code, Path) else ("text", code)
    command = [sys.executable, "-c", _LIMITED, str(memory), kind, script, *args]
    try:
        return subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=cwd,
            env=env,
            check=False,
        )
    except subprocess.TimeoutExpired as expired:
        pytest.fail(f"the script was still running after {timeout} s; stderr: {expired.stderr!r}")


class AnnouncingLock:
    """A lock that says when a thread starts to wait for it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.waiting = threading.Semaphore(0)

    def __enter__(self) -> None:
        if not self._lock.acquire(blocking=False):
            self.waiting.release()
            self._lock.acquire()

    def __exit__(self, *exc: object) -> None:
        self._lock.release()
