"""The evaluation loops: ``InnerLoop`` (turns and tool calls) and ``MainLoop`` (restarts)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from wink_decl.errors import PromptEvaluationError, VisibilityExpansionRequired, WinkDeclError
from wink_decl.runtime.adapter import PromptResponse
from wink_decl.runtime.budget import Budget, BudgetTracker
from wink_decl.runtime.executor import ToolExecutionOutcome, ToolExecutor
from wink_decl.runtime.provider import ProviderMessage, ProviderReply, ProviderRequest
from wink_decl.runtime.session.metrics import (
    DISCLOSURE_DYNAMIC,
    DISCLOSURE_RESTARTS,
    TOOLS_INJECTED,
)
from wink_decl.runtime.session.tool_events import ToolsInjected
from wink_decl.runtime.session.visibility_slice import SetVisibilityOverride
from wink_decl.runtime.tool_schema import to_openai_tools
from wink_decl.runtime.visibility import SectionVisibility

if TYPE_CHECKING:
    from wink_decl.runtime.adapter import ProviderAdapter
    from wink_decl.runtime.deadline import Deadline
    from wink_decl.runtime.prompt import Prompt
    from wink_decl.runtime.session import SessionProtocol
    from wink_decl.runtime.tool import Tool

__all__ = ["InnerLoop", "InnerLoopConfig", "MainLoop"]

logger = logging.getLogger("wink_decl.loop")

DEFAULT_MAX_TURNS = 64
DEFAULT_MAX_RESTARTS = 10


@dataclass(slots=True, frozen=True)
class InnerLoopConfig:
    """How the inner loop runs."""

    supports_dynamic_tools: bool = False
    """True: tools revealed by ``read_section`` are injected; False: the loop must restart."""
    max_turns: int = DEFAULT_MAX_TURNS
    """A guard against a model that never stops calling tools."""


class InnerLoop:
    """Provider turn, tool calls, results; repeated until the model answers or a limit is hit."""

    def __init__(
        self,
        *,
        adapter: ProviderAdapter,
        prompt: Prompt[Any],
        session: SessionProtocol,
        config: InnerLoopConfig | None = None,
        deadline: Deadline | None = None,
        budget: Budget | BudgetTracker | None = None,
    ) -> None:
        """Prepare one evaluation of ``prompt``."""
        self._adapter = adapter
        self._prompt = prompt
        self._session = session
        self._config = config or InnerLoopConfig()
        self._deadline = deadline
        self._budget = BudgetTracker(budget) if isinstance(budget, Budget) else budget

    def run(self) -> PromptResponse:
        """Evaluate; ``VisibilityExpansionRequired`` escapes when a restart is needed.

        With dynamic tools, every request offers exactly the tools of the prompt rendered from
        the session as it is then, so a later render (a resumed conversation, another process)
        offers what the model was offered. Without them, the tools stay those of the first
        render; a ``read_section`` that reveals tools ends the conversation for a restart.
        """
        rendered = self._prompt.render(session=self._session)
        executor = ToolExecutor(
            prompt=self._prompt,
            rendered=rendered,
            session=self._session,
            adapter=self._adapter,
            supports_dynamic_tools=self._config.supports_dynamic_tools,
            deadline=self._deadline,
            budget_tracker=self._budget,
        )
        offer = _Offer(executor.tools)
        messages: list[ProviderMessage] = [ProviderMessage(role="system", content=rendered.text)]
        for _ in range(self._config.max_turns):
            self._check_limits()
            reply = self._turn(ProviderRequest(tuple(messages), offer.specs, offer.names))
            messages.append(ProviderMessage("assistant", reply.text, reply.tool_calls))
            if not reply.tool_calls:
                return PromptResponse(self._prompt.name, reply.text, rendered, tuple(messages))
            for call in reply.tool_calls:
                outcome = executor.execute(call)
                messages.append(outcome.message)
                if self._config.supports_dynamic_tools:
                    offer = self._follow_session(executor, offer, outcome)
        raise PromptEvaluationError(
            f"Prompt '{self._prompt.name}' did not finish within {self._config.max_turns} model "
            "turns.",
            prompt_name=self._prompt.name,
            phase="loop",
        )

    def _check_limits(self) -> None:
        if self._deadline is not None and self._deadline.expired():
            raise PromptEvaluationError(
                f"The deadline passed before prompt '{self._prompt.name}' finished.",
                prompt_name=self._prompt.name,
                phase="deadline",
            )
        reason = None if self._budget is None else self._budget.exhausted()
        if reason is not None:
            raise PromptEvaluationError(
                f"Prompt '{self._prompt.name}' stopped: {reason}.",
                prompt_name=self._prompt.name,
                phase="budget",
            )

    def _turn(self, request: ProviderRequest) -> ProviderReply:
        if self._budget is not None:
            self._budget.record_turn()
        try:
            return self._adapter.complete(request)
        except WinkDeclError:
            raise
        except Exception as error:
            raise PromptEvaluationError(
                f"Provider '{self._adapter.name}' failed: {type(error).__name__}: {error}",
                prompt_name=self._prompt.name,
                phase="provider",
            ) from error

    def _follow_session(
        self, executor: ToolExecutor, offer: _Offer, outcome: ToolExecutionOutcome
    ) -> _Offer:
        """Open what a ``read_section`` revealed, then offer the tools of a fresh render.

        Rendering after every call (plans are cached, so it costs microseconds) also picks up
        changes a handler made to the session, such as its own visibility overrides.
        """
        for path in outcome.expanded_sections:
            self._session.dispatch(SetVisibilityOverride(path, SectionVisibility.FULL))
        if outcome.expanded_sections:
            self._session.metrics.increment(DISCLOSURE_DYNAMIC)
        added = executor.offer(self._prompt.render(session=self._session))
        if added:
            key = outcome.section_key or ""
            names = tuple(tool.name for tool in added)
            self._session.dispatch(ToolsInjected(tool_names=names, section_key=key))
            self._session.metrics.increment(TOOLS_INJECTED, len(added))
            logger.info("Injected tools from section %s: %s", key or "-", ", ".join(names))
        return offer if executor.tools == offer.tools else _Offer(executor.tools)


class _Offer:
    """The tools of one request, with their provider specs built once per distinct offer."""

    __slots__ = ("names", "specs", "tools")

    def __init__(self, tools: tuple[Tool[Any, Any], ...]) -> None:
        self.tools = tools
        self.names = tuple(tool.name for tool in tools)
        self.specs: tuple[dict[str, object], ...] = tuple(to_openai_tools(tools))


class MainLoop:
    """Evaluates a prompt, restarting with expanded sections when the adapter needs it."""

    def __init__(
        self, *, adapter: ProviderAdapter, max_restarts: int = DEFAULT_MAX_RESTARTS
    ) -> None:
        """``max_restarts`` bounds how often one evaluation may restart."""
        if max_restarts < 0:
            raise ValueError(f"max_restarts must be 0 or more, got {max_restarts}.")
        self._adapter = adapter
        self._max_restarts = max_restarts

    def execute(
        self,
        prompt: Prompt[Any],
        *,
        session: SessionProtocol,
        deadline: Deadline | None = None,
        budget: Budget | None = None,
    ) -> PromptResponse:
        """Evaluate; persist requested overrides in the session and retry, at most N times."""
        tracker = BudgetTracker(budget) if budget is not None else None
        for restarts in range(self._max_restarts + 1):
            try:
                return self._adapter.evaluate(
                    prompt, session=session, deadline=deadline, budget=tracker
                )
            except VisibilityExpansionRequired as request:
                if restarts == self._max_restarts:
                    keys = ", ".join(request.section_keys)
                    raise PromptEvaluationError(
                        f"Prompt '{prompt.name}' still needed sections expanded ({keys}) after "
                        f"{self._max_restarts} restarts; giving up.",
                        prompt_name=prompt.name,
                        phase="disclosure",
                    ) from request
                for path, visibility in request.requested_overrides.items():
                    session.dispatch(SetVisibilityOverride(path, visibility))
                session.metrics.increment(DISCLOSURE_RESTARTS)
        raise AssertionError("unreachable: the loop returns or raises")  # pragma: no cover
