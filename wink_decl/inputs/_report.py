"""``Report``: diagnostics found at one step, with the texts they quote."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from wink_decl.diagnostics import Diagnostic

__all__ = ["Report"]


class Report(NamedTuple):
    """What one step found (warnings too) and the file texts its diagnostics quote.

    Steps report in the order they ran: a front end shows each report as one sorted block.
    """

    diagnostics: tuple[Diagnostic, ...]
    sources: Mapping[str, str]

    @property
    def failed(self) -> bool:
        """Whether any of the diagnostics is an error."""
        found = self.diagnostics  # most steps find nothing: no generator for them
        return bool(found) and any(d.severity == "error" for d in found)
