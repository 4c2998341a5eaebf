"""Prompt folders the MCP server tests serve, and a server built on them in this process."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
from mcp.client import Transport
from mcp.client._transport import TransportStreams
from mcp.shared.memory import create_client_server_memory_streams

from wink_decl.cli._render import render_text_form
from wink_decl.inputs import PromptRequest, prepare
from wink_decl.limits import DEFAULT_LIMITS
from wink_decl.mcp import Agent, McpServer, PromptCatalog, PromptServing
from wink_decl.runtime.filesystem import HostFilesystem, ReadOnlyFilesystem

GREET = """\
key: greet
name: Greeting
description: Greets someone.
params:
  who: {type: string, description: Who to greet.}
  mood: {type: string, enum: [glad, calm, careful], default: calm, description: The tone.}
  times: {type: integer, default: 1}
sections:
  - {key: hello, title: Hello, template: "Say hello to ${who}, ${mood}, ${times} times."}
"""

HELPER = """\
key: helper
description: Helps with files.
params:
  topic: {type: string}
sections:
  - key: task
    title: Task
    template: Help with ${topic}.
    tools: [list_dir, read_file]
    policies: [{sequential: {read_file: [list_dir]}}]
  - key: notes
    title: Notes
    visibility: summary
    summary: How to write notes.
    template: Write notes with care.
    tools: [write_file]
tools:
  list_dir: {description: List a folder of the workspace., handler: files.list_dir}
  read_file: {description: Read one file of the workspace., handler: files.read_file}
  write_file: {description: Write a whole file of the workspace., handler: files.write_file}
"""

GREET_TEXT = "## 1. Hello (hello)\n\nSay hello to Ada, glad, 2 times.\n\ntools: (none)\n"
"""What ``wink-decl render`` prints for greet with who=Ada, mood=glad, times=2."""


def prompt_folder(base: Path) -> Path:
    """``base/prompts`` holding team/greet and agents/helper, and ``base/work`` with a file."""
    prompts = base / "prompts"
    (prompts / "team").mkdir(parents=True)
    (prompts / "agents").mkdir()
    (prompts / "team" / "greet.wink.yaml").write_text(GREET)
    (prompts / "agents" / "helper.wink.yaml").write_text(HELPER)
    work = base / "work"
    work.mkdir()
    (work / "a.txt").write_text("alpha\n")
    return prompts


def build_server(prompts: Path, work: Path | None = None) -> tuple[McpServer, io.StringIO]:
    """A server of ``prompts`` (with helper as the agent when ``work`` is given) and its log."""
    log = io.StringIO()

    def write(text: str) -> None:
        log.write(text + "\n")

    catalog = PromptCatalog(prompts, prompts, DEFAULT_LIMITS, write)
    catalog.refresh()
    serving = PromptServing(
        catalog,
        DEFAULT_LIMITS,
        tag=None,
        overrides=None,
        strict=False,
        render_text=render_text_form,
    )
    agent = None
    if work is not None:
        request = PromptRequest(
            str(prompts / "agents" / "helper.wink.yaml"),
            root=str(prompts),
            params=(("topic", "notes"),),
        )
        prepared = prepare(request, plugins="all")
        assert prepared.ok
        agent = Agent(prepared, ReadOnlyFilesystem(HostFilesystem(str(work))))
    return McpServer(serving, agent), log


@asynccontextmanager
async def _served(server: McpServer) -> AsyncIterator[TransportStreams]:
    async with (
        create_client_server_memory_streams() as ((client_read, client_write), (read, write)),
        anyio.create_task_group() as tasks,
    ):
        tasks.start_soon(server.run, read, write)
        try:
            yield client_read, client_write
        finally:  # the end of the client's stream ends the server, as stdin's end does
            await client_write.aclose()
            await write.aclose()


def served(server: McpServer) -> Transport:
    """``server`` run on a pair of memory streams as on stdin and stdout (``McpServer.run``)."""
    return _served(server)
