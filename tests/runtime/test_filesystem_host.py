"""HostFilesystem against hostile input: symlinks, special files, long names, huge files.

Whatever could hang or allocate without end runs in a child under ``run_python``'s time and
memory limits, so a regression fails the test instead of stalling CI.
"""

from __future__ import annotations

import errno
import os
import socket
import stat
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from concurrency import GIB, MIB, run_python

from wink_decl.runtime.filesystem import (
    FileNotFoundInFilesystemError,
    FilesystemError,
    HostFilesystem,
    PathOutsideRootError,
)
from wink_decl.runtime.filesystem import _host as host_module
from wink_decl.runtime.filesystem._host import DEFAULT_MAX_READ_BYTES, describe
from wink_decl.runtime.filesystem._walk import MAX_LINKS

REPOSITORY = Path(__file__).resolve().parents[2]


def raised(error_type: type[Exception], action: Callable[[], object]) -> str:
    with pytest.raises(error_type) as info:
        action()
    assert type(info.value) is error_type
    return str(info.value)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "root"
    folder.mkdir()
    (folder / "notes.txt").write_text("hello", encoding="utf-8")
    return folder


def child(script: str, *, timeout: float = 60, memory: int = GIB) -> str:
    """Run ``script`` (which may use ``HostFilesystem``) under limits; its stdout."""
    code = "from wink_decl.runtime.filesystem import *\n" + textwrap.dedent(script)
    done = run_python(code, cwd=REPOSITORY, timeout=timeout, memory=memory)
    assert done.returncode == 0, done.stderr
    return done.stdout


# --- the root ------------------------------------------------------------------------------


def test_a_root_given_through_a_symlink_is_followed_once(tmp_path: Path, root: Path) -> None:
    (tmp_path / "alias").symlink_to(root)
    fs = HostFilesystem(tmp_path / "alias")
    assert fs.root_label == str(root)
    assert fs.read_text("notes.txt") == "hello"


def test_a_root_that_cannot_be_opened_says_why(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> int:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(os, "open", refuse)
    assert raised(FilesystemError, lambda: HostFilesystem(root)) == (
        f"Filesystem root '{root}' cannot be opened: Permission denied."
    )


def test_a_platform_without_openat_is_refused(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(os, "O_NOFOLLOW")
    monkeypatch.setattr(os, "supports_dir_fd", {os.open, os.stat})
    monkeypatch.setattr(os, "supports_fd", set[object]())
    assert raised(FilesystemError, lambda: HostFilesystem(root)) == (
        "HostFilesystem needs os.O_NOFOLLOW, os.mkdir(dir_fd=), os.rmdir(dir_fd=), "
        "os.unlink(dir_fd=), os.rename(dir_fd=), os.readlink(dir_fd=), os.symlink(dir_fd=), "
        "os.scandir(descriptor), which this platform lacks."
    )


def test_this_platform_has_what_the_host_filesystem_needs() -> None:
    assert host_module.missing_support() == []


def test_the_read_limit_must_not_be_negative(root: Path) -> None:
    assert HostFilesystem(root).max_read_bytes == DEFAULT_MAX_READ_BYTES == 16 * MIB
    assert raised(ValueError, lambda: HostFilesystem(root, max_read_bytes=-1)) == (
        "max_read_bytes must be 0 or more, not -1."
    )


def test_a_closed_filesystem_refuses_every_call(root: Path) -> None:
    with HostFilesystem(root) as fs:
        snapshot = fs.snapshot()
        assert fs.read_text("notes.txt") == "hello"
    fs.close()  # twice is fine
    message = f"Filesystem '{root}' is closed."
    actions: list[Callable[[], object]] = [
        lambda: fs.read_text("notes.txt"),
        lambda: fs.write_text("notes.txt", "x"),
        lambda: fs.list_dir(),
        fs.snapshot,
        lambda: fs.restore(snapshot),
    ]
    for action in actions:
        assert raised(FilesystemError, action) == message


# --- symlinks ------------------------------------------------------------------------------


def test_symlinks_inside_are_followed_name_by_name(root: Path) -> None:
    (root / "real" / "deep").mkdir(parents=True)
    (root / "real" / "deep" / "file.txt").write_text("deep", encoding="utf-8")
    (root / "absolute").symlink_to(root / "real")  # an absolute target under the root
    (root / "to-root").symlink_to(root)
    (root / "dot").symlink_to("real/deep/.")  # a trailing '.': must be a folder
    (root / "chain").symlink_to("hop")
    (root / "hop").symlink_to("real/deep/../deep/file.txt")
    fs = HostFilesystem(root)
    assert fs.read_text("absolute/deep/file.txt") == "deep"
    assert fs.list_dir("to-root/real") == ("deep",)
    assert fs.list_dir("dot") == ("file.txt",)
    assert fs.read_text("chain") == "deep"
    assert (fs.exists("to-root"), fs.is_file("to-root"), fs.is_file("chain")) == (True, False, True)
    fs.write_text("chain", "via two links")
    assert (root / "real" / "deep" / "file.txt").read_text(encoding="utf-8") == "via two links"
    assert (root / "chain").is_symlink()
    assert raised(FilesystemError, lambda: fs.write_text("to-root", "x")) == (
        "'to-root' is a directory."
    )


def test_an_absolute_symlink_outside_the_root_is_refused(tmp_path: Path, root: Path) -> None:
    (tmp_path / "root-sibling").mkdir()
    (root / "sibling").symlink_to(tmp_path / "root-sibling")  # shares the root's name as prefix
    (root / "system").symlink_to("/etc")
    fs = HostFilesystem(root)
    for path in ["sibling/x.txt", "system/passwd", "system"]:
        assert raised(PathOutsideRootError, lambda p=path: fs.read_text(p)) == (
            f"Path '{path}' is outside the filesystem root."
        )


def test_symlink_loops_and_long_chains_end(root: Path) -> None:
    (root / "self").symlink_to("self")
    (root / "ping").symlink_to("pong/x")
    (root / "pong").symlink_to("ping")
    (root / "target.txt").write_text("end", encoding="utf-8")
    (root / "l0").symlink_to("target.txt")
    for n in range(1, MAX_LINKS + 1):
        (root / f"l{n}").symlink_to(f"l{n - 1}")
    fs = HostFilesystem(root)
    for path in ["self", "ping", "self/x"]:
        assert raised(FilesystemError, lambda p=path: fs.read_text(p)) == (
            f"Path '{path}' runs through more than {MAX_LINKS} symbolic links."
        )
    assert fs.read_text(f"l{MAX_LINKS - 1}") == "end"  # 40 links
    assert raised(FilesystemError, lambda: fs.read_text(f"l{MAX_LINKS}")) == (
        f"Path 'l{MAX_LINKS}' runs through more than {MAX_LINKS} symbolic links."
    )


def test_a_symlink_whose_target_climbs_out_is_refused_at_the_root(root: Path) -> None:
    (root / "a" / "b").mkdir(parents=True)
    (root / "a" / "b" / "up").symlink_to("../../../root/notes.txt")  # back in, but via outside
    fs = HostFilesystem(root)
    assert raised(PathOutsideRootError, lambda: fs.read_text("a/b/up")) == (
        "Path 'a/b/up' is outside the filesystem root."
    )


def test_a_folder_that_cannot_be_entered_says_why(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (root / "locked").mkdir()
    fs = HostFilesystem(root)
    real_open = os.open

    def refuse_locked(path: str, flags: int, *args: object, **kwargs: object) -> int:
        if path == "locked":
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_open(path, flags, *args, **kwargs)  # pyright: ignore[reportArgumentType]

    monkeypatch.setattr(os, "open", refuse_locked)
    assert raised(FilesystemError, lambda: fs.read_text("locked/x.txt")) == (
        "Cannot read 'locked/x.txt': Permission denied."
    )
    assert raised(FilesystemError, lambda: fs.exists("locked/x.txt")) == (
        "Cannot look up 'locked/x.txt': Permission denied."
    )


# --- FIFOs, sockets, devices ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "kind"),
    [
        (stat.S_IFIFO, "a FIFO"),
        (stat.S_IFSOCK, "a socket"),
        (stat.S_IFCHR, "a character device"),
        (stat.S_IFBLK, "a block device"),
        (stat.S_IFDIR, "a directory"),
        (stat.S_IFREG, "a file"),
        (stat.S_IFLNK, "a symbolic link"),
        (0o160000, "a special file"),  # Solaris doors, BSD whiteouts...
    ],
    ids=["fifo", "socket", "char", "block", "dir", "file", "link", "other"],
)
def test_describe_names_every_kind_of_entry(mode: int, kind: str) -> None:
    assert describe(mode | 0o644) == kind


def test_reading_a_fifo_fails_at_once_instead_of_waiting_for_a_writer(root: Path) -> None:
    os.mkfifo(root / "pipe")
    out = child(
        f"""
        fs = HostFilesystem({str(root)!r})
        for action in (fs.read_text, lambda p: fs.write_text(p, "x"), fs.delete, fs.list_dir):
            try:
                action("pipe")
            except FilesystemError as error:
                print(error)
        print(fs.exists("pipe"), fs.is_file("pipe"), fs.list_dir())
        """,
        timeout=30,
    )
    assert out.splitlines() == [
        "'pipe' is a FIFO, not a regular file.",
        "'pipe' is a FIFO, not a regular file.",
        "'pipe' is a FIFO, not a regular file.",
        "'pipe' is a FIFO.",
        "True False ('notes.txt', 'pipe')",
    ]
    assert stat.S_ISFIFO((root / "pipe").lstat().st_mode)


def test_a_file_swapped_for_a_fifo_after_the_check_is_refused_without_waiting(
    root: Path,
) -> None:
    """The FIFO appears between the look (a regular file) and the open: ``O_NONBLOCK`` keeps
    the open from waiting for a writer, and ``fstat`` of what was opened refuses it."""
    out = child(
        f"""
        import os
        fs = HostFilesystem({str(root)!r})
        real_open = os.open
        def swap(path, flags, *args, **kwargs):
            if path == "notes.txt":
                os.unlink("notes.txt", dir_fd=kwargs["dir_fd"])
                os.mkfifo("notes.txt", dir_fd=kwargs["dir_fd"])
            return real_open(path, flags, *args, **kwargs)
        os.open = swap
        try:
            fs.read_text("notes.txt")
        except FilesystemError as error:
            print(error)
        """,
        timeout=30,
    )
    assert out == "'notes.txt' is a FIFO, not a regular file.\n"


def test_sockets_and_devices_are_never_read(root: Path) -> None:
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(root / "sock"))
        fs = HostFilesystem(root)
        assert raised(FilesystemError, lambda: fs.read_text("sock")) == (
            "'sock' is a socket, not a regular file."
        )
    try:
        os.mknod(root / "zero", stat.S_IFCHR | 0o600, os.makedev(1, 5))  # /dev/zero: endless
    except PermissionError:  # pragma: no cover  # only root makes devices
        pytest.skip("making a device needs root")
    out = child(
        f"""
        try:
            HostFilesystem({str(root)!r}).read_text("zero")
        except FilesystemError as error:
            print(error)
        """,
        timeout=30,
        memory=256 * MIB,
    )
    assert out == "'zero' is a character device, not a regular file.\n"


# --- the read limit ------------------------------------------------------------------------


def test_reads_stop_at_the_limit(root: Path) -> None:
    (root / "ten.txt").write_text("0123456789", encoding="utf-8")
    fs = HostFilesystem(root, max_read_bytes=10)
    assert fs.read_text("ten.txt") == "0123456789"
    (root / "eleven.txt").write_text("0123456789A", encoding="utf-8")
    assert raised(FilesystemError, lambda: fs.read_text("eleven.txt")) == (
        "File 'eleven.txt' is larger than 10 bytes, the most a read returns (max_read_bytes)."
    )
    (root / "empty.txt").touch()
    assert HostFilesystem(root, max_read_bytes=0).read_text("empty.txt") == ""


def test_a_file_that_grows_while_it_is_read_stops_at_the_limit(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fs = HostFilesystem(root, max_read_bytes=100)
    real_read = os.read
    grown: list[int] = []

    def grow(descriptor: int, size: int) -> bytes:
        if not grown:
            grown.append(size)
            with (root / "notes.txt").open("a", encoding="utf-8") as stream:
                stream.write("x" * 5 * MIB)
        return real_read(descriptor, size)

    monkeypatch.setattr(os, "read", grow)
    assert raised(FilesystemError, lambda: fs.read_text("notes.txt")) == (
        "File 'notes.txt' is larger than 100 bytes, the most a read returns (max_read_bytes)."
    )


def test_a_huge_sparse_file_is_refused_without_reading_it(root: Path) -> None:
    with (root / "huge.txt").open("wb") as stream:
        stream.truncate(64 << 30)  # 64 GiB of holes: a read of it all would never end
    out = child(
        f"""
        try:
            HostFilesystem({str(root)!r}).read_text("huge.txt")
        except FilesystemError as error:
            print(error)
        """,
        timeout=30,
        memory=256 * MIB,
    )
    assert out == (
        f"File 'huge.txt' is larger than {DEFAULT_MAX_READ_BYTES} bytes, the most a read "
        "returns (max_read_bytes).\n"
    )


# --- names ---------------------------------------------------------------------------------


def test_names_up_to_255_bytes_work(root: Path) -> None:
    fs = HostFilesystem(root)
    for name in ["n" * 255, "é" * 127 + "n"]:
        fs.write_text(f"d/{name}", "ok")
        assert fs.read_text(f"d/{name}") == "ok"


@pytest.mark.parametrize(
    ("path", "message"),
    [
        (
            "a/" + "n" * 256,
            f"Name '{'n' * 57}...' in path 'a/{'n' * 55}...' is 256 bytes long; "
            "a name can be at most 255 bytes.",
        ),
        (
            "é" * 128,
            f"Name '{'é' * 57}...' in path '{'é' * 57}...' is 256 bytes long; "
            "a name can be at most 255 bytes.",
        ),
        (
            "d/" * 2048 + "x",
            f"Path '{'d/' * 28}d...' is 4097 bytes long; a path can be at most 4096 bytes.",
        ),
        ("a/\ud800", "Path 'a/\\ud800' cannot be a file name: it is not valid Unicode."),
    ],
    ids=["ascii-name", "multibyte-name", "path", "lone-surrogate"],
)
def test_names_too_long_or_not_text_are_clear_errors(root: Path, path: str, message: str) -> None:
    fs = HostFilesystem(root)
    actions: list[Callable[[], object]] = [
        lambda: fs.normalise(path),
        lambda: fs.exists(path),
        lambda: fs.read_text(path),
        lambda: fs.write_text(path, "x"),
        lambda: fs.delete(path),
        lambda: fs.list_dir(path),
    ]
    for action in actions:
        assert raised(FilesystemError, action) == message
    assert sorted(p.name for p in root.iterdir()) == ["notes.txt"]


def test_a_long_name_in_a_symlink_target_is_refused(root: Path) -> None:
    (root / "link").symlink_to("x" * 300)
    assert raised(FilesystemError, lambda: HostFilesystem(root).read_text("link")) == (
        f"Name '{'x' * 57}...' in path 'link' is 300 bytes long; a name can be at most 255 bytes."
    )


def test_the_kernel_saying_a_name_is_too_long_is_a_clear_error(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A filesystem with shorter names than 255 bytes (some network ones) answers itself."""
    fs = HostFilesystem(root)

    def too_long(*args: object, **kwargs: object) -> object:
        raise OSError(errno.ENAMETOOLONG, "File name too long")

    monkeypatch.setattr(os, "stat", too_long)
    assert raised(FilesystemError, lambda: fs.read_text("notes.txt")) == (
        "Cannot read 'notes.txt': a name in it is too long for this filesystem."
    )


def test_text_that_is_not_unicode_cannot_be_written(root: Path) -> None:
    fs = HostFilesystem(root)
    assert raised(FilesystemError, lambda: fs.write_text("a.txt", "ok \udcff")) == (
        "Text for 'a.txt' cannot be written as UTF-8: surrogates not allowed at character 3."
    )


def test_names_the_disk_holds_in_another_encoding_round_trip(root: Path) -> None:
    os.close(os.open(os.fsencode(root) + b"/caf\xe9.txt", os.O_CREAT | os.O_WRONLY, 0o644))
    fs = HostFilesystem(root)
    name = next(n for n in fs.list_dir() if n.startswith("caf"))
    assert name == "caf\udce9.txt"
    fs.write_text(name, "latin-1 name")
    assert fs.read_text(name) == "latin-1 name"
    fs.delete(name)


# --- errors of the system ------------------------------------------------------------------


def test_system_errors_become_filesystem_errors(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fs = HostFilesystem(root)

    def full(*args: object, **kwargs: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(host_module, "write_all", full)
    assert raised(FilesystemError, lambda: fs.write_text("notes.txt", "x")) == (
        "Cannot write 'notes.txt': No space left on device."
    )
    monkeypatch.undo()
    assert fs.read_text("notes.txt") == "hello"
    assert sorted(p.name for p in root.iterdir()) == ["notes.txt"]


def test_reading_a_missing_file_under_a_file_or_folder(root: Path) -> None:
    fs = HostFilesystem(root)
    assert raised(FileNotFoundInFilesystemError, lambda: fs.delete("notes.txt/x")) == (
        "File 'notes.txt/x' does not exist."
    )
    assert raised(FileNotFoundInFilesystemError, lambda: fs.delete("nope/x")) == (
        "File 'nope/x' does not exist."
    )
    assert fs.normalise("nope/../x/./y") == "x/y"
    assert fs.normalise("notes.txt/x") == "notes.txt/x"
