"""An override file's data, checked: every entry with its place, or every mistake with its span.

The JSON Schema (``schema.py``) says the same to editors; this check words each mistake for
people and points at it. The layout is in docs/overrides.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, cast

from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, Span, sort_diagnostics
from wink_decl.json_path import JSONPath, format_path
from wink_decl.loader import SourceMap
from wink_decl.overrides._hashing import HASH_PATTERN
from wink_decl.suggestions import did_you_mean

__all__ = ["ENTRY_KEYS", "Entry", "OverrideFile", "check_override_data"]

SECTION_PARTS: Final = ("template", "summary", "visibility")
TOOL_PARTS: Final = ("description", "params")
PARAM_PARTS: Final = ("description", "type", "default")
ENTRY_KEYS: Final = ("hash", "text")
VISIBILITIES: Final = ("full", "summary")


@dataclass(frozen=True, slots=True)
class Entry:
    """One override: what it replaces (its JSON path in the file), the base hash, the text."""

    path: JSONPath
    """``("sections", "intro", "template")``, ``("tools", "search", "params", "q", "type")``."""
    hash: str
    text: str
    hash_span: Span | None
    text_span: Span | None
    key_span: Span | None
    """The key of the section, tool or parameter the entry belongs to."""

    @property
    def label(self) -> str:
        """``sections.intro.template``, as messages name the entry."""
        return format_path(self.path)


@dataclass(frozen=True, slots=True, eq=False)
class OverrideFile:
    """The entries of one override file (one prompt, one tag), in file order.

    Compared by identity: a store hands out one object while the file is unchanged, so what
    was applied for it can be kept (docs/overrides.md).
    """

    path: str
    """The file as reports show it."""
    text: str
    entries: tuple[Entry, ...]


class _Checker:
    def __init__(self, spans: SourceMap) -> None:
        self.spans = spans
        self.entries: list[Entry] = []
        self.problems: list[Diagnostic] = []

    def mapping(
        self, value: object, path: JSONPath, allowed: tuple[str, ...] | None, what: str
    ) -> Mapping[str, object]:
        if not isinstance(value, dict):
            self.problem(
                path, f"{what[:1].upper()}{what[1:]} must be a mapping.", expected="a mapping"
            )
            return {}
        found = cast("dict[str, object]", value)
        if allowed is not None:
            for key in found:
                if key not in allowed:
                    self.unknown_key(key, path, allowed, what)
        return {key: item for key, item in found.items() if allowed is None or key in allowed}

    def unknown_key(self, key: str, path: JSONPath, allowed: tuple[str, ...], what: str) -> None:
        span = self.spans.key_span((*path, key)) or self.spans.nearest((*path, key))
        self.problems.append(
            Diagnostic(
                message=f"'{key}' is not a key of {what}.",
                span=span,
                code=DiagnosticCode.OVERRIDE_INVALID,
                expected=f"one of {', '.join(allowed)}",
                hint=did_you_mean(key, allowed) or "remove it",
            )
        )

    def problem(
        self, path: JSONPath, message: str, *, expected: str, hint: str | None = None
    ) -> None:
        self.problems.append(
            Diagnostic(
                message=message,
                span=self.spans.nearest(path),
                code=DiagnosticCode.OVERRIDE_INVALID,
                expected=expected,
                hint=hint,
            )
        )

    def entry(self, value: object, path: JSONPath, owner: JSONPath) -> None:
        what = f"the entry {format_path(path)}"
        fields = self.mapping(value, path, ENTRY_KEYS, what)
        if not isinstance(value, dict):
            return
        for name in ENTRY_KEYS:
            if name not in fields:
                self.problem(
                    path,
                    f"The entry {format_path(path)} has no {name}.",
                    expected="hash: and text:",
                    hint="'wink-decl overrides seed' writes every entry with both",
                )
        digest, text = fields.get("hash"), fields.get("text")
        if digest is not None and not (isinstance(digest, str) and HASH_PATTERN.fullmatch(digest)):
            self.problem(
                (*path, "hash"),
                f"The hash of {format_path(path)} is not a whole sha256 hash.",
                expected="sha256: and 64 lower-case hex digits",
                hint="copy the hash 'wink-decl overrides seed' writes; a short prefix is not "
                "enough",
            )
            return
        if text is not None and not isinstance(text, str):
            self.problem(
                (*path, "text"), f"The text of {format_path(path)} must be text.", expected="text"
            )
            return
        if path[-1] == "visibility" and text is not None and text not in VISIBILITIES:
            self.problem(
                (*path, "text"),
                f"'{text}' is not a visibility.",
                expected="one of full, summary",
                hint=did_you_mean(text, VISIBILITIES),
            )
            return
        if isinstance(digest, str) and isinstance(text, str):
            self.entries.append(
                Entry(
                    path,
                    digest,
                    text,
                    self.spans.value_span((*path, "hash")),
                    self.spans.value_span((*path, "text")),
                    self.spans.key_span(owner),
                )
            )


def check_override_data(
    data: object, source_map: SourceMap, *, path: str, text: str
) -> tuple[OverrideFile | None, list[Diagnostic]]:
    """The file's entries, or None and every mistake in its shape, sorted by position."""
    checker = _Checker(source_map)
    top = checker.mapping(data, (), ("sections", "tools"), "an override file")
    sections = checker.mapping(top.get("sections", {}), ("sections",), None, "sections")
    for key, parts in sections.items():
        where = ("sections", key)
        for part, value in checker.mapping(parts, where, SECTION_PARTS, f"section '{key}'").items():
            checker.entry(value, (*where, part), where)
    tools = checker.mapping(top.get("tools", {}), ("tools",), None, "tools")
    for name, parts in tools.items():
        where = ("tools", name)
        found = checker.mapping(parts, where, TOOL_PARTS, f"tool '{name}'")
        if "description" in found:
            checker.entry(found["description"], (*where, "description"), where)
        params = checker.mapping(found.get("params", {}), (*where, "params"), None, "params")
        for param, hints in params.items():
            at = (*where, "params", param)
            for part, value in checker.mapping(hints, at, PARAM_PARTS, f"param '{param}'").items():
                checker.entry(value, (*at, part), at)
    if checker.problems:
        return None, sort_diagnostics(checker.problems)
    return OverrideFile(path, text, tuple(checker.entries)), []
