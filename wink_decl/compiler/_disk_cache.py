"""Compile results kept on disk, keyed by content and signed, so later processes skip the work.

The cache is a hint, never an authority: whatever is in the folder (a shared CI cache may have
been restored from what a hostile pull request saved), the worst it can do is cost a compile.

Keys. One file per prompt file state: ``<folder>/<key>.json``. The key is a sha256 over the
wink-decl version, the installed plugins and the limits, the root and the file's path under it
(the ns and the reported paths come from them) and the file's bytes.

Entries. A header line, ``wink-decl.cache/2 <mac>``, then the JSON body: the diagnostics,
the artifact, the quoted sources, and every file the includes named with the digest of the
bytes the compile read (null: it did not exist). The mac is HMAC-SHA256 over the format, the
key (so an entry copied under another file's key does not verify) and the body.

The secret (``wink_decl.compiler._cache_key``) never lives in the cache folder:
``WINK_DECL_CACHE_KEY`` when set (at least 32 characters; CI passes a repository secret, which
runs for pull requests from forks cannot read), else a random key made on first use in the
user's state folder (``$XDG_STATE_HOME`` or ``~/.local/state``, ``wink-decl/cache-key``, mode
0600). The trade-off: a folder restored without the key that signed it is all misses (each
file is checked again and its entry re-signed with the key at hand), and so is every run on a
fresh CI machine without the variable. Without any usable key (a short variable, a home that
cannot be written) the cache is not used at all.

Reading an entry, in order, each failure a miss (the file is compiled again and its entry
rewritten), never an error:

1. ``lstat``: only a regular file of at most ``MAX_ENTRY_BYTES`` is opened (a FIFO or a link
   to ``/dev/zero`` is never opened); opened without following links or waiting, checked again
   with ``fstat``, read at most that many bytes.
2. The mac, compared in constant time, before any JSON is parsed: an entry edited to claim
   success, truncated or not JSON at all stops here.
3. The include list, re-checked: no more than ``max_include_files``; each path absolute,
   under the resolved root, without ``.``/``..`` parts, through folders that are not links;
   each read as the compile reads it (at most ``max_bytes + 1`` bytes) by ``read_regular``,
   so a special file there is refused unread and a file outside the root is never touched.

The registry's address index is one more entry, ``index_key()``, signed and read the same
way (``read_signed``/``write_signed``); its body is a hint the registry checks before use.
A check beyond a file's compile (its override files, for ``validate``) is kept as an entry
of its own, ``further_key()``: the file's content hash and every byte that check read.

Writes are atomic (``write_atomically``), so concurrent writers leave one whole entry.
Entries are data, never pickle: even a signed one cannot run code.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import stat
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from wink_decl._atomic import write_atomically
from wink_decl.compiler._cache_key import KEY_VARIABLE, MIN_KEY_CHARS, cache_secret
from wink_decl.compiler._once import computed_once
from wink_decl.compiler._regular import read_regular
from wink_decl.compiler._stamp import IncludeState, digest
from wink_decl.diagnostics import Diagnostic
from wink_decl.limits import DEFAULT_LIMITS, Limits
from wink_decl.version import __version__

__all__ = [
    "CACHE_FORMAT",
    "FURTHER_FORMAT",
    "INDEX_FORMAT",
    "MAX_ENTRY_BYTES",
    "CachedResult",
    "DiskCache",
    "cache_problem",
]

CACHE_FORMAT = "wink-decl.cache/2"
INDEX_FORMAT = "wink-decl.index/1"
"""The body of the address index entry (``wink_decl.compiler.registry``), signed the same way."""
FURTHER_FORMAT = "wink-decl.further/1"
"""Names the keys of checks beyond a file's compile (``further_key``): entries like a file's."""
MAX_ENTRY_BYTES = 16 << 20
"""A larger entry is neither read nor written: that file is compiled every time."""
_IGNORE_ALL = "# Written by wink-decl: a cache, safe to delete.\n*\n"
# The Cache Directory Tagging Specification: backup tools skip folders holding this file.
_CACHEDIR_TAG = "Signature: 8a477f597d28d172789f06886806bc55\n# wink-decl cache\n"
_CHANGED: Final = object()
"""An include's state that matches no stored one: refused, or not what the compile saw."""


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
    """Reads and writes the entries of prompts under ``root``; a problem is never an error.

    The cache only saves time, so an entry that is unreadable, too large, not a regular file,
    not signed with this key, or made from other includes counts as a miss.
    """

    def __init__(
        self,
        folder: str | Path,
        environment: str,
        root: str | Path,
        limits: Limits = DEFAULT_LIMITS,
    ) -> None:
        """``environment`` names what besides content decides a result (plugins, limits)."""
        self._folder = Path(folder)
        self._entries = os.path.join(folder, "")  # noqa: PTH118  # a str: no Path per hit
        self._root = Path(root)
        self._limits = limits
        context = [CACHE_FORMAT, __version__, environment, str(self._root.absolute())]
        # JSON: the fields cannot run into each other; NUL: neither can the path and content.
        self._keys = hashlib.sha256(json.dumps(context).encode() + b"\0")

    @computed_once
    def _secret(self) -> bytes | None:
        """The signing key, looked up on first use: a registry that never misses needs none."""
        return cache_secret(self._folder)

    @computed_once
    def _resolved_root(self) -> str:
        """The root as the compile resolves it, with a separator: includes lie under it.

        Resolved once per registry, as each compile does once; a NUL (under which nothing
        lies) when it cannot be resolved (a link loop; Python 3.11 raises RuntimeError).
        """
        try:
            return os.path.join(self._root.resolve(), "")  # noqa: PTH118  # a str per hit
        except (OSError, RuntimeError):
            return "\0"

    def key(self, path: str, content: bytes) -> str:
        """The entry name for ``path`` (as the registry displays it) holding ``content``."""
        material = self._keys.copy()
        material.update(os.fsencode(path) + b"\0" + content)
        return material.hexdigest()

    def index_key(self) -> str:
        """The entry name of the registry's address index: one per root, plugins and limits.

        No file's key can be this one: those hash a non-empty path before their NUL.
        """
        material = self._keys.copy()
        material.update(b"\0" + INDEX_FORMAT.encode())
        return material.hexdigest()

    def further_key(self, path: str, material: bytes) -> str:
        """The entry name of a check beyond the compile of ``path`` (``PromptRegistry``).

        ``material`` is what that check's answer is a function of besides the environment.
        No file's key can be this one (those hash a non-empty path before their NUL), nor the
        index's (its format comes alone).
        """
        digest = self._keys.copy()
        digest.update(b"\0%s\0%s\0" % (FURTHER_FORMAT.encode(), os.fsencode(path)) + material)
        return digest.hexdigest()

    def get(self, key: str) -> CachedResult | None:
        """The stored result, when its entry verifies and the files it included are unchanged."""
        body = self.read_signed(key)
        if body is None:
            return None
        try:
            entry = json.loads(body)
            return _result(entry) if self._current(entry["includes"]) else None
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
            return None  # signed but not ours after all (a leaked key): compile instead

    def read_signed(self, key: str) -> bytes | None:
        """The body of the entry ``key`` when it verifies (steps 1 and 2 above), else None."""
        secret = self._secret
        if secret is None:
            return None
        try:
            found = read_regular(f"{self._entries}{key}.json", MAX_ENTRY_BYTES, whole=True)
        except OSError:
            return None  # missing or unreadable: compile instead
        if found is None:
            return None  # not a regular file, or too large
        header, _, body = found[0].partition(b"\n")
        if not hmac.compare_digest(header, _header(secret, key, body)):
            return None  # not signed with this key, or changed since
        return body

    def put(
        self,
        key: str,
        *,
        diagnostics: Sequence[Diagnostic],
        sources: Mapping[str, str],
        artifact: Mapping[str, Any] | None,
        includes: Sequence[tuple[Path, IncludeState]],
    ) -> None:
        """Store one result atomically; a reader sees the old entry or the new, never half.

        ``includes`` pairs each file the includes named with its state as the compile read
        it. Digests taken now could describe a newer file than the one compiled, and the
        entry would then be wrong for as long as that file stays. A result whose includes
        could not be re-checked exactly (one was there but unreadable: a folder, a FIFO) or
        whose entry would be too large is not stored.
        """
        if len(includes) > self._limits.max_include_files or any(
            state.digest is None and state.stamp is not None for _, state in includes
        ):
            return
        entry = {
            "wink_decl": __version__,
            "includes": [[str(path), state.digest] for path, state in includes],
            "diagnostics": [d.to_json() for d in diagnostics],
            "sources": dict(sources),
            "artifact": artifact,
        }
        try:
            body = json.dumps(entry, ensure_ascii=False, sort_keys=True).encode("utf-8")
        except UnicodeEncodeError:
            return  # a lone surrogate in a text: nothing a later process could read back
        self.write_signed(key, body)

    def write_signed(self, key: str, body: bytes) -> None:
        """Sign ``body`` and store it atomically as the entry ``key``; quietly not, if unable."""
        secret = self._secret
        if secret is None:
            return
        data = _header(secret, key, body) + b"\n" + body
        if len(data) > MAX_ENTRY_BYTES:
            return  # no later process would read it
        try:
            self._prepare()
            write_atomically(self._folder / f"{key}.json", data)
        except OSError:
            return  # a read-only or full disk costs speed, not correctness

    def _prepare(self) -> None:
        if (self._folder / "CACHEDIR.TAG").exists():
            return
        self._folder.mkdir(parents=True, exist_ok=True)
        write_atomically(self._folder / ".gitignore", _IGNORE_ALL)
        write_atomically(self._folder / "CACHEDIR.TAG", _CACHEDIR_TAG)

    def _current(self, includes: list[Any]) -> bool:
        """True when every included file is still as the compile read it."""
        if len(includes) > self._limits.max_include_files:
            return False
        for path, stored in includes:
            if not isinstance(path, str) or self._state(path) != stored:
                return False
        return True

    def _state(self, path: str) -> object:
        """What the compile would find at ``path``: its digest, None when it does not exist.

        ``_CHANGED`` (equal to nothing stored) when it is not a place the compile reads: not
        under the root, through a link, not a regular file, or unreadable.
        """
        root = self._resolved_root
        if not path.startswith(root):
            return _CHANGED
        parts = path[len(root) :].split(os.sep)  # noqa: PTH206  # a str: no Path per hit
        if any(part in ("", ".", "..") for part in parts) or (os.altsep or "\0") in path:
            return _CHANGED  # the compile stores resolved paths: none has these
        folder = root
        try:
            for part in parts[:-1]:
                folder = os.path.join(folder, part)  # noqa: PTH118  # a str: no Path per hit
                if not stat.S_ISDIR(os.lstat(folder).st_mode):
                    return _CHANGED  # a link (or a file) where the compile found a folder
            found = read_regular(path, self._limits.max_bytes + 1)  # what a compile reads
        except FileNotFoundError:
            return None
        except OSError:
            return _CHANGED
        return _CHANGED if found is None else digest(found[0])


def cache_problem(folder: str | Path, environ: Mapping[str, str] = os.environ) -> str | None:
    """Why no entry could be kept in ``folder`` (a clause: "it is not a folder"); None: it can.

    The folder is made if missing, as the first entry written would make it. A cache that
    cannot be used is only ever a miss, never an error: without this question, a run that
    asked for one would be slower and never say why.
    """
    path = Path(folder)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        return "it is not a folder"
    except OSError as error:
        reason = error.strerror or type(error).__name__
        return f"it cannot be made ({reason[:1].lower()}{reason[1:]})"
    if not os.access(path, os.W_OK | os.X_OK):
        return "it cannot be written"
    if cache_secret(path, environ) is not None:
        return None
    if environ.get(KEY_VARIABLE):
        return f"{KEY_VARIABLE} is shorter than {MIN_KEY_CHARS} characters"
    return f"no key to sign its entries could be read or made (set {KEY_VARIABLE})"


def _header(secret: bytes, key: str, body: bytes) -> bytes:
    """``<format> <mac>``: the mac binds the body to this format and this key."""
    message = f"{CACHE_FORMAT}\0{key}\0".encode() + body
    return f"{CACHE_FORMAT} {hmac.digest(secret, message, 'sha256').hex()}".encode()


def _result(entry: Mapping[str, Any]) -> CachedResult:
    diagnostics = tuple(Diagnostic.from_json(item) for item in entry["diagnostics"])
    sources = {str(path): str(text) for path, text in entry["sources"].items()}
    return CachedResult(diagnostics, sources, entry["artifact"])
