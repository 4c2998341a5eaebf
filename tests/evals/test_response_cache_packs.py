"""The response cache's packs: entries appended as JSON lines, read back bounded, old layout too."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from wink_decl.evals._cache import ResponseCache
from wink_decl.evals._cache_folder import CacheLimits
from wink_decl.runtime.provider import ProviderReply, ProviderToolCall, TokenUsage

REPLY = ProviderReply("hi", (ProviderToolCall("c1", "look", {"at": "x"}),), TokenUsage(3, 4))
REPLY_LINE = (
    '"reply":{"text":"hi","tool_calls":[{"call_id":"c1","name":"look","arguments":{"at":"x"}}],'
    '"usage":{"input_tokens":3,"output_tokens":4}}}'
)
KEY_A, KEY_B, KEY_C = ("a" * 64, "b" * 64, "c" * 64)


def _line(key: str, text: str) -> str:
    reply: dict[str, object] = {"text": text, "tool_calls": [], "usage": None}
    return json.dumps({"key": key, "reply": reply}, separators=(",", ":")) + "\n"


def test_a_writers_entries_are_appended_to_a_pack_of_its_own(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "cache")
    cache.put(KEY_A, REPLY)
    cache.put(KEY_B, ProviderReply("plain"))
    cache.close()
    cache.close()
    (pack,) = (tmp_path / "cache").iterdir()
    assert re.fullmatch(r"replies-\d{20}-[0-9a-f]{8}\.jsonl", pack.name)
    assert pack.read_text() == f'{{"key":"{KEY_A}",{REPLY_LINE}\n' + _line(KEY_B, "plain")
    assert (cache.get(KEY_A), cache.get(KEY_B), cache.get(KEY_C)) == (
        REPLY,
        ProviderReply("plain"),
        None,
    )


def test_a_reader_takes_the_whole_lines_there_when_it_is_made(tmp_path: Path) -> None:
    before = ResponseCache(tmp_path)  # before the writer made anything: it reads no more
    writer = ResponseCache(tmp_path)
    writer.put(KEY_A, REPLY)
    (pack,) = tmp_path.iterdir()
    line = _line(KEY_B, "later")
    with pack.open("a") as stream:  # a line cut short (a writer killed): never taken
        stream.write(line[:20])
    reader = ResponseCache(tmp_path)
    with pack.open("a") as stream:
        stream.write(line[20:])
    assert (before.get(KEY_A), reader.get(KEY_A), reader.get(KEY_B)) == (None, REPLY, None)
    assert (writer.get(KEY_A), ResponseCache(tmp_path).get(KEY_B)) == (
        REPLY,
        ProviderReply("later"),
    )
    writer.close()


def test_a_later_entry_of_a_key_wins(tmp_path: Path) -> None:
    older, newer = (f"replies-{number:020d}-0.jsonl" for number in (1, 2))
    (tmp_path / older).write_text(_line(KEY_A, "old") + _line(KEY_B, "kept"))
    (tmp_path / newer).write_text(_line(KEY_A, "new"))
    cache = ResponseCache(tmp_path)
    found = (cache.get(KEY_A), cache.get(KEY_B))
    cache.put(KEY_B, ProviderReply("newest"))
    cache.close()
    assert found == (ProviderReply("new"), ProviderReply("kept"))
    assert ResponseCache(tmp_path).get(KEY_B) == ProviderReply("newest")


def test_entries_of_the_one_file_layout_are_read(tmp_path: Path) -> None:
    (tmp_path / "aa").mkdir()
    (tmp_path / "aa" / f"{KEY_A}.json").write_text(
        '{"text":"one file","tool_calls":[],"usage":null}'
    )
    (tmp_path / "bb").write_text("a file, not a folder of entries")
    (tmp_path / "notes").mkdir()
    (tmp_path / "replies-00000000000000000001-0.jsonl").write_text(_line(KEY_C, "packed"))
    cache = ResponseCache(tmp_path)
    assert (cache.get(KEY_A), cache.get(KEY_B), cache.get(KEY_C)) == (
        ProviderReply("one file"),
        None,
        ProviderReply("packed"),
    )


def test_a_line_that_is_not_an_entry_is_a_miss(tmp_path: Path) -> None:
    keys = [f"{digit}" * 64 for digit in "0123456"]
    lines = [
        "not json\n",
        "[" * 100_000 + "\n",
        f'["{keys[0]}"]\n',
        json.dumps({"key": keys[1]}) + "\n",
        json.dumps({"key": keys[2], "reply": {"text": "x"}, "more": 1}) + "\n",
        json.dumps({"key": 3, "reply": {"text": "x", "tool_calls": [], "usage": None}}) + "\n",
        json.dumps({"key": keys[3], "reply": {"text": 1, "tool_calls": [], "usage": None}}) + "\n",
        _line(keys[4], "x" * 200),
        "\n",
        _line(keys[5], "whole"),
    ]
    (tmp_path / "replies-00000000000000000001-0.jsonl").write_text("".join(lines))
    cache = ResponseCache(tmp_path, limits=CacheLimits(max_entry_bytes=200))
    found = [cache.get(key) for key in keys]
    assert found == [None, None, None, None, None, ProviderReply("whole"), None]
    assert cache.notes == (
        f"{tmp_path}/replies-00000000000000000001-0.jsonl: 2 lines larger than 200 bytes not read",
    )


def test_a_pack_that_is_not_a_regular_file_or_is_too_large_is_not_read(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.jsonl"
    elsewhere.write_text(_line(KEY_A, "linked"))
    cache_folder = tmp_path / "cache"
    cache_folder.mkdir()
    (cache_folder / "replies-link.jsonl").symlink_to(elsewhere)
    os.mkfifo(cache_folder / "replies-pipe.jsonl")  # a reader of a pipe would wait forever
    (cache_folder / "replies-big.jsonl").write_text(_line(KEY_B, "x" * 1_000))
    (cache_folder / "replies-small.jsonl").write_text(_line(KEY_C, "small"))
    cache = ResponseCache(cache_folder, limits=CacheLimits(max_bytes=1_000))
    assert (cache.get(KEY_A), cache.get(KEY_B), cache.get(KEY_C)) == (
        None,
        None,
        ProviderReply("small"),
    )
    assert cache.notes == (
        f"{cache_folder}/replies-pipe.jsonl: not read: it is a named pipe (FIFO), not a regular "
        "file",
        f"{cache_folder}/replies-link.jsonl: not read: it is a symbolic link (a cache's links "
        "are refused)",
        f"{cache_folder}: the response cache holds more than 1,000 bytes; its oldest entries "
        "were not read",
    )


def test_a_missing_folder_has_no_entries(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    assert (
        ResponseCache(tmp_path / "missing").get(KEY_A),
        ResponseCache(tmp_path / "file").get(KEY_A),
    ) == (
        None,
        None,
    )
