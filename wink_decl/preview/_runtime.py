"""The runtime names the preview uses, imported in this one place, from their home modules.

Not from the package top: that is for users, and it imports every layer back.
"""

from __future__ import annotations

from wink_decl.adapters.anthropic_messages import anthropic_tools  # the SDK only when used
from wink_decl.prompt.read_section import ReadSectionParams, ReadSectionResult
from wink_decl.prompt.template import Prompt, RenderedPrompt
from wink_decl.prompt.tool_context import ToolContext
from wink_decl.prompt.tool_schema import to_openai_tools
from wink_decl.prompt.visibility import SectionPath, SectionVisibility
from wink_decl.runtime.session import Session, SetVisibilityOverride

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
