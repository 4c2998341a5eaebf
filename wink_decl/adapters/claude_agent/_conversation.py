"""One conversation with Claude Code: its options, the prompt's tools over MCP, its messages."""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections import deque
from contextlib import aclosing, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

import anyio
from claude_agent_sdk import (
    AssistantMessage,
    ClaudeAgentOptions,
    ClaudeSDKClient,
    Message,
    ResultMessage,
    StreamEvent,
    SystemMessage,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
    UserMessage,
)

from wink_decl._loggers import package_logger
from wink_decl.adapters.adapter_support import provider_error, redact
from wink_decl.adapters.claude_agent._claude_transcript import Transcript
from wink_decl.adapters.claude_agent._failures import (
    FINAL_STATUSES,
    Attempted,
    from_exception,
    from_result,
    refused_retry,
    timed_out,
)
from wink_decl.adapters.claude_agent._options import claude_options
from wink_decl.adapters.claude_agent._tool_server import TOOL_PREFIX, ToolAnswer, ToolServer
from wink_decl.errors import EvaluationPhase, PromptEvaluationError
from wink_decl.prompt.context_protocols import AdapterView
from wink_decl.prompt.expansion import VisibilityExpansionRequired
from wink_decl.prompt.visibility import SectionVisibility
from wink_decl.runtime.adapter import PromptResponse
from wink_decl.runtime.executor import ToolExecutionOutcome, ToolExecutor
from wink_decl.runtime.loop import follow_session, limit_passed, turn_guard, turn_limit_passed
from wink_decl.runtime.output import parse_output
from wink_decl.runtime.provider import ProviderMessage, ProviderToolCall

if TYPE_CHECKING:
    from collections.abc import AsyncGenerator

    from wink_decl.adapters.claude_agent._agent_settings import ClaudeAgentSettings
    from wink_decl.prompt.template import Prompt
    from wink_decl.runtime.budget import BudgetTracker
    from wink_decl.runtime.deadline import Deadline
    from wink_decl.runtime.session import SessionProtocol

__all__ = ["Conversation"]

_INTERRUPT_GRACE = 2.0
"""Seconds an interrupted Claude Code gets to abandon its turn before it is closed anyway."""

_SYNTHETIC = "<synthetic>"
"""The model name on assistant messages Claude Code writes itself (API errors, interrupts)."""

_STDERR_KEPT = 20

_RELIST_BOUND = 10.0
"""Seconds Claude Code gets to list revealed tools (it takes milliseconds) before a restart."""

logger = package_logger("adapters.claude_agent")


class ClaudeAgent(AdapterView, Protocol):
    """The adapter as its conversation sees it (named so: the adapter imports this module)."""

    @property
    def settings(self) -> ClaudeAgentSettings:
        """How the adapter starts Claude Code."""
        ...

    @property
    def secrets(self) -> tuple[str, ...]:
        """Every credential Claude Code may see."""
        ...


class Conversation:
    """One evaluation: Claude Code started with the prompt's render, until it answers.

    A limit, a refused request or (rarely) a restart ends it early; ``run`` then raises the
    reason.
    """

    _listening: anyio.CancelScope
    """Around the message stream; cancelled to end the conversation early."""

    def __init__(
        self,
        *,
        adapter: ClaudeAgent,
        prompt: Prompt[Any],
        session: SessionProtocol,
        deadline: Deadline | None,
        budget: BudgetTracker,
    ) -> None:
        """Render the prompt and get its tools ready, as the runtime's loop does."""
        self._settings = adapter.settings
        self._prompt = prompt
        self._session = session
        self._deadline = deadline
        self._budget = budget
        self._secrets = adapter.secrets
        self._rendered = prompt.render(session=session)
        self._executor = ToolExecutor(
            prompt=prompt,
            rendered=self._rendered,
            session=session,
            adapter=adapter,
            supports_dynamic_tools=True,
            deadline=deadline,
            budget_tracker=budget,
            secrets=self._secrets,
        )
        self._server = ToolServer(self._executor.tools, self._call)
        self._client: ClaudeSDKClient | None = None
        self._transcript = Transcript(
            prompt_name=prompt.name,
            adapter_name=adapter.name,
            session=session,
            budget=budget,
            tool_names=self._offered(),
            opening=(
                ProviderMessage("system", self._rendered.text),
                ProviderMessage("user", self._settings.user_message),
            ),
            tool_prefix=TOOL_PREFIX,
        )
        self._stderr: deque[str] = deque(maxlen=_STDERR_KEPT)
        self._ending: Exception | None = None
        self._result: ResultMessage | None = None
        self._assistant_error: str | None = None
        self._retries = 0

    async def run(self) -> PromptResponse:
        """Converse until Claude Code answers; raise what ended the conversation otherwise."""
        self._listening = anyio.CancelScope()
        started = time.monotonic()
        with tempfile.TemporaryDirectory(prefix="wink-claude-agent-") as scratch:
            options = claude_options(
                self._settings,
                rendered=self._rendered,
                server=self._server.config,
                output_type=self._prompt.template.output_type,
                system_prompt=Path(scratch) / "system-prompt.md",
                stderr=self._on_stderr,
            )
            try:
                with anyio.move_on_after(self._time_left()) as limit:
                    await self._converse(options)
            except Exception as error:  # noqa: BLE001  # every failure below is a ProviderError
                logger.debug("Claude Code failed: %s", redact(repr(error), self._secrets))
                raise from_exception(
                    error, stderr=tuple(self._stderr), secrets=self._secrets
                ) from None
        if self._ending is not None:
            raise self._ending
        if limit.cancelled_caught:
            raise timed_out(time.monotonic() - started)
        return self._response()

    def _on_stderr(self, line: str) -> None:
        line = redact(line, self._secrets)
        self._stderr.append(line)
        logger.debug("Claude Code: %s", line)

    def _time_left(self) -> float | None:
        return None if self._deadline is None else max(self._deadline.remaining(), 0.0)

    # -- the conversation ----------------------------------------------------------------------

    async def _converse(self, options: ClaudeAgentOptions) -> None:
        async with ClaudeSDKClient(options) as client:
            self._client = client
            try:
                with self._listening:
                    await client.query(self._settings.user_message)
                    # An async generator: closed here, not when it is collected.
                    stream = cast("AsyncGenerator[Message]", client.receive_response())
                    async with aclosing(stream) as messages:
                        async for message in messages:
                            self._observe(message)
            finally:
                if self._result is None:
                    await _interrupt(client)

    async def _call(self, name: str, arguments: dict[str, object]) -> ToolAnswer:
        """One MCP tool call: through the executor, or held until the conversation closes."""
        await self._transcript.settled()
        call = ProviderToolCall(self._transcript.claim(name, arguments), name, arguments)
        if self._ending is None and not self._stopped_at_limits():
            try:
                outcome = self._executor.execute(call)
            except Exception as error:  # noqa: BLE001  # a limit: evaluate raises it
                self._end(error)
            else:
                if await self._disclosed(outcome):
                    text = outcome.message.content
                    return {
                        "content": [{"type": "text", "text": text}],
                        "is_error": not outcome.success,
                    }
        # Ending: closing the conversation cancels this call, so no result reaches the model.
        await anyio.sleep_forever()
        raise AssertionError("unreachable: sleep_forever ends only by cancellation")

    async def _disclosed(self, outcome: ToolExecutionOutcome) -> bool:
        """Offer what a call revealed before its result goes back; False: a restart instead.

        Claude Code takes the tools for the model's next request from its own list, so the
        result waits until Claude Code has listed the tools again (docs/adapters/claude-agent.md).
        """
        before = self._executor.tools
        follow_session(self._prompt, self._session, self._executor, outcome)
        if self._executor.tools == before:
            return True
        self._server.offer(self._executor.tools)
        self._transcript.offer(self._offered())
        if await self._server.announce(self._client, within=_RELIST_BOUND):
            return True
        key = outcome.section_key or ""
        self._end(
            VisibilityExpansionRequired(
                f"Section '{key}' must be expanded and the evaluation restarted: "
                "Claude Code did not list the tools it revealed.",
                requested_overrides=dict.fromkeys(
                    outcome.expanded_sections, SectionVisibility.FULL
                ),
                reason="Claude Code did not list the new tools",
                section_keys=(key,),
            )
        )
        return False

    def _offered(self) -> tuple[str, ...]:
        """The tools the model is offered: the prompt's, then the allowed built-in ones."""
        return (*self._executor.tool_names, *self._settings.builtin_tools)

    def _end(self, reason: Exception) -> None:
        """End the conversation early; ``run`` raises the first reason given."""
        if self._ending is None:
            self._ending = reason
        self._listening.cancel()

    def _stopped_at_limits(self) -> bool:
        """After a response that called tools: end the conversation if no turn may follow."""
        name = self._prompt.name
        guard = turn_guard(self._budget, self._settings.max_turns)
        if self._transcript.turns >= guard:
            self._end(turn_limit_passed(name, guard))
            return True
        exhausted = limit_passed(name, None, self._budget)
        if exhausted is not None:
            self._end(exhausted)
            return True
        return False

    # -- what Claude Code reports --------------------------------------------------------------

    def _observe(self, message: Message) -> None:
        if getattr(message, "parent_tool_use_id", None) is not None:
            return  # a subagent's: its cost reaches the result, not the conversation's turns
        if isinstance(message, StreamEvent):
            self._stream_event(message.event)
        elif isinstance(message, AssistantMessage):
            self._assistant(message)
        elif isinstance(message, UserMessage):
            self._tool_results(message)
        elif isinstance(message, SystemMessage):
            self._system(message)
        elif isinstance(message, ResultMessage):
            self._transcript.finish()
            self._result = message

    def _stream_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "message_start":
            self._transcript.start(event["message"].get("usage") or {})
        elif kind == "message_delta":
            self._transcript.update_usage(event.get("usage") or {})
        elif kind == "message_stop":
            self._transcript.finish()
            if self._transcript.last_called_tools:
                self._stopped_at_limits()

    def _assistant(self, message: AssistantMessage) -> None:
        if message.model == _SYNTHETIC:
            self._assistant_error = message.error  # Claude Code's word on a failed request
            return
        self._transcript.responding(message.usage or {})
        for block in message.content:
            if isinstance(block, TextBlock):
                self._transcript.add_text(block.text)
            elif isinstance(block, ToolUseBlock):
                self._transcript.add_call(block.id, block.name, block.input)

    def _tool_results(self, message: UserMessage) -> None:
        for block in message.content if isinstance(message.content, list) else ():
            if isinstance(block, ToolResultBlock):
                self._transcript.add_tool_result(block.tool_use_id, _text(block.content))

    def _system(self, message: SystemMessage) -> None:
        if message.subtype != "api_retry":
            return
        status = message.data.get("error_status")
        if status in FINAL_STATUSES:
            error = str(message.data.get("error"))
            attempted = self._attempted()
            self._end(refused_retry(status, error, attempted=attempted, secrets=self._secrets))
        else:
            self._retries += 1

    def _attempted(self) -> Attempted:
        """The model, the API root and how often the failed request was sent, for its words."""
        environment = {**os.environ, **self._settings.environment()}
        return Attempted(
            model=self._settings.model or "Claude Code's default",
            url=environment.get("ANTHROPIC_BASE_URL", "the Anthropic API"),
            attempts=self._retries + 1,
        )

    # -- the answer ----------------------------------------------------------------------------

    def _response(self) -> PromptResponse:
        result = self._result
        if result is None:
            raise provider_error("Claude Code ended without a result.", kind="other")
        if result.is_error:
            raise from_result(
                result,
                self._assistant_error,
                attempted=self._attempted(),
                secrets=self._secrets,
            )
        text = self._transcript.last_text if result.result is None else result.result
        return PromptResponse(
            self._prompt.name,
            text,
            self._rendered,
            tuple(self._transcript.messages),
            self._output(result, text),
            self._budget.usage,
        )

    def _output(self, result: ResultMessage, text: str) -> object:
        """The declared output: what Claude Code's StructuredOutput tool received, or the text."""
        output_type = self._prompt.template.output_type
        if output_type is None:
            return None
        answer = text if result.structured_output is None else json.dumps(result.structured_output)
        output, problem = parse_output(output_type, answer)
        if problem is not None:
            name = self._prompt.name
            raise PromptEvaluationError(
                f"The answer of prompt '{name}' does not fit its output "
                f"{output_type.__qualname__}: {problem}",
                prompt_name=name,
                phase=EvaluationPhase.OUTPUT,
            )
        return output


async def _interrupt(client: ClaudeSDKClient) -> None:
    """Ask Claude Code to abandon its turn, so that closing it takes milliseconds.

    While it waits on the model it ignores a closed stdin and is only stopped 5 s later.
    Shielded, as a passed deadline is one reason to be here.
    """
    with anyio.move_on_after(_INTERRUPT_GRACE, shield=True), suppress(Exception):
        await client.interrupt()


def _text(content: str | list[dict[str, object]] | None) -> str:
    """A tool result's text, as the model read it."""
    if content is None or isinstance(content, str):
        return content or ""
    return "".join(str(item.get("text", "")) for item in content if item.get("type") == "text")
