"""Limits on what one prompt file may cost to load, and the diagnostics for going past them."""

from __future__ import annotations

from dataclasses import dataclass

from wink_decl.diagnostics import Diagnostic, Span

MAX_DEPTH_CEILING = 200
"""The deepest nesting a loader can check without running out of Python stack."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds on one file: its size, its nesting and how many values it expands to.

    ``max_depth`` counts nested mappings and lists (the top-level mapping is level 1);
    ``max_nodes`` counts values after aliases are expanded, so an alias bomb fails fast.
    """

    max_bytes: int = 1_000_000
    max_depth: int = 64
    max_nodes: int = 200_000

    def __post_init__(self) -> None:
        """Every limit is positive; ``max_depth`` stays where the loaders can check it."""
        for name in ("max_bytes", "max_depth", "max_nodes"):
            if getattr(self, name) < 1:
                raise ValueError(f"Limits.{name} must be at least 1")
        if self.max_depth > MAX_DEPTH_CEILING:
            raise ValueError(f"Limits.max_depth must be at most {MAX_DEPTH_CEILING}")


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
