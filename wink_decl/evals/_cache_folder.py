"""A response cache's folder: read once, bounded, and compacted into one pack by the driver.

The folder holds packs (``replies-*.jsonl``, JSON lines appended by each run) and the entries
of the layout before packs (``<key[:2]>/<key>.json``, one file each). It is read as every other
file we read (``docs/evals.md``, "The response cache"): regular files only (a link, a pipe or a
device is refused unopened), no line larger than ``max_entry_bytes``, and the whole folder
within ``max_entries`` and ``max_bytes``: beyond them the oldest entries are left out, and a
warning says so. What was read is an index in memory, the oldest entry first.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import secrets
import stat
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Final, TypedDict, cast

from wink_decl.loader.regular_files import NotAFileError, open_regular, read_up_to

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

__all__ = [
    "COMPACT_JSON",
    "MAX_CACHE_BYTES",
    "MAX_CACHE_ENTRIES",
    "MAX_ENTRY_BYTES",
    "NEW_PACK_FLAGS",
    "PACK_PREFIX",
    "PACK_SUFFIX",
    "PARTIAL_SUFFIX",
    "CacheIndex",
    "CacheLimits",
    "FolderRead",
    "compact_folder",
    "new_pack_name",
    "read_folder",
    "write_whole",
]

MAX_ENTRY_BYTES: Final = 16_000_000
"""A line (or a file of the old layout) larger than this is not read: a reply is far smaller."""

MAX_CACHE_BYTES: Final = 1_000_000_000
"""The bytes of a cache folder read at most: the oldest beyond it are not read."""

MAX_CACHE_ENTRIES: Final = 1_000_000
"""The entries a cache holds at most (a thousand bytes each fill ``MAX_CACHE_BYTES``)."""

PACK_PREFIX: Final = "replies-"
PACK_SUFFIX: Final = ".jsonl"
"""A pack's name: ``replies-<time>-<random>.jsonl`` for a run's, any name between for others."""

PARTIAL_SUFFIX: Final = ".partial"
"""A compacted pack being written: never read, removed by the next compaction."""

_LEGACY_NAME = 2
"""The length of a folder name of the old layout (the key's first two characters)."""
NEW_PACK_FLAGS: Final = (
    os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | getattr(os, "O_BINARY", 0)
)
"""How a pack is opened: made new, appended to (a line by one ``write``)."""


class _JsonStyle(TypedDict):
    """The ``json.dumps`` keywords ``COMPACT_JSON`` sets, typed so the unpacking is checked."""

    ensure_ascii: bool
    separators: tuple[str, str]


COMPACT_JSON: Final[_JsonStyle] = {"ensure_ascii": False, "separators": (",", ":")}
"""How an entry's line is written: JSON without spaces, text as it is."""
_BATCH = 1_048_576
"""Bytes of entries written by one ``write`` when compacting."""


@dataclass(frozen=True)
class CacheLimits:
    """What a cache folder may hold: entries, bytes in all, bytes a line."""

    max_entries: int = MAX_CACHE_ENTRIES
    max_bytes: int = MAX_CACHE_BYTES
    max_entry_bytes: int = MAX_ENTRY_BYTES


class CacheIndex:
    """Each key's entry line, oldest first, within the limits: a newer entry pushes out the oldest.

    An entry kept again (a key written anew) becomes the newest.
    """

    def __init__(self, limits: CacheLimits) -> None:
        """Hold nothing yet."""
        self.lines: OrderedDict[str, bytes] = OrderedDict()
        self.limits = limits
        self.held = 0
        """The bytes of the lines held."""
        self.dropped = 0
        """The entries pushed out by newer ones."""

    def keep(self, key: str, line: bytes) -> None:
        """Hold ``line`` as the newest entry of ``key``; the oldest go while over the limits."""
        old = self.lines.pop(key, None)
        if old is not None:
            self.held -= len(old)
        self.lines[key] = line
        self.held += len(line)
        limits = self.limits
        while len(self.lines) > limits.max_entries or self.held > limits.max_bytes:
            self.held -= len(self.lines.popitem(last=False)[1])
            self.dropped += 1


@dataclass
class FolderRead:
    """What reading a folder found: the index, the files it came from, what was refused."""

    index: CacheIndex
    packs: list[Path] = field(default_factory=list[Path])
    """Every pack found, read or left out for the limits (a compaction replaces them all)."""
    legacy: list[Path] = field(default_factory=list[Path])
    """The files of the old layout taken into the index."""
    partials: list[Path] = field(default_factory=list[Path])
    """Packs a compaction did not finish writing."""
    notes: list[str] = field(default_factory=list[str])
    """A line each thing not read, for the run's warnings."""
    left_out: bool = False
    """Whether the limits left entries out."""
    looked: int = 0
    """The files of the old layout looked at (at most ``max_entries``)."""
    looked_past: bool = False
    """Whether there were more files of the old layout than ``max_entries``."""


def read_folder(folder: Path, limits: CacheLimits) -> FolderRead:
    """The entries under ``folder`` within ``limits``, newest kept first; nothing when missing."""
    read = FolderRead(CacheIndex(limits))
    names = _names(folder, limits, read)
    starts, budget = _plan(folder, names.packs, limits, read)
    for name in names.legacy:
        budget = _take_legacy(folder / name, budget, read)
    for name in names.packs:
        _take_pack(folder / name, starts.get(name), read)
    if read.looked_past:
        read.notes.append(
            f"{folder}: the response cache holds more than {limits.max_entries:,} files of "
            "the old layout; the others were not looked at"
        )
    if budget < 0 or any(start > 0 for start, _ in starts.values()):
        read.notes.append(
            f"{folder}: the response cache holds more than {limits.max_bytes:,} bytes; "
            "its oldest entries were not read"
        )
        read.left_out = True
    if read.index.dropped:
        read.notes.append(
            f"{folder}: the response cache holds more than {limits.max_entries:,} entries; "
            f"its oldest {read.index.dropped:,} were left out"
        )
        read.left_out = True
    return read


@dataclass
class _Names:
    packs: list[str] = field(default_factory=list[str])
    legacy: list[str] = field(default_factory=list[str])


def _names(folder: Path, limits: CacheLimits, read: FolderRead) -> _Names:
    """The packs and old-layout folders of ``folder`` (sorted), looking at a bounded number."""
    names = _Names()
    try:
        found = os.scandir(folder)
    except OSError:  # no folder yet (or not a folder): nothing kept
        return names
    with found:
        for count, entry in enumerate(found):
            if count == limits.max_entries:
                read.notes.append(
                    f"{folder}: the response cache holds more than {limits.max_entries:,} "
                    "files; the others were not looked at"
                )
                break
            name = entry.name
            if name.startswith(PACK_PREFIX) and name.endswith(PACK_SUFFIX):
                names.packs.append(name)
            elif name.startswith(PACK_PREFIX) and name.endswith(PARTIAL_SUFFIX):
                read.partials.append(folder / name)
            elif len(name) == _LEGACY_NAME and entry.is_dir(follow_symlinks=False):
                names.legacy.append(name)
    names.packs.sort()
    names.legacy.sort()
    return names


def _plan(
    folder: Path, packs: list[str], limits: CacheLimits, read: FolderRead
) -> tuple[dict[str, tuple[int, int]], int]:
    """Where each pack is read from, and to (newest first, within ``max_bytes``).

    A pack the limit cuts is read from the line after the cut; older ones not at all. The
    bytes left for the old layout come back (negative: none, and some were left out).
    """
    budget = limits.max_bytes
    starts: dict[str, tuple[int, int]] = {}
    for name in reversed(packs):
        path = folder / name
        size = _regular_size(path, read)
        if size is None:
            continue
        read.packs.append(path)
        if budget <= 0:
            budget = -1
            continue
        starts[name] = (max(size - budget, 0), size)
        budget -= size
    read.packs.reverse()
    return starts, budget


def _regular_size(path: Path, read: FolderRead) -> int | None:
    """The size of the regular file at ``path`` (a link is not followed); None when refused."""
    try:
        info = path.lstat()
    except OSError:  # gone since the folder was listed
        return None
    if stat.S_ISLNK(info.st_mode):
        read.notes.append(f"{path}: not read: it is a symbolic link (a cache's links are refused)")
        return None
    if not stat.S_ISREG(info.st_mode):
        read.notes.append(f"{path}: not read: {NotAFileError(path, info.st_mode).strerror}")
        return None
    return info.st_size


def _take_pack(path: Path, where: tuple[int, int] | None, read: FolderRead) -> None:
    """Take the whole lines of the pack at ``path`` between ``where``'s offsets."""
    if where is None:  # left out for the limit, or refused
        return
    start, end = where
    cap = read.index.limits.max_entry_bytes
    try:
        descriptor, _ = open_regular(path, follow_links=False)
    except OSError:  # swapped for something else, or gone, since it was looked at
        return
    too_large = 0
    with os.fdopen(descriptor, "rb") as stream:
        cut = start > 0  # the line the cut falls in is an older entry's rest: not taken
        stream.seek(start - cut)
        for line in _lines(stream, end - start + cut, cap):
            if cut:
                cut = False
            elif line is None:
                too_large += 1
            else:
                _take_line(line, read.index)
    if too_large:
        read.notes.append(
            f"{path}: {too_large} line{'s' * (too_large != 1)} larger than {cap:,} bytes not read"
        )


def _lines(stream: BinaryIO, left: int, cap: int) -> Iterator[bytes | None]:
    """Each whole line of the next ``left`` bytes, or None for one larger than ``cap``.

    A last line without its end (a write cut short by a kill) is not a line.
    """
    while left > 0:
        line = stream.readline(min(left, cap + 1))
        left -= len(line)
        if line.endswith(b"\n") and len(line) <= cap:
            yield line
            continue
        if len(line) <= cap:  # the end: a line not whole, or none
            return
        while line and not line.endswith(b"\n") and left > 0:  # the rest of the large one
            line = stream.readline(min(left, _BATCH))
            left -= len(line)
        yield None


def _take_line(line: bytes, index: CacheIndex) -> None:
    """Keep ``line`` if it is what ``put`` writes (anything else is a miss, never an error)."""
    try:
        data: object = json.loads(line)
    except (ValueError, RecursionError):
        return
    if not isinstance(data, dict):
        return
    entry = cast("dict[str, object]", data)
    key = entry.get("key")
    if set(entry) == {"key", "reply"} and isinstance(key, str):
        index.keep(key, line)


def _take_legacy(folder: Path, budget: int, read: FolderRead) -> int:
    """Take the entries of one folder of the old layout; the bytes left after them.

    Those the bytes left cannot hold are left out (and noted in ``read.legacy``, so that a
    compaction removes them); at most ``max_entries`` files of the old layout are looked at.
    """
    limits = read.index.limits
    room = limits.max_entries - read.looked
    try:
        found = _first(os.scandir(folder), room + 1)
    except OSError:  # gone since it was listed
        return budget
    if len(found) > room:
        read.looked_past = True
        found = found[:room]
    read.looked += len(found)
    for entry in sorted(found, key=lambda entry: entry.name):
        key = entry.name.removesuffix(".json")
        if key == entry.name or not key.startswith(folder.name):
            continue
        path = folder / entry.name
        size = _regular_size(path, read)
        if size is None:
            continue
        if size > limits.max_entry_bytes:
            read.notes.append(
                f"{path}: not read: it is larger than {limits.max_entry_bytes:,} bytes"
            )
            continue
        read.legacy.append(path)
        if size > budget:
            budget = -1
            continue
        budget -= size
        data = _legacy_entry(path, size)
        if data is not None:
            line = json.dumps({"key": key, "reply": data}, **COMPACT_JSON) + "\n"
            read.index.keep(key, line.encode())
    return budget


def _first(found: Iterator[os.DirEntry[str]], wanted: int) -> list[os.DirEntry[str]]:
    """At most ``wanted`` of ``found`` (which is closed)."""
    with cast("contextlib.AbstractContextManager[object]", found):
        return list(itertools.islice(found, wanted))


def _legacy_entry(path: Path, size: int) -> object | None:
    """The JSON data of an old-layout entry; None when it cannot be read or is not JSON."""
    try:
        descriptor, _ = open_regular(path, follow_links=False)
    except OSError:  # swapped or gone since it was looked at
        return None
    try:
        content = read_up_to(descriptor, size, size)
    finally:
        os.close(descriptor)
    try:
        return cast("object", json.loads(content))
    except (ValueError, RecursionError):
        return None


def new_pack_name() -> str:
    """A new pack's name: by time, so that packs are read oldest first and newer entries win."""
    return f"{PACK_PREFIX}{time.time_ns():020d}-{secrets.token_hex(4)}{PACK_SUFFIX}"


def compact_folder(folder: Path, read: FolderRead) -> None:
    """Replace the packs and old-layout entries ``read`` found with one pack of its index.

    Only when there is more than one pack, an old-layout entry or an entry left out. The new
    pack is written under a name no reader takes, flushed to the disk, then renamed: a crash
    before the rename leaves the files as they were (and a partial file the next compaction
    removes), one after it leaves the merged files beside the new pack, which is newer. A
    failure to write is a warning, the folder left as it was.
    """
    for partial in read.partials:
        with contextlib.suppress(OSError):
            partial.unlink()
    if len(read.packs) < 2 and not read.legacy and not read.left_out:  # noqa: PLR2004
        return
    name = new_pack_name()
    partial = folder / f"{name.removesuffix(PACK_SUFFIX)}{PARTIAL_SUFFIX}"
    try:
        _write_synced(partial, read.index.lines.values())
        partial.replace(folder / name)
        _sync_folder(folder)
    except OSError as error:
        with contextlib.suppress(OSError):
            partial.unlink()
        read.notes.append(f"{folder}: the response cache was not compacted: {error.strerror}")
        return
    if read.left_out:
        read.notes.append(f"{folder}: compacted into {name}: the entries left out are removed")
    for path in (*read.packs, *read.legacy):
        with contextlib.suppress(OSError):
            path.unlink()
    for legacy in {path.parent for path in read.legacy}:
        with contextlib.suppress(OSError):  # not empty: it keeps what was not taken
            legacy.rmdir()


def _write_synced(path: Path, lines: Iterable[bytes]) -> None:
    """A new file at ``path`` of ``lines``, written in batches and flushed to the disk."""
    descriptor = os.open(path, NEW_PACK_FLAGS, 0o666)
    try:
        batch: list[bytes] = []
        size = 0
        for line in lines:
            batch.append(line)
            size += len(line)
            if size >= _BATCH:
                write_whole(descriptor, b"".join(batch))
                batch, size = [], 0
        write_whole(descriptor, b"".join(batch))
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _sync_folder(folder: Path) -> None:
    """Flush ``folder``'s names to the disk, so that the rename outlives a power cut."""
    descriptor = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def write_whole(descriptor: int, data: bytes) -> None:
    """Write all of ``data``: one ``write`` of an appending descriptor, short writes resumed."""
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view) :]
