"""The tags of Jinja2, Mustache/Handlebars and f-string templates, found in one linear pass.

Each scanner turns a range of the file's text into tokens with their offsets in the file: text,
a variable, the parts of a condition, a role marker, and the constructs wink-decl has no
equivalent for. An unclosed tag ends the scan: the rest is one unsupported token, so no text
is read twice and the work stays linear in the size of the file.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

__all__ = ["Syntax", "Token", "scan"]

Syntax = Literal["jinja2", "mustache", "handlebars", "f-string"]
Kind = Literal["text", "var", "open", "else", "close", "role", "odd", "odd-open", "comment"]

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_LITERAL = r"(?P<value>\"[^\"]*\"|'[^']*'|-?\d+(?:\.\d+)?|true|false|True|False)"
_JINJA_IF = re.compile(
    rf"if\s+(?:(?P<not>not)\s+)?(?P<name>[A-Za-z_]\w*)(?:\s*(?P<op>==|!=)\s*{_LITERAL})?\Z"
)
_JINJA_BLOCKS = frozenset(
    {"for", "macro", "call", "filter", "block", "raw", "set", "with", "autoescape"}
)
"""Jinja2 tags that open a block closed by ``end<name>`` (``set`` only without ``=``)."""
_ROLE = re.compile(r"role\s+(?:\"(?P<double>[a-z]+)\"|'(?P<single>[a-z]+)')\Z")


@dataclass(frozen=True, slots=True)
class Token:
    """One piece of a template: ``start``/``end`` are offsets in the whole file."""

    kind: Kind
    start: int
    end: int
    text: str = ""
    """The literal text, the variable's name, the role, or the block's name for odd-open/close."""
    condition: dict[str, object] | None = field(default=None, compare=False)
    """For ``open``: the wink-decl condition, or None when it has no equivalent."""
    what: str = ""
    """For ``odd`` and ``odd-open``: what the construct is, in a few words."""


def scan(source: str, start: int, end: int, syntax: Syntax) -> list[Token]:
    """The tokens of ``source[start:end]`` written in ``syntax``."""
    if syntax == "f-string":
        return _scan_fstring(source, start, end)
    if syntax == "jinja2":
        return _scan_tags(source, start, end, ("{{", "{%", "{#"), _jinja_tag)
    read = _handlebars_tag if syntax == "handlebars" else _mustache_tag
    return _scan_tags(source, start, end, ("{{",), read)


TagReader = Callable[[str, str, int, int], Token]
"""(opening, inside, start, end) -> the tag's token."""


def _scan_tags(
    source: str, start: int, end: int, openings: tuple[str, ...], read: TagReader
) -> list[Token]:
    tokens: list[Token] = []
    position = start
    while position < end:
        found = _next_opening(source, position, end, openings)
        if found is None:
            _text(tokens, source, position, end)
            break
        opening, at = found
        _text(tokens, source, position, at)
        opening = "{{{" if opening == "{{" and source.startswith("{{{", at) else opening
        closing = _CLOSING[opening]
        if source.startswith("{{!--", at):
            opening, closing = "{{!--", "--}}"
        stop = source.find(closing, at + len(opening), end)
        if stop < 0:
            tokens.append(Token("odd", at, end, what="an unclosed tag"))
            break
        inside = source[at + len(opening) : stop]
        tokens.append(read(opening, inside, at, stop + len(closing)))
        position = stop + len(closing)
    return tokens


_CLOSING = {"{{": "}}", "{{{": "}}}", "{%": "%}", "{#": "#}", "{{!--": "--}}"}


def _next_opening(
    source: str, position: int, end: int, openings: tuple[str, ...]
) -> tuple[str, int] | None:
    """The first opening delimiter at or after ``position``, one ``find`` per kind of brace."""
    at = source.find("{", position, end)
    while at >= 0:
        for opening in openings:
            if source.startswith(opening, at):
                return opening, at
        at = source.find("{", at + 1, end)
    return None


def _text(tokens: list[Token], source: str, start: int, end: int) -> None:
    if start < end:
        tokens.append(Token("text", start, end, source[start:end]))


def _jinja_tag(opening: str, inside: str, start: int, end: int) -> Token:  # noqa: PLR0911 - a return a kind of tag
    body = inside.strip("-+ \t\r\n")
    if opening == "{#":
        return Token("comment", start, end)
    if opening == "{{":
        if _NAME.match(body):
            return Token("var", start, end, body)
        return Token("odd", start, end, what=_jinja_expression(body))
    word = body.split(None, 1)[0] if body else ""
    if word == "if":
        return Token("open", start, end, "if", _jinja_condition(body))
    if word == "else":
        return Token("else", start, end)
    if word == "elif":
        return Token("else", start, end, "elif")
    if word == "endif":
        return Token("close", start, end, "if")
    if word.startswith("end") and word[3:] in _JINJA_BLOCKS:
        return Token("close", start, end, word[3:])
    if word in _JINJA_BLOCKS and not (word == "set" and "=" in body):
        return Token("odd-open", start, end, word, what=_JINJA_WHAT.get(word, f"a {word} block"))
    return Token("odd", start, end, what=_JINJA_WHAT.get(word, _a_tag(word)))


_JINJA_WHAT = {
    "for": "a loop",
    "macro": "a macro",
    "call": "a macro call",
    "include": "an include",
    "import": "an import",
    "extends": "template inheritance",
    "set": "a variable assignment",
    "raw": "a raw block",
    "block": "a template block",
    "with": "a change of context",
    "autoescape": "an autoescape block",
}


def _a_tag(word: str) -> str:
    """'a do tag', 'an empty tag': a tag of a kind the scanner has no words for."""
    word = word or "empty"
    return f"{'an' if word[0] in 'aeiou' else 'a'} {word} tag"


def _jinja_expression(body: str) -> str:
    if "|" in body:
        return "a filter"
    return "an expression"


def _jinja_condition(body: str) -> dict[str, object] | None:
    match = _JINJA_IF.match(body)
    if match is None:
        return None
    name = match.group("name")
    if match.group("op") is None:
        test: dict[str, object] = {"param": name}
        return {"not": test} if match.group("not") else test
    if match.group("not"):
        return None
    equals: dict[str, object] = {"equals": {"param": name, "value": _literal(match["value"])}}
    return equals if match.group("op") == "==" else {"not": equals}


def _literal(text: str) -> object:
    if text[0] in "\"'":
        return text[1:-1]
    if text in {"true", "True", "false", "False"}:
        return text.lower() == "true"
    return float(text) if "." in text else int(text)


def _handlebars_tag(opening: str, inside: str, start: int, end: int) -> Token:
    """Mustache's tags, and Dotprompt's ``{{history}}``: a helper no variable shadows."""
    if opening == "{{" and inside.strip(" \t\r\n~") == "history":
        return Token("odd", start, end, what="the history helper")
    return _mustache_tag(opening, inside, start, end)


def _mustache_tag(opening: str, inside: str, start: int, end: int) -> Token:  # noqa: PLR0911 - a return a kind of tag
    body = inside.strip(" \t\r\n~")
    if opening == "{{!--" or body.startswith("!"):
        return Token("comment", start, end)
    if opening == "{{{":
        return _mustache_var(body, start, end)
    sigil, rest = body[:1], body[1:].strip()
    if sigil in "#^":
        return _mustache_open(sigil, rest, start, end)
    if sigil == "/":
        return Token("close", start, end, rest)
    if sigil == ">":
        return Token("odd", start, end, what="a partial")
    if body == "else":
        return Token("else", start, end)
    role = _ROLE.match(body)
    if role is not None:
        return Token("role", start, end, role.group("double") or role.group("single"))
    return _mustache_var(body, start, end)


def _mustache_var(body: str, start: int, end: int) -> Token:
    if _NAME.match(body) and body != "this":
        return Token("var", start, end, body)
    what = "a helper" if " " in body else "an expression"
    return Token("odd", start, end, what=what)


def _mustache_open(sigil: str, rest: str, start: int, end: int) -> Token:
    helper, _, argument = rest.partition(" ")
    argument = argument.strip()
    if sigil == "#" and helper in {"if", "unless"}:
        condition: dict[str, object] | None = None
        if _NAME.match(argument):
            condition = {"param": argument}
            condition = condition if helper == "if" else {"not": condition}
        return Token("open", start, end, helper, condition)
    if argument:
        return Token(
            "odd-open", start, end, helper, what=_HELPER_WHAT.get(helper, "a block helper")
        )
    if _NAME.match(helper):  # a Mustache section: a condition, or a loop over a list
        test: dict[str, object] = {"param": helper}
        return Token("open", start, end, helper, test if sigil == "#" else {"not": test})
    return Token("odd-open", start, end, helper, what="a block helper")


_HELPER_WHAT = {"each": "a loop", "with": "a change of context"}


def _scan_fstring(source: str, start: int, end: int) -> list[Token]:
    tokens: list[Token] = []
    literal: list[str] = []
    literal_start = position = start
    while position < end:
        at = _next_brace(source, position, end)
        if at < 0:
            literal.append(source[position:end])
            break
        literal.append(source[position:at])
        if source.startswith(("{{", "}}"), at):
            literal.append(source[at])
            position = at + 2
            continue
        if source[at] == "}":
            _flush(tokens, literal, literal_start, at)
            tokens.append(Token("odd", at, at + 1, what="a single '}'"))
            position = literal_start = at + 1
            continue
        stop = source.find("}", at + 1, end)
        _flush(tokens, literal, literal_start, at)
        if stop < 0:
            tokens.append(Token("odd", at, end, what="an unclosed tag"))
            return tokens
        inside = source[at + 1 : stop]
        if _NAME.match(inside):
            tokens.append(Token("var", at, stop + 1, inside))
        else:
            tokens.append(Token("odd", at, stop + 1, what="a format expression"))
        position = literal_start = stop + 1
    _flush(tokens, literal, literal_start, end)
    return tokens


def _next_brace(source: str, position: int, end: int) -> int:
    opening = source.find("{", position, end)
    closing = source.find("}", position, end)
    if opening < 0 or closing < 0:
        return max(opening, closing)
    return min(opening, closing)


def _flush(tokens: list[Token], literal: list[str], start: int, end: int) -> None:
    text = "".join(literal)
    literal.clear()
    if text:
        tokens.append(Token("text", start, end, text))
