"""Compile results kept on disk as JSON, keyed by content, so later processes skip the work.

One file per prompt file state: ``<folder>/<key>.json``. The key covers the file's bytes, its
path under the root (the ns and the reported paths come from it), the wink-decl version and the
installed plugins; the entry lists the files the prompt includes with their digests, checked
on every hit. Entries are data (diagnostics, artifact, quoted sources), never pickle: a cache
folder from elsewhere can at worst claim a wrong result, never run code.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wink_decl import __version__
from wink_decl._atomic import write_atomically
from wink_decl.compiler._stamp import digest
from wink_decl.diagnostics import Diagnostic

__all__ = ["CACHE_FORMAT", "CachedResult", "DiskCache"]

CACHE_FORMAT = "wink-decl.cache/1"
_IGNORE_ALL = "# Written by wink-decl: a cache, safe to delete.\n*\n"
# The Cache Directory Tagging Specification: backup tools skip folders holding this file.
_CACHEDIR_TAG = "Signature: 8a477f597d28d172789f06886806bc55\n# wink-decl cache\n"


@dataclass(frozen=True)
class CachedResult:
    """What a compile found, as stored: enough to report it again without compiling."""

    diagnostics: tuple[Diagnostic, ...]
    sources: Mapping[str, str]
    """File texts by display path, for quoting lines."""
    artifact: Mapping[str, Any] | None
    """The compiled artifact; None when the file has errors."""

    @property
    def ok(self) -> bool:
        """True when nothing is an error."""
        return self.artifact is not None


class DiskCache:
    """Reads and writes entries under ``folder``; a problem with the folder is never an error.

    The cache only saves time, so an unreadable, corrupt or unwritable entry counts as a miss.
    """

    def __init__(self, folder: str | Path, environment: str) -> None:
        """``environment`` names what besides content decides a result (the plugins)."""
        self._folder = Path(folder)
        self._environment = f"{CACHE_FORMAT}\0{__version__}\0{environment}"

    def key(self, path: str, root: Path, content: bytes) -> str:
        """The entry name for ``path`` (as the registry displays it) holding ``content``."""
        where = f"{root.absolute()}\0{path}"
        material = f"{self._environment}\0{where}\0".encode() + content
        return hashlib.sha256(material).hexdigest()

    def get(self, key: str) -> CachedResult | None:
        """The stored result, when it exists and the files it included are unchanged."""
        try:
            entry = json.loads((self._folder / f"{key}.json").read_text(encoding="utf-8"))
            return _result(entry) if _current(entry) else None
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None  # missing, unreadable or not ours: compile instead

    def put(
        self,
        key: str,
        *,
        diagnostics: Sequence[Diagnostic],
        sources: Mapping[str, str],
        artifact: Mapping[str, Any] | None,
        includes: Sequence[tuple[Path, str | None]],
    ) -> None:
        """Store one result atomically; a reader sees the old entry or the new, never half.

        ``includes`` pairs each included file with the digest of the bytes the compile read
        (None: it could not be read). Digests taken now could describe a newer file than the
        one compiled, and the entry would then be wrong for as long as that file stays.
        """
        entry = {
            "format": CACHE_FORMAT,
            "wink_decl": __version__,
            "includes": [[str(path), digest] for path, digest in includes],
            "diagnostics": [d.to_json() for d in diagnostics],
            "sources": dict(sources),
            "artifact": artifact,
        }
        text = json.dumps(entry, ensure_ascii=False, sort_keys=True)
        try:
            self._prepare()
            write_atomically(self._folder / f"{key}.json", text)
        except OSError:
            return  # a read-only or full disk costs speed, not correctness

    def _prepare(self) -> None:
        if (self._folder / "CACHEDIR.TAG").exists():
            return
        self._folder.mkdir(parents=True, exist_ok=True)
        write_atomically(self._folder / ".gitignore", _IGNORE_ALL)
        write_atomically(self._folder / "CACHEDIR.TAG", _CACHEDIR_TAG)


def _current(entry: Mapping[str, Any]) -> bool:
    """True when the entry is ours and every included file still has the stored digest."""
    if entry["format"] != CACHE_FORMAT or entry["wink_decl"] != __version__:
        return False
    return all(_digest(Path(path)) == digest for path, digest in entry["includes"])


def _result(entry: Mapping[str, Any]) -> CachedResult:
    diagnostics = tuple(Diagnostic.from_json(item) for item in entry["diagnostics"])
    sources = {str(path): str(text) for path, text in entry["sources"].items()}
    return CachedResult(diagnostics, sources, entry["artifact"])


def _digest(path: Path) -> str | None:
    """sha256 of the file's bytes; None when it cannot be read (a missing include)."""
    try:
        return digest(path.read_bytes())
    except OSError:
        return None
