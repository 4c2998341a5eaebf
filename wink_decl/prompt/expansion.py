"""``VisibilityExpansionRequired``: the loop must restart with sections expanded.

``read_section`` can reveal tools an adapter cannot add mid-conversation; the executor then
raises this and ``MainLoop`` persists the overrides and renders again (docs/runtime.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from wink_decl.errors import WinkDeclError

if TYPE_CHECKING:
    from wink_decl.prompt.visibility import SectionPath, SectionVisibility

__all__ = ["VisibilityExpansionRequired"]


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
