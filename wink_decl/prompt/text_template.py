"""``string.Template`` text compiled once into literal runs and field slots."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from functools import lru_cache
from string import Template

from wink_decl.errors import PromptValidationError
from wink_decl.prompt.visibility import SectionPath

__all__ = ["CompiledText", "Slot", "compile_text", "compiled_or_none"]


@dataclass(slots=True, frozen=True)
class Slot:
    """A ``$name`` placeholder: the field whose value is substituted here."""

    name: str


Piece = str | Slot


@dataclass(slots=True, frozen=True)
class CompiledText:
    """Template text, dedented and stripped, as alternating literal text and slots."""

    pieces: tuple[Piece, ...]
    placeholders: frozenset[str]

    @property
    def is_empty(self) -> bool:
        """True when the text renders as the empty string whatever the params."""
        return not self.pieces

    def bind(self, names: dict[str, str]) -> CompiledText:
        """Replace the named slots by fixed text (used for ``${section_key}``)."""
        pieces: list[Piece] = []
        for piece in self.pieces:
            text = names.get(piece.name) if isinstance(piece, Slot) else piece
            _append(pieces, piece if text is None else text)
        return CompiledText(tuple(pieces), self.placeholders - names.keys())


def _append(pieces: list[Piece], piece: Piece) -> None:
    """Append, merging adjacent literal runs so renders touch as few pieces as possible."""
    if isinstance(piece, str):
        if not piece:
            return
        if pieces and isinstance(pieces[-1], str):
            pieces[-1] += piece
            return
    pieces.append(piece)


def compile_text(text: str, *, where: str, section_path: SectionPath = ()) -> CompiledText:
    """Dedent, strip and split ``text``; a stray ``$`` is refused with its line and column."""
    compiled = _split(text)
    if isinstance(compiled, tuple):
        source, index = compiled
        raise _invalid_dollar(source, index, where, section_path)
    return compiled


def compiled_or_none(text: str) -> CompiledText | None:
    """``text`` compiled, or None where ``compile_text`` refuses it (ask it for the error).

    For callers that compile many texts: the ``where`` of an error is built only for one.
    """
    compiled = _split(text)
    return compiled if isinstance(compiled, CompiledText) else None


_NO_NAMES: frozenset[str] = frozenset()


@lru_cache(maxsize=4096)
def _split(text: str) -> CompiledText | tuple[str, int]:
    """The compiled text, or the dedented source and the index of a stray ``$``.

    Cached: a prompt file's texts are split when the compiler checks them and again when the
    runtime sections are built, and equal texts recur across prompts.
    """
    # One line has nothing to dedent that strip() leaves; dedent's regexes cost ~1 us a text.
    source = textwrap.dedent(text).strip() if "\n" in text else text.strip()
    if "$" not in source:  # no placeholder, no escape: one literal run (or none), unscanned
        return CompiledText((source,) if source else (), _NO_NAMES)
    braced = _braced_only(source)
    return _pattern_split(source) if braced is None else braced


def _braced_only(source: str) -> CompiledText | None:
    """``source`` compiled when its every ``$`` opens a ``${name}``, else None.

    The common text, cut at each ``${`` by ``str.split``: the pattern's scan
    (``_pattern_split``) costs more than the rest of compiling a small prompt's text, and
    gives the same answer here. A name is the pattern's: ASCII letters, digits and '_', not
    starting with a digit.
    """
    head, *rest = source.split("${")
    if "$" in head:
        return None  # '$$', '$name' or a stray '$': the pattern decides
    pieces: list[Piece] = [head] if head else []
    names: list[str] = []
    for part in rest:
        name, brace, tail = part.partition("}")
        if not brace or "$" in tail or not (name.isascii() and name.isidentifier()):
            return None  # not a name, an unclosed brace, or another '$' after it: as above
        pieces.append(Slot(name))
        names.append(name)
        if tail:
            pieces.append(tail)
    return CompiledText(tuple(pieces), frozenset(names))


def _pattern_split(source: str) -> CompiledText | tuple[str, int]:
    """``source`` split by ``string.Template``'s pattern, or ``source`` and a stray ``$``."""
    pieces: list[Piece] = []
    names: set[str] = set()
    position = 0
    for match in Template.pattern.finditer(source):
        _append(pieces, source[position : match.start()])
        position = match.end()
        if match.group("escaped") is not None:
            _append(pieces, "$")
            continue
        name = match.group("named") or match.group("braced")
        if name is None:
            return source, match.start()
        names.add(name)
        pieces.append(Slot(name))
    _append(pieces, source[position:])
    return CompiledText(tuple(pieces), frozenset(names))


def _invalid_dollar(
    source: str, index: int, where: str, section_path: SectionPath
) -> PromptValidationError:
    line = source.count("\n", 0, index) + 1
    column = index - (source.rfind("\n", 0, index) + 1) + 1
    return PromptValidationError(
        f"Invalid placeholder in {where} at line {line}, column {column}: "
        "write $name or ${name}, and $$ for a literal '$'.",
        section_path=section_path,
    )
