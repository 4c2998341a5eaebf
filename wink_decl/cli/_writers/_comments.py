"""Schema lines (``# yaml-language-server: $schema=`` and ``#:schema``) and comment counting."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import cast

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from wink_decl.loader.api import Format

__all__ = ["comment_lines", "find_schema_ref", "schema_line"]

_SCHEMA_LINES = (
    re.compile(r"#\s*yaml-language-server:\s*\$schema=(\S+)\s*\Z"),  # yaml-language-server
    re.compile(r"#:schema\s+(\S+)\s*\Z"),  # taplo and tombi
)
_TOML_LEXEME = re.compile(  # strings first, so that a '#' inside one is not a comment
    r'"""(?:[^"\\]|\\[\s\S]|"{1,2}(?!"))*"{3,5}'
    r"|'''(?:[^']|'{1,2}(?!'))*'{3,5}"
    r'|"(?:[^"\\\n]|\\.)*"'
    r"|'[^'\n]*'"
    r"|(?P<comment>#)"
)


def schema_line(ref: str, file_format: Format) -> str:
    """The first line that points editors of ``file_format`` at the schema ``ref``."""
    if file_format == "yaml":
        return f"# yaml-language-server: $schema={ref}\n"
    return f"#:schema {ref}\n"


def find_schema_ref(text: str) -> tuple[str, int] | None:
    """The schema reference and its line number, from the comments that open ``text``.

    Either form is accepted in either format: the line says which schema, whatever its syntax.
    """
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped:
            continue
        if not stripped.startswith("#"):
            return None
        for pattern in _SCHEMA_LINES:
            match = pattern.match(stripped)
            if match:
                return match.group(1), number
    return None


def comment_lines(text: str, file_format: Format) -> set[int]:
    """The numbers (1-based) of the lines of a valid file that hold a comment."""
    if file_format == "toml":
        return {
            text.count("\n", 0, match.start()) + 1
            for match in _TOML_LEXEME.finditer(text)
            if match.group("comment")
        }
    return _yaml_comment_lines(text)


def _yaml_comment_lines(text: str) -> set[int]:
    """Comment lines as ruamel's round-trip scanner sees them (text in ``|`` blocks is not)."""
    found: set[int] = set()
    try:
        scanner = YAML(typ="rt", pure=True)
        for token in scanner.scan(text):  # pyright: ignore[reportUnknownMemberType]
            _collect(getattr(token, "_comment", None), found)
    except YAMLError:
        # The loader (libyaml) accepted the file but this scanner did not: count the lines that
        # are plainly comments, which is enough for a note.
        return {n for n, line in enumerate(text.splitlines(), 1) if line.lstrip().startswith("#")}
    return found


def _collect(attached: object, found: set[int]) -> None:
    """Walk ruamel's comment attachments (tokens, nested in lists) and note their lines."""
    if isinstance(attached, list):
        for item in cast("list[object]", attached):
            _collect(item, found)
        return
    value = getattr(attached, "value", None)
    mark = getattr(attached, "start_mark", None)
    if isinstance(value, str) and mark is not None:
        # The mark is at the first '#'; the blank lines ruamel keeps before it come first.
        first: int = mark.line + 1
        found.update(_hash_lines(value.lstrip().split("\n"), first))


def _hash_lines(lines: Iterable[str], first: int) -> Iterable[int]:
    return (first + offset for offset, line in enumerate(lines) if line.lstrip().startswith("#"))
