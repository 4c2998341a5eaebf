"""``PromptRegistry``: a folder of prompt files, addressed as ``ns/key``, compiled lazily."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from wink_decl.compiler._disk_cache import CachedResult, DiskCache
from wink_decl.compiler._stamp import Stamp, stamp_of
from wink_decl.compiler.compile import (
    CompiledPrompt,
    CompileResult,
    compile_file,
    default_catalog,
)
from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, DiagnosticError
from wink_decl.limits import DEFAULT_LIMITS, Limits
from wink_decl.loader import read_stamped
from wink_decl.plugins import PluginCatalog
from wink_decl.runtime._keys import did_you_mean

__all__ = ["PROMPT_SUFFIXES", "CachedResult", "PromptRegistry", "find_prompt_files"]

PROMPT_SUFFIXES = (".wink.yaml", ".wink.yml", ".wink.toml")


def find_prompt_files(root: str | Path) -> list[Path]:
    """Every ``*.wink.yaml|yml|toml`` under ``root``, sorted; hidden folders are skipped."""
    found: list[Path] = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found.extend(Path(folder, f) for f in files if f.lower().endswith(PROMPT_SUFFIXES))
    return sorted(found)


@dataclass(frozen=True)
class _Entry:
    """A cached compilation and the file state it was made from."""

    stamp: Stamp
    content: bytes | None
    """The bytes compiled (None: the file could not be read); saved again unchanged, a file is
    not compiled again."""
    result: CompileResult
    includes: tuple[tuple[Path, Stamp | None], ...] = ()
    """Included files and their state before they were read: a change there invalidates this
    entry too."""

    def fresh(self, stamp: Stamp) -> bool:
        """True when neither the file nor anything it includes has changed."""
        if self.stamp != stamp:
            return False
        return not self.includes or all(stamp_of(path) == seen for path, seen in self.includes)


class PromptRegistry:
    """Prompts under one root. Compiles on first use; recompiles only when a file changes.

    In memory, a file whose size and modification time are unchanged is not even read again,
    and one saved again with the same bytes is not compiled again. With ``cache_dir``, results
    are also kept on disk as JSON keyed by the content's hash, the wink-decl version and the
    installed plugins, so another process can ``check`` an unchanged file without compiling it.
    Entries there are signed with a key kept outside that folder and checked before use: one
    that does not verify (damaged, edited, from another machine) is a miss and is rewritten,
    never an error (see ``wink_decl.compiler._disk_cache``).

    One registry may be shared by any number of threads, while its files are edited, added
    and deleted: every answer is right for some version of the files. A file unchanged since
    its last compile costs one ``stat`` and no lock; a changed one is compiled once, by the
    first thread to ask, while the others asking for that file wait for its result.
    """

    def __init__(
        self,
        root: str | Path,
        *,
        catalog: PluginCatalog | None = None,
        cache_dir: str | Path | None = None,
        limits: Limits = DEFAULT_LIMITS,
    ) -> None:
        """Scan nothing yet; ``addresses()`` or ``get()`` will. ``limits`` bound every compile."""
        self._root = Path(root)
        self._limits = limits
        self._catalog = catalog or default_catalog()
        self._cache: dict[str, _Entry] = {}
        self._locks: dict[str, threading.Lock] = {}
        """One per file, taken only to compile it: unrelated files never wait for each other."""
        self._index: Mapping[str, Path] = {}
        """``ns/key`` -> file, as the last scan found them. Replaced whole, never changed."""
        self._disk = (
            None
            if cache_dir is None
            # A result depends on the limits it was made under, so they are part of every key.
            else DiskCache(
                cache_dir, f"{self._catalog.fingerprint()}\0{limits!r}", self._root, limits
            )
        )

    @property
    def root(self) -> Path:
        """The folder prompts are loaded from."""
        return self._root

    def files(self) -> list[Path]:
        """The prompt files under the root."""
        return find_prompt_files(self._root)

    def addresses(self) -> dict[str, Path]:
        """``ns/key`` -> file, for every file that loads and names itself (the files now).

        When two files name the same address, the first in sorted order has it.
        """
        index, _ = self._scan()
        return dict(index)

    def __iter__(self) -> Iterator[str]:
        """The addresses, sorted."""
        return iter(sorted(self.addresses()))

    def get(self, address: str) -> CompiledPrompt:
        """The compiled prompt at ``ns/key``; ``DiagnosticError`` when it has errors.

        The file found for ``address`` last time is asked first (one ``stat`` when it is
        unchanged); when it no longer names ``address``, the root is scanned again, so a file
        added, renamed or re-keyed since is found.
        """
        known = self._index.get(address)
        if known is not None:
            prompt = self.compile(known).prompt
            if prompt is not None and prompt.address == address:
                return prompt
        index, results = self._scan()
        path = index.get(address)
        if path is not None:
            return cast("CompiledPrompt", results[path].prompt)  # the scan's, for its version
        broken = None if known is None else results.get(known)
        if broken is not None and broken.prompt is None:
            raise DiagnosticError(broken.diagnostics)  # the file that had it has errors now
        suggestion = did_you_mean(address, index)
        raise DiagnosticError(
            [
                Diagnostic(
                    f"No prompt '{address}' under '{self._root}'.{suggestion}",
                    None,
                    DiagnosticCode.UNKNOWN_PROMPT,
                    expected=", ".join(sorted(index)) or "no prompts were found",
                    path=str(self._root),
                )
            ]
        )

    def compile(self, path: str | Path) -> CompileResult:
        """Compile one file, from the cache when its content has not changed."""
        key = os.fspath(path)  # a str all the way: a Path object per hit costs time
        result = self._hit(key)
        if result is None:
            with self._lock(key):
                # Whoever held the lock may have compiled this very version: ask again.
                result = self._hit(key) or self._compile(key)
        return result

    def check(self, path: str | Path) -> CachedResult:
        """The diagnostics and artifact of one file: from memory, from disk, or compiled.

        This is what validation needs; it never builds a runtime prompt it does not have to.
        """
        key = os.fspath(path)
        result = self._hit(key)
        if result is None:
            with self._lock(key):
                result = self._hit(key)
                return self._check(key) if result is None else _cached(result)
        return _cached(result)

    def _hit(self, key: str) -> CompileResult | None:
        """The cached result when the file and its includes are unchanged, else None.

        The hit path: one ``stat`` and a dict lookup, no lock. Entries are never changed,
        only replaced whole, so a reader sees one version or the next, never a mix.
        """
        entry = self._cache.get(key)
        if entry is not None:
            stamp = stamp_of(key)
            if stamp is not None and entry.fresh(stamp):
                return entry.result
        return None

    # -- the miss path: one thread per file at a time ----------------------------------------

    def _lock(self, key: str) -> threading.Lock:
        """The lock of one file (``setdefault``: two threads asking first get the same one)."""
        return self._locks.get(key) or self._locks.setdefault(key, threading.Lock())

    def _compile(self, key: str) -> CompileResult:
        entry = self._cache.get(key)
        read = _read(key, self._limits)
        if read is None:
            return self._unreadable(key)
        return self._recompile(key, *read, entry)

    def _check(self, key: str) -> CachedResult:
        entry = self._cache.get(key)
        read = _read(key, self._limits)
        if read is None:
            return _cached(self._unreadable(key))
        disk = self._disk
        if disk is not None:
            found = disk.get(disk.key(key, read[0]))
            if found is not None:
                return found
        return _cached(self._recompile(key, *read, entry))

    def _unreadable(self, key: str) -> CompileResult:
        """What compiling a file that cannot be read says.

        A path that is there but cannot be read (a folder, a file without permission) keeps
        its answer until it changes; a missing one is asked again next time.
        """
        stamp = stamp_of(key)  # before compile_file tries to read it
        result = compile_file(key, root=self._root, catalog=self._catalog, limits=self._limits)
        if stamp is not None:
            self._cache[key] = _Entry(stamp, None, result)
        return result

    def _recompile(
        self, key: str, content: bytes, stamp: Stamp, entry: _Entry | None
    ) -> CompileResult:
        """Compile ``content`` (the file's bytes, read now), unless it is what was compiled."""
        if entry is not None and entry.content == content and entry.fresh(entry.stamp):
            self._cache[key] = _Entry(stamp, content, entry.result, entry.includes)
            return entry.result
        result = compile_file(
            key, root=self._root, catalog=self._catalog, content=content, limits=self._limits
        )
        states = result.include_states
        includes = tuple((path, states[path].stamp) for path in result.includes)
        self._cache[key] = _Entry(stamp, content, result, includes)
        if self._disk is not None:
            self._disk.put(
                self._disk.key(key, content),
                diagnostics=result.diagnostics,
                sources=result.sources,
                artifact=None if result.prompt is None else result.prompt.artifact,
                includes=[(path, states[path]) for path in result.includes],
            )
        return result

    # -- addresses ---------------------------------------------------------------------------

    def _scan(self) -> tuple[dict[str, Path], dict[Path, CompileResult]]:
        """Compile every file (unchanged ones are hits) and publish the index they give.

        The index is built whole in a local and then swapped in with one assignment, so a
        reader sees the old index or the new one, never half of one. Each caller gets the
        index and results of its own scan.
        """
        results = {path: self.compile(path) for path in self.files()}
        index: dict[str, Path] = {}
        for path, result in results.items():
            if result.prompt is not None:
                index.setdefault(result.prompt.address, path)
        self._index = index
        return index, results


def _cached(result: CompileResult) -> CachedResult:
    artifact = None if result.prompt is None else result.prompt.artifact
    return CachedResult(result.diagnostics, result.sources, artifact)


def _read(path: str, limits: Limits) -> tuple[bytes, Stamp] | None:
    """The file's bytes (as far as the loader would read them) and its state; None if gone."""
    try:
        return read_stamped(path, limits)
    except OSError:
        return None
