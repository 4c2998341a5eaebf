"""``wink-decl mcp``: prompt files and a prompt's tools served over the Model Context Protocol.

Needs the ``[mcp]`` extra (the ``mcp`` SDK and watchfiles); docs/mcp.md says what is served.
"""

from wink_decl.mcp._mcp_agent import Agent, AgentSession
from wink_decl.mcp._mcp_catalog import Offered, PromptCatalog
from wink_decl.mcp._mcp_http import BearerOnly, http_app, serve_http
from wink_decl.mcp._mcp_prompts import MISSING_ARGUMENT, PromptServing
from wink_decl.mcp._mcp_server import McpServer
from wink_decl.mcp._mcp_stdio import (
    PARSE_ERROR_MESSAGE,
    ParseErrorsAnswered,
    serve_stdio,
    watch_prompts,
)

__all__ = [
    "MISSING_ARGUMENT",
    "PARSE_ERROR_MESSAGE",
    "Agent",
    "AgentSession",
    "BearerOnly",
    "McpServer",
    "Offered",
    "ParseErrorsAnswered",
    "PromptCatalog",
    "PromptServing",
    "http_app",
    "serve_http",
    "serve_stdio",
    "watch_prompts",
]
