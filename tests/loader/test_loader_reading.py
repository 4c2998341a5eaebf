"""Reading prompt files: regular files only, never blocking, never past the size limit.

Whatever could block or read without end runs in a child process under a time and memory
limit (``run_python``), so a regression fails the test instead of hanging the run.
"""

from __future__ import annotations

import errno
import os
import socket
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from concurrency import MIB, run_python
from hypothesis import given, settings
from hypothesis import strategies as st

from wink_decl.diagnostics import Diagnostic, render_text
from wink_decl.inputs import PARAMS_FILE
from wink_decl.loader import (
    FileTooLargeError,
    Limits,
    NotAFileError,
    load_file,
    load_text,
    read_bytes,
    read_problem,
    read_stamped,
    regular_files,
)

REFUSED = (
    "{name}: error: This file cannot be read: it is {kind}, not a regular file.\n"
    "  expected: a regular file\n"
    "  hint: replace it with a regular file; folders, pipes, devices and sockets are never "
    "opened"
)

LOAD = """\
import sys
from wink_decl.diagnostics import render_text
from wink_decl.loader import load_file
result = load_file(sys.argv[1], display_path="x.wink.yaml")
print(render_text(result.diagnostics), result.text is None)
"""


def refused(kind: str, name: str = "x.wink.yaml") -> str:
    return REFUSED.format(name=name, kind=kind)


class FakeOs:
    """``os`` as the reading module sees it, with some functions replaced (only there)."""

    def __init__(self, **replaced: object) -> None:
        self.__dict__.update(replaced)

    def __getattr__(self, name: str) -> object:
        return getattr(os, name)


def patch_os(monkeypatch: pytest.MonkeyPatch, **replaced: object) -> None:
    monkeypatch.setattr("wink_decl.loader.regular_files.os", FakeOs(**replaced))


def test_a_fifo_is_refused_without_being_opened(tmp_path: Path) -> None:
    fifo = tmp_path / "x.wink.yaml"
    os.mkfifo(fifo)  # opening it to read would wait for a writer forever
    done = run_python(LOAD, args=[str(fifo)], timeout=20, memory=512 * MIB)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == refused("a named pipe (FIFO)") + " True\n"


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"], ids=["zero", "null"])
def test_a_link_to_a_device_is_refused_without_being_opened(tmp_path: Path, device: str) -> None:
    link = tmp_path / "x.wink.yaml"
    link.symlink_to(device)  # /dev/zero never ends: reading it would fill the memory
    done = run_python(LOAD, args=[str(link)], timeout=20, memory=512 * MIB)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == refused("a character device") + " True\n"


def test_a_folder_and_a_socket_are_refused(tmp_path: Path) -> None:
    folder = tmp_path / "folder.wink.yaml"
    folder.mkdir()
    result = load_file(folder, display_path="folder.wink.yaml")
    assert render_text(result.diagnostics) == refused("a folder", "folder.wink.yaml")
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(tmp_path / "s.wink.toml"))
        result = load_file(tmp_path / "s.wink.toml", display_path="s.wink.toml")
    assert render_text(result.diagnostics) == refused("a socket", "s.wink.toml")


def test_a_link_to_a_prompt_file_is_read(tmp_path: Path) -> None:
    (tmp_path / "real.wink.yaml").write_text("key: a\n")
    (tmp_path / "link.wink.yaml").symlink_to(tmp_path / "real.wink.yaml")
    result = load_file(tmp_path / "link.wink.yaml")
    assert result.file is not None
    assert result.file.data == {"key": "a"}
    assert result.text == "key: a\n"


def test_a_fifo_swapped_in_after_the_check_is_refused_without_blocking(tmp_path: Path) -> None:
    script = """\
import os, sys
from wink_decl.loader import regular_files
regular = os.stat(sys.argv[2])
real_lstat = os.lstat
def swapped(path, *args, **kwargs):
    # The check sees a regular file; by the time of the open, a FIFO is there.
    return regular if os.fspath(path) == sys.argv[1] else real_lstat(path, *args, **kwargs)
regular_files.os.lstat = swapped
try:
    regular_files.read_capped(sys.argv[1], 100)
except regular_files.NotAFileError as error:
    print(error.kind)
"""
    os.mkfifo(tmp_path / "x.wink.yaml")
    (tmp_path / "regular").write_text("key: a\n")
    args = [str(tmp_path / "x.wink.yaml"), str(tmp_path / "regular")]
    done = run_python(script, args=args, timeout=20, memory=512 * MIB)
    assert (done.returncode, done.stderr, done.stdout) == (0, "", "a named pipe (FIFO)\n")


def test_a_device_swapped_in_after_the_check_is_refused_once_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "regular").write_text("key: a\n")
    regular = (tmp_path / "regular").stat()

    def checked(_path: object) -> os.stat_result:
        return regular  # the check saw a file; the open finds a device (opening it is harmless)

    patch_os(monkeypatch, lstat=checked)
    with pytest.raises(NotAFileError) as raised:
        read_bytes("/dev/null")
    assert raised.value.kind == "a character device"


def test_a_link_swapped_in_for_a_file_after_the_check_is_not_followed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "elsewhere.wink.yaml").write_text("key: a\n")
    link = tmp_path / "x.wink.yaml"
    link.symlink_to(tmp_path / "elsewhere.wink.yaml")
    regular = link.stat()

    def checked(_path: object) -> os.stat_result:
        return regular  # the check saw a file; the open finds a link

    patch_os(monkeypatch, lstat=checked)
    result = load_file(link, display_path="x.wink.yaml")
    assert [d.message for d in result.diagnostics] == [
        "This file cannot be read: too many levels of symbolic links."
    ]


def test_a_descriptor_that_cannot_be_inspected_is_closed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "x.wink.yaml").write_text("key: a\n")
    closed: list[int] = []
    real_close = os.close

    def fail(_descriptor: int) -> os.stat_result:
        raise OSError(errno.EIO, "Input/output error")

    def close(descriptor: int) -> None:
        closed.append(descriptor)
        real_close(descriptor)

    patch_os(monkeypatch, fstat=fail, close=close)
    result = load_file(tmp_path / "x.wink.yaml", display_path="x.wink.yaml")
    assert [d.message for d in result.diagnostics] == [
        "This file cannot be read: input/output error."
    ]
    assert len(closed) == 1


def grow_while_read(
    monkeypatch: pytest.MonkeyPatch, path: Path, more: bytes, *, then_size: int | None = None
) -> None:
    """The first read finds ``more`` appended since the file was opened.

    With ``then_size``, each later read leaves the file cut back to that size: what it says of
    its size after the reading is no more than the limit.
    """
    real_read = os.read
    grown: list[bool] = []

    def read(descriptor: int, size: int) -> bytes:
        if not grown:
            grown.append(True)
            with path.open("ab") as stream:
                stream.write(more)
            return real_read(descriptor, size)
        content = real_read(descriptor, size)
        if then_size is not None:
            os.truncate(path, then_size)
        return content

    patch_os(monkeypatch, read=read)


def test_a_file_that_grows_past_the_limit_while_read_says_its_size_now(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "x.wink.yaml"
    path.write_bytes(b"key: a\n")
    grow_while_read(monkeypatch, path, b"#" * 60 + b"\n")
    result = load_file(path, display_path="x.wink.yaml", limits=Limits(max_bytes=20))
    assert render_text(result.diagnostics) == (
        "x.wink.yaml:1:1: error: This file is 68 bytes long, more than the limit of 20 bytes.\n"
        "  expected: a file of at most 20 bytes\n"
        "  hint: split the prompt into several smaller files, or allow more with "
        "--limit max_bytes=80"
    )


def test_a_file_that_does_not_say_its_size_is_longer_than_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "x.wink.yaml"
    path.write_bytes(b"key: a\n")
    grow_while_read(monkeypatch, path, b"#" * 60 + b"\n", then_size=7)
    with pytest.raises(FileTooLargeError) as raised:
        read_bytes(path, Limits(max_bytes=20))
    assert (raised.value.size, raised.value.limit) == (None, 20)
    problem = read_problem(raised.value, "x.wink.yaml")
    assert problem.message == "This file is longer than the limit of 20 bytes."


def test_a_file_that_grows_within_the_limit_is_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "x.wink.yaml"
    path.write_bytes(b"key: a\n")
    grow_while_read(monkeypatch, path, b"# more\n")
    assert read_stamped(path, Limits(max_bytes=100))[0] == b"key: a\n# more\n"


def test_an_empty_looking_file_is_read_in_steps(tmp_path: Path) -> None:
    status = Path("/proc/self/status")  # a regular file that says it is empty
    if not status.is_file() or status.stat().st_size:
        pytest.skip("needs a /proc file that reports no size")
    (tmp_path / "x.wink.yaml").symlink_to(status)
    content = read_bytes(tmp_path / "x.wink.yaml")
    assert content.startswith(b"Name:")
    with pytest.raises(FileTooLargeError) as raised:
        read_bytes(tmp_path / "x.wink.yaml", Limits(max_bytes=10))
    assert raised.value.size is None


def test_errors_are_os_errors_with_their_reason(tmp_path: Path) -> None:
    folder = NotAFileError(tmp_path, stat.S_IFDIR)
    assert (folder.errno, folder.kind, folder.filename) == (errno.EISDIR, "a folder", str(tmp_path))
    odd = NotAFileError("x", 0)  # no kind of file this platform has
    assert (odd.errno, odd.kind, odd.strerror) == (
        errno.EINVAL,
        "not a regular file",
        "it is not a regular file, not a regular file",
    )
    large = FileTooLargeError("x", 30, 20)
    assert isinstance(large, OSError)
    assert (large.errno, large.size, large.limit) == (errno.EFBIG, 30, 20)


def test_read_problem_words_each_error() -> None:
    too_large = read_problem(
        FileTooLargeError("p.json", 3_000_000, 1_000_000), "p.json", kind=PARAMS_FILE
    )
    assert too_large == Diagnostic(
        message="This file is 3,000,000 bytes long, more than the limit of 1,000,000 bytes.",
        span=too_large.span,
        code="too-large",
        expected="a file of at most 1,000,000 bytes",
        hint="keep only the values this prompt needs in the file, or allow more with "
        "--limit max_params_file_bytes=4000000",
    )
    missing = read_problem(FileNotFoundError(errno.ENOENT, "No such file or directory"), "p")
    assert (missing.code, missing.message) == (
        "unreadable",
        "This file cannot be read: no such file or directory.",
    )


def test_the_text_to_quote_is_there_when_a_file_does_not_load() -> None:
    broken = load_text(b"\xef\xbb\xbfkey: caf\xe9\n", path="p", format="yaml")
    assert broken.file is None
    assert broken.text == "key: caf\ufffd\n"  # as the positions count: no mark, U+FFFD
    too_large = load_text(b"key: review\n", path="p", format="yaml", limits=Limits(max_bytes=4))
    assert too_large.text == "key:"  # no more than the limit
    text = load_text("key: \udcff\n" * 3, path="p", format="yaml", limits=Limits(max_bytes=9))
    assert text.text == "key: \udcff\nke"
    mistaken = load_text("key: [\n", path="p", format="yaml")
    assert mistaken.text == "key: [\n"


def _recorded_reads(
    monkeypatch: pytest.MonkeyPatch, first: Callable[[], None] | None = None
) -> list[int]:
    """The sizes the reader asks ``os.read`` for from now on; ``first`` runs before the first."""
    real_read = os.read
    asked: list[int] = []

    def read(descriptor: int, size: int) -> bytes:
        if not asked and first is not None:
            first()
        asked.append(size)
        return real_read(descriptor, size)

    patch_os(monkeypatch, read=read)
    return asked


def test_a_file_that_holds_what_it_says_is_read_by_one_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first read asks for one byte more than the size; finding no more, it is the last."""
    path = tmp_path / "x.wink.yaml"
    path.write_bytes(b"key: a\n")
    asked = _recorded_reads(monkeypatch)
    assert read_bytes(path, Limits(max_bytes=100)) == b"key: a\n"
    assert asked == [8]


def test_a_file_that_shrank_since_it_said_its_size_is_read_to_its_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "x.wink.yaml"
    path.write_bytes(b"key: a\n# gone\n")
    asked = _recorded_reads(monkeypatch, first=lambda: os.truncate(path, 7))
    assert read_bytes(path, Limits(max_bytes=100)) == b"key: a\n"
    assert asked == [15, 94]  # then up to the limit and one byte more, finding the end


def test_a_file_emptied_since_it_said_its_size_is_read_as_empty(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "x.wink.yaml"
    path.write_bytes(b"key: a\n")
    asked = _recorded_reads(monkeypatch, first=lambda: os.truncate(path, 0))
    assert read_bytes(path, Limits(max_bytes=100)) == b""
    assert asked == [8]  # the end found by the first read


def _read_in_steps(descriptor: int, size: int, wanted: int) -> bytes:
    """``read_up_to`` as it read before its first read was set apart: the reference."""
    chunks: list[bytes] = []
    total = 0
    step = size + 1 if size > 0 else 65_536
    while total < wanted:
        chunk = os.read(descriptor, min(step, wanted - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
        if total == size:
            break
        step = 65_536
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


@settings(max_examples=200, deadline=None)  # a busy 2-core CI machine is not what this measures
@given(
    held=st.integers(min_value=0, max_value=300),
    said=st.integers(min_value=0, max_value=300),
    wanted=st.integers(min_value=1, max_value=300),
)
def test_the_first_read_set_apart_reads_what_the_steps_read(
    held: int, said: int, wanted: int
) -> None:
    """Whatever a file holds and says it holds, the bytes read and the reads asked are alike."""
    data = bytes(range(256)) * 2

    def read_with(reader: Callable[[int, int, int], bytes]) -> tuple[bytes, bytes]:
        reading, writing = os.pipe()
        try:
            os.write(writing, data[:held])
            os.close(writing)
            found = reader(reading, said, wanted)
            return found, os.read(reading, 1_000)  # what is left unread
        finally:
            os.close(reading)

    assert read_with(regular_files.read_up_to) == read_with(_read_in_steps)
