"""The diagnostics for a file that goes past its ``Limits`` (defined in ``wink_decl.limits``)."""

from __future__ import annotations

from wink_decl.diagnostics import Diagnostic, Span
from wink_decl.limits import MAX_DEPTH_CEILING, Limits

__all__ = ["MAX_DEPTH_CEILING", "Limits", "too_deep", "too_many_bytes", "too_many_values"]


def too_many_bytes(path: str, size: int, limit: int) -> Diagnostic:
    """The file is larger than ``max_bytes``; reported at its start, before any parsing."""
    return Diagnostic(
        message=f"This file is {size:,} bytes long, more than the limit of {limit:,} bytes.",
        span=Span(path, 1, 1),
        code="too-large",
        expected=f"a file of at most {limit:,} bytes",
        hint="Split the prompt into several smaller files.",
    )


def too_deep(span: Span, limit: int) -> Diagnostic:
    """A mapping or list nested more than ``max_depth`` levels deep starts at ``span``."""
    return Diagnostic(
        message=f"Values are nested more than {limit} levels deep here.",
        span=span,
        code="too-deep",
        expected=f"at most {limit} levels of nested mappings and lists",
        hint="Flatten the structure: nest mappings and lists less deeply.",
    )


def too_many_values(span: Span, limit: int, alias: str | None = None) -> Diagnostic:
    """Counting values (aliases expanded), ``max_nodes`` was passed at ``span``."""
    if alias is None:
        return Diagnostic(
            message=f"This file holds more than {limit:,} values.",
            span=span,
            code="too-large",
            expected=f"at most {limit:,} values",
            hint="Split the prompt into several smaller files.",
        )
    return Diagnostic(
        message=f"The alias '*{alias}' makes this file expand to more than {limit:,} values.",
        span=span,
        code="too-large",
        expected=f"at most {limit:,} values, counting each alias as the values it repeats",
        hint="Each alias repeats the whole value it names; use fewer aliases.",
    )
