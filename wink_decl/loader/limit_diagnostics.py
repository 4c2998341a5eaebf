"""The diagnostics for a file that goes past its ``Limits`` (defined in ``wink_decl.limits``).

Each names the limit it enforces and, in its hint, the ``--limit`` setting that raises it.
"""

from __future__ import annotations

from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, Span
from wink_decl.limits import MAX_DEPTH_CEILING, Limits, raise_setting
from wink_decl.loader.file_kinds import FileKind

__all__ = [
    "MAX_DEPTH_CEILING",
    "Limits",
    "or_raise",
    "too_deep",
    "too_long_key",
    "too_many_bytes",
    "too_many_values",
]


def or_raise(advice: str, name: str, value: int, needed: int | None = None) -> str:
    """``advice``, then how to raise the limit ``name`` (now ``value``) when it can go higher.

    ``needed`` is what the input measured, when that is known: the setting allows it.
    """
    setting = raise_setting(name, value, needed)
    return advice if setting is None else f"{advice}, or allow more with {setting}"


def too_many_bytes(path: str, size: int | None, limit: int, *, kind: FileKind) -> Diagnostic:
    """The file is larger than ``kind``'s size limit; reported at its start, before parsing.

    ``size`` is None when the file does not say how long it is (it grew while it was read).
    """
    length = f"{size:,} bytes long, more" if size is not None else "longer"
    return Diagnostic(
        message=f"This file is {length} than the limit of {limit:,} bytes.",
        span=Span(path, 1, 1),
        code=DiagnosticCode.TOO_LARGE,
        expected=f"a file of at most {limit:,} bytes",
        hint=or_raise(kind.size_advice, kind.size_limit, limit, size),
    )


def too_deep(span: Span, limit: int) -> Diagnostic:
    """A mapping or list nested more than ``max_depth`` levels deep starts at ``span``."""
    return Diagnostic(
        message=f"Values are nested more than {limit} levels deep here.",
        span=span,
        code=DiagnosticCode.TOO_DEEP,
        expected=f"at most {limit} levels of nested mappings and lists",
        hint=or_raise(
            "Flatten the structure: nest mappings and lists less deeply", "max_depth", limit
        ),
    )


def too_many_values(
    span: Span, limit: int, alias: str | None = None, *, kind: FileKind
) -> Diagnostic:
    """Counting values (aliases expanded), ``max_nodes`` was passed at ``span``."""
    if alias is None:
        return Diagnostic(
            message=f"This file holds more than {limit:,} values.",
            span=span,
            code=DiagnosticCode.TOO_LARGE,
            expected=f"at most {limit:,} values",
            hint=or_raise(kind.values_advice, "max_nodes", limit),
        )
    return Diagnostic(
        message=f"The alias '*{alias}' makes this file expand to more than {limit:,} values.",
        span=span,
        code=DiagnosticCode.TOO_LARGE,
        expected=f"at most {limit:,} values, counting each alias as the values it repeats",
        hint=or_raise(
            "Each alias repeats the whole value it names; use fewer aliases", "max_nodes", limit
        ),
    )


def too_long_key(span: Span, length: int, limit: int, *, dotted: bool = False) -> Diagnostic:
    """A key (a TOML dotted key: all its parts, as written) longer than ``max_key_length``."""
    what = "This dotted key" if dotted else "This key"
    counted = ", counting every part and dot" if dotted else ""
    return Diagnostic(
        message=f"{what} is {length:,} characters long, more than the limit of {limit:,}.",
        span=span,
        code=DiagnosticCode.TOO_LONG,
        expected=f"a key of at most {limit:,} characters{counted}",
        hint=or_raise("Use a shorter key", "max_key_length", limit, length),
    )
