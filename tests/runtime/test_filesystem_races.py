"""HostFilesystem under races: a folder or file swapped for a symlink while a call runs.

First at the worst moment, forced (the swap happens inside the system call that follows the
check), then by a thread that keeps swapping while others read, write, list and delete. A
sentinel outside the root must never be read, listed, written or deleted.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import stat
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import cast

import pytest
from concurrency import run_threads

from wink_decl.runtime.filesystem import FilesystemError, HostFilesystem, PathOutsideRootError
from wink_decl.runtime.filesystem._replace import TEMPORARY

SENTINEL = "SENTINEL: outside the root"
MARK = f"wink-decl-race-{os.getpid()}"
"""Names the workers write: one found in / is an escape (and is removed after the test)."""


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "file.txt").write_text(SENTINEL, encoding="utf-8")
    (folder / "only-outside.txt").write_text(SENTINEL, encoding="utf-8")
    return folder


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "root"
    (folder / "dir").mkdir(parents=True)
    (folder / "dir" / "file.txt").write_text("inside", encoding="utf-8")
    return folder


def untouched(outside: Path) -> None:
    assert sorted(p.name for p in outside.iterdir()) == ["file.txt", "only-outside.txt"]
    for path in outside.iterdir():
        assert path.read_text(encoding="utf-8") == SENTINEL
        assert stat.S_ISREG(path.lstat().st_mode)


def swap_inside(
    monkeypatch: pytest.MonkeyPatch, call: str, name: str, swap: Callable[[], None]
) -> None:
    """Run ``swap`` once, inside the first ``os.<call>`` that names ``name``, before it acts."""
    real = getattr(os, call)
    done: list[bool] = []

    def wrapper(first: object, *args: object, **kwargs: object) -> object:
        if not done and first == name:
            done.append(True)
            swap()
        return real(first, *args, **kwargs)

    monkeypatch.setattr(os, call, wrapper)


def to_link(path: Path, target: Path) -> Callable[[], None]:
    """Move ``path`` aside (inside the root) and put a symlink to ``target`` in its place."""

    def swap() -> None:
        path.rename(path.with_name(path.name + ".moved"))
        path.symlink_to(target)

    return swap


# --- forced: the swap lands between the check and the use ----------------------------------


def test_a_folder_swapped_for_a_symlink_before_it_is_entered(
    monkeypatch: pytest.MonkeyPatch, root: Path, outside: Path
) -> None:
    fs = HostFilesystem(root)
    swap_inside(monkeypatch, "open", "dir", to_link(root / "dir", outside))
    with pytest.raises(PathOutsideRootError):
        fs.write_text("dir/file.txt", "pwned")
    untouched(outside)


def test_a_folder_swapped_after_it_was_entered_is_still_the_one_written(
    monkeypatch: pytest.MonkeyPatch, root: Path, outside: Path
) -> None:
    """The descriptor of the real folder is held: the write lands in it, wherever its name
    went inside the root, never in what the symlink now points to."""
    fs = HostFilesystem(root)
    swap_inside(monkeypatch, "stat", "file.txt", to_link(root / "dir", outside))
    fs.write_text("dir/file.txt", "mine")
    assert (root / "dir.moved" / "file.txt").read_text(encoding="utf-8") == "mine"
    untouched(outside)


def test_a_file_swapped_for_a_symlink_before_it_is_opened_is_not_read(
    monkeypatch: pytest.MonkeyPatch, root: Path, outside: Path
) -> None:
    fs = HostFilesystem(root)
    swap_inside(
        monkeypatch, "open", "file.txt", to_link(root / "dir" / "file.txt", outside / "file.txt")
    )
    with pytest.raises(FilesystemError, match=r"^Cannot read 'dir/file\.txt': Too many levels"):
        fs.read_text("dir/file.txt")
    untouched(outside)


def test_a_file_swapped_for_a_symlink_before_the_rename_replaces_the_link(
    monkeypatch: pytest.MonkeyPatch, root: Path, outside: Path
) -> None:
    fs = HostFilesystem(root)
    target = root / "dir" / "file.txt"
    real_rename = os.rename

    def swap_then_rename(source: str, name: str, **kwargs: int) -> None:
        if name == "file.txt":  # our rename (Path.rename in to_link passes whole paths)
            to_link(target, outside / "file.txt")()
        real_rename(source, name, **kwargs)

    monkeypatch.setattr(os, "rename", swap_then_rename)
    fs.write_text("dir/file.txt", "mine")
    assert (target.is_symlink(), target.read_text(encoding="utf-8")) == (False, "mine")
    untouched(outside)


def test_a_folder_swapped_before_it_is_listed_is_not_listed(
    monkeypatch: pytest.MonkeyPatch, root: Path, outside: Path
) -> None:
    fs = HostFilesystem(root)
    swap_inside(monkeypatch, "open", "dir", to_link(root / "dir", outside))
    with pytest.raises(FilesystemError, match=r"^Cannot list 'dir': "):
        fs.list_dir("dir")
    untouched(outside)


def test_a_file_swapped_for_a_symlink_before_delete_removes_the_link(
    monkeypatch: pytest.MonkeyPatch, root: Path, outside: Path
) -> None:
    fs = HostFilesystem(root)
    target = root / "dir" / "file.txt"
    swap_inside(monkeypatch, "unlink", "file.txt", to_link(target, outside / "file.txt"))
    fs.delete("dir/file.txt")
    assert not os.path.lexists(target)
    untouched(outside)


# --- a thread that keeps swapping ----------------------------------------------------------

_LIBC = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


def exchange(first: Path, second: Path) -> None:
    """Swap two names in one step (Linux ``renameat2``): neither is ever missing."""
    result = _LIBC.renameat2(
        _AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), _RENAME_EXCHANGE
    )
    if result != 0:  # pragma: no cover  # only where renameat2 is missing
        number = ctypes.get_errno()
        raise OSError(number, os.strerror(number))


def use(fs: HostFilesystem, index: int, n: int) -> tuple[int, object]:
    """The ``n``-th call of worker ``index`` (a kind in turn), after checking what it gave:
    its kind, and what it returned or the name of the error it raised."""
    name = f"dir/{MARK}-{index}-{n}.txt"
    calls: list[Callable[[], object]] = [
        lambda: fs.read_text("dir/file.txt"),
        lambda: fs.list_dir("dir"),
        lambda: fs.write_text(name, "mine"),
        lambda: fs.write_text("dir/file.txt", "inside"),
        lambda: fs.delete(name),
        lambda: fs.exists("dir/only-outside.txt"),
        lambda: fs.read_text("dir/etc/hostname"),
        lambda: fs.list_dir("dir/etc"),
    ]
    kind = n % len(calls)
    try:
        outcome = calls[kind]()
    except FilesystemError as error:
        return kind, type(error).__name__
    if kind == 0:
        assert outcome == "inside"
    elif kind == 1:
        assert isinstance(outcome, tuple)
        for entry in cast("tuple[str, ...]", outcome):  # another writer's rename is in flight
            assert entry == "file.txt" or entry.startswith(MARK) or TEMPORARY.fullmatch(entry)
        outcome = "listed"
    elif kind == 5:  # only outside is there such a file
        assert outcome is False
    else:  # writes and deletes return None; reading or listing dir/etc always fails
        assert kind in {2, 3, 4}, (kind, outcome)
        assert outcome is None
    return kind, outcome


def test_a_folder_swapped_back_and_forth_with_symlinks_never_leads_outside(
    root: Path, outside: Path
) -> None:
    (root / "to-outside").symlink_to(outside)
    (root / "to-system").symlink_to("/")
    stop = threading.Event()
    seen: list[Counter[tuple[int, object]]] = []

    def body(index: int) -> int:
        if index == 0:  # the swapper: `dir` is the folder or a symlink, never missing
            swaps = 0
            deadline = time.monotonic() + 1.5
            while time.monotonic() < deadline:
                exchange(root / "dir", root / ("to-outside" if swaps % 4 < 2 else "to-system"))
                swaps += 1
            stop.set()
            return swaps
        fs = HostFilesystem(root)
        outcomes: Counter[tuple[int, object]] = Counter()
        n = 0
        while not stop.is_set():
            outcomes[use(fs, index, n)] += 1
            n += 1
        seen.append(outcomes)
        return n

    try:
        counts = run_threads(body, threads=4, timeout=60, switch_interval=None)
    finally:
        escaped = [p for p in Path("/").iterdir() if p.name.startswith(MARK)]
        for path in escaped:  # pragma: no cover  # only when the test fails
            path.unlink()
    assert escaped == []
    untouched(outside)
    total = sum(seen, Counter[tuple[int, object]]())
    assert total[0, "inside"] > 0  # the real folder was read...
    assert total[0, "PathOutsideRootError"] > 0  # ...and the links refused
    assert total[1, "PathOutsideRootError"] > 0
    assert total[2, None] > 0
    assert total[2, "PathOutsideRootError"] > 0
    assert counts[0] > 100, counts
