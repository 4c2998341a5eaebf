"""``PromptRegistry``: a folder of prompt files, addressed as ``ns/key``, compiled lazily."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from wink_decl.compiler._disk_cache import CachedResult, DiskCache
from wink_decl.compiler._stamp import Stamp, stamp_of
from wink_decl.compiler.compile import (
    CompiledPrompt,
    CompileResult,
    compile_file,
    default_catalog,
)
from wink_decl.diagnostics import Diagnostic, DiagnosticError
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
    """

    def __init__(
        self,
        root: str | Path,
        *,
        catalog: PluginCatalog | None = None,
        cache_dir: str | Path | None = None,
    ) -> None:
        """Scan nothing yet; ``addresses()`` or ``get()`` will."""
        self._root = Path(root)
        self._catalog = catalog or default_catalog()
        self._cache: dict[str, _Entry] = {}
        self._addresses: dict[str, Path] | None = None
        self._disk = (
            None if cache_dir is None else DiskCache(cache_dir, self._catalog.fingerprint())
        )

    @property
    def root(self) -> Path:
        """The folder prompts are loaded from."""
        return self._root

    def files(self) -> list[Path]:
        """The prompt files under the root."""
        return find_prompt_files(self._root)

    def addresses(self) -> dict[str, Path]:
        """``ns/key`` -> file, for every file that loads and names itself."""
        if self._addresses is None:
            self._addresses = {}
            for path in self.files():
                result = self.compile(path)
                if result.prompt is not None:
                    self._addresses.setdefault(result.prompt.address, path)
        return dict(self._addresses)

    def __iter__(self) -> Iterator[str]:
        """The addresses, sorted."""
        return iter(sorted(self.addresses()))

    def get(self, address: str) -> CompiledPrompt:
        """The compiled prompt at ``ns/key``; ``DiagnosticError`` when it has errors."""
        addresses = self.addresses()
        path = addresses.get(address)
        if path is None:
            suggestion = did_you_mean(address, addresses)
            raise DiagnosticError(
                [
                    Diagnostic(
                        f"No prompt '{address}' under '{self._root}'.{suggestion}",
                        None,
                        "unknown-prompt",
                        expected=", ".join(sorted(addresses)) or "no prompts were found",
                        path=str(self._root),
                    )
                ]
            )
        result = self.compile(path)
        if result.prompt is None:
            raise DiagnosticError(result.diagnostics)
        return result.prompt

    def compile(self, path: str | Path) -> CompileResult:
        """Compile one file, from the cache when its content has not changed."""
        # The hit path is one stat() and a dict lookup: keep it free of Path objects.
        key = os.fspath(path)
        entry = self._cache.get(key)
        if entry is not None:
            stamp = stamp_of(key)
            if stamp is not None and entry.fresh(stamp):
                return entry.result
        read = _read(key)
        if read is None:
            return self._unreadable(key, entry)
        return self._recompile(key, *read, entry)

    def check(self, path: str | Path) -> CachedResult:
        """The diagnostics and artifact of one file: from memory, from disk, or compiled.

        This is what validation needs; it never builds a runtime prompt it does not have to.
        """
        key = os.fspath(path)
        entry = self._cache.get(key)
        if entry is not None:
            stamp = stamp_of(key)
            if stamp is not None and entry.fresh(stamp):
                return _cached(entry.result)
        read = _read(key)
        if read is None:
            return _cached(self._unreadable(key, entry))
        disk = self._disk
        if disk is not None:
            found = disk.get(disk.key(key, self._root, read[0]))
            if found is not None:
                return found
        return _cached(self._recompile(key, *read, entry))

    def _unreadable(self, key: str, entry: _Entry | None) -> CompileResult:
        """What compiling a file that cannot be read says.

        A path that is there but cannot be read (a folder, a file without permission) keeps
        its answer until it changes; a missing one is asked again next time.
        """
        stamp = stamp_of(key)  # before compile_file tries to read it
        result = compile_file(key, root=self._root, catalog=self._catalog)
        if stamp is not None:
            self._cache[key] = _Entry(stamp, None, result)
        if entry is not None:
            self._addresses = None  # the file was readable: its ns/key is gone
        return result

    def _recompile(
        self, key: str, content: bytes, stamp: Stamp, entry: _Entry | None
    ) -> CompileResult:
        """Compile ``content`` (the file's bytes, read now), unless it is what was compiled."""
        if entry is not None and entry.content == content and entry.fresh(entry.stamp):
            self._cache[key] = _Entry(stamp, content, entry.result, entry.includes)
            return entry.result
        result = compile_file(key, root=self._root, catalog=self._catalog, content=content)
        states = result.include_states
        includes = tuple((path, states[path].stamp) for path in result.includes)
        self._cache[key] = _Entry(stamp, content, result, includes)
        if entry is not None:
            self._addresses = None  # the file changed: its ns/key may have too
        if self._disk is not None:
            self._disk.put(
                self._disk.key(key, self._root, content),
                diagnostics=result.diagnostics,
                sources=result.sources,
                artifact=None if result.prompt is None else result.prompt.artifact,
                includes=[(path, states[path].digest) for path in result.includes],
            )
        return result


def _cached(result: CompileResult) -> CachedResult:
    artifact = None if result.prompt is None else result.prompt.artifact
    return CachedResult(result.diagnostics, result.sources, artifact)


def _read(path: str) -> tuple[bytes, Stamp] | None:
    """The file's bytes (as far as the loader would read them) and its state; None if gone."""
    try:
        return read_stamped(path)
    except OSError:
        return None
