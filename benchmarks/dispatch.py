"""Tool dispatch overhead: the executor against calling the handler directly.

The session is filled with 10 or 10,000 recorded tool calls first. Overhead per call is the
executor's time minus the direct call's, measured side by side in one run; the claim is that it
does not grow with the session (snapshots share immutable data instead of copying it).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also when run by path, not as a script

from _fixtures import per_call_us  # after the path is set

from wink_decl import (
    InMemoryFilesystem,
    MarkdownSection,
    Prompt,
    PromptTemplate,
    SequentialDependencyPolicy,
    Session,
    Tool,
    ToolContext,
    ToolExecutor,
    ToolResult,
)
from wink_decl.runtime.provider import ProviderToolCall

GROWTH_LIMIT = 1.5
"""Overhead at 10,000 events may be at most this multiple of the overhead at 10 (with --check)."""


@dataclass(frozen=True)
class Lookup:
    """Benchmark params."""

    key: str


@dataclass(frozen=True)
class Found:
    """Benchmark result."""

    value: str


def lookup(params: Lookup, *, context: ToolContext) -> ToolResult[Found]:
    """A handler that does almost nothing, so the executor's own cost shows."""
    del context
    return ToolResult.ok(Found(params.key.upper()), "Found.")


TOOL = Tool[Lookup, Found](name="lookup", description="Look up a key.", handler=lookup)


def build(events: int) -> tuple[ToolExecutor, ToolContext]:
    """An executor over a session that already recorded ``events`` tool calls."""
    template = PromptTemplate(
        ns="bench",
        key="dispatch",
        sections=[MarkdownSection(title="Tools", key="tools", tools=[TOOL])],
        policies=[SequentialDependencyPolicy(dependencies={"deploy": {"lookup"}})],
    )
    session = Session()
    prompt = Prompt(template, resources=[InMemoryFilesystem({"a.txt": "a"})])
    rendered = prompt.render(session=session)
    executor = ToolExecutor(prompt=prompt, rendered=rendered, session=session)
    call = ProviderToolCall("fill", "lookup", '{"key": "k"}')
    for _ in range(events):
        executor.execute(call)
    context = ToolContext(prompt=prompt, rendered_prompt=rendered, adapter=None, session=session)
    return executor, context


def measure(events: int, number: int) -> tuple[float, float]:
    """Microseconds per direct call and per executor call."""
    executor, context = build(events)
    params = Lookup("k")
    call = ProviderToolCall("bench", "lookup", json.dumps({"key": "k"}))
    direct = per_call_us(lambda: lookup(params, context=context), number)
    dispatched = per_call_us(lambda: executor.execute(call), number)
    return direct, dispatched


def main(argv: list[str] | None = None) -> int:
    """Print the table; with --check, exit 1 when the overhead grows with the session."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="exit 1 if overhead grows")
    parser.add_argument("--calls", type=int, default=2000, help="calls per timing run")
    args = parser.parse_args(argv)
    print(f"{'events':>7} {'direct us':>10} {'executor us':>12} {'overhead us':>12}")
    overheads: list[float] = []
    for events in (10, 10_000):
        direct, dispatched = measure(events, args.calls)
        overheads.append(dispatched - direct)
        print(f"{events:>7} {direct:>10.2f} {dispatched:>12.2f} {dispatched - direct:>12.2f}")
    growth = overheads[1] / overheads[0]
    print(f"overhead at 10,000 events is {growth:.2f}x the overhead at 10 events.")
    return 1 if args.check and growth > GROWTH_LIMIT else 0


if __name__ == "__main__":
    sys.exit(main())
