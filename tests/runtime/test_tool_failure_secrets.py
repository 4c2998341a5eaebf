"""A failed tool call never shows the adapter's secrets, and the library prints nothing.

The executor redacts the secrets it is given from every failed call's message: what the model
reads, what ``ToolInvoked`` records and the warning it logs on ``wink_decl.executor``.
``MainLoop`` gives it the adapter's own (``ProviderAdapter.secrets``). The package's logger has
a ``NullHandler``, so a program that configures no logging sees nothing on stderr.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from concurrency import run_python
from openai_replies import reply
from provider_server import ProviderServer

from wink_decl import (
    MarkdownSection,
    PolicyDecision,
    Prompt,
    PromptTemplate,
    Session,
    Tool,
    ToolContext,
    ToolResult,
    ToolValidationError,
)
from wink_decl.adapters import OpenAIAdapter
from wink_decl.runtime.executor import ToolExecutor
from wink_decl.runtime.loop import MainLoop
from wink_decl.runtime.provider import ProviderToolCall
from wink_decl.runtime.session.tool_events import ToolInvoked

KEY = "sk-test-tool-0123456789"
REFUSED = f"the rules service refused the token {KEY}"
"""What a plugin's HTTP client says when its request fails: the header it sent, key and all."""
SHOWN = "the rules service refused the token [redacted]"
PACKAGE = Path(__file__).resolve().parents[2] / "wink_decl"


@dataclass(frozen=True)
class Rule:
    rule_id: str


def raising(error: Exception) -> Any:
    def handler(params: Rule, *, context: ToolContext) -> ToolResult[None]:
        raise error

    return handler


def returning(result: ToolResult[None]) -> Any:
    def handler(params: Rule, *, context: ToolContext) -> ToolResult[None]:
        return result

    return handler


@dataclass
class Guard:
    """A policy whose ``check`` and ``on_result`` do what the case asks."""

    check_does: str = "allow"
    on_result_raises: bool = False
    name: str = "guard"

    def check(self, tool: Tool[Any, Any], params: Any, *, context: ToolContext) -> PolicyDecision:
        if self.check_does == "raise":
            raise RuntimeError(REFUSED)
        if self.check_does == "deny":
            return PolicyDecision.deny(f"The token {KEY} may not look rules up.")
        return PolicyDecision.allow()

    def on_result(
        self, tool: Tool[Any, Any], params: Any, result: ToolResult[Any], *, context: ToolContext
    ) -> None:
        if self.on_result_raises:
            raise RuntimeError(REFUSED)


def template(handler: Any, guard: Guard | None = None) -> PromptTemplate[Any]:
    lookup = Tool[Rule, None](name="lookup", description="Look a rule up.", handler=handler)
    return PromptTemplate(
        ns="tests",
        key="rules",
        sections=[MarkdownSection(title="Task", key="task", template="Check.", tools=[lookup])],
        policies=() if guard is None else (guard,),
    )


LOGGED = [("wink_decl.executor", "WARNING")]

CASES: dict[str, tuple[Any, Guard | None, str, list[tuple[str, str]]]] = {
    "the handler raises": (
        raising(RuntimeError(REFUSED)),
        None,
        f"Tool 'lookup' failed: RuntimeError: {SHOWN}",
        LOGGED,
    ),
    "the handler raises TypeError": (
        raising(TypeError(REFUSED)),
        None,
        f"Tool 'lookup' raised TypeError: {SHOWN}. Check that the handler takes "
        "(params, *, context) and uses the params' fields.",
        LOGGED,
    ),
    "the handler raises ToolValidationError": (
        raising(ToolValidationError(REFUSED)),
        None,
        SHOWN,
        [],
    ),
    "the handler returns a failed result": (
        returning(ToolResult.error(REFUSED)),
        None,
        SHOWN,
        [],
    ),
    "a policy's check raises": (
        returning(ToolResult.ok(None, "found")),
        Guard(check_does="raise"),
        f"Policy 'guard' could not check tool 'lookup': RuntimeError: {SHOWN}",
        LOGGED,
    ),
    "a policy denies with the key in its reason": (
        returning(ToolResult.ok(None, "found")),
        Guard(check_does="deny"),
        "The token [redacted] may not look rules up.",
        [],
    ),
    "a policy's on_result raises after the handler ran": (
        returning(ToolResult.ok(None, "found")),
        Guard(on_result_raises=True),
        f"Tool 'lookup' failed: RuntimeError: {SHOWN}",
        LOGGED,
    ),
}


@pytest.mark.parametrize(("handler", "guard", "shown", "logged"), CASES.values(), ids=CASES)
def test_a_failed_call_shows_the_model_the_session_and_the_log_no_secret(
    caplog: pytest.LogCaptureFixture,
    handler: Any,
    guard: Guard | None,
    shown: str,
    logged: list[tuple[str, str]],
) -> None:
    session = Session()
    prompt = Prompt(template(handler, guard))
    executor = ToolExecutor(
        prompt=prompt, rendered=prompt.render(session=session), session=session, secrets=[KEY]
    )
    outcome = executor.execute(ProviderToolCall("call_1", "lookup", '{"rule_id": "r1"}'))

    assert (outcome.success, outcome.message.content, outcome.result.message) == (
        False,
        shown,
        shown,
    )
    (invoked,) = session.query(ToolInvoked)
    assert (invoked.result.message, invoked.rendered_output) == (shown, shown)
    records = [(r.name, r.levelname, r.getMessage()) for r in caplog.records]
    assert records == [(name, level, shown) for name, level in logged]
    # The traceback a configured handler prints is the exception as raised: docs/runtime.md.
    assert all(r.exc_info is not None and r.exc_info[0] is not None for r in caplog.records)


def test_a_successful_result_is_left_as_the_tool_wrote_it() -> None:
    session = Session()
    prompt = Prompt(template(returning(ToolResult.ok(None, f"Signed with {KEY}."))))
    executor = ToolExecutor(
        prompt=prompt, rendered=prompt.render(session=session), session=session, secrets=[KEY]
    )
    outcome = executor.execute(ProviderToolCall("call_1", "lookup", '{"rule_id": "r1"}'))
    assert (outcome.success, outcome.message.content) == (True, f"Signed with {KEY}.")


def test_main_loop_redacts_the_adapters_key_from_what_the_model_reads() -> None:
    calls = [("call_1", "lookup", '{"rule_id": "r1"}')]
    session = Session()
    with ProviderServer([reply(tool_calls=calls), reply("The rule is broken.")]) as server:
        adapter = OpenAIAdapter("gpt-test", api_key=KEY, base_url=f"{server.url}/v1")
        with adapter:
            response = MainLoop(adapter=adapter).execute(
                Prompt(template(raising(RuntimeError(REFUSED)))), session=session
            )

    failure = f"Tool 'lookup' failed: RuntimeError: {SHOWN}"
    second = server.requests[1].json
    assert second["messages"][-1] == {"role": "tool", "tool_call_id": "call_1", "content": failure}
    assert KEY not in json.dumps(second)
    assert [m.content for m in response.messages if m.role == "tool"] == [failure]
    assert [event.rendered_output for event in session.query(ToolInvoked)] == [failure]
    assert server.requests[0].headers["authorization"] == f"Bearer {KEY}"


QUIET_PROGRAM = f"""
from dataclasses import dataclass

from wink_decl import MainLoop, MarkdownSection, Prompt, PromptTemplate, Session, Tool
from wink_decl.adapters.scripted import ScriptedAdapter, ScriptedTurn


@dataclass(frozen=True)
class Rule:
    rule_id: str


def lookup(params, *, context):
    raise RuntimeError({REFUSED!r})


class KeyedAdapter(ScriptedAdapter):
    @property
    def secrets(self):
        return ({KEY!r},)


tool = Tool[Rule, None](name="lookup", description="Look a rule up.", handler=lookup)
section = MarkdownSection(title="Task", key="task", template="Check.", tools=[tool])
template = PromptTemplate(ns="tests", key="rules", sections=[section])
adapter = KeyedAdapter([ScriptedTurn.call("lookup", rule_id="r1"), ScriptedTurn.answer("ok")])
response = MainLoop(adapter=adapter).execute(Prompt(template), session=Session())
print(response.messages[3].content)
"""


def test_a_program_that_configures_no_logging_sees_nothing_on_stderr() -> None:
    # A fresh interpreter: pytest's own logging handlers would hide Python's last resort here.
    done = run_python(QUIET_PROGRAM, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        f"Tool 'lookup' failed: RuntimeError: {SHOWN}\n",
        "",
    )


def test_every_module_logs_under_the_package_logger() -> None:
    """``package_logger`` is the one way to a logger, so every one is under the NullHandler."""
    naming = sorted(
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if "getLogger(" in path.read_text(encoding="utf-8")
    )
    assert naming == ["_loggers.py"]
    handlers = logging.getLogger("wink_decl").handlers
    assert [type(handler) for handler in handlers] == [logging.NullHandler]
