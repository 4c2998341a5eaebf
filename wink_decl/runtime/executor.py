"""``ToolExecutor``: one provider tool call, dispatched in the order docs/runtime.md gives.

lookup -> parse (extra keys refused) -> policies -> deadline -> context -> snapshot ->
handler -> ``on_result`` -> the result's value to the session's reducers -> restore on any
failure -> ``ToolInvoked`` -> the model's message. A failing tool never aborts evaluation; only
the exceptions of the table in docs/runtime.md propagate. A failed call leaves the session
exactly as it was (every slice, logs included) apart from its own ``ToolInvoked``, and its
message never shows the secrets the executor was given.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypeAlias, cast

from wink_decl._loggers import package_logger
from wink_decl.errors import (
    DeadlineExceededError,
    EvaluationPhase,
    PromptEvaluationError,
    ToolValidationError,
)
from wink_decl.prompt.expansion import VisibilityExpansionRequired
from wink_decl.prompt.read_section import ReadSectionParams, ReadSectionResult
from wink_decl.prompt.resources import Restorable
from wink_decl.prompt.serde import parse
from wink_decl.prompt.tool_context import ToolContext
from wink_decl.prompt.tool_result import ToolResult
from wink_decl.prompt.visibility import SectionPath, SectionVisibility
from wink_decl.runtime.provider import ProviderMessage, ProviderToolCall
from wink_decl.runtime.redaction import redact
from wink_decl.runtime.session.tool_events import ToolInvoked
from wink_decl.suggestions import did_you_mean_sentence

if TYPE_CHECKING:
    from wink_decl.prompt.context_protocols import AdapterView
    from wink_decl.prompt.policy import ToolPolicy
    from wink_decl.prompt.template import Prompt, RenderedPrompt
    from wink_decl.prompt.tool import Tool
    from wink_decl.runtime.budget import BudgetTracker
    from wink_decl.runtime.deadline import Deadline
    from wink_decl.runtime.session import SessionProtocol, Snapshot

__all__ = ["ToolExecutionOutcome", "ToolExecutor", "tool_message_text"]

logger = package_logger("executor")

_Snapshot: TypeAlias = "tuple[Snapshot, list[tuple[Restorable, object]]]"
_NONE_TYPE = type(None)


@dataclass(frozen=True)
class _NoParams:
    """What a tool without params accepts: an empty object (extra keys are refused)."""


@dataclass(slots=True, frozen=True)
class ToolExecutionOutcome:
    """What one call produced: the tool message for the model, the result, revealed tools."""

    tool_call_id: str
    tool_name: str
    message: ProviderMessage
    success: bool
    result: ToolResult[object]
    expanded_tools: tuple[Tool[Any, Any], ...] = ()
    section_key: str | None = None
    """For ``read_section``: the section that was read."""
    expanded_sections: tuple[SectionPath, ...] = ()
    """For ``read_section`` that revealed tools: the sections the session must show at FULL."""


def tool_message_text(result: ToolResult[Any]) -> str:
    """The provider-facing text: the message, then the rendered value unless it is excluded."""
    rendered = "" if result.exclude_value_from_context else result.render()
    if rendered and result.message:
        return f"{result.message}\n\n{rendered}"
    return rendered or result.message


class ToolExecutor:
    """Runs the tool calls of one evaluation against the tools currently offered."""

    def __init__(
        self,
        *,
        prompt: Prompt[Any],
        rendered: RenderedPrompt,
        session: SessionProtocol,
        adapter: AdapterView | None = None,
        supports_dynamic_tools: bool = False,
        deadline: Deadline | None = None,
        budget_tracker: BudgetTracker | None = None,
        heartbeat: Callable[[], None] | None = None,
        secrets: Iterable[str | None] = (),
    ) -> None:
        """Offer ``rendered.tools``; more may be added with ``add``.

        ``secrets`` (the adapter's API keys, tokens) are redacted from every failed call's
        message: what the model reads, what ``ToolInvoked`` records and the warning logged.
        """
        self._prompt = prompt
        self._rendered = rendered
        self._session = session
        self._adapter = adapter
        self._adapter_name = adapter.name if adapter is not None else ""
        self._dynamic = supports_dynamic_tools
        self._deadline = deadline
        self._budget = budget_tracker
        self._heartbeat = heartbeat
        self._secrets = tuple(secret for secret in secrets if secret)
        self._tools: dict[str, Tool[Any, Any]] = {tool.name: tool for tool in rendered.tools}
        # Resources do not change during an evaluation: find the restorable ones once.
        self._restorables = tuple(r for r in prompt.resources if isinstance(r, Restorable))

    @property
    def tool_names(self) -> tuple[str, ...]:
        """The names of the tools on offer, in the order they are offered."""
        return tuple(self._tools)

    @property
    def tools(self) -> tuple[Tool[Any, Any], ...]:
        """The tools on offer, in order."""
        return tuple(self._tools.values())

    def offer(self, rendered: RenderedPrompt) -> tuple[Tool[Any, Any], ...]:
        """Offer the tools of a newer render from now on; returns those not offered before.

        Handlers called after this see ``rendered`` as their context's ``rendered_prompt``.
        """
        before = self._tools
        self._rendered = rendered
        self._tools = {tool.name: tool for tool in rendered.tools}
        return tuple(tool for tool in rendered.tools if before.get(tool.name) is not tool)

    def execute(self, call: ProviderToolCall) -> ToolExecutionOutcome:
        """Dispatch one call; raises only what the table in docs/runtime.md re-raises."""
        tool = self._tools.get(call.name)
        if tool is None:
            suggestion = did_you_mean_sentence(call.name, self._tools)
            known = ", ".join(self._tools) or "none"
            text = f"Unknown tool '{call.name}'.{suggestion} Available tools: {known}."
            failure = ToolResult.error(text)
            return self._finish(call, None, call.arguments, failure, text)
        params, refusal = self._parse(tool, call)
        if refusal is not None:
            return self._finish(call, tool, call.arguments, refusal, refusal.message)
        result, text = self._run(tool, params)
        outcome = self._finish(call, tool, params, result, text)
        return self._disclose(tool, params, outcome)

    # -- the steps ---------------------------------------------------------------------------

    def _parse(
        self, tool: Tool[Any, Any], call: ProviderToolCall
    ) -> tuple[object, ToolResult[object] | None]:
        """The params dataclass, or the failed result explaining why the arguments are wrong.

        A tool without params (``Tool[None, R]``) takes an empty object and gets ``None``.
        """
        try:
            arguments = call.decoded_arguments()
            if tool.params_type is _NONE_TYPE:
                parse(_NoParams, arguments, extra="forbid")
                return None, None
            return parse(tool.params_type, arguments, extra="forbid"), None
        except (ToolValidationError, ValueError) as error:
            return None, ToolResult.error(f"Invalid arguments for tool '{tool.name}': {error}")

    def _run(self, tool: Tool[Any, Any], params: object) -> tuple[ToolResult[object], str]:
        """Policies, deadline, snapshot, handler, ``on_result``; restore when anything fails.

        Returns the result and the text the model will read (rendered once, here, so a value
        that cannot render fails the call like any other error).
        """
        context = self._context()
        policies = self._prompt.template.policies_for(tool.name)
        denial = _first_denial(policies, tool, params, context, self._secrets)
        if denial is not None:
            return denial, denial.message
        if self._deadline is not None and self._deadline.expired():
            raise PromptEvaluationError(
                f"The deadline passed before tool '{tool.name}' could run.",
                prompt_name=self._prompt.name,
                phase=EvaluationPhase.TOOL,
            )
        snapshot = self._snapshot()
        try:
            result = _invoke(tool, params, context, self._secrets)
            if result.success:
                for policy in policies:
                    policy.on_result(tool, params, result, context=context)
                self._dispatch_value(result.value)
            text = tool_message_text(result)
        except (VisibilityExpansionRequired, PromptEvaluationError):
            self._restore(snapshot)
            raise
        except DeadlineExceededError as error:
            self._restore(snapshot)
            raise PromptEvaluationError(
                f"The deadline passed while tool '{tool.name}' was running.",
                prompt_name=self._prompt.name,
                phase=EvaluationPhase.TOOL,
            ) from error
        except Exception as error:  # noqa: BLE001  # a failing tool must never abort evaluation
            # After the handler: a policy's on_result, a reducer or the value's render raised.
            failure = f"Tool '{tool.name}' failed: {_described(error)}"
            result = _logged_failure(failure, error, self._secrets)
            text = result.message
        if not result.success:
            self._restore(snapshot)
        return result, text

    def _context(self) -> ToolContext:
        return ToolContext(
            prompt=self._prompt,
            rendered_prompt=self._rendered,
            adapter=self._adapter,
            session=self._session,
            deadline=self._deadline,
            budget_tracker=self._budget,
            heartbeat=self._heartbeat,
        )

    def _dispatch_value(self, value: object) -> None:
        """Hand a successful result's value to the reducers registered for its type.

        A value nobody listens for is not dispatched: ``ToolInvoked`` already records it.
        """
        if value is not None and self._session.is_registered(type(value)):
            self._session.dispatch(value)

    def _snapshot(self) -> _Snapshot:
        return self._session.snapshot(), [(r, r.snapshot()) for r in self._restorables]

    def _restore(self, snapshot: _Snapshot) -> None:
        """Undo the call: every slice (logs too) and every restorable resource."""
        session_snapshot, resources = snapshot
        self._session.restore(session_snapshot, preserve_logs=False)
        for resource, token in resources:
            resource.restore(token)

    def _finish(
        self,
        call: ProviderToolCall,
        tool: Tool[Any, Any] | None,
        params: object,
        result: ToolResult[object],
        text: str,
    ) -> ToolExecutionOutcome:
        name = call.name if tool is None else tool.name
        if not result.success:  # whatever failed, and whoever wrote the message
            result = _redacted(result, self._secrets)
            text = redact(text, self._secrets)
        self._session.dispatch(
            ToolInvoked(
                prompt_name=self._prompt.name,
                adapter=self._adapter_name,
                tool_name=name,
                params=params,
                result=result,
                rendered_output=text,
                call_id=call.call_id,
            )
        )
        if self._budget is not None:
            self._budget.record_tool_call()
        message = ProviderMessage(
            role="tool", content=text, tool_call_id=call.call_id, is_error=not result.success
        )
        return ToolExecutionOutcome(call.call_id, name, message, result.success, result)

    def _disclose(
        self, tool: Tool[Any, Any], params: object, outcome: ToolExecutionOutcome
    ) -> ToolExecutionOutcome:
        """``read_section`` that revealed tools: hand them over, or ask for a restart."""
        value = outcome.result.value
        if tool is not self._prompt.template.engine.read_section_tool or not isinstance(
            value, ReadSectionResult
        ):
            return outcome
        assert isinstance(params, ReadSectionParams)  # noqa: S101  # the tool's params type
        key = params.section_key.strip().lower()
        if not value.expanded_tools:
            return _replace(outcome, section_key=key)
        if self._dynamic:
            return _replace(
                outcome,
                section_key=key,
                expanded_tools=value.expanded_tools,
                expanded_sections=value.expanded_sections,
            )
        raise VisibilityExpansionRequired(
            f"Section '{key}' must be expanded and the evaluation restarted: "
            "the adapter cannot add tools mid-conversation.",
            requested_overrides=dict.fromkeys(value.expanded_sections, SectionVisibility.FULL),
            reason="Adapter does not support dynamic tools",
            section_keys=(key,),
        )


def _first_denial(
    policies: Iterable[ToolPolicy],
    tool: Tool[Any, Any],
    params: object,
    context: ToolContext,
    secrets: tuple[str, ...],
) -> ToolResult[object] | None:
    for policy in policies:
        try:
            decision = policy.check(tool, params, context=context)
        except Exception as error:  # noqa: BLE001  # a broken policy denies, it does not crash
            failure = f"Policy '{policy.name}' could not check tool '{tool.name}': "
            return _logged_failure(failure + _described(error), error, secrets)
        if not decision.allowed:
            return ToolResult.error(decision.reason or f"Policy '{policy.name}' denied the call.")
    return None


def _invoke(
    tool: Tool[Any, Any], params: object, context: ToolContext, secrets: tuple[str, ...]
) -> ToolResult[object]:
    """Run the handler, turning every failure of that table into a failed result."""
    handler = tool.handler
    if handler is None:
        return ToolResult.error(f"Tool '{tool.name}' has no handler.")
    try:
        result = cast("object", handler(params, context=context))
    except ToolValidationError as error:
        return ToolResult.error(str(error))
    except (VisibilityExpansionRequired, PromptEvaluationError, DeadlineExceededError):
        raise
    except TypeError as error:
        failure = (
            f"Tool '{tool.name}' raised TypeError: {error}. "
            "Check that the handler takes (params, *, context) and uses the params' fields."
        )
        return _logged_failure(failure, error, secrets)
    except Exception as error:  # noqa: BLE001  # a failing tool must never abort evaluation
        return _logged_failure(f"Tool '{tool.name}' failed: {_described(error)}", error, secrets)
    if not isinstance(result, ToolResult):
        return ToolResult.error(
            f"Tool '{tool.name}' returned {type(result).__qualname__}; handlers must return "
            "a ToolResult."
        )
    return cast("ToolResult[object]", result)


def _described(error: Exception) -> str:
    return f"{type(error).__name__}: {error}"


def _logged_failure(message: str, error: Exception, secrets: tuple[str, ...]) -> ToolResult[object]:
    """The failed result ``message``, secrets redacted, logged as a warning with ``error``.

    The warning's text is the one the model reads, so a log shows what the model was told; its
    traceback (``exc_info``) is the exception as raised: docs/runtime.md, "Logging".
    """
    text = redact(message, secrets)
    logger.warning("%s", text, exc_info=error)
    return ToolResult.error(text)


def _redacted(result: ToolResult[object], secrets: tuple[str, ...]) -> ToolResult[object]:
    message = redact(result.message, secrets)
    return result if message == result.message else replace(result, message=message)


def _replace(outcome: ToolExecutionOutcome, **changes: object) -> ToolExecutionOutcome:
    return replace(outcome, **changes)
