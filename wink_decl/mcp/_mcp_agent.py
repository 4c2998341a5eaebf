"""MCP tools: the tools ``--agent``'s prompt offers, each call through the runtime's executor.

Every MCP client gets an ``AgentSession`` of its own: a runtime ``Session`` (what it has read
with ``read_section``, what its tools recorded) and an executor offering the tools of the
prompt as that session renders it. Calls of one client run one at a time, in a worker thread,
so a slow handler never stalls the server's other clients.
"""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import anyio.to_thread
import mcp_types as types

from wink_decl.prompt.template import Prompt
from wink_decl.prompt.tool_schema import to_anthropic_tools
from wink_decl.prompt.visibility import SectionVisibility
from wink_decl.runtime.executor import ToolExecutor
from wink_decl.runtime.provider import ProviderToolCall
from wink_decl.runtime.session import Session, SetVisibilityOverride

if TYPE_CHECKING:
    from collections.abc import Mapping

    from wink_decl.inputs import Prepared
    from wink_decl.runtime.filesystem import Filesystem

__all__ = ["Agent", "AgentSession"]

_ids = itertools.count(1)
"""Call ids for the runtime's records: MCP has none of its own for a call."""


@dataclass(frozen=True)
class Agent:
    """The ``--agent`` prompt, prepared once, and what its file tools work on."""

    prepared: Prepared
    filesystem: Filesystem

    def session(self) -> AgentSession:
        """A fresh session for one MCP client: nothing read, nothing recorded."""
        return AgentSession(self)


class AgentSession:
    """One MCP client's runtime session and the executor of its calls."""

    def __init__(self, agent: Agent) -> None:
        """Render the prompt for a new session and offer its tools."""
        prepared = agent.prepared
        self._session = Session()
        self._prompt = Prompt(prepared.template, resources=[agent.filesystem]).bind(
            *prepared.params
        )
        self._executor = ToolExecutor(
            prompt=self._prompt,
            rendered=self._prompt.render(session=self._session),
            session=self._session,
            supports_dynamic_tools=True,
        )
        self._lock = threading.Lock()
        """One call at a time: the executor's snapshot and restore cover one call."""

    def listing(self) -> types.ListToolsResult:
        """The tools on offer now, with the JSON Schemas ``wink-decl tools`` prints."""
        tools = [
            types.Tool(
                name=str(spec["name"]),
                description=str(spec["description"]),
                input_schema=_schema(spec["input_schema"]),
            )
            for spec in to_anthropic_tools(self._executor.tools)
        ]
        return types.ListToolsResult(tools=tools)

    async def call(
        self, name: str, arguments: Mapping[str, object]
    ) -> tuple[types.CallToolResult, bool]:
        """One call, in a worker thread; the result and whether the tools on offer changed."""
        return await anyio.to_thread.run_sync(self._call, name, dict(arguments))

    def _call(self, name: str, arguments: dict[str, object]) -> tuple[types.CallToolResult, bool]:
        with self._lock:
            call = ProviderToolCall(f"mcp-{next(_ids)}", name, arguments)
            # No deadline is given: only a restart could propagate, and with dynamic tools
            # the executor asks for none.
            outcome = self._executor.execute(call)
            for path in outcome.expanded_sections:
                self._session.dispatch(SetVisibilityOverride(path, SectionVisibility.FULL))
            # As the runtime's loop does after every call: a handler may have changed what
            # is shown, and what read_section revealed is offered from now on.
            before = self._executor.tool_names
            self._executor.offer(self._prompt.render(session=self._session))
            changed = self._executor.tool_names != before
            return _result(outcome.message.content, failed=not outcome.success), changed


def _result(text: str, *, failed: bool) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(text=text)], is_error=failed)


def _schema(value: object) -> dict[str, Any]:
    assert isinstance(value, dict)  # noqa: S101  # to_anthropic_tools writes an object schema
    return dict(value)  # pyright: ignore[reportUnknownArgumentType]
