"""wink-decl: prompts for LLM agents as YAML or TOML files, compiled into a typed runtime."""

# First, before any other import: under ``python -m wink_decl``, importing it takes the
# working folder off ``sys.path``, so a checkout's modules cannot stand in for those below.
# Imported for that effect alone; it sorts first.
from wink_decl import _launch  # noqa: F401  # pyright: ignore[reportUnusedImport]
from wink_decl.errors import (
    DeadlineExceededError,
    EvaluationPhase,
    PromptError,
    PromptEvaluationError,
    PromptRenderError,
    PromptValidationError,
    ProviderError,
    ToolValidationError,
    VisibilityExpansionRequired,
    WinkDeclError,
)
from wink_decl.runtime.adapter import PromptResponse, ProviderAdapter
from wink_decl.runtime.budget import Budget, BudgetTracker
from wink_decl.runtime.deadline import Deadline
from wink_decl.runtime.executor import ToolExecutionOutcome, ToolExecutor
from wink_decl.runtime.filesystem import (
    Filesystem,
    FilesystemError,
    HostFilesystem,
    InMemoryFilesystem,
    PathOutsideRootError,
)
from wink_decl.runtime.loop import InnerLoop, InnerLoopConfig, MainLoop
from wink_decl.runtime.policies import ReadBeforeWritePolicy, SequentialDependencyPolicy
from wink_decl.runtime.policy import PolicyDecision, ToolPolicy
from wink_decl.runtime.prompt import Prompt, PromptTemplate, RenderedPrompt
from wink_decl.runtime.provider import (
    OutputFormat,
    ProviderMessage,
    ProviderReply,
    ProviderRequest,
    ProviderToolCall,
    TokenUsage,
)
from wink_decl.runtime.read_section import ReadSectionParams, ReadSectionResult
from wink_decl.runtime.resources import ResourceRegistry
from wink_decl.runtime.section import MarkdownSection, Section
from wink_decl.runtime.session import (
    ClearAllVisibilityOverrides,
    ClearVisibilityOverride,
    ModelRequested,
    ModelResponded,
    PolicyState,
    Session,
    SessionProtocol,
    SetVisibilityOverride,
    SlicePolicy,
    ToolInvoked,
    ToolsInjected,
)
from wink_decl.runtime.tool import Tool, ToolExample, ToolHandler
from wink_decl.runtime.tool_context import ToolContext
from wink_decl.runtime.tool_result import ToolRenderableResult, ToolResult
from wink_decl.runtime.tool_schema import params_json_schema, to_anthropic_tools, to_openai_tools
from wink_decl.runtime.visibility import SectionPath, SectionVisibility

__all__ = [
    "Budget",
    "BudgetTracker",
    "ClearAllVisibilityOverrides",
    "ClearVisibilityOverride",
    "Deadline",
    "DeadlineExceededError",
    "EvaluationPhase",
    "Filesystem",
    "FilesystemError",
    "HostFilesystem",
    "InMemoryFilesystem",
    "InnerLoop",
    "InnerLoopConfig",
    "MainLoop",
    "MarkdownSection",
    "ModelRequested",
    "ModelResponded",
    "OutputFormat",
    "PathOutsideRootError",
    "PolicyDecision",
    "PolicyState",
    "Prompt",
    "PromptError",
    "PromptEvaluationError",
    "PromptRenderError",
    "PromptResponse",
    "PromptTemplate",
    "PromptValidationError",
    "ProviderAdapter",
    "ProviderError",
    "ProviderMessage",
    "ProviderReply",
    "ProviderRequest",
    "ProviderToolCall",
    "ReadBeforeWritePolicy",
    "ReadSectionParams",
    "ReadSectionResult",
    "RenderedPrompt",
    "ResourceRegistry",
    "Section",
    "SectionPath",
    "SectionVisibility",
    "SequentialDependencyPolicy",
    "Session",
    "SessionProtocol",
    "SetVisibilityOverride",
    "SlicePolicy",
    "TokenUsage",
    "Tool",
    "ToolContext",
    "ToolExample",
    "ToolExecutionOutcome",
    "ToolExecutor",
    "ToolHandler",
    "ToolInvoked",
    "ToolPolicy",
    "ToolRenderableResult",
    "ToolResult",
    "ToolValidationError",
    "ToolsInjected",
    "VisibilityExpansionRequired",
    "WinkDeclError",
    "params_json_schema",
    "to_anthropic_tools",
    "to_openai_tools",
]

__version__ = "0.1.0"
