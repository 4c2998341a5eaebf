"""Where a front end's files are: checking they exist, the prompt root, the overrides folder.

The messages name the command-line options (``--root``, ``--overrides``) since every front end
that takes these folders from a person takes them under those names.
"""

from __future__ import annotations

import functools
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import NamedTuple, TypeVar, cast

from wink_decl.compiler import PROMPT_SUFFIXES, find_prompt_files
from wink_decl.errors import InputError
from wink_decl.loader import load_file
from wink_decl.overrides import default_overrides_root
from wink_decl.suggestions import close_matches

__all__ = [
    "RootChoice",
    "RootSearch",
    "chosen_overrides",
    "configured_folder",
    "configured_root",
    "default_folder",
    "existing_path",
    "overrides_folder",
    "overrides_or_default",
    "path_text",
    "prompt_file",
    "root_finder",
]

_SUFFIXES = ", ".join(PROMPT_SUFFIXES)

_Folder = TypeVar("_Folder", str, Path)


def existing_path(text: str) -> Path:
    """``text`` as a path that exists; a usage error naming a close sibling otherwise."""
    path = Path(text)
    if path.exists():
        return path
    parent = path.parent
    siblings = sorted(p.name for p in parent.iterdir()) if parent.is_dir() else []
    match = next(iter(close_matches(path.name, siblings, most=1)), None)
    hint = None if match is None else f"did you mean '{parent / match}'?"
    raise InputError(f"no such file or folder: '{text}'", hint=hint)


def path_text(path: str | os.PathLike[str]) -> str:
    """``path`` as ``str(Path(path))`` writes it: as reports show it.

    No Path is made for a text written so already (no ``.`` part, no doubled or trailing
    separator), as most are.
    """
    text = os.fspath(path)
    if isinstance(path, PurePath) or (
        _PLAIN_SEPARATORS
        and text
        and "//" not in text
        and "/./" not in text
        and not text.startswith("./")
        and not text.endswith(_TRAILING)
    ):
        return text
    return str(Path(text))


_PLAIN_SEPARATORS = os.sep == "/" and os.altsep is None
"""Whether ``path_text`` may judge a text by its slashes: where no other separator exists."""
_TRAILING = ("/", "/.")


def prompt_file(text: str) -> Path:
    """``text`` as one existing prompt file (a folder or a missing file is a usage error)."""
    path = existing_path(text)
    if path.is_dir():
        found = find_prompt_files(path)
        hint = (
            f"pass one of its prompt files, such as '{found[0]}'"
            if found
            else f"it holds no prompt files ({_SUFFIXES})"
        )
        raise InputError(f"'{text}' is a folder; this command takes one prompt file", hint=hint)
    return path


def configured_root(start: Path) -> Path | None:
    """``[tool.wink-decl] root`` of the nearest ``pyproject.toml`` above ``start``, if set."""
    return configured_folder(start, "root")


def configured_folder(start: Path, key: str) -> Path | None:
    """``[tool.wink-decl] KEY`` (a folder) of the nearest ``pyproject.toml`` above ``start``."""
    for folder in (start, *start.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return _folder_setting(candidate, key)
    return None


def _folder_setting(pyproject: Path, key: str) -> Path | None:
    """The configured folder, which must lie inside the folder of its ``pyproject.toml``.

    The file comes with the checkout, so it is read as prompt files are (a regular file,
    bounded, linear), and it cannot widen what may be read: ``root = "/"`` would let an
    include quote any YAML file on the machine. ``--root`` is not held to this.
    """
    shown = _shown(pyproject)
    loaded = load_file(pyproject, display_path=shown)
    if loaded.file is None:
        problem = loaded.diagnostics[0]
        span = problem.span
        where = "" if span is None else f" (line {span.line}, column {span.column})"
        raise InputError(
            f"cannot read {shown}{where}: {problem.message}",
            hint=f"fix the file, or pass --{key} to choose {_WHAT[key][0]} yourself",
        )
    root = _setting(loaded.file.data, "tool", "wink-decl", key)
    if root is None:
        return None
    project = pyproject.parent
    if not isinstance(root, str) or "\0" in root or not (project / root).is_dir():
        raise InputError(
            f"{shown}: [tool.wink-decl] {key} = {root!r} is not a folder",
            hint=f"set {key} to a folder relative to that pyproject.toml, such as "
            f"'{_EXAMPLE[key]}'",
        )
    if not (project / root).resolve().is_relative_to(project.resolve()):
        raise InputError(
            f"{shown}: [tool.wink-decl] {key} = {root!r} lies outside the folder of that "
            "pyproject.toml",
            hint=f"set {key} to a folder inside the project, such as '{_EXAMPLE[key]}', or "
            f"pass --{key} to choose {_WHAT[key][1]} elsewhere",
        )
    return project / root


_WHAT = {
    "root": ("the prompt root", "a prompt root"),
    "overrides": ("the overrides folder", "an overrides folder"),
}
_EXAMPLE = {"root": "prompts", "overrides": "overrides"}


def _setting(data: object, *keys: str) -> object:
    """The value under ``keys`` in nested tables, or None where one is missing or no table."""
    for key in keys:
        if not isinstance(data, dict):
            return None
        data = cast("dict[str, object]", data).get(key)
    return data


def _shown(path: Path) -> str:
    """``path`` relative to the working directory, as people typed it."""
    return os.path.relpath(path)


class RootChoice(NamedTuple):
    """A prompt file's root, and what the file lies outside of (None: it lies inside)."""

    root: str
    outside: str | None = None


@dataclass(frozen=True, slots=True)
class RootSearch:
    """How every front end finds a prompt's root: the one copy of the rules.

    ``root`` (``--root``) wins and must hold the prompt file; else ``configured`` (the
    ``[tool.wink-decl] root`` setting, not read with a root given) when it holds the file;
    else the file's own folder (the folder itself for a folder). ``base`` is the folder a
    relative prompt path and an address start from (an eval file's folder). ``confined``: the
    path was chosen by a file, not a person (an eval file names its prompt), so without a
    root holding it, it must lie (links resolved) in the working folder, where the command
    runs. An address is looked up under ``root``, else ``configured``, else ``base``.
    """

    root: str | None = None
    configured: str | None = None
    base: str = os.curdir
    confined: bool = False

    @classmethod
    def given(cls, root: str | None) -> RootSearch:
        """The search for the root a person gave (None: the configured root is read, if any)."""
        configured = None if root is not None else configured_root(Path.cwd())
        return cls(root, None if configured is None else os.fspath(configured))

    def path(self, written: str) -> str:
        """``written`` (a prompt path) relative to ``base``, normalised."""
        return os.path.normpath(os.path.join(self.base, written))  # noqa: PTH118

    def file_root(self, path: str) -> RootChoice:
        """The prompt root of the file (or folder) at ``path``."""
        if self.root is not None:
            outside = None if _inside(path, self.root) else f"the prompt root '{self.root}'"
            return RootChoice(self.root, outside)
        if self.configured is not None and _inside(path, self.configured):
            return RootChoice(self.configured)
        own = self.own_folder(path)
        if self.confined and not _inside(path, os.curdir):
            return RootChoice(own, "the working folder")
        return RootChoice(own)

    @staticmethod
    def own_folder(path: str, state: os.stat_result | None = None) -> str:
        """The root of ``path`` when nothing else chooses one: a folder's own, or the file's.

        ``state`` is the path's ``os.lstat`` when the caller took it: unless it is a link, it
        tells a folder without another look.
        """
        if state is None or stat.S_ISLNK(state.st_mode):
            folder = os.path.isdir(path)  # noqa: PTH112
        else:
            folder = stat.S_ISDIR(state.st_mode)
        return path if folder else os.path.dirname(path) or os.curdir  # noqa: PTH120

    def address_root(self) -> str:
        """The folder an address ``ns/key`` is looked up under."""
        return self.root or self.configured or self.base


def default_folder() -> Path:
    """What a command with no file or folder given works on: the configured root, else here."""
    return configured_root(Path.cwd()) or Path()


def root_finder(explicit: str | None) -> Callable[[Path], Path]:
    """Where includes resolve and the default ns starts, for each file or folder given.

    ``--root`` wins and must contain every target; then the configured root for targets
    inside it; otherwise the folder given, or the file's folder (``RootSearch``).
    """
    if explicit is not None:
        root = existing_path(explicit)
        if not root.is_dir():
            raise InputError(f"--root '{explicit}' is not a folder")
    return functools.partial(_root_of, RootSearch.given(explicit))


def _root_of(search: RootSearch, target: Path) -> Path:
    choice = search.file_root(os.fspath(target))
    if choice.outside is not None:
        raise InputError(
            f"'{target}' lies outside the prompt root '{search.root}'",
            hint="pass a --root that contains it, or leave --root out",
        )
    return Path(choice.root)


def _inside(target: str | Path, root: str | Path) -> bool:
    # realpath, not resolve(): a loop of links raises RuntimeError there on 3.11 and 3.12.
    return Path(os.path.realpath(target)).is_relative_to(os.path.realpath(root))


def overrides_folder(explicit: str | None, prompt_root: Path, *, root_given: bool) -> Path:
    """``--overrides``, else the configured folder, else the prompt root's default folder.

    The default (``default_overrides_root``) is ``overrides`` beside the prompt root, or inside
    it where beside would lie above the folder the user named. With a root given
    (``--root``), the ``pyproject.toml`` is not read for the setting: the default is the one
    of the root given.
    """
    return overrides_or_default(chosen_overrides(explicit, root_given=root_given), prompt_root)


def overrides_or_default(chosen: _Folder | None, prompt_root: str | Path) -> _Folder | Path:
    """``chosen``, else the default overrides folder of ``prompt_root`` (docs/overrides.md)."""
    return chosen if chosen is not None else default_overrides_root(prompt_root)


def chosen_overrides(explicit: str | None, *, root_given: bool) -> Path | None:
    """``--overrides``, else the configured folder (not read with a root given), else None."""
    if explicit is not None:
        folder = existing_path(explicit)
        if not folder.is_dir():
            raise InputError(f"--overrides '{explicit}' is not a folder")
        return folder
    return None if root_given else configured_folder(Path.cwd(), "overrides")
