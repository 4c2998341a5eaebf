"""HostFilesystem snapshots: restore puts back contents, modes and links exactly, and the
journal keeps one old copy per path and snapshot, on disk, whatever the number of writes."""

# pyright: reportPrivateUsage=false

from __future__ import annotations

import json
import os
import shutil
import stat
import textwrap
from pathlib import Path

import pytest
from concurrency import MIB, run_python

from wink_decl.runtime.filesystem import FilesystemError, HostFilesystem
from wink_decl.runtime.filesystem._spill import Spill

REPOSITORY = Path(__file__).resolve().parents[2]


def mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "root"
    (folder / "src" / "lib").mkdir(parents=True)
    (folder / "run.sh").write_text("echo", encoding="utf-8")
    (folder / "run.sh").chmod(0o754)
    (folder / "src" / "lib" / "util.py").write_text("x = 1\n", encoding="utf-8")
    (folder / "src" / "lib" / "util.py").chmod(0o600)
    (folder / "src" / "lib").chmod(0o750)
    (folder / "link").symlink_to("run.sh")
    return folder


def test_restore_puts_back_modes_of_files_and_of_the_folders_a_delete_removed(root: Path) -> None:
    fs = HostFilesystem(root)
    snapshot = fs.snapshot()
    fs.write_text("run.sh", "changed")
    (root / "run.sh").chmod(0o600)  # by someone else, after our write: put back all the same
    fs.delete("src/lib/util.py")
    assert not (root / "src").exists()
    fs.restore(snapshot)
    assert (root / "run.sh").read_text(encoding="utf-8") == "echo"
    assert (mode(root / "run.sh"), mode(root / "src/lib/util.py")) == (0o754, 0o600)
    assert (mode(root / "src/lib"), mode(root / "src")) == (0o750, 0o755)


def test_restore_puts_back_a_deleted_symlink_and_what_took_its_place(root: Path) -> None:
    fs = HostFilesystem(root)
    snapshot = fs.snapshot()
    fs.delete("link")
    fs.write_text("link/inside.txt", "a folder where the link was")
    fs.restore(snapshot)
    assert (root / "link").readlink() == Path("run.sh")
    fs.delete("link")
    fs.write_text("link", "a file where the link was")
    fs.restore(snapshot)
    assert (root / "link").readlink() == Path("run.sh")


def test_restore_puts_a_folder_back_over_a_file_and_fixes_its_mode(root: Path) -> None:
    fs = HostFilesystem(root)
    snapshot = fs.snapshot()
    fs.delete("src/lib/util.py")
    fs.write_text("src/lib", "a file where the folder was")
    fs.restore(snapshot)
    assert (mode(root / "src/lib"), fs.read_text("src/lib/util.py")) == (0o750, "x = 1\n")
    fs.delete("src/lib/util.py")
    fs.write_text("src/lib/other.py", "the folder again, with the umask's mode")
    fs.restore(snapshot)
    assert (mode(root / "src/lib"), fs.list_dir("src/lib")) == (0o750, ("util.py",))


def test_a_restore_that_cannot_finish_can_be_retried(root: Path) -> None:
    fs = HostFilesystem(root)
    snapshot = fs.snapshot()
    fs.delete("run.sh")
    (root / "run.sh").mkdir()
    (root / "run.sh" / "theirs.txt").write_text("theirs", encoding="utf-8")
    with pytest.raises(FilesystemError, match=r"^Cannot restore 'run\.sh': Directory not empty\.$"):
        fs.restore(snapshot)
    (root / "run.sh" / "theirs.txt").unlink()
    fs.restore(snapshot)
    assert (root / "run.sh").read_text(encoding="utf-8") == "echo"


def test_restore_walks_real_folders_only(root: Path, tmp_path: Path) -> None:
    """The journal's paths are real ones: a folder swapped for a symlink since is not entered."""
    fs = HostFilesystem(root)
    snapshot = fs.snapshot()
    fs.write_text("src/lib/util.py", "changed")
    (root / "src" / "lib").rename(root / "lib-moved")
    (tmp_path / "outside").mkdir()
    (root / "src" / "lib").symlink_to(tmp_path / "outside")
    with pytest.raises(FilesystemError, match=r"^Cannot restore 'src/lib/util\.py': "):
        fs.restore(snapshot)
    assert list((tmp_path / "outside").iterdir()) == []


def test_restore_of_a_file_whose_folder_is_gone_has_nothing_to_remove(root: Path) -> None:
    fs = HostFilesystem(root)
    snapshot = fs.snapshot()
    fs.write_text("new/deeper/file.txt", "mine")
    (root / "new" / "deeper" / "file.txt").unlink()
    (root / "new" / "deeper").rmdir()
    (root / "new").rmdir()
    fs.restore(snapshot)
    assert sorted(p.name for p in root.iterdir()) == ["link", "run.sh", "src"]


def test_old_contents_go_to_the_spill_file_once_and_are_dropped_with_the_snapshot(
    root: Path,
) -> None:
    fs = HostFilesystem(root)
    fs.write_text("big.txt", "a" * MIB)
    snapshot = fs.snapshot()
    for n in range(10):
        fs.write_text("big.txt", str(n) * MIB)
    assert fs._spill.size == MIB
    fs.restore(snapshot)
    assert (fs.read_text("big.txt"), fs._spill.size) == ("a" * MIB, 0)  # no entry needs it
    fs.write_text("big.txt", "b")
    assert fs._spill.size == MIB
    del snapshot
    fs.write_text("big.txt", "c")  # no snapshot is live: the journal and its file empty
    assert (len(fs._journal), fs._spill.size) == (0, 0)


def test_a_spill_can_be_closed_and_used_again(tmp_path: Path) -> None:
    spill = Spill()
    spill.clear()
    spill.close()
    (tmp_path / "f").write_bytes(b"x" * 3_000_000)
    descriptor = os.open(tmp_path / "f", os.O_RDONLY)
    try:
        assert spill.save(descriptor) == (0, 3_000_000)
    finally:
        os.close(descriptor)
    spill.close()
    assert spill.size == 0


def test_a_50_mb_file_written_20_times_under_one_snapshot_keeps_memory_flat() -> None:
    """Before, every write kept the old text in memory: 1,000 MiB held here. The child's
    address space is capped, so such a journal fails with MemoryError."""
    script = textwrap.dedent(
        """
        import gc, json, tempfile, tracemalloc
        from wink_decl.runtime.filesystem import HostFilesystem
        MIB = 1 << 20
        with tempfile.TemporaryDirectory() as root:
            fs = HostFilesystem(root)
            fs.write_text("big.txt", "a" * (50 * MIB))
            texts = ["b" * (50 * MIB), "c" * (50 * MIB)]
            tracemalloc.start()
            snapshot = fs.snapshot()
            for n in range(20):
                fs.write_text("big.txt", texts[n % 2])
            gc.collect()
            held, peak = tracemalloc.get_traced_memory()
            spill = fs._spill.size
            fs.restore(snapshot)
            with open(root + "/big.txt", encoding="utf-8") as stream:
                restored = stream.read() == "a" * (50 * MIB)
            print(json.dumps({"held": held, "peak": peak, "spill": spill,
                              "restored": restored}))
        """
    )
    done = run_python(script, cwd=REPOSITORY, timeout=120, memory=600 * MIB)
    assert done.returncode == 0, done.stderr
    measured = json.loads(done.stdout)
    assert measured["restored"]
    assert measured["spill"] == 50 * MIB  # one old version on disk, not twenty
    assert measured["held"] < MIB  # nothing of it in memory
    assert measured["peak"] < 60 * MIB  # one encoded text at a time


def test_restore_makes_again_the_folders_removed_behind_its_back(root: Path) -> None:
    fs = HostFilesystem(root)
    snapshot = fs.snapshot()
    fs.write_text("src/lib/util.py", "changed")
    shutil.rmtree(root / "src")
    fs.restore(snapshot)
    assert fs.read_text("src/lib/util.py") == "x = 1\n"
    assert mode(root / "src/lib/util.py") == 0o600


def test_a_folder_made_by_someone_else_meanwhile_is_used_and_kept(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fs = HostFilesystem(root)
    snapshot = fs.snapshot()
    real_mkdir = os.mkdir

    def beaten(name: str, *args: object, **kwargs: int) -> None:
        real_mkdir(name, *args, **kwargs)  # pyright: ignore[reportArgumentType]  # theirs
        raise FileExistsError(17, "File exists")

    monkeypatch.setattr(os, "mkdir", beaten)
    fs.write_text("theirs/mine.txt", "mine")
    monkeypatch.undo()
    fs.restore(snapshot)
    assert fs.list_dir("theirs") == ()  # not made by this filesystem: restore keeps it
