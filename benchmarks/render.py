"""Render speed: microseconds per render, and the ratio to joining the output's fragments.

The shape is the issue's: N sections keyed s{i}, depth cycling 0/1/2 under each root, odd
indices summarized, tools on indices 0, N/4, N/2 and 3N/4. Both timings run side by side in
one process, so the ratio is meaningful on any machine; the target is 3x or less at N = 1000.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also when run by path, not as a script

from _fixtures import per_call_us  # after the path is set

from wink_decl import (
    MarkdownSection,
    Prompt,
    PromptTemplate,
    SectionVisibility,
    Tool,
    ToolContext,
    ToolResult,
)

TARGET_RATIO = 3.0


@dataclass(frozen=True)
class Params:
    """The one params type every section uses."""

    name: str


@dataclass(frozen=True)
class NoArgs:
    """Benchmark tools take nothing."""


def _handler(params: NoArgs, *, context: ToolContext) -> ToolResult[None]:
    del params, context
    return ToolResult(message="ok")


def build_template(n: int) -> PromptTemplate[Any]:
    """N sections: roots at i % 3 == 0, a child at 1, a grandchild at 2."""
    tool_at = {0, n // 4, n // 2, 3 * n // 4}
    parent = [None if i % 3 == 0 else i - 1 for i in range(n)]
    children: list[list[MarkdownSection[Params]]] = [[] for _ in range(n)]
    built: list[MarkdownSection[Params] | None] = [None] * n
    for i in reversed(range(n)):  # children exist before their parents copy them
        summarized = i % 2 == 1
        section = MarkdownSection[Params](
            title=f"Section {i}",
            key=f"s{i}",
            template=f"Body of section {i} for ${{name}}.",
            summary=f"Summary of section {i}." if summarized else None,
            visibility=SectionVisibility.SUMMARY if summarized else SectionVisibility.FULL,
            tools=[Tool[NoArgs, None](name=f"tool_{i}", description=f"Tool {i}.", handler=_handler)]
            if i in tool_at
            else [],
            children=children[i][::-1],
        )
        built[i] = section
        up = parent[i]
        if up is not None:
            children[up].append(section)
    roots = [s for i, s in enumerate(built) if parent[i] is None and s is not None]
    return PromptTemplate(ns="bench", key=f"render-{n}", sections=roots)


def fragments(text: str, name: str) -> list[str]:
    """The output cut at every separator and every substituted value, delimiters kept."""
    pieces = [piece for piece in re.split(f"(\n\n|{re.escape(name)})", text) if piece]
    assert "".join(pieces) == text  # noqa: S101  # the baseline must build the same text
    return pieces


def measure(n: int) -> tuple[float, float, int]:
    """Microseconds per render, per baseline join, and the rendered length."""
    template = build_template(n)
    prompt = Prompt(template).bind(Params(name="wink"))
    text = prompt.render().text
    pieces = fragments(text, "wink")
    number = max(20, 20_000 // n)
    render_us = per_call_us(prompt.render, number)
    join_us = per_call_us(lambda: "".join(pieces), number)
    return render_us, join_us, len(text)


def main(argv: list[str] | None = None) -> int:
    """Print a table; exit 1 when N = 1000 misses the target ratio (with --check)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="exit 1 if the target is missed")
    args = parser.parse_args(argv)
    print(f"{'N':>6} {'render us':>11} {'join us':>9} {'ratio':>7} {'chars':>8}")
    ratio_at_1000 = 0.0
    for n in (10, 100, 1000):
        render_us, join_us, chars = measure(n)
        ratio = render_us / join_us
        if n == 1000:
            ratio_at_1000 = ratio
        print(f"{n:>6} {render_us:>11.2f} {join_us:>9.2f} {ratio:>6.2f}x {chars:>8}")
    verdict = "meets" if ratio_at_1000 <= TARGET_RATIO else "MISSES"
    print(f"N=1000 {verdict} the target of {TARGET_RATIO:.0f}x the join ({ratio_at_1000:.2f}x).")
    return 1 if args.check and ratio_at_1000 > TARGET_RATIO else 0


if __name__ == "__main__":
    sys.exit(main())
