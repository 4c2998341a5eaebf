"""The real Claude Code CLI (bundled with claude-agent-sdk) as the MCP client of ``wink-decl mcp``.

Claude Code starts the server itself from ``--mcp-config`` and speaks the stateless 2026-07-28
protocol to it; its model is the loopback Anthropic fake, which calls served tools and then
answers. Everything runs offline, in a home folder of the test's own, under a time limit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import claude_agent_sdk
from mcp_fixtures import prompt_folder
from messages_fake import AnsweringServer, MessagesCall, call_tool, say
from provider_server import Reply

TIMEOUT = 180.0
CLAUDE = Path(claude_agent_sdk.__file__).parent / "_bundled" / "claude"
KEY = "sk-ant-test-0123456789"
LIST_DIR = '\'.\' has 1 entry.\n\n{"path": ".", "entries": ["a.txt"]}'
REPEATS = 3
"""How many times the read_section disclosure runs: it must hold every time, not by luck."""


def run_claude(
    tmp_path: Path, answer: Callable[[MessagesCall], Reply], extra: list[str], allowed: str
) -> tuple[subprocess.CompletedProcess[str], list[MessagesCall]]:
    """Claude Code, given one prompt, serving helper's tools with ``extra`` options."""
    prompts = prompt_folder(tmp_path)
    helper = prompts / "agents" / "helper.wink.yaml"
    command = [sys.executable, "-m", "wink_decl", "mcp", str(prompts), "--agent", str(helper)]
    command += ["--param", "topic=notes", "--workspace", str(tmp_path / "work"), *extra]
    config = {"mcpServers": {"wink": {"command": command[0], "args": command[1:]}}}
    home = tmp_path / "home"
    home.mkdir()
    with AnsweringServer(answer) as server:
        trap = "http://127.0.0.1:9"
        environment = {
            **os.environ,
            "HOME": str(home),
            "ANTHROPIC_BASE_URL": server.url,
            "ANTHROPIC_API_KEY": KEY,
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_AUTOUPDATER": "1",
            "CLAUDE_CODE_MAX_RETRIES": "0",
            "HTTPS_PROXY": trap,
            "HTTP_PROXY": trap,
            "NO_PROXY": "127.0.0.1",
        }
        done = subprocess.run(  # the bundled CLI, with arguments of this test
            [
                str(CLAUDE),
                "-p",
                "Do the task.",
                "--model",
                "claude-test",
                "--mcp-config",
                json.dumps(config),
                "--strict-mcp-config",
                "--tools",
                "",  # no built-in tools: the MCP tools are offered directly, not searched for
                "--allowedTools",
                allowed,
                "--output-format",
                "json",
            ],
            cwd=tmp_path,
            env=environment,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )
        return done, server.calls


def list_then_answer(call: MessagesCall) -> Reply:
    """Call the served list_dir first, then answer with what it said."""
    if "mcp__wink__list_dir" not in call.tool_names:
        return say("No tools.", call)
    if not call.tool_results:
        return call_tool("mcp__wink__list_dir", {"path": "."}, call)
    return say("Listed.", call)


def test_claude_code_calls_a_served_tool(tmp_path: Path) -> None:
    done, calls = run_claude(tmp_path, list_then_answer, [], "mcp__wink__list_dir")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["result"] == "Listed."
    offered = [name for name in calls[0].tool_names if name.startswith("mcp__wink__")]
    assert offered == ["mcp__wink__list_dir", "mcp__wink__read_file", "mcp__wink__read_section"]
    (result,) = calls[-1].tool_results
    assert (result.text, result.is_error) == (LIST_DIR, False)


def read_then_write(call: MessagesCall) -> Reply:
    """Read the notes section; then, in the same turn, call write_file if it was revealed."""
    if call.turn == 0:
        return call_tool("mcp__wink__read_section", {"section_key": "notes"}, call)
    if call.turn == 1:
        if "mcp__wink__write_file" not in call.revealed:
            return say("write_file was not revealed.", call)
        return call_tool("mcp__wink__write_file", {"path": "b.txt", "text": "beta\n"}, call)
    return say("Wrote.", call)


def test_claude_code_calls_a_tool_a_section_revealed_in_the_same_turn(tmp_path: Path) -> None:
    """Evidence for docs/mcp.md: a tool revealed by read_section is callable in the same turn.

    The CLI lists the tools again on ``tools/list_changed``; the server holds the read's result
    until that listing is answered. The CLI's next request then carries write_file as a
    deferred tool (``defer_loading``) named by a ``tool_reference``, and calling it works.
    """
    allowed = "mcp__wink__read_section,mcp__wink__write_file"
    found: list[tuple[object, ...]] = []
    for attempt in range(REPEATS):
        base = tmp_path / str(attempt)
        base.mkdir()
        done, calls = run_claude(base, read_then_write, ["--allow-writes"], allowed)
        assert done.returncode == 0, done.stderr
        tools = {
            name: bool(tool.get("defer_loading"))
            for name, tool in calls[1].tools.items()
            if name.startswith("mcp__wink__")
        }
        (written,) = calls[2].tool_results
        found.append(
            (
                json.loads(done.stdout)["result"],
                len(calls),
                tools,
                calls[1].revealed,
                (written.text, written.is_error),
                (base / "work" / "b.txt").read_text(),
            )
        )
    deferred = {
        "mcp__wink__list_dir": False,
        "mcp__wink__read_file": False,
        "mcp__wink__read_section": False,
        "mcp__wink__write_file": True,
    }
    created = (
        'Created \'b.txt\' (5 characters).\n\n{"path": "b.txt", "characters": 5, "created": true}'
    )
    outcome = ("Wrote.", 3, deferred, ("mcp__wink__write_file",), (created, False), "beta\n")
    assert found == [outcome] * REPEATS
