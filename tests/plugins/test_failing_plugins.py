"""Plugins that raise or are async, pip-installed for real: the report blames the plugin.

One package, ``wink-decl-stumbles``, is written here and installed with ``pip --target``
(no dependencies; its build backend comes from the package index, as for any sdist); the
command runs in a fresh interpreter (``run_python``) that finds it through ``PYTHONPATH``,
as an installed distribution with real entry points and metadata. A handler that raises with
the API key in its message runs under ``wink-decl run``, against a model played on 127.0.0.1.
"""

from __future__ import annotations

import os
import re
import sys
import textwrap
from pathlib import Path

import pytest
from concurrency import MIB, run_python
from openai_replies import reply
from plugin_support import pip_install_into
from provider_server import ProviderServer, RecordedRequest

PYPROJECT = """\
[build-system]
requires = ["setuptools>=69"]
build-backend = "setuptools.build_meta"

[project]
name = "wink-decl-stumbles"
version = "0.3.1"

[project.entry-points."wink_decl.predicates"]
"stumbles.cloudy" = "stumbles_plugins:cloudy"

[project.entry-points."wink_decl.handlers"]
"stumbles.fetch" = "stumbles_plugins:fetch"
"stumbles.lookup" = "stumbles_plugins:lookup"
"""

MODULE = '''\
"""Plugins written the wrong way, as first-time authors write them."""

import os
from dataclasses import dataclass

from wink_decl import ToolContext, ToolResult


@dataclass(frozen=True)
class Rule:
    rule_id: str


def lookup(params: Rule, *, context: ToolContext) -> ToolResult[None]:
    # The plugin's HTTP client quotes the header it sent when the service refuses it.
    raise RuntimeError("the rules service refused the token " + os.environ["OPENAI_API_KEY"])


def cloudy(params, *, session):
    raise ValueError("no weather data\\nfor today")


async def fetch(params: None, *, context):
    return None
'''

CLOUDY_RAISES = 1 + MODULE.splitlines().index('    raise ValueError("no weather data\\nfor today")')
"""The line of the module where the predicate raises, as its traceback names it."""

CLI = "import sys\nfrom wink_decl.cli import main\nsys.exit(main(sys.argv[1:]))\n"

PREDICATE_PROMPT = """\
key: weather
sections:
  - key: task
    title: Task
    template: Say hello.
  - key: umbrella
    title: Umbrella
    enabled: {predicate: stumbles.cloudy}
    template: Take an umbrella.
"""

ASYNC_PROMPT = """\
key: fetcher
sections:
  - key: task
    title: Task
    template: Fetch it.
    tools: [fetch]
tools:
  fetch:
    description: Fetch the page.
    handler: stumbles.fetch
"""


RULES_PROMPT = """\
key: rules
sections:
  - key: task
    title: Task
    template: Say whether rule r1 holds.
    tools: [lookup]
tools:
  lookup:
    description: Look a rule up.
    handler: stumbles.lookup
"""

KEY = "sk-test-stumbles-0123456789"
FAILURE = "Tool 'lookup' failed: RuntimeError: the rules service refused the token [redacted]"
ANSWER = "Rule r1 could not be checked: the rules service is unavailable."


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding ``wink-decl-stumbles``, installed by pip."""
    root = tmp_path_factory.mktemp("stumbles")
    source = root / "source"
    (source / "stumbles_plugins").mkdir(parents=True)
    (source / "pyproject.toml").write_text(PYPROJECT)
    (source / "stumbles_plugins" / "__init__.py").write_text(MODULE)
    target = root / "site"
    pip_install_into(source, target)
    return target


def wink_decl(site: Path, folder: Path, *argv: str) -> tuple[int, str, str]:
    """``wink-decl ARGV`` in ``folder``, in a fresh interpreter that sees ``site``."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *sys.path])}
    done = run_python(CLI, args=argv, timeout=60, memory=1024 * MIB, cwd=folder, env=env)
    return done.returncode, done.stdout, done.stderr


def test_a_predicate_that_raises_is_blamed_on_its_plugin(site: Path, tmp_path: Path) -> None:
    (tmp_path / "weather.wink.yaml").write_text(PREDICATE_PROMPT)
    assert wink_decl(site, tmp_path, "validate", "weather.wink.yaml") == (
        0,
        "",
        "1 file checked: 1 valid, 0 invalid\n",
    )
    status, out, err = wink_decl(site, tmp_path, "render", "weather.wink.yaml")
    assert (status, out) == (1, "")
    assert err == textwrap.dedent(
        """\
        weather.wink.yaml:8:26: error: Predicate 'stumbles.cloudy' (entry point in \
wink_decl.predicates, from wink-decl-stumbles 0.3.1, value 'stumbles_plugins:cloudy') raised \
ValueError: no weather data.
          expected: a function (params, *, session) that returns true or false without raising
           8 |     enabled: {predicate: stumbles.cloudy}
             |                          ^^^^^^^^^^^^^^^
          hint: the fault is in the plugin's distribution (wink-decl-stumbles), not in this \
file: fix or upgrade it, or name another predicate; run again with -v to see the plugin's \
traceback
        """
    )
    assert wink_decl(site, tmp_path, "tools", "weather.wink.yaml") == (1, "", err)
    module = site / "stumbles_plugins" / "__init__.py"
    assert wink_decl(site, tmp_path, "-v", "render", "weather.wink.yaml") == (
        1,
        "",
        err.replace("; run again with -v to see the plugin's traceback", "")
        + "Traceback (most recent call last):\n"
        + f'  File "{module}", line {CLOUDY_RAISES}, in cloudy\n'
        + '    raise ValueError("no weather data\\nfor today")\n'
        + "ValueError: no weather data\nfor today\n",
    )


def test_an_async_handler_is_refused_when_bound(site: Path, tmp_path: Path) -> None:
    (tmp_path / "fetcher.wink.yaml").write_text(ASYNC_PROMPT)
    assert wink_decl(site, tmp_path, "compile", "fetcher.wink.yaml") == (
        1,
        "",
        "fetcher.wink.yaml:10:14: error: Tool 'fetch' cannot use handler 'stumbles.fetch': "
        "Handler 'stumbles.fetch' (wink-decl-stumbles 0.3.1, value 'stumbles_plugins:fetch') "
        "for tool 'fetch' is an async function (fetch); handlers are called synchronously, "
        "inside the executor's deadline and transaction (docs/runtime.md). Define it with def, "
        "and run any coroutine it needs inside it (asyncio.run).\n"
        "  10 |     handler: stumbles.fetch\n"
        "     |              ^^^^^^^^^^^^^^\n"
        "  hint: check that the plugin's version matches this prompt, or name another entry "
        "point\n",
    )


def run_rules(
    site: Path, folder: Path, monkeypatch: pytest.MonkeyPatch, *options: str
) -> tuple[tuple[int, str, str], list[RecordedRequest]]:
    """``wink-decl run`` of the rules prompt: the model calls lookup, then answers."""
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    (folder / "rules.wink.yaml").write_text(RULES_PROMPT)
    script = [reply(tool_calls=[("call_1", "lookup", '{"rule_id": "r1"}')]), reply(ANSWER)]
    with ProviderServer(script) as server:
        url = f"{server.url}/v1"
        model = ("--model", "openai:gpt-test", "--base-url", url)
        outcome = wink_decl(site, folder, "run", "rules.wink.yaml", *model, *options)
    return outcome, server.requests


def test_a_handler_that_raises_with_the_key_is_one_line_without_it(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    outcome, requests = run_rules(site, tmp_path, monkeypatch)

    assert outcome == (0, ANSWER + "\n", f"wink-decl: warning: {FAILURE}\n")
    assert requests[1].json["messages"][-1] == {
        "role": "tool",
        "tool_call_id": "call_1",
        "content": FAILURE,
    }
    assert KEY.encode() not in requests[1].body
    assert requests[1].headers["authorization"] == f"Bearer {KEY}"


def test_with_v_the_warning_has_the_traceback_redacted(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (status, out, err), requests = run_rules(site, tmp_path, monkeypatch, "-v")

    assert (status, out) == (0, ANSWER + "\n")
    lines = err.splitlines()
    assert lines[:2] == [f"wink-decl: warning: {FAILURE}", "Traceback (most recent call last):"]
    assert lines[-1] == "RuntimeError: the rules service refused the token [redacted]"
    assert re.search(r'File ".*stumbles_plugins[/\\]__init__\.py", line \d+, in lookup\n', err)
    assert KEY not in err
    assert requests[1].json["messages"][-1]["content"] == FAILURE
