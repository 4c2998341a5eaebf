"""Placeholders and blocks of other template languages in a text: warnings with the fix.

A template reads ``$name`` and ``${name}`` only; ``{{name}}``, ``{name}`` or ``{% if %}``
written from habit would reach the model as written. What counts as such a mistake is in
``docs/diagnostics.md`` (``foreign-syntax``): chosen so that JSON, code and CSS in a
template are left alone.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Sequence
from typing import NamedTuple

from wink_decl.compiler._context import CompileContext
from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import clip
from wink_decl.loader import JSONPath

__all__ = ["check_foreign_syntax", "may_hold_foreign"]

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"

_DOUBLE = re.compile(
    rf"(?<!\$)\{{\{{[-~]?[ \t]*({_NAME})[ \t]*([|.(\[][^{{}}\n]*?)?[ \t]*[-~]?\}}\}}"
)
"""``{{name}}``, ``{{ name }}``, ``{{ name | upper }}``: Mustache, Handlebars, Jinja."""

_BLOCK = re.compile(
    rf"\{{%[-+]?[ \t]*({_NAME})?[^%\n]*?%\}}|\{{\{{[#/^][ \t]*({_NAME})?[^{{}}\n]*\}}\}}"
    rf"|\{{\{{[-~]?[ \t]*(else)[ \t]*[-~]?\}}\}}"
)
"""``{% if x %}``, ``{%- for ... %}``, ``{{#if x}}``, ``{{/if}}``, ``{{else}}``: blocks."""

_COMMENT = re.compile(r"\{#[^\n]*?#\}")
"""``{# note #}``: a Jinja comment, on one line."""

_SINGLE = re.compile(rf"(?<![$\{{])\{{({_NAME})\}}(?!\}})")
"""``{name}``: an f-string or LangChain placeholder, reported for a declared param only."""

_CONDITION = re.compile(rf"\{{(?:%[-+]?|\{{#)[ \t]*if[ \t]+({_NAME})[ \t]*[-+]?(?:%|\}})\}}")
"""``{% if name %}`` or ``{{#if name}}``: a condition on one param, which ``enabled:`` has."""

_BLOCK_HINT = (
    "templates have no blocks: conditions go in `enabled:`, on a section of its own for the "
    "text they guard; a loop has no equivalent: write the text out, or pass it in a param"
)


class _Found(NamedTuple):
    start: int
    written: str
    message: str
    hint: str


def check_foreign_syntax(
    ctx: CompileContext, path: JSONPath, text: str, names: Sequence[Collection[str]]
) -> None:
    """Warn at each placeholder, block or comment of another template language in ``text``.

    ``names`` hold the names the text may use (the params, and any the text adds):
    ``{name}`` alone is reported only for one of them.
    Each spelling is reported once, where it is first written. Most texts hold none: a
    caller asks ``may_hold_foreign`` first and skips this for them.
    """
    reported: set[str] = set()
    for found in sorted(_findings(text, names)):
        if found.written in reported:
            continue
        reported.add(found.written)
        ctx.error(
            DiagnosticCode.FOREIGN_SYNTAX,
            found.message,
            ctx.find_in_value(path, _pointer(found.written)),
            severity="warning",
            hint=found.hint,
        )


def may_hold_foreign(text: str) -> bool:
    """False when no pattern here can match: then the four scans are skipped.

    Asked before ``check_foreign_syntax``, so nothing is built to check most texts.

    Every finding holds ``{{``, ``{%`` or ``{#``, or a ``{`` after neither ``$`` nor ``{``;
    a text whose every ``{`` opens a ``${name}`` (most texts with a placeholder) has none.
    """
    if "{" not in text:
        return False
    return "{{" in text or "{%" in text or "{#" in text or text.count("{") != text.count("${")


def _findings(text: str, names: Sequence[Collection[str]]) -> Iterator[_Found]:
    blocks = [match.span() for match in _BLOCK.finditer(text)]
    for match in _BLOCK.finditer(text):
        yield _block(match)
    for match in _DOUBLE.finditer(text):
        if match.span() not in blocks:  # {{else}} is a block's
            yield _placeholder(match, extra=match.group(2))
    for match in _SINGLE.finditer(text):
        if any(match.group(1) in some for some in names):
            yield _placeholder(match, extra=None)
    for match in _COMMENT.finditer(text):
        written = match.group()
        yield _Found(
            match.start(),
            written,
            f"'{clip(written)}' is a comment of another template language: the model reads "
            "it as written.",
            "move the note to a # comment of the file, outside the text",
        )


def _placeholder(match: re.Match[str], extra: str | None) -> _Found:
    written, name = match.group(), match.group(1)
    hint = f"write ${{{name}}}"
    if extra:
        hint += "; a filter or attribute has no equivalent: pass the value ready to use"
    return _Found(
        match.start(),
        written,
        f"'{clip(written)}' is not a placeholder here: the model reads it as written.",
        hint,
    )


def _block(match: re.Match[str]) -> _Found:
    written = match.group()
    condition = _CONDITION.fullmatch(written)
    hint = _BLOCK_HINT
    if condition is not None:
        hint = (
            "conditions go in `enabled:`: put the text it guards in a section of its own "
            f"with enabled: {{param: {condition.group(1)}}}"
        )
    return _Found(
        match.start(),
        written,
        f"'{clip(written)}' is a block of another template language: the model reads it as "
        "written.",
        hint,
    )


def _pointer(written: str) -> str | re.Pattern[str]:
    """What finds ``written`` in the file: a ``{name}`` not inside ``${name}`` or ``{{name}}``."""
    if written.startswith(("{{", "{%", "{#")):
        return written
    return re.compile(rf"(?s).*?(?<![$\{{])({re.escape(written)})")
