"""The runtime names the preview uses, imported in this one place."""

from __future__ import annotations

from wink_decl import (
    Prompt,
    ReadSectionParams,
    ReadSectionResult,
    RenderedPrompt,
    SectionPath,
    SectionVisibility,
    Session,
    SetVisibilityOverride,
    ToolContext,
    to_openai_tools,
)
from wink_decl.adapters.anthropic_messages import anthropic_tools  # the SDK only when used

__all__ = [
    "Prompt",
    "ReadSectionParams",
    "ReadSectionResult",
    "RenderedPrompt",
    "SectionPath",
    "SectionVisibility",
    "Session",
    "SetVisibilityOverride",
    "ToolContext",
    "anthropic_tools",
    "to_openai_tools",
]
