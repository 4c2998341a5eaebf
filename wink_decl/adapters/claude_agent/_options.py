"""How Claude Code is started for a prompt: its options, and the prompt's tools as MCP tools."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias, cast

from claude_agent_sdk import (
    ClaudeAgentOptions,
    SdkMcpTool,
    ToolAnnotations,
    create_sdk_mcp_server,
)
from claude_agent_sdk.types import SystemPromptFile

from wink_decl.prompt.tool_schema import to_anthropic_tools
from wink_decl.runtime.output import output_format

if TYPE_CHECKING:
    from wink_decl.adapters.claude_agent._agent_settings import ClaudeAgentSettings
    from wink_decl.prompt.template import RenderedPrompt
    from wink_decl.prompt.tool import Tool

__all__ = ["MCP_SERVER", "TOOL_PREFIX", "ToolCaller", "claude_options"]

MCP_SERVER = "wink"
TOOL_PREFIX = f"mcp__{MCP_SERVER}__"
"""How Claude Code names the prompt's tools to the model."""

_INLINE_RESULT_CHARS = 1_000_000
"""Longer results Claude Code would save to a file and tell the model to Read, a tool it lacks."""

ToolCaller: TypeAlias = Callable[[str, dict[str, Any]], Awaitable[dict[str, Any]]]
"""Runs one call of the named tool and answers in the MCP handler's terms."""


def claude_options(
    settings: ClaudeAgentSettings,
    *,
    rendered: RenderedPrompt,
    tools: tuple[Tool[Any, Any], ...],
    output_type: type | None,
    system_prompt: Path,
    call: ToolCaller,
    stderr: Callable[[str], None],
) -> ClaudeAgentOptions:
    """Claude Code as a plain agent, isolated from the machine's own configuration.

    The render is the whole system prompt, read from ``system_prompt`` (a long prompt may not
    fit on a command line); no settings, CLAUDE.md, MCP servers or transcripts of the
    machine's; built-in tools off unless allowed; the prompt's tools pre-approved (as root
    Claude Code refuses to bypass permissions); stream events on, for exact token counts; a
    declared output asked for as JSON of its schema.
    """
    system_prompt.write_text(rendered.text, encoding="utf-8")
    builtin = list(settings.builtin_tools)
    return ClaudeAgentOptions(
        model=settings.model,
        system_prompt=SystemPromptFile(type="file", path=str(system_prompt)),
        tools=builtin,
        allowed_tools=[*(TOOL_PREFIX + tool.name for tool in tools), *builtin],
        mcp_servers={MCP_SERVER: create_sdk_mcp_server(MCP_SERVER, tools=_served(tools, call))},
        strict_mcp_config=True,
        setting_sources=[],
        include_partial_messages=True,
        output_format=None
        if output_type is None
        else {"type": "json_schema", "schema": dict(output_format(output_type).schema)},
        env=settings.environment(),
        cwd=settings.cwd,
        cli_path=settings.cli_path,
        stderr=stderr,
        extra_args={"no-session-persistence": None},
    )


def _served(tools: tuple[Tool[Any, Any], ...], call: ToolCaller) -> list[SdkMcpTool[Any]]:
    """The prompt's tools as MCP tools, each handled by ``call``."""
    annotations = ToolAnnotations(maxResultSizeChars=_INLINE_RESULT_CHARS)
    return [
        SdkMcpTool(
            name=tool.name,
            description=tool.description,
            input_schema=cast("dict[str, Any]", spec["input_schema"]),
            handler=_handler(tool.name, call),
            annotations=annotations,
        )
        for tool, spec in zip(tools, to_anthropic_tools(tools), strict=True)
    ]


def _handler(name: str, call: ToolCaller) -> Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]:
    async def handle(arguments: dict[str, Any]) -> dict[str, Any]:
        return await call(name, arguments)

    return handle
