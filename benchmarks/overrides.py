"""Rendering with a tag against rendering without one, side by side: the ratio of the two.

The issue's target: a tagged render costs within 10% of an untagged one, because a tag's
overrides are applied once (``with_overrides`` builds the tagged template and keeps it), never
per render. The prompt has N sections, half summarized, a tool every tenth; the tag overrides
every section's template and every tool's description (with texts of the same length). Both
are timed in one process in alternating rounds, the best round kept, so the ratio holds on any
machine. Applying the tag once (reading the file, checking and building) is timed too.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import timeit
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wink_decl import (
    MarkdownSection,
    PromptTemplate,
    SectionVisibility,
    Tool,
    ToolContext,
    ToolResult,
)
from wink_decl.cli._writers._yaml_writer import to_yaml
from wink_decl.overrides import LocalOverrideStore, seed_data, with_overrides

TARGET_RATIO = 1.10


@dataclass(frozen=True)
class Params:
    """The one params type every section uses."""

    name: str
    limit: int = 10


def _handler(params: Params, *, context: ToolContext) -> ToolResult[None]:
    del params, context
    return ToolResult(message="ok")


def build_template(n: int) -> PromptTemplate[Any]:
    """N top-level sections; odd ones summarized; a tool on every tenth."""
    sections = [
        MarkdownSection[Params](
            title=f"Section {i}",
            key=f"s{i}",
            template=f"Body {i} for ${{name}}.",
            summary=f"Summary {i}." if i % 2 else None,
            visibility=SectionVisibility.SUMMARY if i % 2 else SectionVisibility.FULL,
            tools=[Tool[Params, None](name=f"t{i}", description=f"Tool {i}.", handler=_handler)]
            if i % 10 == 0
            else [],
        )
        for i in range(n)
    ]
    return PromptTemplate(ns="bench", key="overrides", sections=sections)


def tagged_template(base: PromptTemplate[Any], folder: Path) -> PromptTemplate[Any]:
    """The base with a tag overriding every template and tool description."""
    data = seed_data(base)
    for parts in [*data["sections"].values(), *data["tools"].values()]:  # type: ignore[attr-defined]  # pyright: ignore[reportAttributeAccessIssue, reportUnknownVariableType, reportUnknownMemberType]
        for part, entry in parts.items():  # pyright: ignore[reportUnknownVariableType, reportUnknownMemberType]
            if part in ("template", "description"):
                entry["text"] = entry["text"].replace(".", "!")  # pyright: ignore[reportUnknownMemberType]
    path = folder / "bench" / "overrides" / "exp.wink-override.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(to_yaml(data), encoding="utf-8")
    return with_overrides(base, LocalOverrideStore(folder), "exp")


def measure(n: int, renders: int, rounds: int) -> tuple[float, float, float]:
    """Microseconds per render without and with the tag (best round), and seconds to apply."""
    base = build_template(n)
    with tempfile.TemporaryDirectory() as folder:
        started = timeit.default_timer()
        tagged = tagged_template(base, Path(folder))
        apply_seconds = timeit.default_timer() - started
    params = Params(name="bench")
    assert tagged.render(params).text != base.render(params).text  # noqa: S101  # a real tag
    best = {"base": float("inf"), "tagged": float("inf")}
    pair = [("base", base), ("tagged", tagged)]
    for _ in range(rounds):
        pair.reverse()  # each goes first in every other round: neither pays for warming up
        for name, template in pair:
            seconds = timeit.timeit(lambda t=template: t.render(params), number=renders)
            best[name] = min(best[name], seconds / renders * 1e6)
    return best["base"], best["tagged"], apply_seconds


def main(argv: list[str]) -> int:
    """Print the table; exit 0 (a benchmark reports, it does not fail)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="10,100,1000", help="section counts, comma-separated")
    parser.add_argument("--renders", type=int, default=500, help="renders per round")
    parser.add_argument("--rounds", type=int, default=20, help="rounds; the best is kept")
    args = parser.parse_args(argv)
    print(f"render us without tag, with tag, ratio (target <= {TARGET_RATIO:.2f}), apply once")
    for n in (int(size) for size in args.sizes.split(",")):
        base, tagged, apply_seconds = measure(n, args.renders, args.rounds)
        print(
            f"n={n:<5} {base:9.2f} {tagged:9.2f} {tagged / base:6.2f}x"
            f"   apply {apply_seconds * 1000:.1f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
