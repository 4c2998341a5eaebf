"""``read_regular``: a bounded read of a regular file; nothing else is opened or waited on."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from concurrency import run_threads

from wink_decl.compiler import _regular, compile_file
from wink_decl.compiler._regular import read_regular


def read(path: Path, most: int, *, whole: bool = False) -> bytes | None:
    found = run_threads(
        lambda _: read_regular(str(path), most, whole=whole),
        threads=1,
        timeout=30,
        switch_interval=None,
    )[0]
    return None if found is None else found[0]


def test_at_most_the_bytes_asked_for(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"0123456789")
    assert read(path, 100) == b"0123456789"
    assert read(path, 4) == b"0123"
    assert read(path, 10, whole=True) == b"0123456789"
    assert read(path, 9, whole=True) is None  # refused by its size, before reading
    (tmp_path / "empty").write_bytes(b"")
    assert read(tmp_path / "empty", 5, whole=True) == b""


def test_a_huge_sparse_file_is_read_only_as_far_as_asked(tmp_path: Path) -> None:
    path = tmp_path / "huge"
    with path.open("wb") as stream:
        stream.truncate(1 << 40)
    assert read(path, 3) == b"\0\0\0"
    assert read(path, 1 << 20, whole=True) is None


@pytest.mark.parametrize("kind", ["fifo", "link-to-dev-zero", "link-to-a-file", "folder"])
def test_anything_but_a_regular_file_is_refused_unopened(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "entry"
    (tmp_path / "real").write_bytes(b"real")
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    else:
        path.symlink_to("/dev/zero" if kind == "link-to-dev-zero" else tmp_path / "real")
    assert read(path, 10) is None


def test_a_missing_file_raises() -> None:
    with pytest.raises(FileNotFoundError):
        read_regular("/nonexistent/wink-decl/entry", 10)


def test_a_file_swapped_for_a_fifo_after_the_lstat_is_refused_without_waiting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    regular = os.lstat(__file__)

    def says_regular(_: str) -> os.stat_result:
        return regular

    monkeypatch.setattr(_regular.os, "lstat", says_regular)
    assert read(fifo, 10) is None


def test_a_file_that_grows_while_read_is_cut_at_the_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "growing"
    path.write_bytes(b"abc")
    real_read = os.read
    grown: list[int] = []

    def grow_then_read(descriptor: int, size: int) -> bytes:
        # Between the fstat and the first read: a read that finds all the file said it held
        # is the last one, so growth is seen by that read or not at all.
        if not grown:
            grown.append(1)
            with path.open("ab") as stream:
                stream.write(b"d" * 200_000)
        return real_read(descriptor, size)

    monkeypatch.setattr(_regular.os, "read", grow_then_read)
    assert read(path, 100_000) == b"abc" + b"d" * 99_997
    grown.clear()
    path.write_bytes(b"abc")
    assert read(path, 100_000, whole=True) is None


def _recorded_lstats(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths ``os.lstat`` is asked about from now on, in order."""
    real_lstat = os.lstat
    looked: list[str] = []

    def lstat(name: str) -> os.stat_result:
        looked.append(os.fspath(name))
        return real_lstat(name)

    monkeypatch.setattr(os, "lstat", lstat)
    return looked


def test_a_prompt_file_is_looked_at_once_on_its_way_to_the_reader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The root check's ``lstat`` of the file is the one the reader judges it by."""
    (tmp_path / "sub").mkdir()
    path = tmp_path / "sub" / "p.wink.yaml"
    path.write_text("key: p\nsections:\n  - key: a\n    title: A\n    template: Hello.\n")
    looked = _recorded_lstats(monkeypatch)
    result = compile_file(path, root=tmp_path)
    assert result.diagnostics == ()
    assert looked == [str(tmp_path / "sub"), str(path)]


def test_a_prompt_file_looked_at_by_the_caller_is_not_looked_at_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lstat its root's search took serves the root check and the reader."""
    path = tmp_path / "p.wink.yaml"
    path.write_text("key: p\nsections:\n  - key: a\n    title: A\n    template: Hello.\n")
    state = os.lstat(path)
    looked = _recorded_lstats(monkeypatch)
    result = compile_file(str(path), root=str(tmp_path), state=state)
    assert (result.diagnostics, looked) == ((), [])
    again = compile_file(path).prompt  # the compile taking its own looks
    assert result.prompt is not None
    assert again is not None
    assert (
        result.prompt.template.render().text
        == again.template.render().text
        == "## 1. A (a)\n\nHello."
    )


def test_a_prompt_file_reached_by_a_link_inside_the_root_is_looked_at_by_the_reader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "real.wink.yaml").write_text(
        "key: p\nsections:\n  - key: a\n    title: A\n    template: Hi.\n"
    )
    link = tmp_path / "p.wink.yaml"
    link.symlink_to(tmp_path / "real.wink.yaml")
    looked = _recorded_lstats(monkeypatch)
    result = compile_file(link, root=tmp_path)
    assert result.diagnostics == ()
    # The root check's lstat (a link: it gives way to realpath), then the reader's own.
    assert (looked[0], looked[-1]) == (str(link), str(link))
