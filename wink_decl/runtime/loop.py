"""The evaluation loops: ``InnerLoop`` (turns and tool calls) and ``MainLoop`` (restarts)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol

from wink_decl._loggers import package_logger
from wink_decl._nouns import noun_for
from wink_decl.errors import EvaluationPhase, PromptEvaluationError, WinkDeclError
from wink_decl.prompt.expansion import VisibilityExpansionRequired
from wink_decl.prompt.tool_schema import to_openai_tools
from wink_decl.prompt.visibility import SectionVisibility
from wink_decl.runtime.budget import Budget, BudgetTracker
from wink_decl.runtime.executor import ToolExecutionOutcome, ToolExecutor
from wink_decl.runtime.output import output_format, parse_output
from wink_decl.runtime.provider import (
    OPENING_MESSAGE,
    ModelClient,
    ProviderMessage,
    ProviderReply,
    ProviderRequest,
    TokenUsage,
)
from wink_decl.runtime.session.metrics import (
    DISCLOSURE_DYNAMIC,
    DISCLOSURE_RESTARTS,
    TOOLS_INJECTED,
)
from wink_decl.runtime.session.model_events import ModelRequested, ModelResponded
from wink_decl.runtime.session.tool_events import ToolsInjected
from wink_decl.runtime.session.visibility_slice import SetVisibilityOverride

if TYPE_CHECKING:
    from wink_decl.prompt.template import Prompt, RenderedPrompt
    from wink_decl.prompt.tool import Tool
    from wink_decl.runtime.deadline import Deadline
    from wink_decl.runtime.session import SessionProtocol

__all__ = [
    "Evaluator",
    "InnerLoop",
    "InnerLoopConfig",
    "MainLoop",
    "PromptResponse",
    "follow_session",
    "limit_passed",
    "turn_guard",
    "turn_limit_passed",
]

logger = package_logger("loop")

DEFAULT_MAX_TURNS = 64
DEFAULT_MAX_RESTARTS = 10
DEFAULT_MAX_OUTPUT_RETRIES = 1


@dataclass(slots=True, frozen=True)
class InnerLoopConfig:
    """How the inner loop runs."""

    supports_dynamic_tools: bool = False
    """True: tools revealed by ``read_section`` are injected; False: the loop must restart."""
    max_turns: int = DEFAULT_MAX_TURNS
    """A guard against a model that never stops calling tools."""
    max_output_retries: int = DEFAULT_MAX_OUTPUT_RETRIES
    """How often an answer that does not fit the declared output is sent back to be fixed."""
    opening_message: str = OPENING_MESSAGE
    """The user turn after the rendered prompt (the system message)."""


@dataclass(slots=True, frozen=True)
class PromptResponse:
    """The result of one evaluation: the final text and how the conversation went."""

    prompt_name: str
    text: str
    rendered: RenderedPrompt
    messages: tuple[ProviderMessage, ...]
    output: Any = None
    """The answer parsed into the prompt's declared output dataclass; None without one."""
    usage: TokenUsage = field(default_factory=TokenUsage)
    """Tokens the whole evaluation used (every restart included), as providers reported."""


class Evaluator(Protocol):
    """What ``MainLoop`` needs of an adapter: one evaluation (``ProviderAdapter.evaluate``)."""

    def evaluate(
        self,
        prompt: Prompt[Any],
        *,
        session: SessionProtocol,
        deadline: Deadline | None = None,
        budget: Budget | BudgetTracker | None = None,
    ) -> PromptResponse:
        """Run the inner loop until the model answers without calling tools."""
        ...


class InnerLoop:
    """Provider turn, tool calls, results; repeated until the model answers or a limit is hit."""

    def __init__(
        self,
        *,
        adapter: ModelClient,
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
        self._budget = budget if isinstance(budget, BudgetTracker) else BudgetTracker(budget)

    def run(self) -> PromptResponse:
        """Evaluate; ``VisibilityExpansionRequired`` escapes when a restart is needed.

        With dynamic tools, every request offers exactly the tools of the prompt rendered from
        the session as it is then, so a later render (a resumed conversation, another process)
        offers what the model was offered. Without them, the tools stay those of the first
        render; a ``read_section`` that reveals tools ends the conversation for a restart.
        A prompt with a declared output gets its answer parsed into it; an answer that does
        not fit is sent back once per ``max_output_retries`` with what was wrong.
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
            secrets=self._adapter.secrets,
        )
        offer = _Offer(executor.tools)
        output_type = self._prompt.template.output_type
        taken = {tool.name for tool in self._prompt.template.all_tools()} | {"read_section"}
        shape = None if output_type is None else output_format(output_type, taken)
        messages = [
            ProviderMessage(role="system", content=rendered.text),
            ProviderMessage(role="user", content=self._config.opening_message),
        ]
        retries = 0
        for turn in range(1, self._config.max_turns + 1):
            self._check_limits()
            request = ProviderRequest(tuple(messages), offer.specs, offer.names, shape)
            reply = self._turn(self._with_timeout(request), turn)
            messages.append(ProviderMessage("assistant", reply.text, reply.tool_calls))
            if not reply.tool_calls:
                if output_type is None:
                    return self._response(reply.text, rendered, messages, None)
                output, problem = parse_output(output_type, reply.text)
                if problem is None:
                    return self._response(reply.text, rendered, messages, output)
                retries += 1
                self._check_output_retries(retries, problem)
                messages.append(ProviderMessage("user", _retry_message(problem)))
                continue
            for call in reply.tool_calls:
                outcome = executor.execute(call)
                messages.append(outcome.message)
                if self._config.supports_dynamic_tools:
                    offer = self._follow_session(executor, offer, outcome)
        raise turn_limit_passed(self._prompt.name, self._config.max_turns)

    def _response(
        self,
        text: str,
        rendered: RenderedPrompt,
        messages: list[ProviderMessage],
        output: object,
    ) -> PromptResponse:
        return PromptResponse(
            self._prompt.name, text, rendered, tuple(messages), output, self._budget.usage
        )

    def _check_output_retries(self, retries: int, problem: str) -> None:
        if retries > self._config.max_output_retries:
            output_type = self._prompt.template.output_type
            name = "" if output_type is None else output_type.__qualname__
            raise PromptEvaluationError(
                f"The answer of prompt '{self._prompt.name}' does not fit its output {name}: "
                f"{problem}",
                prompt_name=self._prompt.name,
                phase=EvaluationPhase.OUTPUT,
            )

    def _with_timeout(self, request: ProviderRequest) -> ProviderRequest:
        if self._deadline is None:
            return request
        return replace(request, timeout=max(self._deadline.remaining(), 0.0))

    def _check_limits(self) -> None:
        passed = limit_passed(self._prompt.name, self._deadline, self._budget)
        if passed is not None:
            raise passed

    def _turn(self, request: ProviderRequest, turn: int) -> ProviderReply:
        """One model turn, recorded in the session and counted against the budget."""
        self._budget.record_turn()
        name, adapter = self._prompt.name, self._adapter.name
        self._session.dispatch(
            ModelRequested(name, adapter, turn, request.tool_names, len(request.messages))
        )
        try:
            reply = self._adapter.complete(request)
        except WinkDeclError:
            raise
        except Exception as error:
            raise PromptEvaluationError(
                f"Provider '{adapter}' failed: {type(error).__name__}: {error}",
                prompt_name=name,
                phase=EvaluationPhase.PROVIDER,
            ) from error
        if reply.usage is not None:
            self._budget.record_usage(reply.usage)
        self._session.dispatch(
            ModelResponded(name, adapter, turn, reply.text, reply.tool_calls, reply.usage)
        )
        return reply

    def _follow_session(
        self, executor: ToolExecutor, offer: _Offer, outcome: ToolExecutionOutcome
    ) -> _Offer:
        """Open what the call revealed and offer the tools of a fresh render from now on."""
        follow_session(self._prompt, self._session, executor, outcome)
        return offer if executor.tools == offer.tools else _Offer(executor.tools)


def follow_session(
    prompt: Prompt[Any],
    session: SessionProtocol,
    executor: ToolExecutor,
    outcome: ToolExecutionOutcome,
) -> tuple[Tool[Any, Any], ...]:
    """Open what a ``read_section`` revealed, then offer the tools of a fresh render.

    Returns the tools offered now that were not before. Rendering after every call (plans are
    cached, so it costs microseconds) also picks up changes a handler made to the session,
    such as its own visibility overrides. An adapter whose provider runs its own agent loop
    with dynamic tools calls this after each call too.
    """
    for path in outcome.expanded_sections:
        session.dispatch(SetVisibilityOverride(path, SectionVisibility.FULL))
    if outcome.expanded_sections:
        session.metrics.increment(DISCLOSURE_DYNAMIC)
    added = executor.offer(prompt.render(session=session))
    if added:
        key = outcome.section_key or ""
        names = tuple(tool.name for tool in added)
        session.dispatch(ToolsInjected(tool_names=names, section_key=key))
        session.metrics.increment(TOOLS_INJECTED, len(added))
        logger.info("Injected tools from section %s: %s", key or "-", ", ".join(names))
    return added


def limit_passed(
    prompt_name: str, deadline: Deadline | None, budget: BudgetTracker
) -> PromptEvaluationError | None:
    """Why no further model turn may start (the deadline, the budget), or None.

    The loop checks this before every turn; an adapter that runs its provider's own agent loop
    checks it too, so a run stops for the same reasons, in the same words.
    """
    if deadline is not None and deadline.expired():
        return PromptEvaluationError(
            f"The deadline passed before prompt '{prompt_name}' finished.",
            prompt_name=prompt_name,
            phase=EvaluationPhase.DEADLINE,
        )
    reason = budget.exhausted()
    if reason is not None:
        return PromptEvaluationError(
            f"Prompt '{prompt_name}' stopped: {reason}.",
            prompt_name=prompt_name,
            phase=EvaluationPhase.BUDGET,
        )
    return None


def turn_guard(budget: Budget | BudgetTracker | None, guard: int = DEFAULT_MAX_TURNS) -> int:
    """The model turns one conversation may take: ``guard``, or the budget's if that is more.

    The guard stops a model that never stops calling tools; a budget's ``max_turns`` is the
    caller's own limit (``run --max-turns``), which the guard must not cut short.
    """
    limits = budget.budget if isinstance(budget, BudgetTracker) else budget
    allowed = None if limits is None else limits.max_turns
    return guard if allowed is None else max(guard, allowed)


def turn_limit_passed(prompt_name: str, max_turns: int) -> PromptEvaluationError:
    """The error of a conversation that used all its turns without an answer."""
    return PromptEvaluationError(
        f"Prompt '{prompt_name}' did not finish within {max_turns} model turns.",
        prompt_name=prompt_name,
        phase=EvaluationPhase.LOOP,
    )


def _retry_message(problem: str) -> str:
    return (
        f"Your answer does not fit the required output: {problem} Answer again with only the "
        "JSON object the output schema describes."
    )


class _Offer:
    """The tools of one request, with their provider specs built once per distinct offer."""

    __slots__ = ("names", "specs", "tools")

    def __init__(self, tools: tuple[Tool[Any, Any], ...]) -> None:
        self.tools = tools
        self.names = tuple(tool.name for tool in tools)
        self.specs: tuple[dict[str, object], ...] = tuple(to_openai_tools(tools))


class MainLoop:
    """Evaluates a prompt, restarting with expanded sections when the adapter needs it."""

    def __init__(self, *, adapter: Evaluator, max_restarts: int = DEFAULT_MAX_RESTARTS) -> None:
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
        tracker = BudgetTracker(budget)
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
                        f"{self._max_restarts} {noun_for(self._max_restarts, 'restart')}; "
                        "giving up.",
                        prompt_name=prompt.name,
                        phase=EvaluationPhase.DISCLOSURE,
                    ) from request
                for path, visibility in request.requested_overrides.items():
                    session.dispatch(SetVisibilityOverride(path, visibility))
                session.metrics.increment(DISCLOSURE_RESTARTS)
        raise AssertionError("unreachable: the loop returns or raises")  # pragma: no cover
