"""``wink-decl mcp`` as a child process on stdio: the SDK's client, raw JSON-RPC, and misuse.

Every wait has a time limit: a server that stops answering fails the test, never hangs it.
"""

from __future__ import annotations

import io
import json
import queue
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

import anyio
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.message import SessionMessage
from mcp_fixtures import GREET_TEXT, prompt_folder

from wink_decl.cli import _mcp as mcp_command
from wink_decl.cli import main
from wink_decl.mcp import PARSE_ERROR_MESSAGE, ParseErrorsAnswered

TIMEOUT = 60.0
INITIALIZED = b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n'
COMMAND = [sys.executable, "-m", "wink_decl", "mcp"]


def agent_args(base: Path) -> list[str]:
    """``--agent`` helper with its param and the work folder, read-only."""
    helper = base / "prompts" / "agents" / "helper.wink.yaml"
    return ["--agent", str(helper), "--param", "topic=notes", "--workspace", str(base / "work")]


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_the_sdk_client_over_stdio(tmp_path: Path, mode: str) -> None:
    prompts = prompt_folder(tmp_path)
    args = [*COMMAND[1:], str(prompts), *agent_args(tmp_path)]
    params = StdioServerParameters(command=sys.executable, args=args, cwd=str(tmp_path))
    seen: list[object] = []

    async def run() -> None:
        with anyio.fail_after(TIMEOUT), (tmp_path / "stderr.txt").open("w") as errors:
            async with Client(stdio_client(params, errlog=errors), mode=mode) as client:
                seen.append(client.protocol_version)
                seen.append([p.name for p in (await client.list_prompts()).prompts])
                arguments = {"who": "Ada", "mood": "glad", "times": "2"}
                result = await client.get_prompt("team/greet", arguments)
                content = result.messages[0].content
                assert isinstance(content, types.TextContent)
                seen.append(content.text)
                called = await client.call_tool("list_dir", {"path": "."})
                block = called.content[0]
                assert isinstance(block, types.TextContent)
                seen.append((block.text, called.is_error))

    anyio.run(run)
    assert seen == [
        "2025-11-25" if mode == "legacy" else "2026-07-28",
        ["agents/helper", "team/greet"],
        GREET_TEXT,
        ('\'.\' has 1 entry.\n\n{"path": ".", "entries": ["a.txt"]}', False),
    ]
    assert (tmp_path / "stderr.txt").read_text() == ""


class RawServer:
    """The command as a child process, spoken to in JSON-RPC lines."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        self.process = subprocess.Popen(  # this Python, this package
            [*COMMAND, *args],
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        stdout = self.process.stdout
        assert stdout is not None
        threading.Thread(target=self._read, args=(stdout,), daemon=True).start()

    def _read(self, stdout: IO[str]) -> None:
        for line in stdout:
            self.lines.put(line)

    def send(self, text: str) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write(text + "\n")
        stdin.flush()

    def request(self, number: int, method: str, params: dict[str, Any] | None = None) -> None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": number, "method": method}
        if params is not None:
            message["params"] = params
        self.send(json.dumps(message))

    def answer(self) -> dict[str, Any]:
        line = self.lines.get(timeout=TIMEOUT)
        answer: dict[str, Any] = json.loads(line)
        return answer

    def initialize(self) -> None:
        self.request(
            0,
            "initialize",
            {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "1"},
            },
        )
        assert self.answer()["id"] == 0
        self.send('{"jsonrpc": "2.0", "method": "notifications/initialized"}')

    def close(self) -> tuple[int, str, str]:
        """Close stdin; the exit status, what stdout still had and all of stderr."""
        out, err = self.process.communicate(timeout=TIMEOUT)
        rest = "".join(iter_queue(self.lines)) + out
        return self.process.returncode, rest, err


def iter_queue(lines: queue.Queue[str]) -> list[str]:
    found: list[str] = []
    while not lines.empty():
        found.append(lines.get_nowait())
    return found


def test_malformed_lines_and_unknown_methods_are_answered_and_serving_goes_on(
    tmp_path: Path,
) -> None:
    prompts = prompt_folder(tmp_path)
    server = RawServer([str(prompts)], tmp_path)
    server.initialize()
    server.send("this is not json")
    assert server.answer() == {
        "jsonrpc": "2.0",
        "id": None,
        "error": {"code": -32700, "message": PARSE_ERROR_MESSAGE},
    }
    server.send('{"jsonrpc": "2.0", "id": 5}')
    assert server.answer()["error"]["code"] == -32700
    server.request(1, "prompts/destroy")
    assert server.answer() == {
        "jsonrpc": "2.0",
        "id": 1,
        "error": {"code": -32601, "message": "Method not found", "data": "prompts/destroy"},
    }
    server.request(2, "tools/list")  # no --agent: no tools are served
    assert server.answer()["error"]["code"] == -32601
    server.request(3, "prompts/get", {"name": "team/greet", "arguments": {"who": 5}})
    assert server.answer()["error"]["code"] == -32602
    server.request(4, "prompts/list")
    names = [p["name"] for p in server.answer()["result"]["prompts"]]
    assert names == ["agents/helper", "team/greet"]
    assert server.close() == (0, "", "")


def test_huge_arguments_are_served_or_refused_in_words(tmp_path: Path) -> None:
    prompts = prompt_folder(tmp_path)
    server = RawServer([str(prompts), *agent_args(tmp_path)], tmp_path)
    server.initialize()
    who = "x" * 4_000_000
    server.request(1, "prompts/get", {"name": "team/greet", "arguments": {"who": who}})
    text = server.answer()["result"]["messages"][0]["content"]["text"]
    assert text == f"## 1. Hello (hello)\n\nSay hello to {who}, calm, 1 times.\n\ntools: (none)\n"
    server.request(2, "tools/call", {"name": "list_dir", "arguments": {"path": "y" * 4_000_000}})
    result = server.answer()["result"]
    assert result["isError"] is True
    server.request(3, "prompts/list")
    assert len(server.answer()["result"]["prompts"]) == 2
    assert server.close()[0] == 0


def test_a_client_that_vanishes_mid_call_leaves_the_server_ending_quietly(
    tmp_path: Path,
) -> None:
    prompts = prompt_folder(tmp_path)
    server = RawServer([str(prompts), *agent_args(tmp_path)], tmp_path)
    server.initialize()
    server.request(1, "tools/call", {"name": "list_dir", "arguments": {"path": "."}})
    status, _out, err = server.close()  # stdin closed at once, the answer maybe unread
    assert (status, err) == (0, "")


def test_a_broken_file_is_reported_on_stderr_and_the_others_are_served(tmp_path: Path) -> None:
    prompts = prompt_folder(tmp_path)
    broken = prompts / "team" / "broken.wink.yaml"
    broken.write_text("key: broken\nsections: []\n")
    server = RawServer([str(prompts)], tmp_path)
    server.initialize()
    server.request(1, "prompts/list")
    names = [p["name"] for p in server.answer()["result"]["prompts"]]
    assert names == ["agents/helper", "team/greet"]
    assert server.close() == (
        0,
        "",
        f"{broken}:2:11: error: 'sections' needs at least 1 item; found none\n"
        "   2 | sections: []\n"
        "     |           ^^\n",
    )


def test_the_command_in_this_process_answers_a_bad_line_and_ends_with_stdin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    prompts = prompt_folder(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"not json\n" + INITIALIZED)))
    assert main(["mcp", str(prompts), *agent_args(tmp_path)]) == 0
    error = {"code": -32700, "message": PARSE_ERROR_MESSAGE}
    answer = json.dumps({"jsonrpc": "2.0", "id": None, "error": error}, separators=(",", ":"))
    assert capsys.readouterr() == (answer + "\n", "")


def test_the_command_reports_a_broken_file_on_stderr_and_watches_overrides_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    prompts = prompt_folder(tmp_path)
    (tmp_path / "overrides").mkdir()
    broken = prompts / "team" / "broken.wink.yaml"
    broken.write_text("key: broken\nsections: []\n")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    assert main(["mcp", str(prompts)]) == 0
    assert capsys.readouterr() == (
        "",
        f"{broken}:2:11: error: 'sections' needs at least 1 item; found none\n"
        "   2 | sections: []\n"
        "     |           ^^\n",
    )


def test_an_agent_with_errors_is_reported_and_nothing_is_served(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    prompts = prompt_folder(tmp_path)
    helper = prompts / "agents" / "helper.wink.yaml"
    assert main(["mcp", str(prompts), "--agent", str(helper)]) == 1
    assert capsys.readouterr() == (
        "",
        f"{helper}:4:3: error: Param 'topic' has no value and no default.\n"
        "   4 |   topic: {type: string}\n"
        "     |   ^^^^^\n"
        "  hint: pass --param topic=VALUE or put it in --params-file, or give it a default\n",
    )


def test_allow_writes_needs_a_workspace(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    prompts = prompt_folder(tmp_path)
    assert main(["mcp", str(prompts), "--allow-writes"]) == 2
    assert capsys.readouterr().err == (
        "wink-decl: error: --allow-writes needs --workspace\n"
        "  hint: name the folder tools may change with --workspace DIR\n"
        "  run 'wink-decl mcp --help' for its options\n"
    )


def test_without_the_extra_a_one_line_hint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util  # noqa: PLC0415

    real = importlib.util.find_spec

    def find_spec(name: str) -> object:
        return None if name == "mcp" else real(name)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    assert main(["mcp", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (
        "wink-decl: error: mcp needs mcp, not installed\n  hint: pip install 'wink-decl[mcp]'\n"
    )


def test_a_line_that_is_not_a_message_is_answered_and_the_next_passed_on() -> None:
    received: list[str] = []
    written: list[object] = []

    async def run() -> None:
        source_send, source = anyio.create_memory_object_stream[SessionMessage | Exception](4)
        write_send, write = anyio.create_memory_object_stream[SessionMessage](4)
        ping = SessionMessage(types.JSONRPCRequest(jsonrpc="2.0", id=1, method="ping"))
        async with source_send:
            await source_send.send(ValueError("not json"))
            await source_send.send(ping)
        with anyio.fail_after(TIMEOUT):
            async with write_send, ParseErrorsAnswered(source, write_send) as answering:
                received.extend([type(item).__name__ async for item in answering])
            async with write:
                written.extend([item.message.model_dump(by_alias=True) async for item in write])

    anyio.run(run)
    assert received == ["SessionMessage"]
    error = {"code": -32700, "message": PARSE_ERROR_MESSAGE, "data": None}
    assert written == [{"jsonrpc": "2.0", "id": None, "error": error}]


def test_root_names_the_prompts_from_it_for_the_catalog_and_the_agent(tmp_path: Path) -> None:
    prompts = prompt_folder(tmp_path)
    server = RawServer([str(prompts), "--root", str(tmp_path), *agent_args(tmp_path)], tmp_path)
    server.initialize()
    server.request(1, "prompts/list")
    names = [p["name"] for p in server.answer()["result"]["prompts"]]
    server.request(2, "prompts/get", {"name": "prompts/team/greet", "arguments": {"who": "Ada"}})
    text = server.answer()["result"]["messages"][0]["content"]["text"]
    server.request(3, "tools/list")
    tools = [t["name"] for t in server.answer()["result"]["tools"]]
    assert (names, text, tools) == (
        ["prompts/agents/helper", "prompts/team/greet"],
        "## 1. Hello (hello)\n\nSay hello to Ada, calm, 1 times.\n\ntools: (none)\n",
        ["list_dir", "read_file", "read_section"],
    )
    assert server.close() == (0, "", "")


def test_the_limit_a_hint_names_is_an_option_of_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "prompts"
    (folder / "team").mkdir(parents=True)
    big = folder / "team" / "big.wink.yaml"
    big.write_text(f'key: big\nsections:\n  - {{key: a, title: A, template: "{"x" * 300}"}}\n')
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    assert main(["mcp", str(folder), "--limit", "max_bytes=100"]) == 0
    hint = "--limit max_bytes=400"
    assert capsys.readouterr() == (
        "",
        f"{big}:1:1: error: This file is 356 bytes long, more than the limit of 100 bytes.\n"
        "  expected: a file of at most 100 bytes\n"
        f"  hint: split the prompt into several smaller files, or allow more with {hint}\n",
    )
    # The hint's option, given as it is written, is taken and serves the file.
    server = RawServer([str(folder), "--limit", "max_bytes=100", *hint.split(" ")], tmp_path)
    server.initialize()
    server.request(1, "prompts/list")
    assert [p["name"] for p in server.answer()["result"]["prompts"]] == ["team/big"]
    assert server.close() == (0, "", "")


@pytest.mark.parametrize(
    ("options", "error"),
    [
        (
            ["--root", "prompts/team"],
            "wink-decl: error: 'prompts' lies outside the prompt root 'prompts/team'\n"
            "  hint: pass a --root that contains it, or leave --root out\n",
        ),
        (
            ["--limit", "max_bytes=many"],
            "wink-decl: error: --limit max_bytes=many: must be a whole number of at least 1\n"
            "  hint: write it as NAME=VALUE with NAME one of max_bytes, max_depth, max_nodes, "
            "max_key_length, max_include_depth, max_include_files, max_sections, "
            "max_params_file_bytes, max_dataset_bytes, max_cases\n",
        ),
    ],
    ids=["root-outside", "limit-not-a-number"],
)
def test_root_and_limit_mistakes_are_usage_errors(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    options: list[str],
    error: str,
) -> None:
    prompt_folder(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["mcp", "prompts", *options]) == 2
    assert capsys.readouterr() == ("", error)


@pytest.mark.parametrize("transport", [[], ["--http", "127.0.0.1:0"]], ids=["stdio", "http"])
def test_a_folder_that_cannot_be_watched_is_a_one_line_error(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    transport: list[str],
) -> None:
    prompts = prompt_folder(tmp_path)
    watched = mcp_command._watched  # pyright: ignore[reportPrivateUsage]  # what it watches

    def gone_before_the_watch(*args: Any) -> list[Path]:
        paths = watched(*args)
        shutil.rmtree(prompts)  # the folder goes between its check and its watch
        return paths

    monkeypatch.setattr(mcp_command, "_watched", gone_before_the_watch)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    assert main(["mcp", str(prompts), *transport]) == 2
    assert capsys.readouterr() == (
        "",
        f"wink-decl: error: cannot watch '{prompts}' for changes: No path was found.\n",
    )


def test_with_root_the_watch_covers_the_root_and_its_overrides(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = tmp_path / "base"
    base.mkdir()
    prompts = prompt_folder(base)
    (tmp_path / "overrides").mkdir()  # the default overrides folder of the root base
    watched = mcp_command._watched  # pyright: ignore[reportPrivateUsage]  # what it watches
    seen: list[list[Path]] = []

    def recorded(*args: Any) -> list[Path]:
        seen.append(watched(*args))
        return seen[-1]

    monkeypatch.setattr(mcp_command, "_watched", recorded)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    monkeypatch.chdir(tmp_path)  # so the overrides folder beside the root is not above here
    assert main(["mcp", "base/prompts", "--root", "base"]) == 0
    assert seen == [sorted([base.resolve(), prompts.resolve(), (tmp_path / "overrides").resolve()])]


def _cli(cwd: Path, *args: str) -> tuple[int, str, str]:
    """``wink-decl ARGS`` in a child process in ``cwd``: status, stdout, stderr."""
    done = subprocess.run(  # this Python, this package
        [sys.executable, "-m", "wink_decl", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize("configured", [False, True], ids=["default-folder", "configured-folder"])
def test_a_tag_renders_what_render_prints_with_the_overrides_render_reads(
    tmp_path: Path, configured: bool
) -> None:
    prompt_folder(tmp_path)
    setting = 'overrides = "edits"\n' if configured else ""
    (tmp_path / "pyproject.toml").write_text(f'[tool.wink-decl]\nroot = "prompts"\n{setting}')
    if configured:
        (tmp_path / "edits").mkdir()
    greet = "prompts/team/greet.wink.yaml"
    assert _cli(tmp_path, "overrides", "seed", greet, "--tag", "short")[0] == 0
    (seeded,) = [p for p in tmp_path.rglob("*.wink-override.yaml") if "short" in p.name]
    seeded.write_text(seeded.read_text().replace("Say hello to", "Wave at"))
    status, rendered, errors = _cli(
        tmp_path, "render", greet, "--tag", "short", "--param", "who=Ada"
    )
    assert (status, errors, "Wave at Ada, calm, 1 times." in rendered) == (0, "", True)
    params = StdioServerParameters(
        command=sys.executable, args=[*COMMAND[1:], "prompts", "--tag", "short"], cwd=str(tmp_path)
    )
    texts: list[str] = []

    async def run() -> None:
        with anyio.fail_after(TIMEOUT), (tmp_path / "stderr.txt").open("w") as log:
            async with Client(stdio_client(params, errlog=log)) as client:
                result = await client.get_prompt("team/greet", {"who": "Ada"})
                content = result.messages[0].content
                assert isinstance(content, types.TextContent)
                texts.append(content.text)

    anyio.run(run)
    assert (texts, (tmp_path / "stderr.txt").read_text()) == ([rendered], "")
