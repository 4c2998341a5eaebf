"""A prompt file is read only when its real path lies inside its prompt root.

A checkout from someone untrusted can hold ``review.wink.yaml`` as a symbolic link to any
file the reader may read (a key, a token). Reading it would quote its lines in the report,
which CI prints for everyone. Includes are held to the root the same way (``_includes``).
docs/security.md lists what this does not cover.
"""

from __future__ import annotations

import os
import stat
from typing import NamedTuple

from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic

__all__ = ["PROMPT_CONFINEMENT", "Confined", "Confinement", "confined", "outside_root"]


class Confinement(NamedTuple):
    """How a refusal names the kind of file and the folder it must lie in.

    Each kind of file held to a folder (prompt, override and eval files) gives its own words
    to ``outside_root``, so that no caller rewords the refusal after the fact.
    """

    subject: str
    """The message's subject: ``This override file``."""
    kind: str
    """The kind with its article: ``an override file``."""
    folder: str
    """The folder it must lie in: ``the overrides folder``."""
    hint: str


PROMPT_CONFINEMENT = Confinement(
    "This file",
    "a prompt file",
    "the prompt root",
    "Replace the link with the file itself, or choose a prompt root that holds what it links "
    "to (--root).",
)
"""The words for a prompt file, held to its prompt root."""


class Confined(NamedTuple):
    """What ``confined`` found: why the file may not be read, and its ``lstat`` if taken."""

    refusal: Diagnostic | None
    state: os.stat_result | None = None
    """The file's ``lstat`` when the check took one (no link on its way below the root), for
    the reader, which then need not take it again (``load_file``'s ``state``)."""


_READABLE_UNSEEN = Confined(None)


def outside_root(
    file_path: str, root: str, shown: str, words: Confinement = PROMPT_CONFINEMENT
) -> Diagnostic | None:
    """Why the file at ``file_path`` may not be read from ``root``, or None when it may.

    Refused: a path inside the root whose links lead out of it. A path the caller names
    outside the root is theirs to choose (the command never names one). ``realpath`` names
    the file a link leads to; a loop of links leaves a path the loader reports unopened.
    ``words`` name the kind of file and the folder in the refusal.
    """
    return confined(file_path, root, shown, words).refusal


def confined(
    file_path: str,
    root: str,
    shown: str,
    words: Confinement = PROMPT_CONFINEMENT,
    *,
    state: os.stat_result | None = None,
) -> Confined:
    """``outside_root``'s answer, with the file's ``lstat`` when the check took it.

    ``state`` is the file's ``os.lstat`` when the caller took it already (finding its root):
    the check uses it rather than look at the file again.
    """
    if state is not None and _named_in(file_path, root) and not stat.S_ISLNK(state.st_mode):
        return Confined(None, state)  # as ``_no_link_below`` finds, without absolute paths
    return _confined_by_paths(file_path, root, shown, words, state)


def _named_in(file_path: str, root: str) -> bool:
    """Whether ``file_path`` is ``root``, a separator and a name (no ``.`` or ``..``).

    Then no link lies on its way below the root but the file itself, whose ``lstat`` tells:
    most files are named so (``compile_file`` takes their folder as the root).
    """
    folder, _, name = file_path.rpartition(os.sep)
    return _ONE_SEPARATOR and folder == root and name not in _NOT_NAMES and not _climbs(root)


_ONE_SEPARATOR = os.altsep is None
"""Whether a name cannot hide another separator (Windows has two)."""
_NOT_NAMES = ("", os.curdir, os.pardir)


def _confined_by_paths(
    file_path: str, root: str, shown: str, words: Confinement, state: os.stat_result | None
) -> Confined:
    """``confined``'s answer from the absolute and real paths: any name, any root."""
    # os.path on strings: Path objects cost microseconds each, on every file compiled.
    named_root = os.path.abspath(root)  # noqa: PTH100
    state = _no_link_below(file_path, root, named_root, state)
    if state is not None:
        return Confined(None, state)
    real = os.path.realpath(file_path)
    # Most roots hold no link: their absolute path is their real one (one realpath saved).
    if _under(real, named_root) or _under(real, os.path.realpath(root)):
        return _READABLE_UNSEEN
    if not _under(os.path.abspath(file_path), named_root):  # noqa: PTH100
        return _READABLE_UNSEEN  # named outside the root by whoever called: their choice
    return Confined(
        Diagnostic(
            message=f"{words.subject} is a symbolic link to a file outside {words.folder}, so it "
            "is not read.",
            span=None,
            code=DiagnosticCode.OUTSIDE_ROOT,
            expected=f"{words.kind} whose real path lies inside {words.folder}",
            hint=words.hint,
            path=shown,
        )
    )


def _no_link_below(
    file_path: str, root: str, named_root: str, state: os.stat_result | None = None
) -> os.stat_result | None:
    """The file's ``lstat`` when it is named below the root and no part of that name is a link.

    Then its real path is the root's real path and that same name: inside, as ``realpath``
    would find, with one ``lstat`` a level below the root instead of one for every level of
    the whole path. A name with ``..`` is left to ``realpath`` (``link/..`` leads where the
    link does, not where the spelling does); so is a part that cannot be looked at (None).
    ``state``: the file's own ``lstat``, when the caller took it (not taken again).
    """
    # Strings, not Path objects: this runs for every file compiled.
    if _climbs(file_path) or _climbs(root):
        return None
    named = os.path.abspath(file_path)  # noqa: PTH100
    prefix = named_root.rstrip(os.sep) + os.sep
    if not named.startswith(prefix):
        return None
    level = prefix.rstrip(os.sep)
    *between, _ = named[len(prefix) :].split(os.sep)  # noqa: PTH206
    for part in between:
        level = f"{level}{os.sep}{part}"
        if _not_a_link(level) is None:
            return None
    if state is None:
        return _not_a_link(named)  # the last level: the file's own
    return None if stat.S_ISLNK(state.st_mode) else state


def _not_a_link(path: str) -> os.stat_result | None:
    """The ``lstat`` of ``path``; None for a link, or for a path missing or not ours to look at.

    ``realpath`` and the loader report those.
    """
    try:
        state = os.lstat(path)
    except OSError:
        return None
    return None if stat.S_ISLNK(state.st_mode) else state


def _climbs(path: str) -> bool:
    """Whether a part of ``path`` is ``..`` (the split only for a name that holds one)."""
    return _UP in path and _UP in path.split(os.sep)  # noqa: PTH206


_UP = os.pardir


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)
