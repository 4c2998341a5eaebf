"""``wink-decl run`` end to end: a real prompt file, the real plugins and SDKs, a local server."""

from __future__ import annotations

import importlib.util
import io
import json
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from anthropic_replies import reply as anthropic_reply
from chat_adapters import block_the_network, unused_port
from messages_fake import AnsweringServer, MessagesCall, call_tool, say
from openai_replies import error_reply, reply
from provider_server import ProviderServer, Reply

from wink_decl.cli import _app
from wink_decl.cli._command import Console
from wink_decl.cli._transcript import Transcript
from wink_decl.runtime.provider import OPENING_MESSAGE

Run = Callable[..., tuple[int, str, str]]

KEY = "sk-test-run-0123456789"

NOTES = """\
#:schema ../schema/wink-decl.schema.json
key = "notes"

[params.topic]
type = "string"
description = "What the notes are about."

[[sections]]
key = "task"
title = "Task"
template = "Say what NOTES.md records about ${topic}, in one sentence."

[[sections]]
key = "files"
title = "Files"
visibility = "summary"
summary = "The workspace's files can be read and edited."
template = "Read NOTES.md before you answer. Change it only when asked."
tools = ["read_file", "edit_file"]

[tools.read_file]
description = "Read one text file of the workspace."
handler = "files.read_file"

[tools.edit_file]
description = "Replace one exact piece of text in a file."
handler = "files.edit_file"

[[policies]]
read_before_write = {}
"""

SUMMARIZED = (
    "## 1. Task (task)\n\nSay what NOTES.md records about releases, in one sentence.\n\n"
    "## 2. Files (files)\n\nThe workspace's files can be read and edited.\n\n---\n"
    '[This section is summarized. To view full content, call `read_section` with key "files".]'
)

READ_SECTION = ("call_1", "read_section", '{"section_key": "files"}')
READ_NOTES = ("call_2", "read_file", '{"path": "NOTES.md"}')
ANSWER = "NOTES.md records that 1.4.0 shipped on Monday."


@pytest.fixture(autouse=True)
def environment(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A key in the environment, nothing else of the user's, and no way off this machine."""
    for name in ("OPENAI_BASE_URL", "ANTHROPIC_BASE_URL", "ANTHROPIC_AUTH_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    attempts = block_the_network(monkeypatch)
    yield
    assert attempts == []


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``<tmp>/prompts/notes.wink.toml`` and ``<tmp>/workspace/NOTES.md``; the cwd is ``<tmp>``."""
    (tmp_path / "prompts").mkdir()
    (tmp_path / "prompts" / "notes.wink.toml").write_text(NOTES)
    (tmp_path / "workspace").mkdir()
    (tmp_path / "workspace" / "NOTES.md").write_text("1.4.0 shipped on Monday.\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run_with(cli: Run, model: str, base_url: str, *extra: str) -> tuple[int, str, str]:
    """``wink-decl run`` of the notes prompt about releases, with ``model`` at ``base_url``."""
    return cli(
        "run",
        "prompts/notes.wink.toml",
        "--model",
        model,
        "--base-url",
        base_url,
        "--param",
        "topic=releases",
        *extra,
    )


def run_notes(cli: Run, server: ProviderServer, *extra: str) -> tuple[int, str, str]:
    """The notes prompt against the OpenAI-shaped ``server``, in the workspace folder."""
    return run_with(cli, "openai:gpt-test", f"{server.url}/v1", "--workspace", "workspace", *extra)


def three_turns() -> list[Reply]:
    return [
        reply(tool_calls=[READ_SECTION], usage=(100, 10)),
        reply(tool_calls=[READ_NOTES], usage=(150, 12)),
        reply(ANSWER, usage=(200, 8)),
    ]


def test_a_run_executes_the_tools_the_model_calls_and_prints_the_answer(
    cli: Run, folder: Path
) -> None:
    with ProviderServer(three_turns()) as server:
        status, out, err = run_notes(cli, server)

    assert (status, out, err) == (0, ANSWER + "\n", "")
    first, second, third = (request.json for request in server.requests)
    assert first["messages"] == [
        {"role": "system", "content": SUMMARIZED},
        {"role": "user", "content": OPENING_MESSAGE},
    ]
    assert [tool["function"]["name"] for tool in first["tools"]] == ["read_section"]
    assert [tool["function"]["name"] for tool in second["tools"]] == ["read_file", "edit_file"]
    assert third["messages"][-1] == {
        "role": "tool",
        "tool_call_id": "call_2",
        "content": 'Read \'NOTES.md\' (25 characters).\n\n{"path": "NOTES.md", "text": '
        '"1.4.0 shipped on Monday.\\n"}',
    }
    assert server.requests[0].headers["authorization"] == f"Bearer {KEY}"


def strip_times(text: str) -> list[dict[str, Any]]:
    records = [json.loads(line) for line in text.splitlines()]
    times = [record.pop("t") for record in records]
    assert times == sorted(times)
    return records


def test_the_transcript_has_every_event_and_ends_with_the_totals(cli: Run, folder: Path) -> None:
    with ProviderServer(three_turns()) as server:
        status, _, _ = run_notes(cli, server, "--transcript", "run.jsonl")

    assert status == 0
    assert [p.name for p in folder.iterdir() if p.name.startswith(".run.jsonl")] == []
    assert strip_times((folder / "run.jsonl").read_text()) == [
        {"event": "request", "turn": 1, "tools": ["read_section"], "messages": 2},
        {
            "event": "response",
            "turn": 1,
            "text": "",
            "usage": {"input_tokens": 100, "output_tokens": 10, "total_tokens": 110},
        },
        {
            "event": "tool_call",
            "turn": 1,
            "call_id": "call_1",
            "name": "read_section",
            "arguments": {"section_key": "files"},
        },
        {
            "event": "tool_result",
            "call_id": "call_1",
            "name": "read_section",
            "success": True,
            "output": "Content of section 'files':\n\n## 2. Files (files)\n\nRead NOTES.md before "
            "you answer. Change it only when asked.",
        },
        {"event": "visibility", "section": "files", "visibility": "full"},
        {"event": "tools_injected", "section": "files", "tools": ["read_file", "edit_file"]},
        {"event": "request", "turn": 2, "tools": ["read_file", "edit_file"], "messages": 4},
        {
            "event": "response",
            "turn": 2,
            "text": "",
            "usage": {"input_tokens": 150, "output_tokens": 12, "total_tokens": 162},
        },
        {
            "event": "tool_call",
            "turn": 2,
            "call_id": "call_2",
            "name": "read_file",
            "arguments": {"path": "NOTES.md"},
        },
        {
            "event": "tool_result",
            "call_id": "call_2",
            "name": "read_file",
            "success": True,
            "output": 'Read \'NOTES.md\' (25 characters).\n\n{"path": "NOTES.md", "text": '
            '"1.4.0 shipped on Monday.\\n"}',
        },
        {"event": "request", "turn": 3, "tools": ["read_file", "edit_file"], "messages": 6},
        {
            "event": "response",
            "turn": 3,
            "text": ANSWER,
            "usage": {"input_tokens": 200, "output_tokens": 8, "total_tokens": 208},
        },
        {"event": "answer", "text": ANSWER, "output": None},
        {"event": "usage", "input_tokens": 450, "output_tokens": 30, "total_tokens": 480},
    ]


EDIT = ("call_3", "edit_file", '{"path": "NOTES.md", "old_text": "Monday", "new_text": "Tuesday"}')


def test_the_workspace_is_read_only_unless_writes_are_allowed(cli: Run, folder: Path) -> None:
    script = [
        reply(tool_calls=[READ_SECTION]),
        reply(tool_calls=[READ_NOTES]),
        reply(tool_calls=[EDIT]),
        reply("Done."),
    ]
    with ProviderServer(script) as server:
        assert run_notes(cli, server)[0] == 0
    refused = server.requests[3].json["messages"][-1]["content"]
    assert refused == "'NOTES.md' cannot be written: the filesystem is read-only."
    assert (folder / "workspace" / "NOTES.md").read_text() == "1.4.0 shipped on Monday.\n"

    with ProviderServer(script) as server:
        assert run_notes(cli, server, "--allow-writes")[0] == 0
    edited = server.requests[3].json["messages"][-1]["content"]
    assert edited.startswith("Edited 'NOTES.md' at line 1: 1 line replaced by 1 line.")
    assert (folder / "workspace" / "NOTES.md").read_text() == "1.4.0 shipped on Tuesday.\n"


def test_without_a_workspace_the_files_are_an_empty_folder_in_memory(
    cli: Run, folder: Path
) -> None:
    script = [reply(tool_calls=[READ_SECTION]), reply(tool_calls=[READ_NOTES]), reply("None.")]
    with ProviderServer(script) as server:
        status, out, _ = run_with(cli, "openai:gpt-test", f"{server.url}/v1")
    assert (status, out) == (0, "None.\n")
    assert server.requests[2].json["messages"][-1]["content"] == ("File 'NOTES.md' does not exist.")


VERDICT = """\
key: verdict
params:
  change: {type: string}
output:
  approved: {type: boolean}
  reason: {type: string, default: ""}
sections:
  - key: task
    title: Task
    template: Review ${change}.
"""


def test_a_declared_output_is_printed_as_one_line_of_json(cli: Run, folder: Path) -> None:
    (folder / "prompts" / "verdict.wink.yaml").write_text(VERDICT)
    answer = '{"approved": true, "reason": "small and tested"}'
    with ProviderServer([reply(answer)]) as server:
        status, out, err = cli(
            "run",
            "prompts/verdict.wink.yaml",
            "--model",
            "openai:gpt-test",
            "--base-url",
            f"{server.url}/v1",
            "--param",
            "change=the diff",
        )
    assert (status, out, err) == (0, '{"approved": true, "reason": "small and tested"}\n', "")
    assert server.requests[0].json["response_format"]["json_schema"]["name"] == "final_answer"


def test_anthropic_runs_the_same_prompt(cli: Run, folder: Path) -> None:
    script = [
        anthropic_reply(tool_uses=[("toolu_1", "read_section", {"section_key": "files"})]),
        anthropic_reply(tool_uses=[("toolu_2", "read_file", {"path": "NOTES.md"})]),
        anthropic_reply(ANSWER),
    ]
    with ProviderServer(script) as server:
        status, out, err = run_with(
            cli, "anthropic:claude-test", server.url, "--workspace", "workspace"
        )
    assert (status, out, err) == (0, ANSWER + "\n", "")
    assert server.requests[0].json["system"] == SUMMARIZED
    assert server.requests[2].json["messages"][-1]["content"][0]["tool_use_id"] == "toolu_2"


# -- failures: one line, a hint, never the key -------------------------------------------------


def test_a_refused_key_is_one_line_without_the_key(cli: Run, folder: Path) -> None:
    refusal = error_reply(401, f"Incorrect API key provided: {KEY}.", "invalid_api_key")
    with ProviderServer([refusal]) as server:
        status, out, err = run_notes(cli, server, "--transcript", "run.jsonl")

    assert (status, out) == (1, "")
    assert err == (
        "wink-decl: error: The provider refused the API key (401): Incorrect API key provided: "
        "[redacted].\n"
        "  hint: check the API key in OPENAI_API_KEY\n"
    )
    transcript = (folder / "run.jsonl").read_text()
    assert KEY not in transcript
    assert strip_times(transcript)[-2:] == [
        {
            "event": "error",
            "kind": "authentication",
            "message": "The provider refused the API key (401): Incorrect API key provided: "
            "[redacted].",
        },
        {"event": "usage", "input_tokens": 0, "output_tokens": 0, "total_tokens": 0},
    ]


def test_a_server_nobody_runs_is_a_connection_error(cli: Run, folder: Path) -> None:
    url = f"http://127.0.0.1:{unused_port()}/v1"
    status, out, err = run_with(cli, "openai:gpt-test", url)
    assert (status, out) == (1, "")
    assert err == (
        f"wink-decl: error: Could not connect to {url} after 3 attempts: connection refused.\n"
        "  hint: check the base URL and that the server is running\n"
    )


def test_the_turn_limit_stops_the_run_with_a_hint(cli: Run, folder: Path) -> None:
    with ProviderServer(three_turns()) as server:
        status, out, err = run_notes(cli, server, "--max-turns", "2")
    assert (status, out) == (1, "")
    assert err == (
        "wink-decl: error: Prompt 'notes' stopped: the budget of 2 model turns is used up.\n"
        "  hint: allow more model turns with --max-turns\n"
    )
    assert len(server.requests) == 2


def test_more_turns_than_the_default_are_allowed_with_max_turns(cli: Run, folder: Path) -> None:
    # A conversation stops at 64 turns unless told otherwise: 70 must reach the answer.
    calls = [reply(tool_calls=[(f"call_{n}", *READ_NOTES[1:])]) for n in range(2, 70)]
    script = [reply(tool_calls=[READ_SECTION]), *calls, reply(ANSWER)]
    with ProviderServer(script) as server:
        assert run_notes(cli, server, "--max-turns", "70") == (0, ANSWER + "\n", "")
    assert len(server.requests) == 70


def test_a_week_is_the_longest_timeout(cli: Run, folder: Path) -> None:
    with ProviderServer(three_turns()) as server:
        assert run_notes(cli, server, "--timeout", "604800") == (0, ANSWER + "\n", "")


def test_the_timeout_is_a_hard_limit_even_while_the_sdk_retries(cli: Run, folder: Path) -> None:
    slow = Reply(json={}, delay=10)
    started = time.monotonic()
    with ProviderServer([slow] * 3) as server:
        status, out, err = run_notes(cli, server, "--timeout", "0.5", "--transcript", "run.jsonl")
    assert time.monotonic() - started < 5
    assert (status, out) == (1, "")
    assert err == (
        "wink-decl: error: The run did not finish within --timeout 0.5 seconds; it was stopped.\n"
        "  hint: allow more time with --timeout\n"
    )
    assert strip_times((folder / "run.jsonl").read_text())[-2] == {
        "event": "error",
        "kind": "deadline",
        "message": "The run did not finish within --timeout 0.5 seconds; it was stopped.",
    }


def test_a_timeout_the_run_meets_changes_nothing(cli: Run, folder: Path) -> None:
    with ProviderServer(three_turns()) as server:
        assert run_notes(cli, server, "--timeout", "60") == (0, ANSWER + "\n", "")
    assert 59 < float(server.requests[0].headers["x-stainless-read-timeout"]) <= 60


def test_a_transcript_ignores_what_arrives_after_it_was_finished(folder: Path) -> None:
    transcript = Transcript("late.jsonl", ())
    transcript.close()
    transcript.write([{"event": "response", "turn": 9}])
    assert (folder / "late.jsonl").read_text() == ""


def test_a_missing_extra_names_the_install_line(
    cli: Run, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_find_spec = importlib.util.find_spec

    def without_openai(name: str, package: str | None = None) -> object:
        return None if name == "openai" else real_find_spec(name, package)

    # The adapter looks for its SDK without importing it (importing waits for the first request).
    monkeypatch.setattr("importlib.util.find_spec", without_openai)
    status, _, err = cli(
        "run", "prompts/notes.wink.toml", "--model", "openai:gpt-test", "--param", "topic=x"
    )
    assert (status, err) == (
        1,
        "wink-decl: error: OpenAIAdapter needs the 'openai' package, which is not installed.\n"
        "  hint: pip install 'wink-decl[openai]'\n",
    )


def test_problems_of_the_file_or_its_params_are_reported_as_by_render(
    cli: Run, folder: Path
) -> None:
    status, out, err = cli("run", "prompts/notes.wink.toml", "--model", "openai:gpt-test")
    assert (status, out) == (1, "")
    assert err == (
        "prompts/notes.wink.toml:4:9: error: Param 'topic' has no value and no default.\n"
        "   4 | [params.topic]\n"
        "     |         ^^^^^\n"
        "  hint: pass --param topic=VALUE or put it in --params-file, or give it a default\n"
    )


def test_a_handler_that_is_not_installed_stops_before_the_model_is_asked(
    cli: Run, folder: Path
) -> None:
    text = NOTES.replace('handler = "files.edit_file"', 'handler = "files.edit_fil"')
    (folder / "prompts" / "notes.wink.toml").write_text(text)
    status, _, err = cli(
        "run", "prompts/notes.wink.toml", "--model", "openai:gpt-test", "--param", "topic=x"
    )
    assert status == 1
    assert err.startswith(
        "prompts/notes.wink.toml:27:11: error: No handler named 'files.edit_fil' is installed.\n"
    )


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            ["--model", "opnai:gpt-test"],
            "wink-decl: error: --model opnai:gpt-test: 'opnai' is not a provider wink-decl knows "
            "(openai, anthropic, litellm, claude-agent)\n"
            "  hint: did you mean 'openai'?\n",
        ),
        (
            ["--model", "gpt-4"],
            "wink-decl: error: --model gpt-4: 'gpt-4' is not a provider wink-decl knows (openai, "
            "anthropic, litellm, claude-agent)\n"
            "  hint: write it as PROVIDER:MODEL, such as openai:gpt-4.1-mini\n",
        ),
        (
            ["--model", "anthropic:"],
            "wink-decl: error: --model anthropic:: no model named\n"
            "  hint: write it as anthropic:MODEL, such as anthropic:claude-sonnet-4-5\n",
        ),
        (
            ["--model", "openai:m", "--allow-writes"],
            "wink-decl: error: --allow-writes needs --workspace\n"
            "  hint: name the folder tools may change with --workspace DIR\n",
        ),
        (
            ["--model", "openai:m", "--workspace", "nowhere"],
            "wink-decl: error: --workspace nowhere: Filesystem root 'nowhere' does not exist.\n",
        ),
        (
            ["--model", "openai:m", "--max-turns", "0"],
            "wink-decl: error: argument --max-turns: '0' must be more than 0\n",
        ),
        (
            ["--model", "openai:m", "--timeout", "soon"],
            "wink-decl: error: argument --timeout: 'soon' is not a number\n",
        ),
        (
            ["--model", "openai:m", "--max-turns", "1.5"],
            "wink-decl: error: argument --max-turns: '1.5' is not a whole number\n",
        ),
        (
            ["--model", "openai:m", "--max-turns=-3"],
            "wink-decl: error: argument --max-turns: '-3' must be more than 0\n",
        ),
        (
            ["--model", "openai:m", "--timeout", "nan"],
            "wink-decl: error: argument --timeout: 'nan' is not a number\n",
        ),
        (
            ["--model", "openai:m", "--timeout", "0"],
            "wink-decl: error: argument --timeout: '0' must be more than 0\n",
        ),
        (
            ["--model", "openai:m", "--timeout=-inf"],
            "wink-decl: error: argument --timeout: '-inf' must be more than 0\n",
        ),
        (
            ["--model", "openai:m", "--timeout", "inf"],
            "wink-decl: error: argument --timeout: 'inf' must be at most 604800 (a week)\n",
        ),
        (
            ["--model", "openai:m", "--timeout", "1e10"],
            "wink-decl: error: argument --timeout: '1e10' must be at most 604800 (a week)\n",
        ),
        (
            ["--model", "openai:m", "--timeout", "604800.5"],
            "wink-decl: error: argument --timeout: '604800.5' must be at most 604800 (a week)\n",
        ),
        (
            ["--model", "openai:m", "--transcript", "missing/run.jsonl"],
            "wink-decl: error: --transcript missing/run.jsonl: cannot write there (No such file "
            "or directory)\n",
        ),
    ],
    ids=[
        "misspelled-provider",
        "no-provider",
        "no-model",
        "writes-without-workspace",
        "missing-workspace",
        "zero-turns",
        "not-a-number",
        "fractional-turns",
        "negative-turns",
        "timeout-nan",
        "timeout-zero",
        "timeout-minus-infinity",
        "timeout-infinity",
        "timeout-past-the-clock",
        "timeout-past-a-week",
        "transcript-folder-missing",
    ],
)
def test_usage_errors(cli: Run, folder: Path, arguments: list[str], message: str) -> None:
    status, out, err = cli("run", "prompts/notes.wink.toml", "--param", "topic=x", *arguments)
    assert (status, out) == (2, "")
    assert err == message + "  run 'wink-decl run --help' for its options\n"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_sees_each_turn_and_tool_call(folder: Path) -> None:
    out, err = io.StringIO(), Terminal()
    failing = ("call_9", "edit_file", '{"path": "NOTES.md", "old_text": "x", "new_text": "y"}')
    script = [
        reply(tool_calls=[READ_SECTION]),
        reply(tool_calls=[failing, READ_NOTES]),
        reply(ANSWER),
    ]
    with ProviderServer(script) as server:
        status = _app.run(
            [
                "run",
                "prompts/notes.wink.toml",
                "--model",
                "openai:gpt-test",
                "--base-url",
                f"{server.url}/v1",
                "--param",
                "topic=releases",
                "--workspace",
                "workspace",
            ],
            Console(out, err),
        )
    assert (status, out.getvalue()) == (0, ANSWER + "\n")
    assert err.getvalue() == textwrap.dedent(
        """\
        turn 1: asking the model (1 tool on offer)
          the model calls read_section
          read_section: ok
          opened section files
        turn 2: asking the model (2 tools on offer)
          the model calls edit_file, read_file
          edit_file failed: File 'NOTES.md' must be read before overwriting.
          read_file: ok
        turn 3: asking the model (2 tools on offer)
        """
    )


def test_credentials_never_reach_an_internal_error(
    cli: Run, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> object:
        raise RuntimeError(f"client built with {KEY}")

    monkeypatch.setattr("wink_decl.cli._run.make_adapter", broken)
    status, _, err = cli(
        "run", "prompts/notes.wink.toml", "--model", "openai:gpt-test", "--param", "topic=x"
    )
    assert (status, err) == (
        3,
        "wink-decl: internal error: RuntimeError: client built with [redacted]\n"
        "  hint: run again with -v to see the traceback, and report it\n",
    )
    status, _, err = cli(
        "run", "-v", "prompts/notes.wink.toml", "--model", "openai:gpt-test", "--param", "topic=x"
    )
    assert status == 3
    assert KEY not in err
    assert err.endswith("RuntimeError: client built with [redacted]\n")


# -- more of what a run can meet ------------------------------------------------------------------


def test_handlers_that_do_not_fit_the_file_stop_before_the_model_is_asked(
    cli: Run, folder: Path
) -> None:
    text = NOTES.replace(
        'handler = "files.read_file"',
        'handler = "files.read_file"\nparams = { file = { type = "string" } }',
    )
    (folder / "prompts" / "notes.wink.toml").write_text(text)
    status, out, err = cli(
        "run", "prompts/notes.wink.toml", "--model", "openai:gpt-test", "--param", "topic=x"
    )
    assert (status, out) == (1, "")
    assert "Field 'file' is declared in the prompt file but ReadFileParams has no such field." in (
        err
    )


def test_a_failure_inside_a_timed_run_is_reported_as_it_is(cli: Run, folder: Path) -> None:
    with ProviderServer(three_turns()) as server:
        status, _, err = run_notes(cli, server, "--max-turns", "1", "--timeout", "60")
    assert (status, err) == (
        1,
        "wink-decl: error: Prompt 'notes' stopped: the budget of 1 model turns is used up.\n"
        "  hint: allow more model turns with --max-turns\n",
    )


def test_open_shows_a_section_from_the_first_turn(cli: Run, folder: Path) -> None:
    with ProviderServer([reply(ANSWER)]) as server:
        assert run_notes(cli, server, "--open", "files")[0] == 0
    first = server.requests[0].json
    assert "Read NOTES.md before you answer." in first["messages"][0]["content"]
    assert [tool["function"]["name"] for tool in first["tools"]] == ["read_file", "edit_file"]


def test_an_answer_that_never_fits_the_output_is_one_line(cli: Run, folder: Path) -> None:
    (folder / "prompts" / "verdict.wink.yaml").write_text(VERDICT)
    with ProviderServer([reply("Yes."), reply("Yes!")]) as server:
        status, out, err = cli(
            "run",
            "prompts/verdict.wink.yaml",
            "--model",
            "openai:gpt-test",
            "--base-url",
            f"{server.url}/v1",
            "--param",
            "change=x",
        )
    assert (status, out, err) == (
        1,
        "",
        "wink-decl: error: The answer of prompt 'verdict' does not fit its output Output: it is "
        "not JSON (Expecting value: line 1 column 1 (char 0)).\n",
    )


def test_the_transcript_keeps_arguments_as_the_model_sent_them(cli: Run, folder: Path) -> None:
    broken = ("call_5", "read_section", '{"section_key": ')
    with ProviderServer([reply(tool_calls=[broken]), reply("Sorry.")]) as server:
        assert run_notes(cli, server, "--transcript", "run.jsonl")[0] == 0
    records = strip_times((folder / "run.jsonl").read_text())
    assert records[2] == {
        "event": "tool_call",
        "turn": 1,
        "call_id": "call_5",
        "name": "read_section",
        "arguments": '{"section_key": ',
    }
    with ProviderServer(
        [
            anthropic_reply(tool_uses=[("toolu_1", "read_section", {"section_key": "files"})]),
            anthropic_reply("Done."),
        ]
    ) as server:
        status, _, _ = run_with(
            cli, "anthropic:claude-test", server.url, "--transcript", "anthropic.jsonl"
        )
    assert status == 0
    assert strip_times((folder / "anthropic.jsonl").read_text())[2]["arguments"] == {
        "section_key": "files"
    }


def claude_moves(call: MessagesCall) -> Reply:
    """Open 'files' (its tools come in the same conversation), read NOTES.md, answer."""
    if call.turn == 1 and "mcp__wink__read_file" not in call.revealed:
        return say("read_file is not offered.", call)
    moves = [
        lambda: call_tool("mcp__wink__read_section", {"section_key": "files"}, call),
        lambda: call_tool("mcp__wink__read_file", {"path": "NOTES.md"}, call),
        lambda: say(ANSWER, call),
    ]
    return moves[call.turn]()


def test_claude_code_runs_the_prompt_in_the_workspace(
    cli: Run, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trap = "http://127.0.0.1:9"  # anything not for 127.0.0.1 is refused
    for name, value in (("HTTPS_PROXY", trap), ("HTTP_PROXY", trap), ("NO_PROXY", "127.0.0.1")):
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("HOME", str(folder))
    with AnsweringServer(claude_moves) as server:
        status, out, err = run_with(
            cli, "claude-agent:claude-test", server.url, "--workspace", "workspace"
        )
    assert (status, out, err) == (0, ANSWER + "\n", "")
    results = [call.tool_results for call in server.calls if call.tool_results]
    assert results[-1][0].text.startswith("Read 'NOTES.md' (25 characters).")
