"""Bytes or text in, text out: UTF-8 only, no byte-order mark, no more than the size limit."""

from __future__ import annotations

import codecs

from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, Span
from wink_decl.loader.file_kinds import FileKind
from wink_decl.loader.limit_diagnostics import too_many_bytes

_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


def decode(
    source: str | bytes, *, path: str, max_bytes: int, kind: FileKind
) -> tuple[str | None, list[Diagnostic]]:
    """The text of ``source`` (None when it cannot be read) and every problem found on the way.

    ``kind`` words the diagnostic for a file larger than ``max_bytes``.

    A byte-order mark is reported and dropped, so the rest of the file is still checked.
    """
    if isinstance(source, str):
        return _check_text(source, path, max_bytes, kind)
    if len(source) > max_bytes:
        return None, [too_many_bytes(path, len(source), max_bytes, kind=kind)]
    diagnostics: list[Diagnostic] = []
    if source.startswith(codecs.BOM_UTF8):
        diagnostics.append(_bom(path))
        source = source[len(codecs.BOM_UTF8) :]
    try:
        return source.decode("utf-8"), diagnostics
    except UnicodeDecodeError as error:
        return None, [*diagnostics, _invalid_utf8(source, error.start, path)]


def quotable_text(source: str | bytes, max_bytes: int) -> str:
    """What to quote lines from when ``source`` did not decode: at most ``max_bytes`` of it.

    Bytes that are not UTF-8 become U+FFFD and a byte-order mark is dropped, as when the
    file is decoded, so lines and columns match the diagnostics'.
    """
    if isinstance(source, str):
        return source[:max_bytes]
    return source[:max_bytes].decode("utf-8", errors="replace").removeprefix("\ufeff")


def _check_text(
    source: str, path: str, max_bytes: int, kind: FileKind
) -> tuple[str | None, list[Diagnostic]]:
    """Text given as ``str``: it must still be storable as UTF-8 within the size limit."""
    try:
        size = len(source.encode("utf-8"))
    except UnicodeEncodeError as error:
        return None, [_unencodable(source, error.start, path)]
    if size > max_bytes:
        return None, [too_many_bytes(path, size, max_bytes, kind=kind)]
    if source.startswith("\ufeff"):
        return source[1:], [_bom(path)]
    return source, []


def _position(prefix: str) -> tuple[int, int]:
    """Line and column (1-based) just after ``prefix``."""
    if not prefix:
        return 1, 1
    lines = prefix.splitlines(keepends=True)
    last = lines[-1]
    if last.splitlines()[0] != last:  # the prefix ends with a line break
        return len(lines) + 1, 1
    return len(lines), len(last) + 1


def _bom(path: str) -> Diagnostic:
    return Diagnostic(
        message="The file starts with a byte-order mark; save it as UTF-8 without BOM.",
        span=Span(path, 1, 1),
        code=DiagnosticCode.BOM,
        expected="UTF-8 text without a byte-order mark",
        hint="In your editor, choose the encoding 'UTF-8' (not 'UTF-8 with BOM') and save.",
    )


def _invalid_utf8(data: bytes, start: int, path: str) -> Diagnostic:
    line, column = _position(data[:start].decode("utf-8"))
    hint = "Save the file as UTF-8 in your editor."
    if data.startswith(_UTF16_BOMS):
        hint = "The file looks like UTF-16; save it as UTF-8 in your editor."
    return Diagnostic(
        message=f"This file is not valid UTF-8 text (byte 0x{data[start]:02x}).",
        span=Span(path, line, column),
        code=DiagnosticCode.ENCODING,
        expected="UTF-8 text",
        hint=hint,
    )


def _unencodable(text: str, start: int, path: str) -> Diagnostic:
    line, column = _position(text[:start])
    return Diagnostic(
        message=(
            f"This text contains U+{ord(text[start]):04X}, which is not a character "
            "and cannot be saved as UTF-8."
        ),
        span=Span(path, line, column),
        code=DiagnosticCode.ENCODING,
        expected="UTF-8 text",
        hint="Remove the character; it usually comes from a broken copy and paste.",
    )
