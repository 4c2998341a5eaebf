"""ruamel's parser errors, rewritten for a person: what is wrong, where, and what to do."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, cast

from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, Span
from wink_decl.loader._text import LineIndex, quotable

if TYPE_CHECKING:
    from collections.abc import Mapping

    from wink_decl.loader._yaml_compose import Mark

_NAME = re.compile(r"[*&]?([^\s,\[\]{}]*)")
_INDENT = re.compile(r"[ \t]*")


class _Rule(NamedTuple):
    context: str  # a part of ruamel's context ("" matches any)
    problem: str  # a part of ruamel's problem
    char: str  # the character at the problem must be one of these ("" matches any)
    at: Literal["problem", "context"]  # where to point: the problem, or the construct's start
    message: str
    expected: str
    hint: str


_QUOTE_HINT = (
    "Add the closing {quote} at the end of the text; inside '...' write a quote as '', "
    'inside "..." as \\".'
)
_RULES = (
    _Rule(
        "quoted scalar",
        "unexpected",
        "",
        "context",
        "This quoted text is never closed.",
        "a closing {quote} at the end of the text",
        _QUOTE_HINT,
    ),
    _Rule(
        "",
        "unknown escape character",
        "",
        "problem",
        "'{escape}' is not a valid escape in double-quoted text.",
        'an escape such as \\n, \\t, \\" or \\\\',
        "Put text with backslashes in single quotes, or write each backslash twice (\\\\).",
    ),
    _Rule(
        "simple key",
        "could not find expected ':'",
        "",
        "context",
        "This line has no ':' after its key.",
        "key: value",
        "Add ': ' after the key, or indent the line further if it continues the text above.",
    ),
    _Rule(
        "",
        "mapping values are not allowed",
        "",
        "problem",
        "A ': ' here would start a new key, but a key cannot start here.",
        "one key per line, lined up with the keys above it",
        "If this is text, put the whole value in quotes; if it is a new key, start it on "
        "its own line, lined up with the other keys.",
    ),
    _Rule(
        "block mapping",
        "expected key",
        "-",
        "problem",
        "This list item is not inside a list: the lines above it are keys.",
        "a key lined up with the keys above it",
        "To write a list, put it under a key and indent it, as in 'items:' then '  - first'.",
    ),
    _Rule(
        "block mapping",
        "expected key",
        ":",
        "problem",
        "This ':' has no key before it.",
        "a key before the ':', such as title:",
        "Write the key before the ':'; if the ':' belongs to text, put the text in quotes.",
    ),
    _Rule(
        "block mapping",
        "expected key",
        "]}",
        "problem",
        "This '{char}' closes a bracket that was never opened.",
        "a key, or the end of the file",
        "Remove the '{char}', or add the opening bracket that it closes.",
    ),
    _Rule(
        "block mapping",
        "expected key",
        "",
        "problem",
        "This line is indented differently from the lines around it.",
        "a key lined up with the keys above it",
        "Indent the keys of one mapping by the same number of spaces, and a nested value "
        "further than its key.",
    ),
    _Rule(
        "block collection",
        "expected '-'",
        "",
        "problem",
        "This line is indented differently from the list items around it.",
        "a list item ('- ') lined up with the items above it",
        "If this line belongs to the item above, indent it like that item's keys; if it "
        "starts a new item, begin it with '- ' at the column of the '- ' above.",
    ),
    _Rule(
        "flow sequence",
        "",
        "",
        "problem",
        "This list is missing a ',' between items or its closing ']'.",
        "',' or ']'",
        "The list opens with '[' on line {context_line}; separate its items with commas and "
        "close it with ']'.",
    ),
    _Rule(
        "flow mapping",
        "",
        "",
        "problem",
        "This mapping is missing a ',' between entries or its closing '}}'.",
        "',' or '}}'",
        "The mapping opens with '{{' on line {context_line}; separate its entries with "
        "commas and close it with '}}'.",
    ),
    _Rule(
        "plain scalar",
        "unexpected ':'",
        "",
        "problem",
        "Between brackets, a ':' inside a value needs quotes.",
        'the value in quotes, such as "openai:gpt-4.1"',
        "Put the value in quotes, or write the list or mapping over several lines without "
        "brackets.",
    ),
    _Rule(
        "",
        "undefined alias",
        "",
        "problem",
        "The alias '*{name}' refers to an anchor '&{name}' that is not defined above it.",
        "an anchor '&{name}' on a value earlier in the file",
        "Mark a value above with '&{name}'; if the '*' belongs to your text, put it in quotes.",
    ),
    _Rule(
        "duplicate anchor",
        "",
        "",
        "problem",
        "The anchor '&{name}' is defined twice (first on line {context_line}).",
        "each anchor name once",
        "Give each anchor its own name.",
    ),
    _Rule(
        "",
        "cannot start any token",
        "",
        "problem",
        "A value cannot start with '{char}'.",
        "text, a number, true or false, a list or a mapping",
        "Put the value in quotes if the '{char}' belongs to the text.",
    ),
    _Rule(
        "",
        "expected node content",
        "",
        "problem",
        "A value is missing here, or it starts with a character that needs quotes.",
        "a value",
        "Put text that starts with a character such as , [ ] {{ }} # & * ! | > % @ in quotes.",
    ),
)
_JARGON = (
    ("end of stream", "end of the file"),
    ("document indicator", "'---' line"),
    ("<document start>", "'---'"),
    ("<block end>", "the end of the indented block"),
    ("<stream end>", "the end of the file"),
)


def syntax_diagnostic(text: str, path: str, error: Exception) -> Diagnostic:
    """One diagnostic for ruamel's ``MarkedYAMLError`` (or subclass) ``error``."""
    info: dict[str, object] = vars(error)
    problem = str(info.get("problem") or "")
    context = str(info.get("context") or "")
    lines = LineIndex(text, "yaml")
    problem_at = _index(cast("Mark | None", info.get("problem_mark")), text)
    context_at = _index(cast("Mark | None", info.get("context_mark")), text)
    if problem_at is None:
        problem_at = 0 if context_at is None else context_at
    if context_at is None:
        context_at = problem_at
    tab = _tab_in_indentation(text, lines, problem_at)
    if tab is not None:
        return _tab(Span(path, *lines.position(tab)))
    if "another document" in problem:
        return _multiple_documents(Span(path, *lines.position(problem_at)))
    swallowed = _swallowing_quote(text, lines, problem_at)
    if swallowed is not None:
        return _swallowed(path, text, lines, swallowed)
    char = text[problem_at : problem_at + 1]
    fields = {
        "char": char,
        "quote": text[context_at : context_at + 1],
        "escape": text[problem_at : problem_at + 2],
        "name": next(_NAME.finditer(text, problem_at)).group(1),
        "context_line": lines.position(context_at)[0],
    }
    for rule in _RULES:
        if _applies(rule, context, problem, char):
            at = context_at if rule.at == "context" else problem_at
            return Diagnostic(
                message=rule.message.format_map(fields),
                span=Span(path, *lines.position(at)),
                code=DiagnosticCode.YAML_SYNTAX,
                expected=rule.expected.format_map(fields),
                hint=rule.hint.format_map(fields),
            )
    return _fallback(path, problem, context, fields, lines.position(problem_at))


_VALUE_QUOTE = re.compile(r"""[ \t]*(?:-[ \t]+)*(?:[^\s#'"][^#'"\n]*?:[ \t]+)?(["'])""")
"""A line whose value (after any '- ' and 'key: ') starts with a quote: group 1 is it."""
_QUOTED = {
    '"': re.compile(r'"(?:[^"\\]|\\[\s\S])*"'),
    "'": re.compile(r"'(?:[^']|'')*'"),
}
_KEY_LINE = re.compile(r"^[ \t]*(?:-[ \t]+)?[\w.-]+:(?:[ \t]|$)", re.MULTILINE)


def _swallowing_quote(text: str, lines: LineIndex, problem_at: int) -> tuple[int, int] | None:
    """Where a quote opens and closes that runs over key-like lines to the problem's line.

    None when there is none. A quote left open takes every line up to the next quote of its
    kind as its text, and ruamel reports what follows that quote, lines below the mistake.
    """
    problem_line = lines.position(problem_at)[0]
    start = 0
    while start < problem_at:
        line_end = text.find("\n", start)
        line_end = len(text) if line_end < 0 else line_end
        found = _VALUE_QUOTE.match(text, start, line_end)
        if found is None:
            start = line_end + 1
            continue
        opens = found.start(1)
        closed = _QUOTED[found.group(1)].match(text, opens)
        if closed is None:
            return None  # never closed: the rule for an unclosed quote says so
        closes = closed.end() - 1
        inside = text[opens:closes]
        if lines.position(closes)[0] == problem_line and _KEY_LINE.search(inside, 1):
            return opens, closes
        start = text.find("\n", closes) + 1 or len(text)
    return None


def _swallowed(path: str, text: str, lines: LineIndex, where: tuple[int, int]) -> Diagnostic:
    opens, closes = where
    quote = text[opens]
    open_line = lines.position(opens)[0]
    close_line = lines.position(closes)[0]
    return Diagnostic(
        message=f"The quote opened on line {open_line} is not closed on that line, so the "
        f"text runs on to the next {quote} on line {close_line} and takes in the lines "
        "between.",
        span=Span(path, *lines.position(opens)),
        code=DiagnosticCode.YAML_SYNTAX,
        expected=f"a closing {quote} on line {open_line}",
        hint=f"Close the text on line {open_line} with {quote}; inside '...' write a quote "
        'as \'\', inside "..." as \\".',
    )


def reader_diagnostic(text: str, path: str, error: Exception) -> Diagnostic:
    """A character that YAML does not allow (ruamel's ``ReaderError``; its offset is in bytes)."""
    info: dict[str, Any] = vars(error)  # ruamel's untyped error: position, character
    offset = int(info.get("position") or 0)
    index = quotable(text, len(text.encode("utf-8")[:offset].decode("utf-8", errors="ignore")))
    code_point = ord(text[index]) if index < len(text) else int(info.get("character") or 0)
    return Diagnostic(
        message=f"This file contains the character U+{code_point:04X}, which YAML does not allow.",
        span=Span(path, *LineIndex(text, "yaml").position(index)),
        code=DiagnosticCode.YAML_SYNTAX,
        expected="printable text",
        hint="Delete the character (most editors do not show it); to keep it in text, write "
        f'it as the escape "\\u{code_point:04X}" inside double quotes.',
    )


def _applies(rule: _Rule, context: str, problem: str, char: str) -> bool:
    return (
        rule.context in context
        and rule.problem in problem
        and (not rule.char or (char != "" and char in rule.char))
    )


def _fallback(
    path: str, problem: str, context: str, fields: Mapping[str, str | int], at: tuple[int, int]
) -> Diagnostic:
    """Ruamel's own words, without its jargon, for the problems not rewritten above."""
    for jargon, plain in _JARGON:
        problem = problem.replace(jargon, plain)
    where = f" ({context}, which starts on line {fields['context_line']})" if context else ""
    return Diagnostic(
        message=f"YAML cannot read this: {problem}{where}.",
        span=Span(path, *at),
        code=DiagnosticCode.YAML_SYNTAX,
        expected="valid YAML",
        hint="Look for a missing ':', an unclosed quote or bracket, or a line that is not "
        "lined up with the lines around it.",
    )


def _tab(span: Span) -> Diagnostic:
    return Diagnostic(
        message="Tab characters cannot indent YAML; use spaces.",
        span=span,
        code=DiagnosticCode.TAB,
        expected="spaces at the start of the line",
        hint="Replace the tab with spaces; most editors can insert spaces when Tab is pressed.",
    )


def _multiple_documents(span: Span) -> Diagnostic:
    return Diagnostic(
        message="This file holds more than one YAML document; a prompt file holds exactly one.",
        span=span,
        code=DiagnosticCode.MULTIPLE_DOCUMENTS,
        expected="a single document",
        hint="Remove this '---' line, or move the document that follows it into its own file.",
    )


def _index(mark: Mark | None, text: str) -> int | None:
    """The character index of a ruamel mark (None for no mark), within the text."""
    if mark is None:
        return None
    return quotable(text, min(int(mark.index), len(text)))


def _tab_in_indentation(text: str, lines: LineIndex, index: int) -> int | None:
    """The first tab in the indentation of the line holding ``index``, if there is one."""
    start = index - (lines.position(index)[1] - 1)
    indentation = next(_INDENT.finditer(text, start)).group()
    tab = indentation.find("\t")
    return None if tab < 0 else start + tab
