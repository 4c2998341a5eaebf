"""Files wink-decl writes are replaced whole or not at all, keeping their permissions."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from wink_decl._atomic import write_atomically, write_once


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_new_files_follow_the_umask_and_replaced_files_keep_their_mode(tmp_path: Path) -> None:
    umask = os.umask(0o022)
    try:
        write_atomically(tmp_path / "new.txt", "new\n")
        existing = tmp_path / "old.txt"
        existing.write_text("old\n")
        existing.chmod(0o600)
        write_atomically(str(existing), "replaced\r\n")
    finally:
        os.umask(umask)
    assert (tmp_path / "new.txt").read_bytes() == b"new\n"
    assert mode(tmp_path / "new.txt") == 0o644
    assert existing.read_bytes() == b"replaced\r\n"  # exactly as given: no newline translation
    assert mode(existing) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.txt", "old.txt"]


def test_text_that_cannot_be_encoded_leaves_nothing_behind(tmp_path: Path) -> None:
    with pytest.raises(UnicodeEncodeError):
        write_atomically(tmp_path / "x.txt", "\ud800")
    assert list(tmp_path.iterdir()) == []


def test_an_interrupted_write_keeps_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "x.wink.yaml"
    target.write_text("key: old\n", encoding="utf-8")

    def fail(self: Path, destination: Path) -> Path:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "replace", fail)
    with pytest.raises(OSError, match="No space left"):
        write_atomically(target, "key: new\n")
    assert [p.name for p in tmp_path.iterdir()] == ["x.wink.yaml"]
    assert target.read_text(encoding="utf-8") == "key: old\n"


def test_a_missing_folder_is_made_only_when_asked(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "x.txt"
    with pytest.raises(FileNotFoundError):
        write_atomically(target, "x\n")
    write_atomically(target, "x\n", make_folder=True)
    assert target.read_text(encoding="utf-8") == "x\n"


def test_bytes_are_written_as_they_are(tmp_path: Path) -> None:
    write_atomically(tmp_path / "x.bin", b"\x00\xff\r\n")
    assert (tmp_path / "x.bin").read_bytes() == b"\x00\xff\r\n"


def test_a_link_is_replaced_not_followed_and_lends_no_mode(tmp_path: Path) -> None:
    """A cache folder someone else wrote may hold a link where an entry goes."""
    target = tmp_path / "elsewhere.txt"
    target.write_text("keep\n", encoding="utf-8")
    target.chmod(0o777)
    link = tmp_path / "entry.json"
    link.symlink_to(target)
    umask = os.umask(0o022)
    try:
        write_atomically(link, "entry\n")
    finally:
        os.umask(umask)
    assert not link.is_symlink()
    assert link.read_text(encoding="utf-8") == "entry\n"
    assert mode(link) == 0o644
    assert target.read_text(encoding="utf-8") == "keep\n"


def test_a_folder_in_the_way_is_an_error_and_leaves_no_temporary(tmp_path: Path) -> None:
    (tmp_path / "entry.json").mkdir()
    with pytest.raises(OSError, match="directory"):
        write_atomically(tmp_path / "entry.json", "entry\n")
    assert [p.name for p in tmp_path.iterdir()] == ["entry.json"]


def test_write_once_makes_a_file_whole_and_never_replaces_one(tmp_path: Path) -> None:
    umask = os.umask(0o022)
    try:
        assert write_once(tmp_path / "key", b"first\n")
        assert not write_once(tmp_path / "key", b"second\n")
        assert write_once(tmp_path / "shared", b"x", mode=0o644)
    finally:
        os.umask(umask)
    assert (tmp_path / "key").read_bytes() == b"first\n"
    assert mode(tmp_path / "key") == 0o600
    assert mode(tmp_path / "shared") == 0o644
    assert sorted(p.name for p in tmp_path.iterdir()) == ["key", "shared"]


def test_write_once_without_its_folder_raises_and_leaves_nothing(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        write_once(tmp_path / "missing" / "key", b"x")
    assert list(tmp_path.iterdir()) == []
