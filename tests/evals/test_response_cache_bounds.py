"""The response cache's folder: compacted into one pack, bounded, read once, data only."""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Self

import pytest

from wink_decl.evals._cache import ResponseCache
from wink_decl.evals._cache_folder import CacheLimits
from wink_decl.runtime.provider import ProviderReply

KEY_A, KEY_B, KEY_C, KEY_D = ("a" * 64, "b" * 64, "c" * 64, "d" * 64)
PACK_1, PACK_2, PACK_3 = (f"replies-{number:020d}-0.jsonl" for number in (1, 2, 3))
PACK_NAME = r"replies-\d{20}-[0-9a-f]{8}\.jsonl"


def _line(key: str, text: str) -> str:
    reply: dict[str, object] = {"text": text, "tool_calls": [], "usage": None}
    return json.dumps({"key": key, "reply": reply}, separators=(",", ":")) + "\n"


def _old_entry(folder: Path, key: str, text: str) -> Path:
    """An entry of the layout before packs: one file each."""
    (folder / key[:2]).mkdir(exist_ok=True)
    entry = folder / key[:2] / f"{key}.json"
    entry.write_text(json.dumps({"text": text, "tool_calls": [], "usage": None}, indent=1))
    return entry


def _packs(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


def _texts(cache: ResponseCache, *keys: str) -> list[str | None]:
    return [None if (reply := cache.get(key)) is None else reply.text for key in keys]


def test_packs_and_old_entries_are_compacted_into_one_pack_the_newest_entry_of_each_key(
    tmp_path: Path,
) -> None:
    (tmp_path / PACK_1).write_text(_line(KEY_A, "old") + _line(KEY_B, "kept"))
    (tmp_path / PACK_2).write_text(_line(KEY_A, "new") + _line(KEY_C, "last"))
    _old_entry(tmp_path, KEY_D, "one file")
    _old_entry(tmp_path, KEY_B, "older than any pack")
    (tmp_path / "dd" / "notes.txt").write_text("not an entry: left alone")
    cache = ResponseCache(tmp_path)
    cache.compact()
    (pack,) = (name for name in _packs(tmp_path) if name.startswith("replies-"))
    assert re.fullmatch(PACK_NAME, pack)
    assert (tmp_path / pack).read_text() == (
        _line(KEY_D, "one file") + _line(KEY_B, "kept") + _line(KEY_A, "new") + _line(KEY_C, "last")
    )
    assert _packs(tmp_path) == ["dd", pack]  # the old layout's folder kept what was not an entry
    assert _packs(tmp_path / "dd") == ["notes.txt"]
    again = ResponseCache(tmp_path)
    assert _texts(again, KEY_A, KEY_B, KEY_C, KEY_D) == ["new", "kept", "last", "one file"]
    assert _texts(cache, KEY_A, KEY_B, KEY_C, KEY_D) == ["new", "kept", "last", "one file"]
    assert (cache.notes, again.notes) == ((), ())


def test_one_pack_is_left_as_it_is_and_a_writer_appends_a_pack_of_its_own(tmp_path: Path) -> None:
    (tmp_path / PACK_1).write_text(_line(KEY_A, "only") + "not an entry\n")
    cache = ResponseCache(tmp_path)
    cache.compact()
    cache.put(KEY_B, ProviderReply("written"))
    cache.close()
    assert _packs(tmp_path)[0] == PACK_1
    assert len(_packs(tmp_path)) == 2
    assert _texts(cache, KEY_A, KEY_B) == ["only", "written"]


def test_a_missing_folder_is_not_compacted(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "cache")
    cache.compact()
    assert (cache.notes, (tmp_path / "cache").exists()) == ((), False)


def test_a_compaction_cut_short_before_its_rename_loses_nothing(tmp_path: Path) -> None:
    # What a compaction killed before its rename leaves: the packs it merged, and its partial
    # pack (here cut inside a line).
    (tmp_path / PACK_1).write_text(_line(KEY_A, "old") + _line(KEY_B, "kept"))
    (tmp_path / PACK_2).write_text(_line(KEY_A, "new"))
    partial = tmp_path / "replies-00000000000000000009-0.partial"
    partial.write_text(_line(KEY_C, "never renamed") + _line(KEY_A, "half")[:30])
    reader = ResponseCache(tmp_path)
    assert _texts(reader, KEY_A, KEY_B, KEY_C) == ["new", "kept", None]
    driver = ResponseCache(tmp_path)
    driver.compact()
    (pack,) = _packs(tmp_path)
    assert (tmp_path / pack).read_text() == _line(KEY_B, "kept") + _line(KEY_A, "new")
    assert (reader.notes, driver.notes) == ((), ())


def test_a_compaction_cut_short_after_its_rename_loses_nothing(tmp_path: Path) -> None:
    # Killed after the rename, before removing what it merged: the new pack is the newest.
    (tmp_path / PACK_1).write_text(_line(KEY_A, "old") + _line(KEY_B, "kept"))
    (tmp_path / PACK_2).write_text(_line(KEY_A, "new"))
    (tmp_path / PACK_3).write_text(_line(KEY_B, "kept") + _line(KEY_A, "new"))
    cache = ResponseCache(tmp_path)
    assert _texts(cache, KEY_A, KEY_B) == ["new", "kept"]
    cache.compact()
    (pack,) = _packs(tmp_path)
    assert (tmp_path / pack).read_text() == _line(KEY_B, "kept") + _line(KEY_A, "new")


def test_a_compaction_that_cannot_write_is_a_warning_and_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / PACK_1).write_text(_line(KEY_A, "old"))
    (tmp_path / PACK_2).write_text(_line(KEY_B, "new"))

    def disk_full(_descriptor: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", disk_full)
    cache = ResponseCache(tmp_path)
    cache.compact()
    assert _packs(tmp_path) == [PACK_1, PACK_2]
    assert _texts(cache, KEY_A, KEY_B) == ["old", "new"]
    assert cache.notes == (
        f"{tmp_path}: the response cache was not compacted: No space left on device",
    )


def test_beyond_the_entries_limit_the_oldest_are_left_out_and_compacting_removes_them(
    tmp_path: Path,
) -> None:
    _old_entry(tmp_path, KEY_D, "oldest")
    (tmp_path / PACK_1).write_text(_line(KEY_A, "old") + _line(KEY_B, "b"))
    (tmp_path / PACK_2).write_text(_line(KEY_C, "c") + _line(KEY_A, "new"))
    limits = CacheLimits(max_entries=3)
    cache = ResponseCache(tmp_path, limits=limits)
    assert _texts(cache, KEY_A, KEY_B, KEY_C, KEY_D) == ["new", "b", "c", None]
    cache.compact()
    (pack,) = _packs(tmp_path)
    assert (tmp_path / pack).read_text() == _line(KEY_B, "b") + _line(KEY_C, "c") + _line(
        KEY_A, "new"
    )
    assert cache.notes == (
        f"{tmp_path}: the response cache holds more than 3 entries; its oldest 1 were left out",
        f"{tmp_path}: compacted into {pack}: the entries left out are removed",
    )
    assert ResponseCache(tmp_path, limits=limits).notes == ()


def test_beyond_the_bytes_limit_the_oldest_are_not_read(tmp_path: Path) -> None:
    newest = _line(KEY_C, "c") + _line(KEY_D, "d")
    (tmp_path / PACK_1).write_text(_line(KEY_A, "a"))
    (tmp_path / PACK_2).write_text(_line(KEY_B, "b") + _line(KEY_A, "newer"))
    (tmp_path / PACK_3).write_text(newest)
    old = _old_entry(tmp_path, KEY_D, "old layout")
    # All of the newest pack, and the last line of the one before (cut inside its first).
    limits = CacheLimits(max_bytes=len(newest) + len(_line(KEY_A, "newer")) + 10)
    cache = ResponseCache(tmp_path, limits=limits)
    assert _texts(cache, KEY_A, KEY_B, KEY_C, KEY_D) == ["newer", None, "c", "d"]
    assert cache.notes == (
        f"{tmp_path}: the response cache holds more than {limits.max_bytes:,} bytes; its "
        "oldest entries were not read",
    )
    cache.compact()
    (pack,) = _packs(tmp_path)
    assert (tmp_path / pack).read_text() == _line(KEY_A, "newer") + newest
    assert not old.parent.exists()


def test_old_entries_beyond_the_bytes_limit_are_not_read(tmp_path: Path) -> None:
    (tmp_path / PACK_1).write_text(_line(KEY_A, "a"))
    _old_entry(tmp_path, KEY_B, "b")
    limits = CacheLimits(max_bytes=len(_line(KEY_A, "a")) + 10)
    cache = ResponseCache(tmp_path, limits=limits)
    assert _texts(cache, KEY_A, KEY_B) == ["a", None]
    assert cache.notes == (
        f"{tmp_path}: the response cache holds more than {limits.max_bytes:,} bytes; its "
        "oldest entries were not read",
    )


def test_a_folder_of_more_files_than_the_entries_limit_is_not_looked_at_past_it(
    tmp_path: Path,
) -> None:
    for number in range(3):
        (tmp_path / f"replies-{number:020d}-0.jsonl").write_text(_line(KEY_A, str(number)))
    cache = ResponseCache(tmp_path, limits=CacheLimits(max_entries=2))
    assert cache.get(KEY_A) is not None  # from one of the two looked at
    assert cache.notes == (
        f"{tmp_path}: the response cache holds more than 2 files; the others were not looked at",
    )
    old = tmp_path / "old"
    old.mkdir()
    keys = (KEY_A, "aa" + "1" * 62, "aa" + "2" * 62)
    for key in keys:
        _old_entry(old, key, "old")
    cache = ResponseCache(old, limits=CacheLimits(max_entries=2))
    assert sorted(map(str, _texts(cache, *keys))) == ["None", "old", "old"]  # which: as listed
    assert cache.notes == (
        f"{old}: the response cache holds more than 2 files of the old layout; the others "
        "were not looked at",
    )


def test_special_files_links_and_large_entries_are_refused_with_a_warning(
    tmp_path: Path,
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "pack.jsonl").write_text(_line(KEY_A, "linked"))
    (outside / "entry.json").write_text('{"text":"linked","tool_calls":[],"usage":null}')
    (outside / "bb").mkdir()
    folder = tmp_path / "cache"
    folder.mkdir()
    (folder / PACK_1).symlink_to(outside / "pack.jsonl")
    os.mkfifo(folder / PACK_2)  # a reader of a pipe would wait forever
    (folder / PACK_3).write_text(_line(KEY_C, "read") + _line(KEY_D, "x" * 300))
    (folder / "aa").mkdir()
    (folder / "aa" / f"{KEY_A}.json").symlink_to(outside / "entry.json")
    os.mkfifo(folder / "aa" / f"aa{'1' * 62}.json")
    _old_entry(folder, "aa" + "2" * 62, "y" * 300)
    _old_entry(folder, "aa" + "3" * 62, "small")
    (folder / "aa" / f"{KEY_B}.json").write_text("not in its folder")
    (folder / "aa" / f"aa{'4' * 62}.json").write_text("not json")
    (folder / "bb").symlink_to(outside / "bb", target_is_directory=True)
    cache = ResponseCache(folder, limits=CacheLimits(max_entry_bytes=200))
    found = _texts(cache, KEY_A, "aa" + "1" * 62, "aa" + "2" * 62, "aa" + "3" * 62, KEY_C, KEY_D)
    assert found == [None, None, None, "small", "read", None]
    assert cache.notes == (
        f"{folder}/{PACK_2}: not read: it is a named pipe (FIFO), not a regular file",
        f"{folder}/{PACK_1}: not read: it is a symbolic link (a cache's links are refused)",
        f"{folder}/aa/aa{'1' * 62}.json: not read: it is a named pipe (FIFO), not a regular file",
        f"{folder}/aa/aa{'2' * 62}.json: not read: it is larger than 200 bytes",
        f"{folder}/aa/{KEY_A}.json: not read: it is a symbolic link (a cache's links are refused)",
        f"{folder}/{PACK_3}: 1 line larger than 200 bytes not read",
    )
    cache.compact()
    assert sorted(path.name for path in (folder / "aa").iterdir()) == sorted(
        [f"{KEY_A}.json", f"aa{'1' * 62}.json", f"aa{'2' * 62}.json", f"{KEY_B}.json"]
    )
    assert (outside / "pack.jsonl").read_text() == _line(KEY_A, "linked")


def test_a_lookup_never_reads_the_folder_again(tmp_path: Path) -> None:
    (tmp_path / PACK_1).write_text(_line(KEY_A, "a"))
    cache = ResponseCache(tmp_path)
    tmp_path.rename(tmp_path.with_name("moved"))  # a look at the folder would find nothing
    cache.put(KEY_B, ProviderReply("b"))  # into a new folder: found by its own lookups
    cache.close()
    assert _texts(cache, KEY_A, KEY_B, KEY_C) == ["a", "b", None]


def test_reading_a_folder_holds_no_more_than_the_limit(tmp_path: Path) -> None:
    limit = 200_000
    for number in range(4):  # over 4 times the limit, in 4 packs
        lines = [_line(f"{number}{index:063d}", "x" * 900) for index in range(220)]
        (tmp_path / f"replies-{number:020d}-0.jsonl").write_text("".join(lines))
    tracemalloc.start()
    try:
        cache = ResponseCache(tmp_path, limits=CacheLimits(max_bytes=limit))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    newest = [cache.get(f"3{index:063d}") is not None for index in range(220)]
    # Lines of 1,024 bytes: the newest 195 of the newest pack fill the limit.
    assert (newest.index(True), all(newest[25:]), cache.get(f"2{0:063d}")) == (25, True, None)
    assert peak < limit * 1.5  # the entries held and their keys, not the 900 kB of the folder


class _Listing:
    """What ``os.scandir`` gives, listed before the test changes the folder."""

    def __init__(self, entries: list[os.DirEntry[str]]) -> None:
        self.entries = entries

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_exc: object) -> None:
        return None

    def __iter__(self) -> Iterator[os.DirEntry[str]]:
        return iter(self.entries)


def test_files_gone_once_the_folder_was_listed_are_not_entries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / PACK_1).write_text(_line(KEY_A, "gone"))
    (tmp_path / PACK_2).write_text(_line(KEY_B, "kept"))
    _old_entry(tmp_path, KEY_A, "gone too")
    scandir = os.scandir

    def listed_then_removed(path: Path) -> _Listing:
        listing = _Listing(list(scandir(path)))
        if path == tmp_path:
            (tmp_path / PACK_1).unlink()
            shutil.rmtree(tmp_path / "aa")
        return listing

    monkeypatch.setattr(os, "scandir", listed_then_removed)
    cache = ResponseCache(tmp_path)
    assert (_texts(cache, KEY_A, KEY_B), cache.notes) == ([None, "kept"], ())


def test_files_gone_once_they_were_looked_at_are_not_entries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / PACK_1).write_text(_line(KEY_A, "gone"))
    _old_entry(tmp_path, KEY_B, "gone too")
    lstat = Path.lstat

    def looked_at_then_removed(path: Path) -> os.stat_result:
        info = lstat(path)
        path.unlink()
        return info

    monkeypatch.setattr(Path, "lstat", looked_at_then_removed)
    cache = ResponseCache(tmp_path)
    assert (_texts(cache, KEY_A, KEY_B), cache.notes) == ([None, None], ())


def test_a_compaction_writes_a_large_cache_whole(tmp_path: Path) -> None:
    older = [_line(f"1{index:063d}", "x" * 900) for index in range(600)]
    newer = [_line(f"2{index:063d}", "y" * 900) for index in range(600)]
    (tmp_path / PACK_1).write_text("".join(older))
    (tmp_path / PACK_2).write_text("".join(newer))
    ResponseCache(tmp_path).compact()
    (pack,) = _packs(tmp_path)
    assert (tmp_path / pack).read_text() == "".join(older + newer)
