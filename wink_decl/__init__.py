"""wink-decl: prompts for LLM agents as YAML or TOML files, compiled into a typed runtime.

Importing the package loads nothing else: each name below is imported from its module the
first time it is used (PEP 562), so ``import wink_decl`` and the ``wink-decl`` command start
fast and pay only for what they use.
"""

# First, before any other import: under ``python -m wink_decl``, importing it takes the
# working folder off ``sys.path``, so a checkout's modules cannot stand in for those below.
# Imported for that effect alone; it sorts first.
from wink_decl import _launch  # noqa: F401  # pyright: ignore[reportUnusedImport]

TYPE_CHECKING = False
"""True for type checkers only (they read the imports below); not ``typing``'s, which costs an
import at start-up."""

if TYPE_CHECKING:
    from wink_decl._from_file import (
        load,
        validate,
    )
    from wink_decl.compiler.registry import PromptRegistry
    from wink_decl.diagnostics import (
        Diagnostic,
        DiagnosticError,
    )
    from wink_decl.errors import (
        DeadlineExceededError,
        EvaluationPhase,
        PromptError,
        PromptEvaluationError,
        PromptRenderError,
        PromptValidationError,
        ProviderError,
        ToolValidationError,
        WinkDeclError,
    )
    from wink_decl.prompt.expansion import VisibilityExpansionRequired
    from wink_decl.prompt.param_hints import ParamHint
    from wink_decl.prompt.policy import (
        PolicyDecision,
        ToolPolicy,
    )
    from wink_decl.prompt.read_section import (
        ReadSectionParams,
        ReadSectionResult,
    )
    from wink_decl.prompt.resources import ResourceRegistry
    from wink_decl.prompt.section import (
        MarkdownSection,
        Section,
    )
    from wink_decl.prompt.template import (
        Prompt,
        PromptTemplate,
        RenderedPrompt,
    )
    from wink_decl.prompt.tool import (
        Tool,
        ToolExample,
        ToolHandler,
    )
    from wink_decl.prompt.tool_context import ToolContext
    from wink_decl.prompt.tool_result import (
        ToolRenderableResult,
        ToolResult,
    )
    from wink_decl.prompt.tool_schema import (
        params_json_schema,
        to_anthropic_tools,
        to_openai_tools,
    )
    from wink_decl.prompt.visibility import (
        SectionPath,
        SectionVisibility,
    )
    from wink_decl.runtime.adapter import ProviderAdapter
    from wink_decl.runtime.budget import (
        Budget,
        BudgetTracker,
    )
    from wink_decl.runtime.deadline import Deadline
    from wink_decl.runtime.executor import (
        ToolExecutionOutcome,
        ToolExecutor,
    )
    from wink_decl.runtime.filesystem import (
        Filesystem,
        FilesystemError,
        HostFilesystem,
        InMemoryFilesystem,
        PathOutsideRootError,
    )
    from wink_decl.runtime.loop import (
        InnerLoop,
        InnerLoopConfig,
        MainLoop,
        PromptResponse,
    )
    from wink_decl.runtime.policies import (
        ReadBeforeWritePolicy,
        SequentialDependencyPolicy,
    )
    from wink_decl.runtime.provider import (
        OutputFormat,
        ProviderMessage,
        ProviderReply,
        ProviderRequest,
        ProviderToolCall,
        TokenUsage,
    )
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
    from wink_decl.version import __version__ as __version__

__all__ = [
    "Budget",
    "BudgetTracker",
    "ClearAllVisibilityOverrides",
    "ClearVisibilityOverride",
    "Deadline",
    "DeadlineExceededError",
    "Diagnostic",
    "DiagnosticError",
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
    "ParamHint",
    "PathOutsideRootError",
    "PolicyDecision",
    "PolicyState",
    "Prompt",
    "PromptError",
    "PromptEvaluationError",
    "PromptRegistry",
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
    "load",
    "params_json_schema",
    "to_anthropic_tools",
    "to_openai_tools",
    "validate",
]

_HOMES: dict[str, str] = {
    "Budget": "wink_decl.runtime.budget",
    "BudgetTracker": "wink_decl.runtime.budget",
    "ClearAllVisibilityOverrides": "wink_decl.runtime.session",
    "ClearVisibilityOverride": "wink_decl.runtime.session",
    "Deadline": "wink_decl.runtime.deadline",
    "DeadlineExceededError": "wink_decl.errors",
    "Diagnostic": "wink_decl.diagnostics",
    "DiagnosticError": "wink_decl.diagnostics",
    "EvaluationPhase": "wink_decl.errors",
    "Filesystem": "wink_decl.runtime.filesystem",
    "FilesystemError": "wink_decl.runtime.filesystem",
    "HostFilesystem": "wink_decl.runtime.filesystem",
    "InMemoryFilesystem": "wink_decl.runtime.filesystem",
    "InnerLoop": "wink_decl.runtime.loop",
    "InnerLoopConfig": "wink_decl.runtime.loop",
    "MainLoop": "wink_decl.runtime.loop",
    "MarkdownSection": "wink_decl.prompt.section",
    "ModelRequested": "wink_decl.runtime.session",
    "ModelResponded": "wink_decl.runtime.session",
    "OutputFormat": "wink_decl.runtime.provider",
    "ParamHint": "wink_decl.prompt.param_hints",
    "PathOutsideRootError": "wink_decl.runtime.filesystem",
    "PolicyDecision": "wink_decl.prompt.policy",
    "PolicyState": "wink_decl.runtime.session",
    "Prompt": "wink_decl.prompt.template",
    "PromptError": "wink_decl.errors",
    "PromptEvaluationError": "wink_decl.errors",
    "PromptRegistry": "wink_decl.compiler.registry",
    "PromptRenderError": "wink_decl.errors",
    "PromptResponse": "wink_decl.runtime.loop",
    "PromptTemplate": "wink_decl.prompt.template",
    "PromptValidationError": "wink_decl.errors",
    "ProviderAdapter": "wink_decl.runtime.adapter",
    "ProviderError": "wink_decl.errors",
    "ProviderMessage": "wink_decl.runtime.provider",
    "ProviderReply": "wink_decl.runtime.provider",
    "ProviderRequest": "wink_decl.runtime.provider",
    "ProviderToolCall": "wink_decl.runtime.provider",
    "ReadBeforeWritePolicy": "wink_decl.runtime.policies",
    "ReadSectionParams": "wink_decl.prompt.read_section",
    "ReadSectionResult": "wink_decl.prompt.read_section",
    "RenderedPrompt": "wink_decl.prompt.template",
    "ResourceRegistry": "wink_decl.prompt.resources",
    "Section": "wink_decl.prompt.section",
    "SectionPath": "wink_decl.prompt.visibility",
    "SectionVisibility": "wink_decl.prompt.visibility",
    "SequentialDependencyPolicy": "wink_decl.runtime.policies",
    "Session": "wink_decl.runtime.session",
    "SessionProtocol": "wink_decl.runtime.session",
    "SetVisibilityOverride": "wink_decl.runtime.session",
    "SlicePolicy": "wink_decl.runtime.session",
    "TokenUsage": "wink_decl.runtime.provider",
    "Tool": "wink_decl.prompt.tool",
    "ToolContext": "wink_decl.prompt.tool_context",
    "ToolExample": "wink_decl.prompt.tool",
    "ToolExecutionOutcome": "wink_decl.runtime.executor",
    "ToolExecutor": "wink_decl.runtime.executor",
    "ToolHandler": "wink_decl.prompt.tool",
    "ToolInvoked": "wink_decl.runtime.session",
    "ToolPolicy": "wink_decl.prompt.policy",
    "ToolRenderableResult": "wink_decl.prompt.tool_result",
    "ToolResult": "wink_decl.prompt.tool_result",
    "ToolValidationError": "wink_decl.errors",
    "ToolsInjected": "wink_decl.runtime.session",
    "VisibilityExpansionRequired": "wink_decl.prompt.expansion",
    "WinkDeclError": "wink_decl.errors",
    "load": "wink_decl._from_file",
    "params_json_schema": "wink_decl.prompt.tool_schema",
    "to_anthropic_tools": "wink_decl.prompt.tool_schema",
    "to_openai_tools": "wink_decl.prompt.tool_schema",
    "validate": "wink_decl._from_file",
    "__version__": "wink_decl.version",
}
"""Each exported name, and ``__version__``, with the module it is imported from on first use."""


def __getattr__(name: str) -> object:
    """Import an exported name from its module the first time it is asked for."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'wink_decl' has no attribute '{name}'")
    import importlib  # noqa: PLC0415  # loaded by Python before this package: costs nothing

    value: object = getattr(importlib.import_module(home), name)
    globals()[name] = value  # the next look-up finds it without coming here
    return value


def __dir__() -> list[str]:
    """The module's own names and every exported one, as if all were imported."""
    return sorted({*globals(), *__all__})
