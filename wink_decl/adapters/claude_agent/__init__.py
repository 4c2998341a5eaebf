"""``ClaudeAgentSDKAdapter``: a prompt run by Claude Code's own agent loop (``claude-agent-sdk``).

docs/adapters/claude-agent.md describes how a conversation runs, what it records and how it fails.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Coroutine, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar

from wink_decl.adapters.adapter_support import require_sdk
from wink_decl.adapters.claude_agent._agent_settings import (
    DEFAULT_USER_MESSAGE,
    ClaudeAgentSettings,
)
from wink_decl.errors import SingleTurnUnsupportedError
from wink_decl.runtime.adapter import PromptResponse, ProviderAdapter
from wink_decl.runtime.budget import Budget, BudgetTracker
from wink_decl.runtime.loop import DEFAULT_MAX_TURNS, limit_passed

if TYPE_CHECKING:
    from wink_decl.prompt.template import Prompt
    from wink_decl.runtime.deadline import Deadline
    from wink_decl.runtime.provider import ProviderReply, ProviderRequest
    from wink_decl.runtime.session import SessionProtocol

__all__ = ["DEFAULT_USER_MESSAGE", "ClaudeAgentSDKAdapter", "ClaudeAgentSettings"]

T = TypeVar("T")


class ClaudeAgentSDKAdapter(ProviderAdapter):
    """Runs a prompt through Claude Code, which calls the model and the tools in its own loop.

    The rendered prompt is the system prompt; the prompt's tools are served to Claude Code
    from an in-process MCP server named ``wink`` (the model sees ``mcp__wink__<tool>``) and
    every call goes through the runtime's ``ToolExecutor``. Claude Code's built-in tools are
    off unless named in ``allow_builtin_tools``. A ``read_section`` that reveals tools offers
    them from the model's next request on, in the same conversation.

    ``evaluate`` blocks; called from a thread that runs an event loop, it runs the conversation
    on a thread of its own.
    """

    name = "claude-agent-sdk"

    def __init__(
        self,
        model: str | None = None,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        env: Mapping[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
        max_turns: int | None = None,
        max_retries: int | None = None,
        allow_builtin_tools: Iterable[str] = (),
        cli_path: str | os.PathLike[str] | None = None,
        user_message: str = DEFAULT_USER_MESSAGE,
    ) -> None:
        """Settings for every conversation; nothing starts until ``evaluate``.

        ``env`` is added to the CLI's environment (this process's); ``api_key`` and
        ``base_url`` set ``ANTHROPIC_API_KEY`` and ``ANTHROPIC_BASE_URL``; ``max_retries`` caps
        Claude Code's retries of a failed request; ``cli_path`` replaces the bundled CLI;
        ``user_message`` is the first user turn (the rendered prompt is the system prompt).
        """
        if max_turns is not None and max_turns < 1:
            raise ValueError(f"max_turns must be at least 1, got {max_turns}.")
        self.settings = ClaudeAgentSettings(
            model=model,
            api_key=api_key,
            base_url=base_url,
            env=MappingProxyType(dict(env or {})),
            cwd=None if cwd is None else os.fspath(cwd),
            max_turns=DEFAULT_MAX_TURNS if max_turns is None else max_turns,
            max_retries=max_retries,
            builtin_tools=tuple(allow_builtin_tools),
            cli_path=None if cli_path is None else os.fspath(cli_path),
            user_message=user_message,
        )

    @property
    def supports_dynamic_tools(self) -> bool:
        """True: tools a ``read_section`` reveals are offered without a restart."""
        return True

    @property
    def secrets(self) -> tuple[str, ...]:
        """Every credential Claude Code may see, redacted from failure messages."""
        return self.settings.secrets()

    def complete(self, request: ProviderRequest) -> ProviderReply:  # noqa: ARG002  # the protocol
        """Not available: Claude Code runs the whole conversation, so there is no single turn.

        Raises:
            SingleTurnUnsupportedError: always (a ``NotImplementedError`` too); call
                ``evaluate`` (or use ``MainLoop``).
        """
        raise SingleTurnUnsupportedError(
            "ClaudeAgentSDKAdapter runs Claude Code's own agent loop and cannot answer one "
            "turn: call evaluate() or MainLoop.execute(), not InnerLoop or complete()."
        )

    def evaluate(
        self,
        prompt: Prompt[Any],
        *,
        session: SessionProtocol,
        deadline: Deadline | None = None,
        budget: Budget | BudgetTracker | None = None,
    ) -> PromptResponse:
        """One conversation with Claude Code, until it answers.

        Raises:
            VisibilityExpansionRequired: a ``read_section`` revealed tools that Claude Code
                did not list in time (rare); ``MainLoop`` restarts with the section expanded.
            ProviderError: Claude Code or the provider failed (``kind`` says how).
            PromptEvaluationError: the deadline, the budget or the turn limit was reached, or
                the answer does not fit the prompt's declared output.
        """
        tracker = budget if isinstance(budget, BudgetTracker) else BudgetTracker(budget)
        _check_limits(prompt.name, deadline, tracker)
        require_sdk("claude_agent_sdk", extra="claude-agent", adapter="ClaudeAgentSDKAdapter")
        from wink_decl.adapters.claude_agent._conversation import (  # noqa: PLC0415  # needs the SDK
            Conversation,
        )

        conversation = Conversation(
            adapter=self, prompt=prompt, session=session, deadline=deadline, budget=tracker
        )
        return _run_blocking(conversation.run)


def _check_limits(prompt_name: str, deadline: Deadline | None, budget: BudgetTracker) -> None:
    """The runtime loop's checks before a turn, made before Claude Code starts."""
    passed = limit_passed(prompt_name, deadline, budget)
    if passed is not None:
        raise passed


def _run_blocking(work: Callable[[], Coroutine[object, None, T]]) -> T:
    """Run ``work()`` on a fresh event loop, on a thread of its own if this one has a loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(work())
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="wink-claude-agent") as pool:
        return pool.submit(lambda: asyncio.run(work())).result()
