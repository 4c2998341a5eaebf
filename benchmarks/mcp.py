"""``wink-decl mcp`` over stdio against the floor the ``mcp`` SDK sets, and tools/call's cost.

prompts/get: the median round trip of the SDK's own client to ``wink-decl mcp`` (a small
prompt with two params, rendered as ``wink-decl render`` prints it) against a minimal server
on the same SDK that answers every get with one constant string (target: within 1.5x).

tools/call: the median round trip of a trivial handler (planning.read_plan) through the
server, the same call through the runtime's executor in this process, and the floor server's
constant tools/call; the server's cost beyond the executor's is the first minus the second.
Each server is a child process; the client is the SDK's, in this process.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path, and this file would be
# imported as the `mcp` SDK: take the folder off before the SDK is imported.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != _HERE]

import anyio  # noqa: E402
from mcp import Client  # noqa: E402
from mcp.client.stdio import StdioServerParameters  # noqa: E402

from wink_decl.inputs import PromptRequest, prepare  # noqa: E402
from wink_decl.mcp import Agent  # noqa: E402
from wink_decl.runtime.filesystem import InMemoryFilesystem  # noqa: E402

TARGET = 1.5
"""prompts/get may take at most this multiple of the floor server's median (with --check)."""

PROMPT = """\
key: greet
params:
  who: {type: string}
  mood: {type: string, enum: [glad, calm], default: calm}
sections:
  - {key: hello, title: Hello, template: "Say hello to ${who}, ${mood}."}
  - key: plan
    title: Plan
    template: Keep a plan.
    tools: [read_plan]
tools:
  read_plan: {description: Read the plan., handler: planning.read_plan}
"""

FLOOR = """\
import anyio
import mcp_types as types
from mcp.server.lowlevel.server import Server
from mcp.server.stdio import stdio_server

TEXT = types.TextContent(text="Say hello.")

async def get(ctx, params):
    return types.GetPromptResult(messages=[types.PromptMessage(role="user", content=TEXT)])

async def call(ctx, params):
    return types.CallToolResult(content=[TEXT])

TOOL = types.Tool(name="read_plan", input_schema={"type": "object", "properties": {}})

async def tools(ctx, params):
    return types.ListToolsResult(tools=[TOOL])

async def main():
    server = Server("floor", on_get_prompt=get, on_call_tool=call, on_list_tools=tools)
    server.middleware.clear()
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())

anyio.run(main)
"""

Step = Callable[[Client], Awaitable[object]]
WARM_UP = 100
"""Requests to each server before any is timed: imports, caches and the watch settle."""


def medians_us(
    servers: tuple[StdioServerParameters, StdioServerParameters], step: Step, rounds: int
) -> tuple[float, float]:
    """The median round trips of ``step`` to each server, their requests taken in turn.

    Both servers run at once and are asked alternately, so a load that comes and goes on the
    machine weighs on both alike; each is warmed up first.
    """
    times: tuple[list[float], list[float]] = ([], [])

    async def run() -> None:
        async with (
            Client(servers[0], mode="legacy") as first,
            Client(servers[1], mode="legacy") as second,
        ):
            for _ in range(WARM_UP):
                await step(first)
                await step(second)
            for _ in range(rounds):
                for client, kept in ((first, times[0]), (second, times[1])):
                    start = time.perf_counter()
                    await step(client)
                    kept.append(time.perf_counter() - start)

    anyio.run(run)
    return statistics.median(times[0]) * 1e6, statistics.median(times[1]) * 1e6


async def get_prompt(client: Client) -> object:
    """One prompts/get of the small prompt."""
    return await client.get_prompt("prompts/greet", {"who": "Ada", "mood": "glad"})


async def call_tool(client: Client) -> object:
    """One tools/call of the trivial handler."""
    return await client.call_tool("read_plan", {})


def executor_us(file: Path, rounds: int) -> float:
    """The median of the same call through the runtime's executor, in this process."""
    prepared = prepare(PromptRequest(str(file), params=(("who", "Ada"),)), plugins="all")
    session = Agent(prepared, InMemoryFilesystem()).session()
    execute = session._call  # noqa: SLF001  # pyright: ignore[reportPrivateUsage]  # the call alone
    times: list[float] = []
    for _ in range(rounds):
        start = time.perf_counter()
        execute("read_plan", {})
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def main(argv: list[str] | None = None) -> int:
    """Print the figures; with --check, exit 1 when prompts/get misses its target."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=500, help="requests timed per figure")
    parser.add_argument("--check", action="store_true", help="exit 1 if the target is missed")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        prompts = Path(folder) / "prompts"
        prompts.mkdir()
        file = prompts / "greet.wink.yaml"
        file.write_text(PROMPT)
        ours = StdioServerParameters(
            command=sys.executable,
            args=[
                "-m",
                "wink_decl",
                "mcp",
                str(prompts),
                "--agent",
                str(file),
                "--param",
                "who=Ada",
            ],
        )
        floor = StdioServerParameters(command=sys.executable, args=["-c", FLOOR])
        get_ours, get_floor = medians_us((ours, floor), get_prompt, args.rounds)
        call_ours, call_floor = medians_us((ours, floor), call_tool, args.rounds)
        call_executor = executor_us(file, args.rounds)
    ratio = get_ours / get_floor
    print(f"stdio, median of {args.rounds} requests, the two servers asked in turn")
    print(f"  prompts/get  wink-decl mcp {get_ours:8.0f} us")
    print(f"  prompts/get  floor server  {get_floor:8.0f} us")
    print(f"  ratio {ratio:.2f}x (target {TARGET}x)")
    print(f"  tools/call   wink-decl mcp {call_ours:8.0f} us")
    print(f"  tools/call   floor server  {call_floor:8.0f} us")
    print(f"  tools/call   executor only {call_executor:8.0f} us (in process)")
    print(f"  server cost beyond the executor {call_ours - call_executor:8.0f} us")
    print(f"  server cost beyond the floor    {call_ours - call_floor:8.0f} us")
    return 1 if args.check and ratio > TARGET else 0


if __name__ == "__main__":
    sys.exit(main())
