"""Section visibility: full content or a summary that points at ``read_section``."""

from __future__ import annotations

from enum import Enum

__all__ = ["SectionPath", "SectionVisibility"]

SectionPath = tuple[str, ...]
"""A section's address: its key and the keys of its ancestors, root first."""


class SectionVisibility(Enum):
    """How much of a section a render shows."""

    FULL = "full"
    """The section's template and its children."""

    SUMMARY = "summary"
    """Only the section's summary, followed by a suffix naming ``read_section``."""
