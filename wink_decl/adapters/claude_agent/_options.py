"""How Claude Code is started for a prompt: its options, with the prompt's tools served over MCP."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from claude_agent_sdk import ClaudeAgentOptions
from claude_agent_sdk.types import McpSdkServerConfig, SystemPromptFile

from wink_decl.adapters.claude_agent._tool_server import MCP_SERVER
from wink_decl.runtime.output import output_format

if TYPE_CHECKING:
    from wink_decl.adapters.claude_agent._agent_settings import ClaudeAgentSettings
    from wink_decl.prompt.template import RenderedPrompt

__all__ = ["claude_options"]

_SERVER_RULE = f"mcp__{MCP_SERVER}"
"""A permission rule that pre-approves every tool of the server, those revealed later too."""


def claude_options(
    settings: ClaudeAgentSettings,
    *,
    rendered: RenderedPrompt,
    server: McpSdkServerConfig,
    output_type: type | None,
    system_prompt: Path,
    stderr: Callable[[str], None],
) -> ClaudeAgentOptions:
    """Claude Code as a plain agent, isolated from the machine's own configuration.

    The render is the whole system prompt, read from ``system_prompt`` (a long prompt may not
    fit on a command line); no settings, CLAUDE.md, MCP servers or transcripts of the
    machine's; built-in tools off unless allowed; the prompt's tools (``server``) pre-approved
    (as root Claude Code refuses to bypass permissions); stream events on, for exact token
    counts; a declared output asked for as JSON of its schema.
    """
    system_prompt.write_text(rendered.text, encoding="utf-8")
    builtin = list(settings.builtin_tools)
    return ClaudeAgentOptions(
        model=settings.model,
        system_prompt=SystemPromptFile(type="file", path=str(system_prompt)),
        tools=builtin,
        allowed_tools=[_SERVER_RULE, *builtin],
        mcp_servers={MCP_SERVER: server},
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
