"""The prompt files a preview serves: those under its folder, named by their relative path."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from wink_decl.compiler import compile_file, default_catalog, find_prompt_files
from wink_decl.diagnostics import Diagnostic
from wink_decl.inputs import overrides_or_default
from wink_decl.limits import DEFAULT_LIMITS, Limits
from wink_decl.overrides import LocalOverrideStore

__all__ = ["Listed", "PromptFolder"]


@dataclass(frozen=True)
class Listed:
    """One prompt file on the list: its name on the page and the problems validate finds."""

    name: str
    problems: tuple[Diagnostic, ...]
    sources: dict[str, str]


@dataclass(frozen=True)
class PromptFolder:
    """PATH as the preview sees it: a folder searched for prompt files, or one prompt file.

    ``target`` is shown as given (diagnostics name files from it, as validate does); ``root``
    is the prompt root the files compile under; ``overrides`` the overrides folder the page's
    tags come from (default: ``overrides`` beside the root, as the command line finds it);
    ``strict`` counts a stale override as an error, as ``--strict`` does.
    """

    target: Path
    root: Path
    limits: Limits = DEFAULT_LIMITS
    overrides: Path | None = None
    strict: bool = False

    @property
    def overrides_root(self) -> Path:
        """The overrides folder: as given, else ``overrides`` beside the prompt root."""
        return overrides_or_default(self.overrides, self.root)

    def override_store(self) -> LocalOverrideStore:
        """The override files under ``overrides_root``, read within ``limits``."""
        return LocalOverrideStore(self.overrides_root, limits=self.limits)

    @property
    def base(self) -> Path:
        """The folder names on the page are relative to."""
        return self.target if self.target.is_dir() else self.target.parent

    def files(self) -> list[Path]:
        """Every prompt file served, as validate finds them (hidden folders skipped)."""
        if self.target.is_dir():
            return find_prompt_files(self.target)
        return [self.target] if self.target.is_file() else []

    def name_of(self, path: Path) -> str:
        """The name a file goes by on the page and in URLs: its path below ``base``."""
        return path.relative_to(self.base).as_posix()

    def resolve(self, name: str) -> Path | None:
        """The served file called ``name``; None for anything else.

        Absolute paths and ``..`` are refused before anything is looked up, and a name must
        be one of the listed files: nothing else on the machine can be reached from a URL.
        """
        parts = PurePosixPath(name).parts
        if not parts or name.startswith(("/", "\\")) or ".." in parts or "\\" in name:
            return None
        return next((path for path in self.files() if self.name_of(path) == name), None)

    def listing(self) -> list[Listed]:
        """Each file with its problems, as validate finds them (no plugin code is imported).

        Plugins installed or removed while the preview runs are seen (``refresh``).
        """
        default_catalog().refresh()
        listed: list[Listed] = []
        for path in self.files():
            found = compile_file(path, root=self.root, display_path=str(path), limits=self.limits)
            listed.append(Listed(self.name_of(path), found.diagnostics, dict(found.sources)))
        return listed
