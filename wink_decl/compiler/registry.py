"""``PromptRegistry``: a folder of prompt files, addressed as ``ns/key``, compiled lazily."""

from __future__ import annotations

import json
import os
import threading
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from typing_extensions import TypeIs

from wink_decl.compiler._claims import claimed_address
from wink_decl.compiler._disk_cache import INDEX_FORMAT, CachedResult, DiskCache
from wink_decl.compiler._prompt_files import PROMPT_SUFFIXES, find_prompt_files, prompt_paths
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
from wink_decl.suggestions import did_you_mean_sentence

__all__ = ["PROMPT_SUFFIXES", "CachedResult", "Found", "PromptRegistry", "find_prompt_files"]

Found = tuple[Sequence[Diagnostic], Mapping[str, str]]
"""What a check beyond the compile found: its diagnostics and the texts they quote."""


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
    plugins: int = 0
    """The catalog's ``generation`` before the compile: plugins installed or removed since
    invalidate this entry too."""

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

    Opening one reads nothing. ``get`` compiles only the file holding the address it is asked
    for: the address of every file is read from its ``key:``/``ns:`` lines (an unusual layout
    is compiled instead) and kept while the file is unchanged; with ``cache_dir``, which file
    holds which address is kept on disk too, signed the same way, so a new process opening
    10,000 files reads one entry and compiles one file. Those indexes are hints: the file
    found is compiled and its address checked before it is served (docs/security.md).
    ``addresses()``, iteration and an address no file has compile every file.

    One registry may be shared by any number of threads, while its files are edited, added
    and deleted: every answer is right for some version of the files. A file unchanged since
    its last compile costs one ``stat`` and no lock; a changed one is compiled once, by the
    first thread to ask, while the others asking for that file wait for its result.

    What it keeps in memory follows the files that exist: a file found gone (asked for, or
    missing from a scan of the root) is forgotten, and a file's lock lives only while a thread
    compiles it, so a long-running process whose files come and go does not grow. A file
    compiled before ``catalog.refresh()`` found other plugins installed is compiled again.
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
        self._locks: weakref.WeakValueDictionary[str, threading.Lock] = (
            weakref.WeakValueDictionary()
        )
        """One per file, taken only to compile it: unrelated files never wait for each other.

        Held weakly: a lock goes away once no thread holds it or waits for it."""
        self._locks_lock = threading.Lock()
        """Taken only to find or make a file's lock, so threads asking at once get one."""
        self._index: dict[str, Path] = {}
        """``ns/key`` -> file, as the last scan found them, and each lookup's find since.

        Replaced whole by a scan; a lookup adds what it served (one atomic ``dict`` step)."""
        self._claims: dict[str, tuple[Stamp, str | None]] = {}
        """The cheap index: file -> the address it claims (None: none) and its state then."""
        self._hints: Mapping[str, object] | None = None
        """``ns/key`` -> the first file claiming it (under the root), from the last lookup or
        the disk; a hint only: a path is checked when used, and what it names is compiled and
        its address checked before it is served."""
        self._cache_dir = cache_dir
        self._disks: tuple[int, DiskCache] | None = None
        """The disk cache and the catalog generation its keys were made for (``_disk``)."""

    @property
    def root(self) -> Path:
        """The folder prompts are loaded from."""
        return self._root

    @property
    def _disk(self) -> DiskCache | None:
        """The disk cache for the plugins installed now: made again when they change."""
        if self._cache_dir is None:
            return None
        plugins = self._catalog.generation  # before the fingerprint: a stale pair is made again
        disks = self._disks
        if disks is None or disks[0] != plugins:
            # A result depends on the plugins and the limits it was made under: in every key.
            environment = f"{self._catalog.fingerprint()}\0{self._limits!r}"
            disks = self._disks = (
                plugins,
                DiskCache(self._cache_dir, environment, self._root, self._limits),
            )
        return disks[1]

    def files(self) -> list[Path]:
        """The prompt files under the root."""
        return find_prompt_files(self._root)

    def addresses(self) -> dict[str, Path]:
        """``ns/key`` -> file, for every file that loads and names itself (the files now).

        When two files name the same address, the first in sorted order has it (validate
        warns of the others: ``wink_decl.compiler.unserved_files``).
        """
        index, _ = self._scan()
        return dict(index)

    def __iter__(self) -> Iterator[str]:
        """The addresses, sorted."""
        return iter(sorted(self.addresses()))

    def get(self, address: str) -> CompiledPrompt:
        """The compiled prompt at ``ns/key``; ``DiagnosticError`` when it has errors.

        The file found for ``address`` last time is asked first (one ``stat`` when it is
        unchanged), then the file the address index names (kept on disk with ``cache_dir``).
        When neither names ``address`` now, the files' addresses are read again cheaply
        (``_claims``: a ``stat`` for a file unchanged since) and only the files claiming
        ``address`` are compiled, first in sorted order first, so a file added, renamed or
        re-keyed since is found. Only when none of them compiles to ``address`` is every
        file compiled, as ``addresses()`` does, to report what is wrong.
        """
        known = self._index.get(address)
        if known is not None:
            prompt = self._serve(os.fspath(known), address)
            if prompt is not None:
                return prompt
        prompt = self._look_up(address)
        if prompt is not None:
            return prompt
        index, results = self._scan()
        path = index.get(address)
        if path is not None:
            return cast("CompiledPrompt", results[path].prompt)  # the scan's, for its version
        # A file deleted while the scan read it is gone, not broken: no prompt at the address.
        broken = None if known is None or not os.path.lexists(known) else results.get(known)
        if broken is not None and broken.prompt is None:
            raise DiagnosticError(broken.diagnostics)  # the file that had it has errors now
        suggestion = did_you_mean_sentence(address, index)
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
        return self._compiled(os.fspath(path), None)  # a str all the way: no Path per hit

    def _compiled(self, key: str, read: tuple[bytes, Stamp] | None) -> CompileResult:
        """``compile``, given the file's bytes and state when the caller has just read them."""
        result = self._hit(key)
        if result is None:
            with self._lock(key):
                # Whoever held the lock may have compiled this very version: ask again.
                result = self._hit(key) or self._compile(key, read)
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

    def check_further(
        self,
        path: str | Path,
        content_hash: str,
        inputs: bytes | None,
        further: Callable[[CompiledPrompt], Found],
    ) -> Found:
        """What ``further`` finds in the prompt at ``path``, kept on disk with ``cache_dir``.

        For checks of a valid prompt against files of its own (its override files):
        ``content_hash`` is the one ``check`` gave in its artifact (the file and its
        includes), ``inputs`` every byte ``further`` reads besides the prompt (None: they
        could not all be read, and the answer is not kept). Both key the entry, so an
        unchanged prompt with unchanged inputs is answered without compiling it.
        """
        key = os.fspath(path)
        disk = self._disk
        entry = None
        if disk is not None and inputs is not None:
            entry = disk.further_key(key, content_hash.encode() + b"\0" + inputs)
            kept = disk.get(entry)
            if kept is not None:
                return kept.diagnostics, kept.sources
        prompt = self.compile(key).prompt  # a hit when check just compiled it
        if prompt is None:  # it changed since it was checked: its next check reports why
            return (), {}
        found = further(prompt)
        # Kept only for the version checked: the file may have changed since.
        if disk is not None and entry is not None and prompt.content_hash == content_hash:
            diagnostics, sources = found
            disk.put(entry, diagnostics=diagnostics, sources=sources, artifact=None, includes=())
        return found

    def _hit(self, key: str) -> CompileResult | None:
        """The cached result when the file and its includes are unchanged, else None.

        The hit path: one ``stat`` and a dict lookup, no lock. Entries are never changed,
        only replaced whole, so a reader sees one version or the next, never a mix.
        """
        entry = self._cache.get(key)
        if entry is not None and entry.plugins == self._catalog.generation:
            stamp = stamp_of(key)
            if stamp is not None and entry.fresh(stamp):
                return entry.result
        return None

    # -- the miss path: one thread per file at a time ----------------------------------------

    def _lock(self, key: str) -> threading.Lock:
        """The lock of one file: threads asking while another holds it get that one.

        Asked on the miss path only, so the short wait for ``_locks_lock`` costs nothing a
        hit would notice.
        """
        with self._locks_lock:
            lock = self._locks.get(key)
            if lock is None:
                lock = self._locks[key] = threading.Lock()
            return lock

    def _compile(self, key: str, read: tuple[bytes, Stamp] | None) -> CompileResult:
        entry = self._cache.get(key)
        if read is None:  # read now unless the caller just did: each file is read once
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
        plugins = self._catalog.generation
        result = compile_file(key, root=self._root, catalog=self._catalog, limits=self._limits)
        if stamp is not None:
            self._cache[key] = _Entry(stamp, None, result, plugins=plugins)
        else:
            self._forget(key)
        return result

    def _forget(self, key: str) -> None:
        """Drop what is kept about a file that is gone (one atomic ``dict`` step each)."""
        self._cache.pop(key, None)
        self._claims.pop(key, None)

    def _forget_gone(self, listed: set[str]) -> None:
        """Forget the files a listing of the root no longer has and that no longer exist.

        A file compiled from outside the root, or not a prompt file by name, is kept while it
        exists. Replacing ``_index`` whole keeps its readers safe, as ``_scan`` does.
        """
        for key in tuple(self._cache):  # a copy made in one step: other threads may add
            if key not in listed and not os.path.lexists(key):
                self._forget(key)
        for key in tuple(self._claims):  # claims come from listings only
            if key not in listed:
                self._claims.pop(key, None)
        # A copy in one step: another thread may add an address to the index meanwhile.
        entries = tuple(self._index.items())
        kept = {address: path for address, path in entries if os.fspath(path) in listed}
        if len(kept) != len(entries):
            self._index = kept

    def _recompile(
        self, key: str, content: bytes, stamp: Stamp, entry: _Entry | None
    ) -> CompileResult:
        """Compile ``content`` (the file's bytes, read now), unless it is what was compiled."""
        plugins = self._catalog.generation
        if (
            entry is not None
            and entry.content == content
            and entry.plugins == plugins
            and entry.fresh(entry.stamp)
        ):
            self._cache[key] = _Entry(stamp, content, entry.result, entry.includes, plugins)
            return entry.result
        result = compile_file(
            key, root=self._root, catalog=self._catalog, content=content, limits=self._limits
        )
        states = result.include_states
        includes = tuple((path, states[path].stamp) for path in result.includes)
        self._cache[key] = _Entry(stamp, content, result, includes, plugins)
        # Plugins that changed during the compile may or may not be in the result: not stored.
        disk = self._disk if self._catalog.generation == plugins else None
        if disk is not None:
            disk.put(
                disk.key(key, content),
                diagnostics=result.diagnostics,
                sources=result.sources,
                artifact=None if result.prompt is None else result.prompt.artifact,
                includes=[(path, states[path]) for path in result.includes],
            )
        return result

    # -- addresses ---------------------------------------------------------------------------

    def _serve(
        self, path: str, address: str, read: tuple[bytes, Stamp] | None = None
    ) -> CompiledPrompt | None:
        """The prompt compiled from ``path`` (``read``: its bytes, just read) at ``address``."""
        prompt = self._compiled(path, read).prompt
        if prompt is None or prompt.address != address:
            return None
        self._index[address] = Path(path)
        return prompt

    def _look_up(self, address: str) -> CompiledPrompt | None:
        """The prompt at ``address`` found through the address index; None: not found so.

        The hinted file first; then the cheap index made again, and every file claiming
        ``address`` in sorted order (the one a full scan would serve: the first that
        compiles to it). A wrong hint or claim costs a compile, never a wrong prompt.
        """
        prefix = _prefix(self._root)
        hinted = self._hinted().get(address)
        if _relative_prompt(hinted):
            prompt = self._serve(prefix + hinted, address)
            if prompt is not None:
                return prompt
        listed = prompt_paths(self._root)
        self._forget_gone(set(listed))
        disk = self._disk
        if disk is None:
            return self._first_claiming(listed, address, prefix)
        return self._every_claim(listed, address, prefix, disk)

    def _every_claim(
        self, listed: list[str], address: str, prefix: str, disk: DiskCache
    ) -> CompiledPrompt | None:
        """Like ``_first_claiming``, every file read: the whole index goes to ``disk``."""
        claims: list[tuple[str, str | None]] = []
        fresh: dict[str, tuple[bytes, Stamp]] = {}  # files claiming address: compiled as read
        for path in listed:
            claimed, read = self._claim(path)
            claims.append((path, claimed))
            if claimed == address and read is not None:
                fresh[path] = read
        hints: dict[str, object] = {}
        for path, claimed in claims:
            if claimed is not None:
                hints.setdefault(claimed, path[len(prefix) :])
        self._publish(hints, disk)
        for path, claimed in claims:
            if claimed == address:
                prompt = self._serve(path, address, fresh.get(path))
                if prompt is not None:
                    return prompt
        return None

    def _first_claiming(
        self, listed: list[str], address: str, prefix: str
    ) -> CompiledPrompt | None:
        """The first file in ``listed`` (sorted) claiming ``address`` that compiles to it.

        What every claim read would find (None: no such file). Without a cache folder no
        index is written, so the files after it are not read: on average half of a large
        registry. The addresses read on the way become hints for the next lookup.
        """
        found: dict[str, object] = {}
        try:
            for path in listed:
                claimed, read = self._claim(path)
                if claimed is None:
                    continue
                found.setdefault(claimed, path[len(prefix) :])
                if claimed == address:
                    prompt = self._serve(path, address, read)
                    if prompt is not None:
                        return prompt
            return None
        finally:
            self._hints = {**self._hinted(), **found}

    def _claim(self, path: str) -> tuple[str | None, tuple[bytes, Stamp] | None]:
        """The address ``path`` claims now, and the bytes and state read for it (None: none).

        Remembered while the file's state is unchanged. Read from the file's ``key``/``ns``
        lines; when that reading is not sure (an unusual layout, a file that cannot be read),
        the file is compiled from the bytes read, and its address taken.
        """
        remembered = self._claims.get(path)
        if remembered is not None and remembered[0] == stamp_of(path):
            return remembered[1], None
        read = _read(path, self._limits)
        claimed = None if read is None else claimed_address(read[0], path, self._root)
        if claimed is None:
            prompt = self._compiled(path, read).prompt
            claimed = None if prompt is None else prompt.address
        if read is not None:
            self._claims[path] = (read[1], claimed)
        return claimed, read

    def _hinted(self) -> Mapping[str, object]:
        """The hints: the last lookup's, else the disk's (read once), else none."""
        hints = self._hints
        if hints is None:
            hints = self._hints = self._read_hints()
        return hints

    def _publish(self, hints: dict[str, object], disk: DiskCache) -> None:
        """Keep the hints a whole lookup made; on ``disk`` too when they changed."""
        if hints == self._hints:
            return
        self._hints = hints
        body = {"format": INDEX_FORMAT, "files": hints}
        disk.write_signed(disk.index_key(), json.dumps(body, sort_keys=True).encode())

    def _read_hints(self) -> Mapping[str, object]:
        """The index entry on disk, when it verifies and is well formed; else no hints.

        Signed (``DiskCache.read_signed``), yet only a hint: the one path a lookup uses is
        checked to be a prompt file's name under the root, and compiled before use.
        """
        disk = self._disk
        body = None if disk is None else disk.read_signed(disk.index_key())
        if body is None:
            return {}
        try:
            entry = json.loads(body)
            files: object = entry["files"] if entry["format"] == INDEX_FORMAT else {}
        except (ValueError, KeyError, TypeError, RecursionError):
            return {}  # signed but not ours after all: find the addresses again
        return cast("dict[str, object]", files) if isinstance(files, dict) else {}

    def _scan(self) -> tuple[dict[str, Path], dict[Path, CompileResult]]:
        """Compile every file (unchanged ones are hits) and publish the index they give.

        The index is built whole in a local and then swapped in with one assignment, so a
        reader sees the old index or the new one, never half of one. Each caller gets the
        index and results of its own scan.
        """
        files = self.files()
        self._forget_gone({os.fspath(path) for path in files})
        results = {path: self.compile(path) for path in files}
        index: dict[str, Path] = {}
        for path, result in results.items():
            if result.prompt is not None:
                index.setdefault(result.prompt.address, path)
        self._index = index
        return index, results


def _prefix(root: Path) -> str:
    """What the paths ``prompt_paths`` gives start with: the root and a separator."""
    top = os.fspath(root)
    return "" if top == os.curdir else os.path.join(top, "")  # noqa: PTH118


def _relative_prompt(path: object) -> TypeIs[str]:
    """True for a relative path, inside its root, naming a prompt file."""
    if not isinstance(path, str) or not path.lower().endswith(PROMPT_SUFFIXES):
        return False
    if os.path.isabs(path) or "\0" in path or (os.altsep or "\0") in path:  # noqa: PTH117
        return False
    return not any(part in ("", ".", "..") for part in path.split(os.sep))  # noqa: PTH206


def _cached(result: CompileResult) -> CachedResult:
    artifact = None if result.prompt is None else result.prompt.artifact
    return CachedResult(result.diagnostics, result.sources, artifact)


def _read(path: str, limits: Limits) -> tuple[bytes, Stamp] | None:
    """The file's bytes (as far as the loader would read them) and its state; None if gone."""
    try:
        return read_stamped(path, limits)
    except OSError:
        return None
