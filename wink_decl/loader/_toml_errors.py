"""tomllib's errors, rewritten for a person: what is wrong, where, and what to do."""

from __future__ import annotations

import re
from typing import NamedTuple

from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, Span
from wink_decl.loader._source_map import JSONPath
from wink_decl.loader._text import LineIndex, quotable
from wink_decl.loader._toml_positions import TomlPositions

_WHERE = re.compile(r"(.*) \(at (?:line (\d+), column (\d+)|end of document)\)\Z", re.DOTALL)
_CHARACTER = re.compile(r"(?:Illegal|Found invalid) character '(.*)'\Z")
_BARE = re.compile(r"[A-Za-z0-9_-]+\Z")
_QUOTES = re.compile(r"\"{3}|'{3}|[\"']")
_DATE_LIKE = re.compile(r"\d{4}-\d\d-\d\d")
_HEADER = re.compile(r"^[ \t]*\[", re.MULTILINE)
LEXEME = re.compile(
    r'''(?P<string>"""(?:[^"\\]|\\[\s\S]|"{1,2}(?!"))*(?:"{3,5}|\Z)'''
    r"""|'''(?:[^']|'{1,2}(?!'))*(?:'{3,5}|\Z)"""
    r"""|"(?:[^"\\\n]|\\.)*(?:"|(?=\n)|\Z)"""
    r"""|'[^'\n]*(?:'|(?=\n)|\Z))"""
    r"|#[^\n]*|(?P<open>[\[{])|(?P<close>[\]}])"
)
"""Strings, comments and brackets: enough of TOML to tell brackets in text from real ones."""


class _Rule(NamedTuple):
    starts: str  # how tomllib's message starts
    message: str
    expected: str
    hint: str


_UNCLOSED_TEXT = _Rule(
    "",
    "This text is missing its closing quote.",
    "a closing {quote} at the end of the text",
    'Close the text with {quote} on the same line; for text over several lines use """.',
)
_UNCLOSED_BLOCK = _Rule(
    "",
    "This text is missing its closing {quote}.",
    "a closing {quote} at the end of the text",
    "Close the text with {quote} after its last line.",
)
_NEVER_CLOSED = _Rule(
    "",
    "This {kind} is never closed: the file ends before its '{closer}'.",
    "'{closer}' after the last {item}",
    "Add '{closer}' after the last {item}, or remove the '{opener}' if it was typed by mistake.",
)
_BRACKETS = {
    "[": {"kind": "list", "item": "item", "opener": "[", "closer": "]"},
    "{": {"kind": "inline table", "item": "entry", "opener": "{", "closer": "}"},
}
_BAD_DATE = _Rule(
    "",
    "This date is not a real date.",
    "a date such as 2024-05-31 or 2024-05-31T09:30:00Z",
    "Check the month and the day, or put the value in quotes to keep it as text.",
)
_RULES = (
    _Rule(
        "Expected '=' after a key",
        "This line has a key but no '=' after it.",
        'key = value, such as title = "Review"',
        "Write '=' between the key and its value, and put text in double quotes.",
    ),
    _Rule(
        "Invalid statement",
        "This line is neither a key = value pair nor a [table] header.",
        'a line such as title = "Review" or [tools]',
        "Start the line with a key, or with '[' for a table header.",
    ),
    _Rule(
        "Invalid initial character for a key",
        "A key cannot start with '{char}'.",
        "a key made of letters, digits, '_' and '-', or a quoted key",
        'Put the key in double quotes, such as "{char}" = ...',
    ),
    _Rule(
        "Invalid value",
        "This value is not valid TOML.",
        "text in quotes, a number, true or false, a date, a [list] or an {{inline table}}",
        'Put text in double quotes, such as title = "Code review".',
    ),
    _Rule(
        "Expected newline or end of document",
        "There is more on this line after the value.",
        "one key = value pair per line",
        "Start a new line for the next pair; if the value is text, put all of it in quotes.",
    ),
    _Rule(
        "Unclosed array",
        "This list is missing a ',' between items or its closing ']'.",
        "',' or ']'",
        "Separate the items with commas and close the list with ']'.",
    ),
    _Rule(
        "Unclosed inline table",
        "This inline table is missing a ',' between entries or its closing '}}'.",
        "',' or '}}'",
        "Separate the entries with commas and close the table with '}}' on the same line.",
    ),
    _Rule(
        "Expected ']",
        "This table header is missing its closing ']'.",
        "[table] or [[array.of.tables]]",
        "Close the header with ']' ( ']]' for an array of tables ) at the end of the name.",
    ),
    _Rule(
        "Unescaped '\\'",
        "This backslash does not start a valid escape.",
        'an escape such as \\n, \\t, \\" or \\\\',
        "Write a backslash as \\\\, or put text with backslashes in single quotes.",
    ),
    _Rule(
        "Invalid hex value",
        "This \\u escape needs 4 hexadecimal digits (\\U needs 8).",
        "an escape such as \\u00E9",
        "Write the code point with 4 (or 8) digits 0-9 and A-F.",
    ),
    _Rule(
        "Escaped character is not a Unicode",
        "This escape does not name a Unicode character.",
        "an escape such as \\u00E9",
        "Check the code point; U+D800 to U+DFFF are not characters.",
    ),
)
_CHARACTER_RULE = _Rule(
    "",
    "The control character U+{code:04X} is not allowed here.",
    "printable text",
    'Delete it (most editors do not show it); inside text write it as "\\u{code:04X}".',
)
_DUPLICATE = ("Cannot overwrite a value", "Cannot declare", "Duplicate inline table key")


def syntax_diagnostic(text: str, path: str, message: str) -> Diagnostic:
    """One diagnostic for a ``tomllib.TOMLDecodeError`` whose text is ``message``."""
    lines = LineIndex(text, "toml")
    found = _WHERE.match(message)
    problem, index = message, len(text)
    if found is not None:
        problem = found.group(1)
        if found.group(2) is not None:
            index = lines.start(int(found.group(2))) + int(found.group(3)) - 1
    index = quotable(text, min(index, len(text)))
    if problem.startswith(_DUPLICATE) or "namespace" in problem:
        return _conflict(text, path, lines, problem, index)
    rule, fields = _rule(text, problem, index)
    opener = _open_bracket(text) if found is not None and found.group(2) is None else None
    if opener is not None and problem.startswith(("Invalid value", "Unclosed")):
        # The file ended inside a list or table: point at where it opens, not at the end.
        index, rule = opener, _NEVER_CLOSED
        fields.update(_BRACKETS[text[opener]])
    elif rule is _UNCLOSED_TEXT:
        index = _opening_quote(text, index)
        quote = next(_QUOTES.finditer(text, index)).group()
        fields["quote"] = quote
        rule = _UNCLOSED_TEXT if len(quote) == 1 else _UNCLOSED_BLOCK
    elif problem.startswith(("Invalid date", "Expected newline")):
        token = _token_at(text, index)
        if _DATE_LIKE.match(text, token):
            index, rule = token, _BAD_DATE
    if rule is None:
        rule = _Rule("", f"TOML cannot read this: {problem}.", "valid TOML", _GENERIC_HINT)
    return Diagnostic(
        message=rule.message.format_map(fields),
        span=Span(path, *lines.position(index)),
        code=DiagnosticCode.TOML_SYNTAX,
        expected=rule.expected.format_map(fields),
        hint=rule.hint.format_map(fields),
    )


_GENERIC_HINT = "Look for a missing '=', quote or bracket on this line."


def _rule(text: str, problem: str, index: int) -> tuple[_Rule | None, dict[str, object]]:
    fields: dict[str, object] = {"char": text[index : index + 1]}
    character = _CHARACTER.match(problem)
    if character is not None:
        if character.group(1) == "\\n" or problem.startswith("Unterminated"):
            return _UNCLOSED_TEXT, fields
        fields["code"] = ord(text[index])
        return _CHARACTER_RULE, fields
    if problem.startswith(("Unterminated string", "Expected \"'")):
        return _UNCLOSED_TEXT, fields
    for rule in _RULES:
        if problem.startswith(rule.starts):
            return rule, fields
    return None, fields


def _open_bracket(text: str) -> int | None:
    """Where the innermost list or inline table still open at the end of ``text`` starts."""
    opened: list[int] = []
    for lexeme in LEXEME.finditer(text):
        if lexeme.group("open") is not None:
            opened.append(lexeme.start())
        elif lexeme.group("close") is not None and opened:
            opened.pop()
    return opened[-1] if opened else None


def _token_at(text: str, index: int) -> int:
    """Where the value around ``index`` starts: just after the blank, '=' or bracket before."""
    start = index
    while start > 0 and text[start - 1] not in " \t=[{,\n":
        start -= 1
    return start


def _opening_quote(text: str, index: int) -> int:
    """Where the string that is still open at ``index`` starts.

    The last one left unclosed, else the last one: tomllib reports a ``'...`` left open at
    the end of the document, after strings that are closed.
    """
    opening = unclosed = index
    for lexeme in LEXEME.finditer(text, 0, index + 1):
        string = lexeme.group("string")
        if string is not None:
            opening = lexeme.start()
            if not _closed(string):
                unclosed = opening
    return unclosed if unclosed < index else opening


def _closed(string: str) -> bool:
    quote = string[:3] if string[:3] in ('"""', "'''") else string[0]
    return len(string) >= 2 * len(quote) and string.endswith(quote)


def _conflict(text: str, path: str, lines: LineIndex, problem: str, index: int) -> Diagnostic:
    """A key or table defined twice, or a table extended after it was written in full.

    The text up to the error is valid, so scanning it finds the offending key and where
    the path it collides with was first written.
    """
    scan = TomlPositions(text[:index])
    if scan.last is None:  # tomllib names no key here; keep its position
        raise AssertionError("unreachable: tomllib reports conflicts after a key")
    key_path, (start, end), opener = scan.last
    here = Span(path, *lines.position(start), *lines.position(end))
    earlier = _earliest(scan, key_path, start)
    first_line = lines.position(scan.first.get(earlier, start))[0]
    shown = text[start : end + 1]  # the key as written
    if "namespace" in problem:
        written = display_key(earlier)
        return Diagnostic(
            message=f"'{written}' was written in full on line {first_line}; it cannot be "
            f"extended here.",
            span=here,
            code=DiagnosticCode.TOML_SYNTAX,
            expected=f"every key of '{written}' where it is first written",
            hint=f"Move this key to where '{written}' is written, or write all of its keys "
            f"under one [{written}] header.",
        )
    closer = opener.replace("[", "]")
    hint = "Remove one of the two, or merge them into the first."
    if opener != "=" and problem.startswith("Cannot declare"):
        message = f"The table [{shown}] is declared twice (first on line {first_line})."
        hint = (
            f"If each [{shown}] starts an item of a list, write [[{shown}]] above each one: "
            f"{_WHY_TWO_BRACKETS.format(shown)}; otherwise remove one of the two, or merge "
            "them into the first."
        )
    elif opener != "=":
        message = (
            f"'{display_key(earlier)}' is already defined on line {first_line}, so "
            f"{opener}{shown}{closer} cannot start a table here."
        )
        if opener == "[[" and earlier == key_path and _is_header(text, scan.first[earlier]):
            hint = f"Write [[{shown}]] above the first item too: {_WHY_TWO_BRACKETS.format(shown)}."
    elif earlier == key_path and _under_header(text, start):
        message = f"Key '{shown}' appears twice in this table (first on line {first_line})."
        table = display_key(key_path[:-1])
        new_item = (
            f"if it starts a new item, write [[{table}]] on the line above it; "
            if isinstance(key_path[-2], int)
            else ""
        )
        return Diagnostic(
            message=message,
            span=here,
            code=DiagnosticCode.DUPLICATE_KEY,
            expected="each key and each table once",
            hint=f"Every key after a header belongs to that table, here [{table}]: {new_item}"
            "if it belongs to the file itself, move it above the first header; otherwise "
            "remove one of the two.",
        )
    elif earlier == key_path:
        message = f"Key '{shown}' appears twice in this table (first on line {first_line})."
    else:
        other = display_key(earlier)
        message = f"'{other}' already has a value on line {first_line}, so '{shown}' cannot be set."
    return Diagnostic(
        message=message,
        span=here,
        code=DiagnosticCode.DUPLICATE_KEY,
        expected="each key and each table once",
        hint=hint,
    )


_WHY_TWO_BRACKETS = "[{0}] makes one table, [[{0}]] adds an item to the list"
"""Why a list is written with [[name]], in the words of the schema's hint for one [table]."""


def _is_header(text: str, start: int) -> bool:
    """True when the key at ``start`` is the first of a ``[header]``, not a ``key = ...``."""
    line_start = text.rfind("\n", 0, start) + 1
    return text[line_start:start].strip() == "["


def _under_header(text: str, start: int) -> bool:
    """True when the key at ``start`` opens its line below a ``[header]``, not in ``{...}``."""
    line_start = text.rfind("\n", 0, start) + 1
    return not text[line_start:start].strip() and _HEADER.search(text, 0, line_start) is not None


def _earliest(scan: TomlPositions, key_path: JSONPath, start: int) -> JSONPath:
    """The longest prefix of ``key_path`` named before ``start`` (else the path itself)."""
    for end in range(len(key_path), 0, -1):
        prefix = key_path[:end]
        if scan.first.get(prefix, start) < start:
            return prefix
    return key_path


def display_key(key_path: JSONPath) -> str:
    """A path as TOML writes it: dotted, with parts quoted where needed (indices left out)."""
    parts = [part for part in key_path if isinstance(part, str)]
    return ".".join(part if _BARE.match(part) else f'"{part}"' for part in parts)
