"""write_atomically from many threads: whole files, no leftovers, and the umask left alone."""

from __future__ import annotations

import os
import stat
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from concurrency import run_threads

from wink_decl._atomic import write_atomically


@pytest.fixture
def umask_022() -> Iterator[None]:
    before = os.umask(0o022)
    yield
    os.umask(before)


def test_writing_a_new_file_leaves_other_threads_files_their_mode(
    tmp_path: Path, umask_022: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The umask was once set to 0 and back to read it: a file another thread created in
    between (here a folder) came out writable by everyone."""
    real_umask = os.umask

    def slow_umask(mask: int) -> int:
        before = real_umask(mask)
        time.sleep(0.001)  # lets other threads run while the mask is changed, as they may
        return before

    monkeypatch.setattr(os, "umask", slow_umask)
    written = tmp_path / "written"
    made = tmp_path / "made"
    written.mkdir()
    made.mkdir()
    count = 100

    def body(thread: int) -> None:
        for n in range(count):
            if thread % 2:
                write_atomically(written / f"{thread}-{n}.json", "{}\n")
            else:
                (made / f"{thread}-{n}").mkdir()

    run_threads(body, threads=4)

    modes = {stat.S_IMODE(p.stat().st_mode) for p in made.iterdir()}
    assert modes == {0o755}
    assert {stat.S_IMODE(p.stat().st_mode) for p in written.iterdir()} == {0o644}
    assert len(list(written.iterdir())) == 2 * count


def test_threads_replacing_one_file_leave_one_whole_text_and_no_temporary(
    tmp_path: Path,
) -> None:
    target = tmp_path / "entry.json"
    texts = [f'{{"writer": {n}, "padding": "{"x" * (1000 * n)}"}}\n' for n in range(8)]
    target.write_text(texts[0], encoding="utf-8")
    target.chmod(0o640)
    stop = threading.Event()
    seen: set[str] = set()

    def body(thread: int) -> None:
        if thread < len(texts):
            for _ in range(50):
                write_atomically(target, texts[thread])
            return
        while not stop.is_set():  # readers: every read is one writer's whole text
            seen.add(target.read_text(encoding="utf-8"))
            if len(seen) == len(texts):
                stop.set()

    writers_done = threading.Barrier(len(texts) + 1)

    def run(thread: int) -> None:
        body(thread)
        if thread < len(texts):
            writers_done.wait(timeout=60)
        elif thread == len(texts):
            writers_done.wait(timeout=60)
            stop.set()

    run_threads(run, threads=len(texts) + 4)

    assert seen <= set(texts)
    assert target.read_text(encoding="utf-8") in texts
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["entry.json"]
