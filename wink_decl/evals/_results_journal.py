"""The results journal: one JSON line per finished case run, appended as each one finishes.

A run stopped any way (Ctrl-C, a kill, a lost machine) leaves every line it wrote whole but
perhaps the last, which a reader skips: resuming loses at most the runs that were in flight.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple, cast

from wink_decl.evals._eval_types import CaseResult
from wink_decl.evals._records import result_from_json, result_to_json
from wink_decl.loader.regular_files import read_capped

__all__ = ["Journal", "JournalEntry", "read_journal"]

_APPEND = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_BINARY", 0)


class JournalEntry(NamedTuple):
    """One line: the run's key (what makes two runs the same) and its result."""

    key: str
    result: CaseResult


class Journal:
    """Appends entries to ``path``; only the run's driver writes it."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        """Open ``path`` for appending (created when missing; what it holds is kept)."""
        self.path = Path(path)
        self._descriptor = os.open(self.path, _APPEND, 0o644)

    def append(self, key: str, result: CaseResult) -> None:
        """Write one whole line: one ``write`` of an appending descriptor, not a buffer."""
        record = {"key": key, **result_to_json(result)}
        line = json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
        data = memoryview(line.encode())
        while data:
            data = data[os.write(self._descriptor, data) :]

    def close(self) -> None:
        """Close the file; idempotent."""
        if self._descriptor >= 0:
            os.close(self._descriptor)
            self._descriptor = -1


def read_journal(path: str | os.PathLike[str], max_bytes: int) -> tuple[list[JournalEntry], int]:
    """The whole entries of the journal at ``path`` and how many lines were skipped.

    A line that is not a whole entry (the last one of a run that was killed while writing
    it, or one edited by hand) is skipped and counted. A missing journal has no entries.

    Raises:
        OSError: the journal exists but cannot be read, is not a regular file, or holds
            more than ``max_bytes``.
    """
    try:
        content, _ = read_capped(path, max_bytes)
    except FileNotFoundError:
        return [], 0
    entries: list[JournalEntry] = []
    skipped = 0
    for line in content.split(b"\n"):
        if not line.strip():
            continue
        entry = _entry(line)
        if entry is None:
            skipped += 1
        else:
            entries.append(entry)
    return entries, skipped


def _entry(line: bytes) -> JournalEntry | None:
    try:
        data: object = json.loads(line)
        if not isinstance(data, dict):
            return None
        record = cast("Mapping[str, object]", data)
        key = record.get("key")
        if not isinstance(key, str):
            return None
        return JournalEntry(key, result_from_json(record))
    except (ValueError, RecursionError):
        return None
