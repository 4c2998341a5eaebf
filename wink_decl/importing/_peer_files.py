"""Reading a peer's prompt file as every file is read: bounded, regular, inside its folder.

The file must be a regular file no larger than ``max_bytes`` whose real path lies in the
folder it is named in (a link leading out of it is refused, as the loader refuses a prompt
file linked out of its root), and UTF-8. Its YAML (the front matter of a ``.prompty`` or
``.prompt`` file, or a LangChain file whole) goes through the loader, with its limits on
depth, values and key length, and keeps the position of every value.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, Span
from wink_decl.loader import (
    FileKind,
    FileTooLargeError,
    Holds,
    Limits,
    LoadedFile,
    decode,
    load_text,
    read_bytes,
    read_problem,
)

__all__ = ["PEER_FILE", "FrontMatter", "read_peer_text", "split_front_matter"]

_ADVICE = "Split the prompt into smaller files before importing it"

PEER_FILE = FileKind(
    name="the file's front matter",
    holds={
        "yaml": Holds(
            "a mapping of keys such as 'name:' and 'model:'",
            hint="Write the settings as 'key: value' lines between the two '---' lines.",
        ),
    },
    size_advice=_ADVICE,
    values_advice=_ADVICE,
)
"""What a peer's YAML must hold: words for the loader's diagnostics."""


def read_peer_text(path: str, shown: str, limits: Limits) -> tuple[str | None, list[Diagnostic]]:
    """The text of the file at ``path``, or None and why it was not read."""
    outside = _linked_out(path, shown)
    if outside is not None:
        return None, [outside]
    try:
        content = read_bytes(path, limits)
    except FileTooLargeError as error:
        return None, [read_problem(error, shown, kind=PEER_FILE)]
    except OSError as error:
        return None, [read_problem(error, shown)]
    text, problems = decode(content, path=shown, max_bytes=limits.max_bytes, kind=PEER_FILE)
    return text, problems


def _linked_out(path: str, shown: str) -> Diagnostic | None:
    """Refuse a file whose real path is not in the folder it is named in."""
    folder = os.path.realpath(os.path.dirname(os.path.abspath(path)))  # noqa: PTH100, PTH120
    real = os.path.realpath(path)
    if os.path.dirname(real) == folder or real.startswith(folder + os.sep):  # noqa: PTH120
        return None
    return Diagnostic(
        message="This file is a symbolic link to a file outside its folder, so it is not read.",
        span=None,
        code=DiagnosticCode.OUTSIDE_ROOT,
        expected="a file whose real path lies inside the folder it is named in",
        hint="Copy the file itself into the folder, then import the copy.",
        path=shown,
    )


@dataclass(frozen=True, slots=True)
class FrontMatter:
    """The YAML between the ``---`` lines, loaded, and where the template after it starts."""

    file: LoadedFile
    """An empty mapping when there is no front matter (a template alone) or it is empty."""
    body_start: int
    """The offset in the text where the template starts."""


def split_front_matter(
    text: str, shown: str, limits: Limits, *, comments: bool = False
) -> tuple[FrontMatter | None, list[Diagnostic]]:
    """The front matter of ``text`` and the template's start; None and why when it is broken.

    Blank lines may come before the opening ``---`` (Prompty and Dotprompt both skip them),
    and with ``comments`` lines starting with ``#`` too (Dotprompt's licence headers). The
    YAML is read with the lines up to the opening ``---`` left blank, so that its spans, and
    the line numbers in the loader's hints, are the file's own.
    """
    opening, start = _opening_line(text, comments=comments)
    if opening is None:
        return FrontMatter(_nothing(shown, limits), 0), []
    closing = _closing_line(text, start)
    if closing is None:
        return None, [_unclosed(shown, opening)]
    yaml_text = text[start:closing]
    body_start = text.find("\n", closing)
    body_start = len(text) if body_start < 0 else body_start + 1
    if not yaml_text.strip():
        return FrontMatter(_nothing(shown, limits), body_start), []
    blank = "\n" * opening
    loaded = load_text(blank + yaml_text, path=shown, format="yaml", limits=limits, kind=PEER_FILE)
    if loaded.file is None:
        return None, list(loaded.diagnostics)
    return FrontMatter(loaded.file, body_start), []


def _opening_line(text: str, *, comments: bool) -> tuple[int | None, int]:
    """The line number of the opening ``---`` and the offset after it; None when there is none.

    One pass over the lines before it: blank ones, and ``#`` ones when ``comments``.
    """
    position, number = 0, 1
    while True:
        end = text.find("\n", position)
        line = text[position : len(text) if end < 0 else end].rstrip()
        if line == "---":
            return number, len(text) if end < 0 else end + 1
        if end < 0 or not (not line.strip() or (comments and line.startswith("#"))):
            return None, 0
        position, number = end + 1, number + 1


def _nothing(shown: str, limits: Limits) -> LoadedFile:
    """No settings: an empty mapping, read as any front matter is."""
    loaded = load_text("{}", path=shown, format="yaml", limits=limits, kind=PEER_FILE)
    assert loaded.file is not None  # noqa: S101 - '{}' is valid YAML under any limits
    return loaded.file


def _closing_line(text: str, start: int) -> int | None:
    """The offset of the ``---`` line that ends the front matter begun at ``start``."""
    position = start
    while True:
        end = text.find("\n", position)
        line = text[position : len(text) if end < 0 else end]
        if line.rstrip() == "---":
            return position
        if end < 0:
            return None
        position = end + 1


def _unclosed(shown: str, line: int) -> Diagnostic:
    return Diagnostic(
        message=f"The front matter opened by '---' on line {line} is never closed.",
        span=Span(shown, line, 1, line, 3),
        code=DiagnosticCode.IMPORT_INVALID,
        expected="a line '---' after the settings, then the template",
        hint="Add a line holding only '---' where the settings end.",
    )
