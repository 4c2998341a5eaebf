"""``wink-decl run`` and the package's warnings: one line each, the traceback with -v, no key.

A tool whose handler raises with the API key in its message: off a terminal the warning is
its one line; on a terminal the progress line already says it, so the warning waits for -v.
tests/plugins/test_failing_plugins.py runs the same with a plugin package installed by pip.
"""

from __future__ import annotations

import io
import logging
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from chat_adapters import block_the_network
from openai_replies import reply
from plugin_support import MemoryDistribution
from provider_server import ProviderServer, RecordedRequest

from wink_decl.cli import _app
from wink_decl.cli._command import Console
from wink_decl.cli._run_log import showing_warnings
from wink_decl.compiler import compile as compile_module
from wink_decl.plugins import HANDLERS, PluginCatalog

Run = Callable[..., tuple[int, str, str]]

KEY = "sk-test-warnings-0123456789"

PROMPT = """\
key: rules
sections:
  - key: task
    title: Task
    template: Say whether rule r1 holds.
    tools: [lookup]
tools:
  lookup:
    description: Look a rule up.
    handler: rules.lookup
"""

FAILURE = "Tool 'lookup' failed: RuntimeError: the rules service refused the token [redacted]"
ANSWER = "Rule r1 could not be checked."


def catalog() -> PluginCatalog:
    points = {HANDLERS: {"rules.lookup": "compiler_plugins:refusing"}}
    return PluginCatalog(distributions=[MemoryDistribution("rules-plugins", "1.0", points)])


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The rules prompt in the cwd, its handler in the catalog, the key set, no network."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(compile_module, "default_catalog", catalog)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    (tmp_path / "rules.wink.yaml").write_text(PROMPT)
    attempts = block_the_network(monkeypatch)
    yield tmp_path
    assert attempts == []


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def run_rules(console: Console, *options: str) -> tuple[int, list[RecordedRequest]]:
    """``wink-decl run`` of the rules prompt: the model calls lookup, then answers."""
    script = [reply(tool_calls=[("call_1", "lookup", '{"rule_id": "r1"}')]), reply(ANSWER)]
    with ProviderServer(script) as server:
        model = ["--model", "openai:gpt-test", "--base-url", f"{server.url}/v1"]
        status = _app.run(["run", "rules.wink.yaml", *model, *options], console)
    return status, server.requests


def test_off_a_terminal_a_raising_tool_is_one_warning_line() -> None:
    out, err = io.StringIO(), io.StringIO()
    status, requests = run_rules(Console(out, err))
    assert (status, out.getvalue(), err.getvalue()) == (
        0,
        ANSWER + "\n",
        f"wink-decl: warning: {FAILURE}\n",
    )
    assert requests[1].json["messages"][-1] == {
        "role": "tool",
        "tool_call_id": "call_1",
        "content": FAILURE,
    }


def test_on_a_terminal_the_progress_line_is_the_one_line() -> None:
    out, err = io.StringIO(), Terminal()
    status, _ = run_rules(Console(out, err))
    assert (status, out.getvalue()) == (0, ANSWER + "\n")
    assert err.getvalue() == textwrap.dedent(
        f"""\
        turn 1: asking the model (1 tool on offer)
          the model calls lookup
          lookup failed: {FAILURE}
        turn 2: asking the model (1 tool on offer)
        """
    )


def test_with_v_the_warning_comes_with_its_traceback_redacted() -> None:
    out, err = io.StringIO(), io.StringIO()
    status, _ = run_rules(Console(out, err), "-v")
    shown = err.getvalue()
    lines = shown.splitlines()
    assert (status, out.getvalue()) == (0, ANSWER + "\n")
    assert lines[:2] == [f"wink-decl: warning: {FAILURE}", "Traceback (most recent call last):"]
    assert lines[-1] == "RuntimeError: the rules service refused the token [redacted]"
    assert '/compiler_plugins.py", line ' in shown
    assert KEY not in shown


def test_with_v_a_terminal_gets_the_traceback_before_the_progress_line() -> None:
    out, err = io.StringIO(), Terminal()
    status, _ = run_rules(Console(out, err), "-v")
    shown = err.getvalue()
    lines = shown.splitlines()
    assert (status, out.getvalue()) == (0, ANSWER + "\n")
    assert lines[:4] == [
        "turn 1: asking the model (1 tool on offer)",
        "  the model calls lookup",
        f"wink-decl: warning: {FAILURE}",
        "Traceback (most recent call last):",
    ]
    assert lines[-3:] == [
        "RuntimeError: the rules service refused the token [redacted]",
        f"  lookup failed: {FAILURE}",
        "turn 2: asking the model (1 tool on offer)",
    ]
    assert KEY not in shown


def test_other_warnings_show_on_a_terminal_too_and_only_during_the_command() -> None:
    stream = Terminal()
    anthropic = logging.getLogger("wink_decl.adapters.anthropic")
    with showing_warnings(stream, verbose=True, progress=True, secrets=(KEY,)):
        anthropic.warning("The answer of model %s was cut off\nat max_tokens=5.", KEY)
        anthropic.info("Not a warning.")
    anthropic.warning("After the command.")
    assert stream.getvalue() == (
        "wink-decl: warning: The answer of model [redacted] was cut off at max_tokens=5.\n"
    )
