# pyright: reportPrivateUsage=false
import os
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wink_decl.runtime.filesystem as filesystem_package
from wink_decl.errors import WinkDeclError
from wink_decl.runtime.filesystem import (
    FileNotFoundInFilesystemError,
    Filesystem,
    FilesystemError,
    FilesystemSnapshot,
    HostFilesystem,
    InMemoryFilesystem,
    PathOutsideRootError,
)
from wink_decl.runtime.filesystem._journal import UNCHANGED, Journal
from wink_decl.runtime.filesystem._spill import Spill

Make = Callable[[Mapping[str, str]], Filesystem]


def host_filesystem(root: Path, files: Mapping[str, str]) -> HostFilesystem:
    root.mkdir(exist_ok=True)
    for path, text in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return HostFilesystem(root)


@pytest.fixture(params=["memory", "host"], ids=["memory", "host"])
def make(request: pytest.FixtureRequest, tmp_path: Path) -> Make:
    if request.param == "memory":
        return InMemoryFilesystem
    return lambda files: host_filesystem(tmp_path / "root", files)


@pytest.fixture
def fs(make: Make) -> Filesystem:
    return make({"notes.txt": "hello", "src/main.py": "print()\n", "src/lib/util.py": "x = 1\n"})


def raised(error_type: type[Exception], action: Callable[[], object]) -> str:
    """The message of the error ``action`` raises, which must be exactly ``error_type``."""
    with pytest.raises(error_type) as info:
        action()
    assert type(info.value) is error_type
    return str(info.value)


def contents(fs: Filesystem) -> tuple[dict[str, str], set[str]]:
    """Every file (with its text) and every folder, found through the public API only."""
    files: dict[str, str] = {}
    folders: set[str] = set()

    def walk(folder: str) -> None:
        for name in fs.list_dir(folder):
            path = name if folder == "." else f"{folder}/{name}"
            if fs.is_file(path):
                files[path] = fs.read_text(path)
            else:
                folders.add(path)
                walk(path)

    walk(".")
    return files, folders


# --- the package ---------------------------------------------------------------------------


def test_all_is_sorted_and_complete() -> None:
    assert filesystem_package.__all__ == [
        "FileNotFoundInFilesystemError",
        "Filesystem",
        "FilesystemError",
        "FilesystemSnapshot",
        "HostFilesystem",
        "InMemoryFilesystem",
        "PathOutsideRootError",
        "ReadOnlyFilesystem",
    ]


def test_errors_form_a_tree_under_wink_decl_error() -> None:
    error = PathOutsideRootError("Path '..' is outside the filesystem root.", path="..")
    assert isinstance(error, FilesystemError)
    assert isinstance(error, WinkDeclError)
    assert issubclass(FileNotFoundInFilesystemError, FilesystemError)
    assert error.message == str(error) == "Path '..' is outside the filesystem root."
    assert error.path == ".."
    assert FilesystemError("Path must not be empty.").path == ""


def test_both_implementations_satisfy_the_protocol(fs: Filesystem) -> None:
    assert isinstance(fs, Filesystem)


def test_root_label_names_memory_or_the_real_root(fs: Filesystem, tmp_path: Path) -> None:
    expected = "memory" if isinstance(fs, InMemoryFilesystem) else str(tmp_path.resolve() / "root")
    assert fs.root_label == expected


# --- paths ---------------------------------------------------------------------------------

NORMALISED = [
    ("notes.txt", "notes.txt"),
    ("./notes.txt", "notes.txt"),
    ("a/./b/../c.txt", "a/c.txt"),
    ("a//b/", "a/b"),
    (".", "."),
    ("./", "."),
    ("a/..", "."),
    ("a/b/../../c", "c"),
    ("..hidden/x", "..hidden/x"),
    ("...", "..."),
    ("missing/../new.txt", "new.txt"),
]


@pytest.mark.parametrize(
    ("path", "expected"),
    NORMALISED,
    ids=[
        "plain",
        "leading-dot",
        "dot-and-dotdot",
        "double-and-trailing-slash",
        "root",
        "root-with-slash",
        "back-to-root",
        "up-twice",
        "dotdot-prefixed-name",
        "three-dots-name",
        "through-missing-folder",
    ],
)
def test_normalise(fs: Filesystem, path: str, expected: str) -> None:
    assert fs.normalise(path) == expected


REFUSED = [
    ("", FilesystemError, "Path must not be empty."),
    (
        "/etc/passwd",
        PathOutsideRootError,
        "Path '/etc/passwd' must be relative to the filesystem root.",
    ),
    ("../etc/passwd", PathOutsideRootError, "Path '../etc/passwd' is outside the filesystem root."),
    ("..", PathOutsideRootError, "Path '..' is outside the filesystem root."),
    ("a/../../x", PathOutsideRootError, "Path 'a/../../x' is outside the filesystem root."),
    ("a\0b", FilesystemError, "Path 'a\\x00b' must not contain a NUL character."),
]


@pytest.mark.parametrize(
    ("path", "error_type", "message"),
    REFUSED,
    ids=["empty", "absolute", "dotdot", "dotdot-alone", "climbs-after-descending", "nul"],
)
def test_every_operation_refuses_bad_paths(
    fs: Filesystem, path: str, error_type: type[Exception], message: str
) -> None:
    actions: list[Callable[[], object]] = [
        lambda: fs.normalise(path),
        lambda: fs.exists(path),
        lambda: fs.is_file(path),
        lambda: fs.read_text(path),
        lambda: fs.write_text(path, "x"),
        lambda: fs.delete(path),
        lambda: fs.list_dir(path),
    ]
    for action in actions:
        assert raised(error_type, action) == message


def test_memory_treats_backslashes_as_ordinary_characters() -> None:
    fs = InMemoryFilesystem({"a\\b.txt": "x"})
    assert fs.normalise("a\\..\\b") == "a\\..\\b"
    assert fs.list_dir() == ("a\\b.txt",)
    assert fs.read_text("a\\b.txt") == "x"


def test_host_refuses_backslashes(tmp_path: Path) -> None:
    fs = HostFilesystem(tmp_path)
    message = "Path 'a\\b.txt' must separate folders with '/', not '\\'."
    assert raised(FilesystemError, lambda: fs.write_text("a\\b.txt", "x")) == message
    assert raised(FilesystemError, lambda: fs.normalise("a\\b.txt")) == message
    assert list(tmp_path.iterdir()) == []


# --- host confinement: the root and symlinks -----------------------------------------------


def test_host_root_must_exist(tmp_path: Path) -> None:
    missing = tmp_path / "missing"
    assert (
        raised(FilesystemError, lambda: HostFilesystem(missing))
        == f"Filesystem root '{missing}' does not exist."
    )


def test_host_root_must_be_a_folder(tmp_path: Path) -> None:
    file = tmp_path / "file.txt"
    file.write_text("x", encoding="utf-8")
    assert (
        raised(FilesystemError, lambda: HostFilesystem(str(file)))
        == f"Filesystem root '{file}' is not a folder."
    )


@pytest.fixture
def linked(tmp_path: Path) -> HostFilesystem:
    """A root whose links lead outside (file, folder, dangling, upwards) and inside."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("secret", encoding="utf-8")
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    (root / "real").mkdir()
    (root / "real" / "target.txt").write_text("inside", encoding="utf-8")
    (root / "secret-link.txt").symlink_to(outside / "secret.txt")
    (root / "outside-folder").symlink_to(outside)
    (root / "dangling.txt").symlink_to(outside / "not-yet.txt")
    (root / "sub" / "up").symlink_to("../..")
    (root / "sub" / "to-root").symlink_to("..")
    (root / "alias").symlink_to("real")
    (root / "link.txt").symlink_to("real/target.txt")
    return HostFilesystem(root)


@pytest.mark.parametrize(
    "path",
    [
        "secret-link.txt",
        "outside-folder",
        "outside-folder/secret.txt",
        "outside-folder/new/file.txt",
        "dangling.txt",
        "sub/up/outside/secret.txt",
    ],
    ids=[
        "file-link",
        "folder-link",
        "through-folder-link",
        "new-file-below-link",
        "dangling",
        "up",
    ],
)
def test_host_refuses_symlinks_leading_outside(
    linked: HostFilesystem, tmp_path: Path, path: str
) -> None:
    message = f"Path '{path}' is outside the filesystem root."
    actions: list[Callable[[], object]] = [
        lambda: linked.normalise(path),
        lambda: linked.exists(path),
        lambda: linked.is_file(path),
        lambda: linked.read_text(path),
        lambda: linked.write_text(path, "pwned"),
        lambda: linked.list_dir(path),
    ]
    if "/" in path:  # a link on the way; a link at the end is deleted itself (below)
        actions.append(lambda: linked.delete(path))
    for action in actions:
        assert raised(PathOutsideRootError, action) == message
    assert sorted(p.name for p in (tmp_path / "outside").iterdir()) == ["secret.txt"]
    assert (tmp_path / "outside" / "secret.txt").read_text(encoding="utf-8") == "secret"


@pytest.mark.parametrize("path", ["secret-link.txt", "outside-folder", "dangling.txt", "link.txt"])
def test_host_delete_of_a_symlink_removes_the_link_never_its_target(
    linked: HostFilesystem, tmp_path: Path, path: str
) -> None:
    root = tmp_path / "root"
    target = (root / path).readlink()
    snapshot = linked.snapshot()
    linked.delete(path)
    assert not os.path.lexists(root / path)
    assert (tmp_path / "outside" / "secret.txt").read_text(encoding="utf-8") == "secret"
    assert (root / "real" / "target.txt").read_text(encoding="utf-8") == "inside"
    linked.restore(snapshot)
    assert (root / path).readlink() == target


def test_host_follows_symlinks_that_stay_inside(linked: HostFilesystem, tmp_path: Path) -> None:
    assert linked.read_text("alias/target.txt") == "inside"
    assert linked.read_text("sub/to-root/real/target.txt") == "inside"
    assert linked.normalise("alias/target.txt") == "alias/target.txt"
    linked.write_text("link.txt", "changed")
    assert (tmp_path / "root" / "link.txt").is_symlink()
    assert linked.read_text("real/target.txt") == "changed"


# --- reading and writing -------------------------------------------------------------------


def test_read_write_round_trip_keeps_text_exactly(fs: Filesystem) -> None:
    text = "línea 1\r\nline 2\n\u2603 \U0001f600"
    fs.write_text("notes.txt", text)
    assert fs.read_text("notes.txt") == text
    assert fs.read_text("./src/../notes.txt") == text


def test_exists_and_is_file(fs: Filesystem) -> None:
    assert [fs.exists(p) for p in ("notes.txt", "src", "src/lib", ".", "nope", "notes.txt/x")] == [
        True,
        True,
        True,
        True,
        False,
        False,
    ]
    assert [fs.is_file(p) for p in ("notes.txt", "src", ".", "nope")] == [True, False, False, False]


def test_read_refuses_missing_files_and_folders(fs: Filesystem) -> None:
    assert (
        raised(FileNotFoundInFilesystemError, lambda: fs.read_text("todo.txt"))
        == "File 'todo.txt' does not exist."
    )
    assert (
        raised(FileNotFoundInFilesystemError, lambda: fs.read_text("notes.txt/inner"))
        == "File 'notes.txt/inner' does not exist."
    )
    assert raised(FilesystemError, lambda: fs.read_text("src")) == "'src' is a directory."
    assert raised(FilesystemError, lambda: fs.read_text("./")) == "'./' is a directory."


def test_write_creates_parent_folders(fs: Filesystem) -> None:
    fs.write_text("docs/guide/intro.md", "# Intro")
    assert fs.is_file("docs/guide/intro.md")
    assert fs.exists("docs/guide")
    assert fs.list_dir("docs") == ("guide",)
    assert fs.list_dir("docs/guide") == ("intro.md",)


def test_write_refuses_folders_and_paths_through_files(fs: Filesystem) -> None:
    assert raised(FilesystemError, lambda: fs.write_text("src", "x")) == "'src' is a directory."
    assert raised(FilesystemError, lambda: fs.write_text(".", "x")) == "'.' is a directory."
    assert (
        raised(FilesystemError, lambda: fs.write_text("notes.txt/a/b.txt", "x"))
        == "Cannot write 'notes.txt/a/b.txt': 'notes.txt' is a file."
    )
    assert (
        raised(FilesystemError, lambda: fs.write_text("src/main.py/x", "x"))
        == "Cannot write 'src/main.py/x': 'src/main.py' is a file."
    )
    assert fs.read_text("notes.txt") == "hello"


def test_memory_normalises_initial_files_and_refuses_conflicts() -> None:
    fs = InMemoryFilesystem({"./a/../b.txt": "x", "c//d.txt": "y"})
    assert fs.list_dir() == ("b.txt", "c")
    assert fs.read_text("c/d.txt") == "y"
    assert InMemoryFilesystem().list_dir() == ()
    assert (
        raised(FilesystemError, lambda: InMemoryFilesystem({"a": "1", "a/b": "2"}))
        == "Cannot write 'a/b': 'a' is a file."
    )


def test_host_refuses_text_that_is_not_utf8(tmp_path: Path) -> None:
    (tmp_path / "data.bin").write_bytes(b"\xff\xfe")
    fs = HostFilesystem(tmp_path)
    assert raised(FilesystemError, lambda: fs.read_text("data.bin")) == (
        "File 'data.bin' is not UTF-8 text."
    )


@pytest.mark.parametrize("unnamed", [True, False], ids=["unnamed", "named"])
def test_host_write_is_atomic_when_the_rename_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unnamed: bool
) -> None:
    fs = host_filesystem(tmp_path, {"notes.txt": "old"})
    fs._replacer.unnamed = unnamed

    def fail(*args: object, **kwargs: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "rename", fail)
    assert raised(FilesystemError, lambda: fs.write_text("notes.txt", "new")) == (
        "Cannot write 'notes.txt': disk full."
    )
    assert raised(FilesystemError, lambda: fs.write_text("fresh.txt", "new")) == (
        "Cannot write 'fresh.txt': disk full."
    )
    monkeypatch.undo()
    assert fs.read_text("notes.txt") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_host_write_keeps_the_mode_of_an_existing_file(tmp_path: Path) -> None:
    fs = host_filesystem(tmp_path, {"run.sh": "echo"})
    (tmp_path / "run.sh").chmod(0o751)
    fs.write_text("run.sh", "echo hi")
    assert (tmp_path / "run.sh").stat().st_mode & 0o777 == 0o751


def test_host_new_files_get_the_umask_mode(tmp_path: Path) -> None:
    previous = os.umask(0o027)
    try:
        HostFilesystem(tmp_path).write_text("new.txt", "x")
    finally:
        os.umask(previous)
    assert (tmp_path / "new.txt").stat().st_mode & 0o777 == 0o640


# --- deleting and listing ------------------------------------------------------------------


def test_delete_removes_a_file(fs: Filesystem) -> None:
    fs.delete("notes.txt")
    assert not fs.exists("notes.txt")
    assert fs.list_dir() == ("src",)


def test_delete_removes_folders_it_leaves_empty(fs: Filesystem) -> None:
    fs.delete("src/lib/util.py")
    assert not fs.exists("src/lib")
    assert fs.list_dir("src") == ("main.py",)
    fs.delete("src/main.py")
    assert fs.list_dir() == ("notes.txt",)


def test_delete_refuses_missing_files_and_folders(fs: Filesystem) -> None:
    assert (
        raised(FileNotFoundInFilesystemError, lambda: fs.delete("todo.txt"))
        == "File 'todo.txt' does not exist."
    )
    assert raised(FilesystemError, lambda: fs.delete("src/lib")) == "'src/lib' is a directory."
    assert raised(FilesystemError, lambda: fs.delete(".")) == "'.' is a directory."


def test_list_dir_gives_sorted_files_and_folders(fs: Filesystem) -> None:
    fs.write_text("b.txt", "")
    fs.write_text("a/z.txt", "")
    assert fs.list_dir() == ("a", "b.txt", "notes.txt", "src")
    assert fs.list_dir(".") == fs.list_dir()
    assert fs.list_dir("src") == ("lib", "main.py")
    assert fs.list_dir("./src/lib/") == ("util.py",)


def test_list_dir_refuses_missing_folders_and_files(fs: Filesystem) -> None:
    assert (
        raised(FileNotFoundInFilesystemError, lambda: fs.list_dir("docs"))
        == "Folder 'docs' does not exist."
    )
    assert (
        raised(FileNotFoundInFilesystemError, lambda: fs.list_dir("notes.txt/x"))
        == "Folder 'notes.txt/x' does not exist."
    )
    assert raised(FilesystemError, lambda: fs.list_dir("notes.txt")) == "'notes.txt' is a file."


# --- snapshots -----------------------------------------------------------------------------


def test_restore_undoes_writes_creations_and_deletions(fs: Filesystem) -> None:
    before = contents(fs)
    snapshot = fs.snapshot()
    fs.write_text("notes.txt", "changed")
    fs.write_text("docs/guide/intro.md", "new")
    fs.delete("src/lib/util.py")
    fs.delete("src/main.py")
    fs.write_text("src", "now a file")
    fs.restore(snapshot)
    assert contents(fs) == before


def test_nested_snapshots_restore_in_any_order_back_in_time(fs: Filesystem) -> None:
    first_state = contents(fs)
    first = fs.snapshot()
    fs.write_text("notes.txt", "second")
    second_state = contents(fs)
    second = fs.snapshot()
    fs.write_text("notes.txt", "third")
    fs.write_text("extra.txt", "third")
    fs.restore(second)
    assert contents(fs) == second_state
    fs.restore(second)
    assert contents(fs) == second_state
    fs.write_text("other.txt", "branch")
    fs.restore(first)
    assert contents(fs) == first_state
    fs.restore(first)
    assert contents(fs) == first_state


@pytest.mark.parametrize(
    "steps",
    [
        [("write", "x"), ("delete", "x"), ("write", "x/y")],
        [("delete", "src/main.py"), ("delete", "src/lib/util.py"), ("write", "src")],
        [("write", "notes.txt"), ("delete", "notes.txt"), ("write", "notes.txt/a")],
    ],
    ids=["file-then-folder", "folder-then-file", "replaced-file-then-folder"],
)
def test_restore_puts_back_a_path_that_changed_kind_several_times(
    fs: Filesystem, steps: list[tuple[str, str]]
) -> None:
    """Only a path's first change after a snapshot keeps its old state: undoing it must put
    that state back over whatever the later changes left (a folder where a file was)."""
    before = contents(fs)
    snapshot = fs.snapshot()
    for action, path in steps:
        if action == "write":
            fs.write_text(path, "new")
        else:
            fs.delete(path)
    fs.restore(snapshot)
    assert contents(fs) == before


def test_snapshots_of_the_same_moment_stay_valid_together(fs: Filesystem) -> None:
    first = fs.snapshot()
    twin = fs.snapshot()
    fs.write_text("notes.txt", "changed")
    fs.restore(first)
    fs.write_text("notes.txt", "again")
    fs.restore(twin)
    assert fs.read_text("notes.txt") == "hello"


def test_restoring_a_snapshot_that_was_rolled_back_is_refused(fs: Filesystem) -> None:
    first = fs.snapshot()
    fs.write_text("notes.txt", "second")
    second = fs.snapshot()
    fs.restore(first)
    fs.write_text("notes.txt", "branch")
    assert raised(ValueError, lambda: fs.restore(second)) == (
        "Snapshot is no longer valid: the filesystem was restored to an earlier snapshot."
    )
    assert fs.read_text("notes.txt") == "branch"


def test_foreign_snapshots_are_refused(make: Make) -> None:
    one = make({"a.txt": "1"})
    other = InMemoryFilesystem({"a.txt": "1"})
    snapshot = other.snapshot()
    assert raised(ValueError, lambda: one.restore(snapshot)) == (
        "Snapshot was taken from a different filesystem."
    )


def test_snapshot_is_opaque_and_frozen(fs: Filesystem) -> None:
    snapshot = fs.snapshot()
    assert isinstance(snapshot, FilesystemSnapshot)
    assert [f.name for f in fields(snapshot)] == ["journal", "position"]
    assert repr(snapshot) == f"FilesystemSnapshot(position={snapshot.position})"
    with pytest.raises(AttributeError):
        snapshot.position = 0  # pyright: ignore[reportAttributeAccessIssue]


def test_snapshot_is_a_position_whatever_the_file_sizes(fs: Filesystem) -> None:
    fs.write_text("big.txt", "x" * 2_000_000)
    start = fs.snapshot().position
    assert fs.snapshot().position == start  # taking a snapshot records nothing
    fs.write_text("big.txt", "y" * 2_000_000)
    assert fs.snapshot().position == start + 1  # one entry per change, not per byte
    fs.delete("notes.txt")
    assert fs.snapshot().position == start + 2


def test_host_snapshot_reads_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fs = host_filesystem(tmp_path, {"big.txt": "x" * 2_000_000})

    def refuse(self: Spill, source: int) -> tuple[int, int]:
        raise AssertionError("saved")

    monkeypatch.setattr(Spill, "save", refuse)
    fs.write_text("big.txt", "no snapshot is live, so the old text is not read")
    snapshot = fs.snapshot()
    assert raised(AssertionError, lambda: fs.write_text("big.txt", "now it is")) == "saved"
    monkeypatch.undo()
    fs.restore(snapshot)
    assert fs.read_text("big.txt") == "no snapshot is live, so the old text is not read"


def test_host_restore_keeps_what_others_put_in_new_folders(tmp_path: Path) -> None:
    fs = HostFilesystem(tmp_path)
    snapshot = fs.snapshot()
    fs.write_text("new/file.txt", "mine")
    (tmp_path / "new" / "theirs.txt").write_text("theirs", encoding="utf-8")
    fs.restore(snapshot)
    assert fs.list_dir("new") == ("theirs.txt",)


def test_host_restore_tolerates_files_removed_behind_its_back(tmp_path: Path) -> None:
    fs = host_filesystem(tmp_path, {"keep.txt": "keep"})
    snapshot = fs.snapshot()
    fs.write_text("a/new.txt", "mine")
    fs.delete("keep.txt")
    (tmp_path / "a" / "new.txt").unlink()
    fs.restore(snapshot)
    assert contents(fs) == ({"keep.txt": "keep"}, set())


# --- the journal ---------------------------------------------------------------------------


def test_journal_keeps_entries_only_while_a_snapshot_needs_them() -> None:
    journal: Journal[str | None] = Journal()
    journal.record("a", None)
    assert (len(journal), journal.position, journal.needs("a")) == (0, 1, False)
    first = journal.snapshot()
    assert journal.needs("a")
    journal.record("a", "1")
    second = journal.snapshot()
    journal.record("a", "2")
    assert (len(journal), journal.position, journal.needs("a")) == (2, 3, False)
    del first
    journal.record("b", "3")  # the oldest live snapshot is now `second`: drop what precedes it
    assert (len(journal), journal.position) == (2, 4)
    undone: list[tuple[str, str | None]] = []
    journal.rollback(second, lambda key, previous: undone.append((key, previous)))
    assert undone == [("b", "3"), ("a", "2")]
    assert journal.needs("a")
    del second
    journal.record("a", "4")
    assert (len(journal), journal.position, journal.needs("a")) == (0, 3, False)


def test_journal_records_a_key_once_per_snapshot() -> None:
    """Every live snapshot lies before the first change of a key after the newest one."""
    journal: Journal[str] = Journal()
    first = journal.snapshot()
    for text in ["v0", "v1", "v2"]:
        journal.record("a", text)
    second = journal.snapshot()
    journal.record("a", "v3")
    journal.record("a", UNCHANGED)  # what a caller passes once needs() said no
    assert journal._entries == [
        ("a", "v0"),
        ("a", UNCHANGED),
        ("a", UNCHANGED),
        ("a", "v3"),
        ("a", UNCHANGED),
    ]
    undone: list[str] = []
    journal.rollback(second, lambda _key, previous: undone.append(previous))
    assert undone == ["v3"]
    journal.rollback(first, lambda _key, previous: undone.append(previous))
    assert undone == ["v3", "v0"]


def test_journal_keeps_an_entry_whose_undo_failed() -> None:
    journal: Journal[str | None] = Journal()
    snapshot = journal.snapshot()
    journal.record("a", None)

    def fail(key: str, previous: str | None) -> None:
        raise OSError("busy")

    assert raised(OSError, lambda: journal.rollback(snapshot, fail)) == "busy"
    assert len(journal) == 1
    journal.rollback(snapshot, lambda _key, _previous: None)
    assert len(journal) == 0


# --- a property: any sequence of changes and restores matches a dict -----------------------

PATHS = ["a", "a/b", "a/c", "d/e/f", "g"]


@dataclass(frozen=True)
class Write:
    path: str
    text: str


@dataclass(frozen=True)
class Delete:
    path: str


@dataclass(frozen=True)
class Snap:
    pass


@dataclass(frozen=True)
class Restore:
    index: int


Step = Write | Delete | Snap | Restore

STEPS = st.lists(
    st.one_of(
        st.builds(Write, st.sampled_from(PATHS), st.text(max_size=3)),
        st.builds(Delete, st.sampled_from(PATHS)),
        st.builds(Snap),
        st.builds(Restore, st.integers(min_value=0, max_value=7)),
    ),
    max_size=30,
)


@dataclass
class Taken:
    snapshot: FilesystemSnapshot
    files: dict[str, str]
    position: int
    valid: bool = True


def expected_write_error(files: Mapping[str, str], path: str) -> str | None:
    if any(other.startswith(path + "/") for other in files):
        return f"'{path}' is a directory."
    parts = path.split("/")
    for end in range(1, len(parts)):
        folder = "/".join(parts[:end])
        if folder in files:
            return f"Cannot write '{path}': '{folder}' is a file."
    return None


def expected_delete_error(
    files: Mapping[str, str], path: str
) -> tuple[type[FilesystemError], str] | None:
    if path in files:
        return None
    if any(other.startswith(path + "/") for other in files):
        return FilesystemError, f"'{path}' is a directory."
    return FileNotFoundInFilesystemError, f"File '{path}' does not exist."


def implied_folders(files: Mapping[str, str]) -> set[str]:
    return {"/".join(p.split("/")[:end]) for p in files for end in range(1, p.count("/") + 1)}


@dataclass
class Model:
    files: dict[str, str] = field(default_factory=dict[str, str])
    position: int = 0
    taken: list[Taken] = field(default_factory=list[Taken])


def write(fs: Filesystem, model: Model, step: Write) -> None:
    error = expected_write_error(model.files, step.path)
    if error is not None:
        assert raised(FilesystemError, lambda: fs.write_text(step.path, step.text)) == error
        return
    fs.write_text(step.path, step.text)
    model.files[step.path] = step.text
    model.position += 1


def delete(fs: Filesystem, model: Model, step: Delete) -> None:
    error = expected_delete_error(model.files, step.path)
    if error is not None:
        error_type, message = error
        assert raised(error_type, lambda: fs.delete(step.path)) == message
        return
    fs.delete(step.path)
    del model.files[step.path]
    model.position += 1


def restore(fs: Filesystem, model: Model, step: Restore) -> None:
    if not model.taken:
        return
    target = model.taken[step.index % len(model.taken)]
    if not target.valid:
        assert raised(ValueError, lambda: fs.restore(target.snapshot)) == (
            "Snapshot is no longer valid: the filesystem was restored to an earlier snapshot."
        )
        return
    fs.restore(target.snapshot)
    model.files, model.position = dict(target.files), target.position
    for other in model.taken:
        other.valid = other.valid and other.position <= target.position


def check_against_model(fs: Filesystem, steps: list[Step]) -> None:
    model = Model()
    for step in steps:
        if isinstance(step, Write):
            write(fs, model, step)
        elif isinstance(step, Delete):
            delete(fs, model, step)
        elif isinstance(step, Snap):
            model.taken.append(Taken(fs.snapshot(), dict(model.files), model.position))
        else:
            restore(fs, model, step)
        assert contents(fs) == (model.files, implied_folders(model.files))


@settings(max_examples=50, deadline=None)
@given(steps=STEPS)
def test_memory_matches_a_dict_model(steps: list[Step]) -> None:
    check_against_model(InMemoryFilesystem(), steps)


@settings(max_examples=50, deadline=None)
@given(steps=STEPS)
def test_host_matches_a_dict_model(steps: list[Step]) -> None:
    with tempfile.TemporaryDirectory() as root:
        check_against_model(HostFilesystem(root), steps)


# --- read-only -----------------------------------------------------------------------------------


def test_a_read_only_filesystem_reads_and_refuses_every_change() -> None:
    inner = InMemoryFilesystem({"notes/a.txt": "A"})
    guarded = filesystem_package.ReadOnlyFilesystem(inner)
    assert isinstance(guarded, Filesystem)
    assert guarded.root_label == "memory (read-only)"
    assert (
        guarded.normalise("notes/./a.txt"),
        guarded.exists("notes"),
        guarded.is_file("notes"),
    ) == (
        "notes/a.txt",
        True,
        False,
    )
    assert (guarded.read_text("notes/a.txt"), guarded.list_dir("notes")) == ("A", ("a.txt",))
    with pytest.raises(FilesystemError) as written:
        guarded.write_text("notes/../b.txt", "B")
    assert (str(written.value), written.value.path) == (
        "'b.txt' cannot be written: the filesystem is read-only.",
        "b.txt",
    )
    with pytest.raises(
        FilesystemError, match=r"^'notes/a\.txt' cannot be deleted: the filesystem is read-only\.$"
    ):
        guarded.delete("notes/a.txt")
    snapshot = guarded.snapshot()
    inner.write_text("c.txt", "C")
    guarded.restore(snapshot)
    assert inner.list_dir() == ("notes",)
