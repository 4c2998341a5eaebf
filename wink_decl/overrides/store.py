"""Where override files live: one per prompt and tag, read like prompt files (docs/overrides.md)."""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Protocol

from wink_decl.compiler import Confinement, outside_root
from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic
from wink_decl.limits import DEFAULT_LIMITS, Limits
from wink_decl.loader import FileKind, Holds, load_file, read_stamped
from wink_decl.overrides._file import OverrideFile, check_override_data
from wink_decl.overrides.folder import default_overrides_root

__all__ = [
    "OVERRIDE_SUFFIXES",
    "TAG_PATTERN",
    "LocalOverrideStore",
    "OverrideLoad",
    "OverrideStore",
    "check_tag",
    "default_overrides_root",
]

OVERRIDE_SUFFIXES: Final = (".wink-override.yaml", ".wink-override.toml")
TAG_PATTERN: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
"""A tag is one file name: no dots or slashes, so it can never name a path elsewhere."""


def check_tag(tag: str) -> str:
    """``tag`` when it is a valid tag; ``ValueError`` saying what a tag is otherwise."""
    if not TAG_PATTERN.fullmatch(tag):
        raise ValueError(
            f"{tag!r} is not a tag: use 1-64 letters, digits, '_' or '-', starting with a "
            "letter or digit"
        )
    return tag


@dataclass(frozen=True, slots=True)
class OverrideLoad:
    """One prompt's override file for one tag: its entries, or None, and what was wrong.

    ``file`` is None without diagnostics when the prompt has no file for the tag (its base
    texts are used).
    """

    file: OverrideFile | None
    diagnostics: tuple[Diagnostic, ...] = ()
    sources: Mapping[str, str] = field(default_factory=dict[str, str])
    """File texts by display path, to quote lines in reports."""


class OverrideStore(Protocol):
    """Where overrides come from: a folder (``LocalOverrideStore``) or a store of your own."""

    def load(self, ns: str, key: str, tag: str) -> OverrideLoad:
        """The override file of prompt ``ns/key`` for ``tag``."""
        ...

    def tags(self, ns: str, key: str) -> Sequence[str]:
        """The tags prompt ``ns/key`` has override files for: a tag not among them is unknown.

        Asked only when ``load`` finds no file, to name the tags there are (docs/overrides.md).
        """
        ...


class LocalOverrideStore:
    """Override files under a folder: ``<root>/<ns>/<prompt-key>/<tag>.wink-override.yaml``.

    Files are read as prompt files are (a regular file, within ``limits``, its real path
    inside the root) and kept while their modification time and size stay the same.
    """

    def __init__(self, root: str | os.PathLike[str], *, limits: Limits = DEFAULT_LIMITS) -> None:
        """Read overrides from the folder ``root`` (it need not exist yet)."""
        self._root = Path(root)
        self._limits = limits
        self._kept: dict[str, tuple[tuple[int, int], OverrideLoad]] = {}
        self._lock = threading.Lock()

    @property
    def root(self) -> Path:
        """The overrides folder."""
        return self._root

    def folder_for(self, ns: str, key: str) -> Path:
        """The folder holding prompt ``ns/key``'s override files, one per tag."""
        return self._root.joinpath(*ns.split("/"), key)

    def path_for(self, ns: str, key: str, tag: str, *, suffix: str = OVERRIDE_SUFFIXES[0]) -> Path:
        """Where prompt ``ns/key``'s file for ``tag`` is (or would be) written."""
        return self.folder_for(ns, key) / f"{check_tag(tag)}{suffix}"

    def tags(self, ns: str, key: str) -> list[str]:
        """The tags prompt ``ns/key`` has override files for, sorted."""
        return sorted({tag for tag, _ in self._files(ns, key)})

    def fingerprint(self, ns: str, key: str) -> bytes | None:
        """What prompt ``ns/key``'s override files hold: each one's place and bytes, for a key.

        Checking a prompt's overrides is a function of these bytes (and of the prompt): a cache
        keyed by them is never stale. Files are read as ``load`` reads them (a regular file
        inside the folder, within the size limit); None when one cannot be, and then the
        check, which reports why, is not to be kept.
        """
        parts: list[bytes] = []
        for _, path in sorted(self._files(ns, key)):
            if outside_root(str(path), str(self._root), str(path)) is not None:
                return None
            try:
                content, _ = read_stamped(path, self._limits)
            except OSError:
                return None
            shown = os.fsencode(os.path.relpath(path))  # reports name the files so
            parts.append(b"%d\0%s\0%d\0%s" % (len(shown), shown, len(content), content))
        return b"".join(parts)

    def _files(self, ns: str, key: str) -> list[tuple[str, Path]]:
        """Each override file in prompt ``ns/key``'s folder with its tag (a valid one)."""
        folder = self.folder_for(ns, key)
        if not folder.is_dir():
            return []
        return [
            (tag, entry)
            for entry in folder.iterdir()
            for suffix in OVERRIDE_SUFFIXES
            if entry.name.endswith(suffix)
            and TAG_PATTERN.fullmatch(tag := entry.name.removesuffix(suffix))
        ]

    def files_by_address(self) -> dict[str, list[Path]]:
        """Every override file under the folder, by the ``ns/key`` its place names, sorted.

        Links are not followed: a linked folder is not part of the store's layout.
        """
        found: dict[str, list[Path]] = {}
        for folder, subfolders, names in os.walk(self._root):
            subfolders.sort()
            where = Path(folder)
            address = where.relative_to(self._root).as_posix()
            for name in sorted(names):
                if name.endswith(OVERRIDE_SUFFIXES) and address != ".":
                    found.setdefault(address, []).append(where / name)
        return found

    def load(self, ns: str, key: str, tag: str) -> OverrideLoad:
        """The override file of prompt ``ns/key`` for ``tag``; the same object while unchanged."""
        paths = [self.path_for(ns, key, tag, suffix=suffix) for suffix in OVERRIDE_SUFFIXES]
        present = [path for path in paths if os.path.lexists(path)]
        if not present:
            return OverrideLoad(None)
        if len(present) > 1:
            return OverrideLoad(None, (_two_files(present),))
        return self._read(present[0])

    def _read(self, path: Path) -> OverrideLoad:
        shown = os.path.relpath(path)
        refused = outside_root(str(path), str(self._root), shown, _OVERRIDE_CONFINEMENT)
        if refused is not None:
            return OverrideLoad(None, (refused,))
        try:
            info = path.stat()
        except OSError:  # a loop of links, or gone: the loader says which
            return _load(path, shown, self._limits)
        stamp = (info.st_mtime_ns, info.st_size)
        kept = self._kept.get(shown)
        if kept is not None and kept[0] == stamp:
            return kept[1]
        loaded = _load(path, shown, self._limits)
        with self._lock:
            self._kept[shown] = (stamp, loaded)
        return loaded


_OVERRIDE_HOLDS = Holds(
    "a mapping of 'sections' and 'tools'",
    hint="run 'wink-decl overrides seed' to write one holding every text, then edit it",
)
_KEEP_ADVICE = "Keep only the entries that differ from the prompt"
_OVERRIDE_FILE: Final = FileKind(
    name="an override file",
    holds={"yaml": _OVERRIDE_HOLDS, "toml": _OVERRIDE_HOLDS},
    size_advice=_KEEP_ADVICE,
    values_advice=_KEEP_ADVICE,
)
"""How the loader words its diagnostics for an override file."""
_OVERRIDE_CONFINEMENT: Final = Confinement(
    "This override file",
    "an override file",
    "the overrides folder",
    "Replace the link with the file itself, or choose an overrides folder that holds what it "
    "links to (--overrides).",
)
"""How a refused link names an override file and its folder."""


def _load(path: Path, shown: str, limits: Limits) -> OverrideLoad:
    result = load_file(path, display_path=shown, limits=limits, kind=_OVERRIDE_FILE)
    sources = {shown: result.text} if result.text is not None else {}
    if result.file is None:
        return OverrideLoad(None, result.diagnostics, sources)
    file, problems = check_override_data(
        result.file.data, result.file.source_map, path=shown, text=result.file.text
    )
    return OverrideLoad(file, tuple(problems), sources)


def _two_files(paths: list[Path]) -> Diagnostic:
    shown = [os.path.relpath(path) for path in paths]
    return Diagnostic(
        message=f"This tag has two override files: {shown[0]} and {shown[1]}.",
        span=None,
        code=DiagnosticCode.OVERRIDE_INVALID,
        expected="one file per prompt and tag",
        hint="Keep one of them and delete the other.",
        path=shown[0],
    )
