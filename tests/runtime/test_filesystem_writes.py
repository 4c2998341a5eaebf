"""HostFilesystem writes: whole or not at all, modes kept, nothing left by a killed writer."""

# pyright: reportPrivateUsage=false

from __future__ import annotations

import errno
import os
import signal
import stat
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from concurrency import run_python

from wink_decl.runtime.filesystem import FilesystemError, HostFilesystem
from wink_decl.runtime.filesystem import _host as host_module
from wink_decl.runtime.filesystem import _replace as replace_module
from wink_decl.runtime.filesystem._replace import TEMPORARY, remove_leftovers, temporary_name

REPOSITORY = Path(__file__).resolve().parents[2]
OLD = "old text\n" * 1000


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "root"
    folder.mkdir()
    (folder / "notes.txt").write_text(OLD, encoding="utf-8")
    return folder


@pytest.fixture(params=[True, False], ids=["unnamed", "named"])
def make(request: pytest.FixtureRequest) -> Callable[[Path], HostFilesystem]:
    """A HostFilesystem writing through unnamed files (Linux) or named temporary files."""

    def build(folder: Path) -> HostFilesystem:
        fs = HostFilesystem(folder)
        fs._replacer.unnamed = request.param
        return fs

    return build


@pytest.fixture
def umask_027() -> Iterator[None]:
    before = os.umask(0o027)
    yield
    os.umask(before)


def names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def dead_pid() -> int:
    """The id of a process that has ended (and, for a while, no other has)."""
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    return int(done.stdout)


def seen_while_writing(monkeypatch: pytest.MonkeyPatch, folder: Path) -> list[list[str]]:
    """What ``folder`` holds each time a write fills its temporary file."""
    seen: list[list[str]] = []
    real = host_module.write_all

    def look(descriptor: int, data: bytes | memoryview) -> None:
        seen.append(names(folder))
        real(descriptor, data)

    monkeypatch.setattr(host_module, "write_all", look)
    return seen


# --- unnamed and named temporary files ----------------------------------------------------


def test_on_linux_the_text_is_written_into_an_unnamed_file(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fs = HostFilesystem(root)
    assert fs._replacer.unnamed
    seen = seen_while_writing(monkeypatch, root)
    fs.write_text("notes.txt", "new")
    fs.write_text("fresh.txt", "new")
    assert seen == [["notes.txt"], ["notes.txt"]]
    assert names(root) == ["fresh.txt", "notes.txt"]


def test_a_filesystem_without_unnamed_files_gets_named_ones(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fs = HostFilesystem(root)
    real_open = os.open

    def no_tmpfile(path: str, flags: int, *args: object, **kwargs: object) -> int:
        if flags & os.O_TMPFILE == os.O_TMPFILE:
            raise OSError(errno.EOPNOTSUPP, "Operation not supported")
        return real_open(path, flags, *args, **kwargs)  # pyright: ignore[reportArgumentType]

    monkeypatch.setattr(os, "open", no_tmpfile)
    seen = seen_while_writing(monkeypatch, root)
    fs.write_text("notes.txt", "new")
    assert not fs._replacer.unnamed  # not tried again
    fs.write_text("notes.txt", "newer")
    assert [len(folder) for folder in seen] == [2, 2]
    assert all(
        TEMPORARY.fullmatch(name) for folder in seen for name in folder if name != "notes.txt"
    )
    assert names(root) == ["notes.txt"]
    assert (root / "notes.txt").read_text(encoding="utf-8") == "newer"


def test_other_failures_of_unnamed_files_are_reported(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fs = HostFilesystem(root)

    def read_only(*args: object, **kwargs: object) -> int:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(os, "open", read_only)
    assert raised_message(lambda: fs.write_text("notes.txt", "x")) == (
        "Cannot write 'notes.txt': Read-only file system."
    )
    assert fs._replacer.unnamed


def raised_message(action: Callable[[], object]) -> str:
    with pytest.raises(FilesystemError) as info:
        action()
    return str(info.value)


# --- modes ----------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", [0o600, 0o751, 0o4755, 0o2710], ids=oct)
def test_a_replaced_file_keeps_its_mode(
    root: Path, make: Callable[[Path], HostFilesystem], mode: int
) -> None:
    (root / "notes.txt").chmod(mode)
    make(root).write_text("notes.txt", "new")
    assert stat.S_IMODE((root / "notes.txt").stat().st_mode) == mode


def test_a_new_file_gets_the_umask_mode(
    root: Path, make: Callable[[Path], HostFilesystem], umask_027: None
) -> None:
    fs = make(root)
    fs.write_text("new.txt", "x")
    fs.write_text("sub/new.txt", "x")
    assert stat.S_IMODE((root / "new.txt").stat().st_mode) == 0o640
    assert stat.S_IMODE((root / "sub").stat().st_mode) == 0o750


def test_writing_one_hard_link_leaves_the_other_name_the_old_text(root: Path) -> None:
    """A write puts a new file in place: the other name keeps the old inode and its text,
    never written through (so a hard link to a file outside is never changed)."""
    os.link(root / "notes.txt", root / "twin.txt")
    HostFilesystem(root).write_text("notes.txt", "new")
    assert (root / "twin.txt").read_text(encoding="utf-8") == OLD
    assert (root / "notes.txt").stat().st_nlink == 1


# --- leftovers ------------------------------------------------------------------------------


def test_leftovers_of_ended_processes_go_at_the_first_write_into_their_folder(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dead, mine = dead_pid(), os.getpid()
    (root / "sub").mkdir()
    leftovers = {
        "dead": f".wink-decl-{dead}-0123456789abcdef.tmp",
        "running": ".wink-decl-1-0123456789abcdef.tmp",  # init: never ended
        "mine": f".wink-decl-{mine}-0123456789abcdef.tmp",  # another thread's, in flight
        "not-a-file": f".wink-decl-{dead}-fedcba9876543210.tmp",
        "other-name": f".wink-decl-{dead}-0123.tmp",
    }
    for folder in (root, root / "sub"):
        for kind, name in leftovers.items():
            if kind == "not-a-file":
                (folder / name).symlink_to("notes.txt")
            else:
                (folder / name).write_text("partial", encoding="utf-8")
    fs = HostFilesystem(root)
    fs.read_text("notes.txt")
    fs.list_dir("sub")
    assert leftovers["dead"] in names(root)  # reading changes nothing
    scans: list[int] = []
    real = replace_module.remove_leftovers

    def counted(folder: int) -> list[str]:
        scans.append(folder)
        return real(folder)

    monkeypatch.setattr(replace_module, "remove_leftovers", counted)
    fs.write_text("notes.txt", "new")
    fs.write_text("other.txt", "new")  # the root is scanned once
    expected = sorted({*leftovers.values(), "notes.txt", "other.txt", "sub"} - {leftovers["dead"]})
    assert names(root) == expected
    assert leftovers["dead"] in names(root / "sub")
    fs.write_text("sub/new.txt", "new")
    assert leftovers["dead"] not in names(root / "sub")
    assert len(scans) == 2


def test_leftovers_in_a_folder_that_cannot_be_listed_stay(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> int:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(os, "open", refuse)
    assert remove_leftovers(0) == []


def test_a_process_of_another_user_counts_as_running(monkeypatch: pytest.MonkeyPatch) -> None:
    def not_yours(pid: int, signal: int) -> None:
        raise PermissionError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "kill", not_yours)
    assert replace_module._running(12345)
    assert TEMPORARY.fullmatch(temporary_name())


# --- killed writers -------------------------------------------------------------------------

KILL_AT = {
    "write": """
        real = os.write
        def write(descriptor, data):
            real(descriptor, bytes(data)[: len(data) // 2])
            os.kill(os.getpid(), signal.SIGKILL)
        os.write = write
    """,
    "rename": """
        def rename(*args, **kwargs):
            os.kill(os.getpid(), signal.SIGKILL)
        os.rename = rename
    """,
}


def kill_while_writing(root: Path, *, unnamed: bool, at: str) -> None:
    """A child process that dies (SIGKILL, no clean-up runs) at ``at`` of a write."""
    script = "\n".join(
        [
            "import os, signal",
            "from wink_decl.runtime.filesystem import HostFilesystem",
            f"fs = HostFilesystem({str(root)!r})",
            f"fs._replacer.unnamed = {unnamed}",
            textwrap.dedent(KILL_AT[at]),
            "fs.write_text('notes.txt', 'new text ' * 1_000_000)",
            "print('not killed')",
        ]
    )
    done = run_python(script, cwd=REPOSITORY, timeout=60)
    assert (done.returncode, done.stdout) == (-signal.SIGKILL, ""), done.stderr


def test_a_writer_killed_while_writing_an_unnamed_file_leaves_nothing(root: Path) -> None:
    kill_while_writing(root, unnamed=True, at="write")
    assert names(root) == ["notes.txt"]
    assert (root / "notes.txt").read_text(encoding="utf-8") == OLD


@pytest.mark.parametrize(
    ("unnamed", "at"), [(False, "write"), (True, "rename")], ids=["named-write", "unnamed-rename"]
)
def test_what_a_killed_writer_leaves_goes_at_the_next_write(
    root: Path, unnamed: bool, at: str
) -> None:
    """A named temporary file (or an unnamed one in the instant between link and rename)
    stays when its writer dies; its name says whose it was, and the next write removes it."""
    kill_while_writing(root, unnamed=unnamed, at=at)
    left = [name for name in names(root) if name != "notes.txt"]
    assert len(left) == 1
    assert TEMPORARY.fullmatch(left[0])
    assert (root / "notes.txt").read_text(encoding="utf-8") == OLD
    HostFilesystem(root).write_text("other.txt", "x")
    assert names(root) == ["notes.txt", "other.txt"]
