"""Reading a peer's prompt file as every file is read: bounded, regular, inside its folder.

The file must be a regular file no larger than ``max_bytes`` whose real path lies in the
folder it is named in (a link leading out of it is refused, as the loader refuses a prompt
file linked out of its root), and UTF-8. Its YAML (the front matter of a ``.prompty`` or
``.prompt`` file, or a LangChain file whole) goes through the loader, with its limits on
depth, values and key length, and keeps the position of every value.
"""

from __future__ import annotations

import dataclasses
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

    file: LoadedFile | None
    """None when there is no front matter (a template alone)."""
    line_offset: int
    """Lines before the YAML's first line: its spans are shifted by this many."""
    body_start: int
    """The offset in the text where the template starts."""


def split_front_matter(
    text: str, shown: str, limits: Limits
) -> tuple[FrontMatter | None, list[Diagnostic]]:
    """The front matter of ``text`` and the template's start; None and why when it is broken."""
    first = text.split("\n", 1)[0].rstrip("\r")
    if first.rstrip() != "---":
        return FrontMatter(None, 0, 0), []
    start = len(text.split("\n", 1)[0]) + 1
    closing = _closing_line(text, start)
    if closing is None:
        return None, [_unclosed(shown)]
    yaml_text = text[start:closing]
    body_start = text.find("\n", closing)
    body_start = len(text) if body_start < 0 else body_start + 1
    if not yaml_text.strip():
        return FrontMatter(None, 1, body_start), []
    loaded = load_text(yaml_text, path=shown, format="yaml", limits=limits, kind=PEER_FILE)
    if loaded.file is None:
        return None, [shifted(d, 1) for d in loaded.diagnostics]
    return FrontMatter(loaded.file, 1, body_start), []


def _closing_line(text: str, start: int) -> int | None:
    """The offset of the ``---`` line that ends the front matter begun at ``start``."""
    position = start
    while position <= len(text):
        end = text.find("\n", position)
        line = text[position : len(text) if end < 0 else end]
        if line.rstrip() == "---":
            return position
        if end < 0:
            return None
        position = end + 1
    return None


def shifted(diagnostic: Diagnostic, lines: int) -> Diagnostic:
    """``diagnostic`` moved down ``lines`` lines: from the front matter's text to the file's."""
    span = diagnostic.span
    if span is None or lines == 0:
        return diagnostic
    moved = Span(span.path, span.line + lines, span.column, span.end_line + lines, span.end_column)
    return dataclasses.replace(diagnostic, span=moved)


def _unclosed(shown: str) -> Diagnostic:
    return Diagnostic(
        message="The front matter opened by '---' on line 1 is never closed.",
        span=Span(shown, 1, 1, 1, 3),
        code=DiagnosticCode.IMPORT_INVALID,
        expected="a line '---' after the settings, then the template",
        hint="Add a line holding only '---' where the settings end.",
    )
