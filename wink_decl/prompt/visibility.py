"""Section visibility: full content or a summary that points at ``read_section``.

Also the request to restart with sections expanded, which ``read_section`` can cause.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from types import MappingProxyType

from wink_decl.errors import WinkDeclError

__all__ = ["SectionPath", "SectionVisibility", "VisibilityExpansionRequired"]

SectionPath = tuple[str, ...]
"""A section's address: its key and the keys of its ancestors, root first."""


class SectionVisibility(Enum):
    """How much of a section a render shows."""

    FULL = "full"
    """The section's template and its children."""

    SUMMARY = "summary"
    """Only the section's summary, followed by a suffix naming ``read_section``."""


class VisibilityExpansionRequired(WinkDeclError):  # noqa: N818  # the spec's name
    """Raised when sections must be expanded and the evaluation restarted.

    The adapter cannot add tools mid-conversation, so the caller persists
    ``requested_overrides`` and renders the prompt again.
    """

    def __init__(
        self,
        message: str,
        *,
        requested_overrides: Mapping[SectionPath, SectionVisibility],
        reason: str,
        section_keys: tuple[str, ...],
    ) -> None:
        super().__init__(message)
        self.message = message
        self.requested_overrides: Mapping[SectionPath, SectionVisibility] = MappingProxyType(
            dict(requested_overrides)
        )
        self.reason = reason
        self.section_keys = section_keys
