"""Re-pin stale override entries: the new base hash written in place, the edited texts kept.

An entry records only the hash of the base text it was written for, never that text: the
current base text is what can be shown (docs/overrides.md, "Re-pinning stale entries").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic
from wink_decl.overrides._bases import bases_of
from wink_decl.overrides._hashing import text_hash

if TYPE_CHECKING:
    from wink_decl.overrides._file import Entry, OverrideFile
    from wink_decl.prompt.template import PromptTemplate

__all__ = ["StaleEntry", "repinned_text", "stale_entries"]


@dataclass(frozen=True, slots=True)
class StaleEntry:
    """An entry whose base text has changed since it was written, and that text now."""

    entry: Entry
    base_text: str
    """The base text as the prompt has it now."""
    base_hash: str
    """Its hash: what re-pinning writes."""


def stale_entries(template: PromptTemplate[Any], file: OverrideFile) -> tuple[StaleEntry, ...]:
    """The entries of ``file`` written for another base text than ``template`` has, in order.

    Unknown and refused entries are not stale: re-pinning cannot make them apply.
    """
    parts = bases_of(template).parts
    found: list[StaleEntry] = []
    for entry in file.entries:
        base = parts.get(entry.path)
        if base is None or base.refusal is not None:
            continue
        current = text_hash(base.text)
        if entry.hash != current:
            found.append(StaleEntry(entry, base.text, current))
    return tuple(found)


def repinned_text(
    file: OverrideFile, chosen: Sequence[StaleEntry]
) -> tuple[str | None, list[Diagnostic]]:
    """``file``'s text with each chosen entry's hash replaced by its base's, all else unchanged.

    Only the hash's characters change, so comments, quotes, order and layout stay as written,
    in YAML and TOML alike. A hash not written as plain text where its span says (an escape,
    a block scalar) is not rewritten: None and why, and nothing is to be written.
    """
    text = file.text
    starts = _line_starts(text)
    places: list[tuple[int, StaleEntry]] = []
    problems: list[Diagnostic] = []
    for stale in chosen:
        at = _hash_offset(text, starts, stale.entry)
        if at is None:
            problems.append(_not_in_place(stale))
        else:
            places.append((at, stale))
    if problems:
        return None, problems
    pieces: list[str] = []
    done = 0
    for at, stale in sorted(places, key=lambda place: place[0]):
        pieces.extend((text[done:at], stale.base_hash))
        done = at + len(stale.entry.hash)
    pieces.append(text[done:])
    return "".join(pieces), []


def _line_starts(text: str) -> list[int]:
    """The offset where each line begins (a line ends at a line feed, as the loaders count)."""
    starts = [0]
    starts.extend(index + 1 for index, char in enumerate(text) if char == "\n")
    return starts


def _hash_offset(text: str, starts: list[int], entry: Entry) -> int | None:
    """Where the entry's hash is written, inside its value's span (after a quote), or None."""
    span = entry.hash_span
    if span is None:
        return None
    begin = starts[span.line - 1] + span.column - 1
    end = starts[span.end_line - 1] + span.end_column
    at = text.find(entry.hash, begin, end)
    return at if at >= 0 and text[begin:at] in {"", "'", '"'} else None


def _not_in_place(stale: StaleEntry) -> Diagnostic:
    entry = stale.entry
    return Diagnostic(
        message=f"The hash of {entry.label} is not written as plain text, so it cannot be "
        "re-pinned in place; nothing was written.",
        span=entry.hash_span,
        code=DiagnosticCode.OVERRIDE_INVALID,
        expected=f"hash: {stale.base_hash}",
        hint="Write the hash on one line, without escapes, and run the command again.",
    )
