"""A message's tokens as parts: paragraphs of text and variables, each part shown or not.

A condition around whole paragraphs (its tags alone on their lines) becomes a part of its
own with that condition, and its ``else`` a part with the opposite one. Everything else that
has no equivalent in wink-decl (loops, filters, helpers, partials, a condition inside a
paragraph) is cut out of the text and kept, with its place, to be written as a comment.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import cast

from wink_decl.importing._peer_tokens import Token

__all__ = ["Cut", "Part", "VarRef", "shape"]

_REST_OF_LINE = re.compile(r"[ \t]*(?:\r?\n|\Z)")


@dataclass(frozen=True, slots=True)
class VarRef:
    """A variable as the peer's template names it, and where."""

    name: str
    start: int


@dataclass(slots=True)
class Part:
    """Text (strings and variables) shown when ``condition`` holds (always when None)."""

    condition: dict[str, object] | None
    start: int
    pieces: list[str | VarRef] = field(default_factory=list[str | VarRef])


@dataclass(frozen=True, slots=True)
class Cut:
    """A construct cut out of the text: what it is and the range of the file it covers."""

    what: str
    start: int
    end: int
    warn: bool = True
    """False for a template comment: kept as a comment, nothing to finish by hand."""


@dataclass(slots=True)
class Shaped:
    """A message's parts in order, what was cut out, and the variables its conditions test."""

    parts: list[Part]
    cuts: list[Cut]
    tested: list[VarRef]


def shape(
    tokens: Sequence[Token], source: str, bounds: tuple[int, int], lists: Collection[str]
) -> Shaped:
    """The parts of the message written from ``bounds[0]`` to ``bounds[1]`` of ``source``.

    ``lists`` names the inputs that are lists: a Mustache section over one is a loop.
    """
    shaped = Shaped([Part(None, bounds[0])], [], [])
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token.kind in ("open", "odd-open"):
            stop = _matching(tokens, index)
            _block(shaped, tokens, index, stop, _Context(source, bounds, lists))
            index = len(tokens) if stop is None else stop + 1
            continue
        _piece(shaped, token)
        index += 1
    return shaped


@dataclass(frozen=True, slots=True)
class _Context:
    source: str
    bounds: tuple[int, int]
    lists: Collection[str]


def _piece(shaped: Shaped, token: Token) -> None:
    """A token outside any block: text, a variable, or something to cut out."""
    if token.kind == "text":
        shaped.parts[-1].pieces.append(token.text)
    elif token.kind == "var":
        shaped.parts[-1].pieces.append(VarRef(token.text, token.start))
    elif token.kind == "comment":
        shaped.cuts.append(Cut("a template comment", token.start, token.end, warn=False))
    elif token.kind in ("else", "close"):
        shaped.cuts.append(Cut("a closing tag without its opening", token.start, token.end))
    else:
        shaped.cuts.append(Cut(token.what, token.start, token.end))


def _matching(tokens: Sequence[Token], index: int) -> int | None:
    """The index of the tag that closes the block opened at ``index``; None when none does."""
    depth = 0
    for position in range(index, len(tokens)):
        kind = tokens[position].kind
        if kind in ("open", "odd-open"):
            depth += 1
        elif kind == "close":
            depth -= 1
            if depth == 0:
                return position
    return None


def _block(
    shaped: Shaped, tokens: Sequence[Token], index: int, stop: int | None, context: _Context
) -> None:
    """A block from ``tokens[index]`` to ``tokens[stop]``: a part of its own, or a cut."""
    opening = tokens[index]
    end = context.bounds[1] if stop is None else tokens[stop].end
    inner = tokens[index + 1 : len(tokens) if stop is None else stop]
    why = _why_not(opening, inner, stop, tokens, context)
    if why is not None:
        shaped.cuts.append(Cut(why, opening.start, end))
        return
    condition = opening.condition
    assert condition is not None  # _why_not refuses a block without one  # noqa: S101
    shaped.tested.extend(_tested(condition, opening.start))
    part = Part(condition, opening.start)
    shaped.parts.append(part)
    for token in inner:
        if token.kind == "else":
            part = Part(_negated(condition), token.start)
            shaped.parts.append(part)
        elif token.kind in ("text", "var"):
            _piece(Shaped([part], shaped.cuts, shaped.tested), token)
        else:
            _piece(shaped, token)
    shaped.parts.append(Part(None, end))


def _why_not(  # noqa: PLR0911 - one reason a return
    opening: Token,
    inner: Sequence[Token],
    stop: int | None,
    tokens: Sequence[Token],
    context: _Context,
) -> str | None:
    """Why the block cannot be a section with a condition; None when it can."""
    if opening.kind == "odd-open":
        return opening.what
    if opening.text in context.lists:
        return "a loop"
    if stop is None:
        return "a condition without its closing tag"
    if opening.condition is None or any(t.kind == "else" and t.text for t in inner):
        return "a condition wink-decl cannot express"
    if any(t.kind in ("open", "odd-open") for t in inner):
        return "a block inside a condition"
    if sum(t.kind == "else" for t in inner) > 1:
        return "a condition wink-decl cannot express"
    tags = [opening, *(t for t in inner if t.kind == "else"), tokens[stop]]
    if not all(_alone(tag, context) for tag in tags):
        return "a condition inside a paragraph"
    if not _paragraphs(tags, context):
        return "a condition inside a paragraph"
    return None


def _paragraphs(tags: Sequence[Token], context: _Context) -> bool:
    """True when the block's text is whole paragraphs, shown or not.

    A section is rendered apart from its neighbours by a blank line: every text the block
    joins (the one before it, each branch, the one after it) must be so already, or the
    imported prompt would read differently.
    """
    opening, closing = tags[0], tags[-1]
    before, after = _blank_before(opening, context), _blank_after(closing, context)
    branches = list(itertools.pairwise(tags))
    if len(branches) == 1 and not (before or after):  # shown or not: before meets after
        return False
    return all(
        (before or _blank_after(first, context)) and (after or _blank_before(last, context))
        for first, last in branches
    )


def _alone(tag: Token, context: _Context) -> bool:
    """True when ``tag`` is the only thing on its line but for spaces and tabs."""
    source, (start, end) = context.source, context.bounds
    before = tag.start
    while before > start and source[before - 1] in " \t":
        before -= 1
    if before > start and source[before - 1] != "\n":
        return False
    return _REST_OF_LINE.match(source, tag.end, end) is not None


def _blank_before(tag: Token, context: _Context) -> bool:
    """True when the line before ``tag``'s is blank, or ``tag``'s starts the message."""
    source, (start, _) = context.source, context.bounds
    line_start = max(start, source.rfind("\n", start, tag.start) + 1)
    if line_start <= start:
        return True
    previous = max(start, source.rfind("\n", start, line_start - 1) + 1)
    return not source[previous : line_start - 1].strip()


def _blank_after(tag: Token, context: _Context) -> bool:
    """True when the line after ``tag``'s is blank, or ``tag``'s ends the message."""
    source, (_, end) = context.source, context.bounds
    line_end = source.find("\n", tag.end, end)
    if line_end < 0:
        return True
    following = source.find("\n", line_end + 1, end)
    return not source[line_end + 1 : end if following < 0 else following].strip()


def _negated(condition: dict[str, object]) -> dict[str, object]:
    inner = condition.get("not")
    return inner if isinstance(inner, dict) else {"not": condition}  # pyright: ignore[reportUnknownVariableType]


def _tested(condition: dict[str, object], start: int) -> list[VarRef]:
    """The variable a condition tests (``param``, under ``not`` or ``equals``)."""
    node = condition
    while "param" not in node:  # the scanners' conditions hold one param, at most two deep
        node = cast("dict[str, object]", next(iter(node.values())))
    return [VarRef(str(node["param"]), start)]
