"""The limits the concurrency tests run under: stuck threads, errors, memory and time."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest
from concurrency import MIB, run_python, run_threads, switching_every


def test_values_come_back_in_thread_order_and_every_thread_passed_the_barrier() -> None:
    waiting: list[int] = []

    def body(index: int) -> int:
        waiting.append(index)
        return index * 10

    assert run_threads(body, threads=8) == [0, 10, 20, 30, 40, 50, 60, 70]
    assert sorted(waiting) == list(range(8))


def test_the_first_error_is_raised_with_its_thread_named() -> None:
    def body(index: int) -> int:
        if index in {2, 5}:
            raise KeyError(index)
        return index

    with pytest.raises(KeyError) as info:
        run_threads(body, threads=6)
    assert info.value.args == (2,)
    assert info.value.__notes__ == ["(raised in thread 2 of 6)"]


def test_a_thread_still_running_at_the_timeout_fails_the_test() -> None:
    release = threading.Event()

    def body(index: int) -> None:
        if index == 1:
            release.wait()  # stands for a deadlock

    try:
        with pytest.raises(pytest.fail.Exception) as info:
            run_threads(body, threads=3, timeout=0.2)
    finally:
        release.set()
    assert str(info.value) == "threads [1] were still running after 0.2 s (a deadlock?)"


def test_the_switch_interval_is_restored() -> None:
    before = sys.getswitchinterval()
    with switching_every(0.25):
        assert sys.getswitchinterval() == 0.25
    with switching_every(None):
        assert sys.getswitchinterval() == before
    run_threads(lambda i: i, threads=2)
    assert sys.getswitchinterval() == before


def test_a_script_runs_with_its_arguments(tmp_path: Path) -> None:
    done = run_python("import sys; print(sys.argv[1:])", args=["a", "b"])
    assert (done.returncode, done.stdout, done.stderr) == (0, "['a', 'b']\n", "")
    script = tmp_path / "script.py"
    script.write_text("import sys; print(sys.argv[0].endswith('script.py'), sys.argv[1:])\n")
    done = run_python(script, args=["c"])
    assert (done.returncode, done.stdout) == (0, "True ['c']\n")


def test_a_script_that_allocates_without_end_gets_a_memory_error() -> None:
    done = run_python("x = bytearray(512 * 1024 * 1024)", memory=256 * MIB)
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == "MemoryError"


def test_a_script_past_its_timeout_fails_the_test() -> None:
    with pytest.raises(pytest.fail.Exception) as info:
        run_python("import time; time.sleep(30)", timeout=0.5)
    assert str(info.value).startswith("the script was still running after 0.5 s")
