"""wink-decl: prompts for LLM agents as YAML or TOML files, compiled into a typed runtime."""

from wink_decl.errors import (
    DeadlineExceededError,
    PromptError,
    PromptEvaluationError,
    PromptRenderError,
    PromptValidationError,
    ToolValidationError,
    VisibilityExpansionRequired,
    WinkDeclError,
)
from wink_decl.runtime.policy import PolicyDecision, ToolPolicy
from wink_decl.runtime.prompt import Prompt, PromptTemplate, RenderedPrompt
from wink_decl.runtime.read_section import ReadSectionParams, ReadSectionResult
from wink_decl.runtime.resources import ResourceRegistry
from wink_decl.runtime.section import MarkdownSection, Section
from wink_decl.runtime.session import (
    ClearAllVisibilityOverrides,
    ClearVisibilityOverride,
    Session,
    SessionProtocol,
    SetVisibilityOverride,
)
from wink_decl.runtime.tool import Tool, ToolExample, ToolHandler
from wink_decl.runtime.tool_context import ToolContext
from wink_decl.runtime.tool_result import ToolRenderableResult, ToolResult
from wink_decl.runtime.tool_schema import params_json_schema, to_anthropic_tools, to_openai_tools
from wink_decl.runtime.visibility import SectionPath, SectionVisibility

__all__ = [
    "ClearAllVisibilityOverrides",
    "ClearVisibilityOverride",
    "DeadlineExceededError",
    "MarkdownSection",
    "PolicyDecision",
    "Prompt",
    "PromptError",
    "PromptEvaluationError",
    "PromptRenderError",
    "PromptTemplate",
    "PromptValidationError",
    "ReadSectionParams",
    "ReadSectionResult",
    "RenderedPrompt",
    "ResourceRegistry",
    "Section",
    "SectionPath",
    "SectionVisibility",
    "Session",
    "SessionProtocol",
    "SetVisibilityOverride",
    "Tool",
    "ToolContext",
    "ToolExample",
    "ToolHandler",
    "ToolPolicy",
    "ToolRenderableResult",
    "ToolResult",
    "ToolValidationError",
    "VisibilityExpansionRequired",
    "WinkDeclError",
    "params_json_schema",
    "to_anthropic_tools",
    "to_openai_tools",
]

__version__ = "0.1.0"
