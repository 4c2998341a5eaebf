"""``wink-decl plugins``: every handler, policy, predicate and evaluator, and who provides it.

The installed ones (entry points) by kind, each kind headed by the shape its objects must
have; then what wink-decl itself provides, marked "built in". Only entry-point metadata is
read; no plugin code is imported, so a broken plugin is still listed. A name two
distributions register is listed once per distribution, as the ``name@distribution``
reference that picks it, and a warning on stderr says how to choose. Conflicts do not change
the exit status: listing succeeded, and only a prompt that uses the bare name fails
(``wink-decl validate`` reports that, with exit status 1).
"""

from __future__ import annotations

import argparse
import json
from typing import Literal

from wink_decl.cli._command import Console
from wink_decl.cli._commands import implemented
from wink_decl.plugins import (
    EVALUATORS,
    GROUPS,
    HANDLERS,
    POLICIES,
    PREDICATES,
    PluginCatalog,
    PluginEntry,
    PluginProblem,
)

__all__ = ["COMMAND", "plugin_report", "plugin_warnings"]

ReportFormat = Literal["text", "json"]

_KINDS = {
    HANDLERS: "handlers",
    POLICIES: "policies",
    PREDICATES: "predicates",
    EVALUATORS: "evaluators",
}
_NOUNS = {
    HANDLERS: "handler",
    POLICIES: "policy",
    PREDICATES: "predicate",
    EVALUATORS: "evaluator",
}
_GAP = "  "
SIGNATURES = {
    HANDLERS: "handler(params, *, context) -> ToolResult, a def function (not async)",
    POLICIES: "factory(**config) -> an object with check(tool, params, *, context) -> "
    "PolicyDecision and on_result(tool, params, result, *, context) -> None",
    PREDICATES: "predicate(params, *, session) -> bool",
    EVALUATORS: "factory(**args) -> an evaluator(outcome, sample) -> Score",
}
"""The shape each kind of plugin must have (docs/plugins.md shows each in a package)."""
BUILT_IN = (
    (
        "read_section",
        "tool",
        "read_section(section_key: str): offered while a section is summarized",
    ),
    (
        "sequential",
        "policy",
        "{sequential: {TOOL: [TOOL, ...]}}: a tool runs after the listed ones",
    ),
    (
        "read_before_write",
        "policy",
        "{read_before_write: {read_tools, write_tools, path_field}}: change a file only after "
        "reading it",
    ),
    ("param", "condition", "{param: NAME}: true when the param is truthy"),
    ("equals", "condition", "{equals: {param: NAME, value: VALUE}}"),
    ("not / all / any", "condition", "{not: C}, {all: [C, ...]}, {any: [C, ...]}"),
)
"""What wink-decl provides itself: (name, kind, how a prompt file writes it)."""


def plugin_report(catalog: PluginCatalog, report_format: ReportFormat) -> str:
    """What ``catalog`` holds, by kind and name, as text for people or one JSON object."""
    if report_format == "json":
        return _json_report(catalog)
    rows = {group: [_row(catalog, entry) for entry in _entries(catalog, group)] for group in GROUPS}
    every = [row for group_rows in rows.values() for row in group_rows]
    name_width = max((len(name) for name, _, _ in every), default=0)
    provider_width = max((len(provider) for _, provider, _ in every), default=0)
    blocks: list[str] = []
    for group in GROUPS:
        lines = [f"{_KINDS[group]}: {SIGNATURES[group]}"]
        lines.extend(
            f"  {name:<{name_width}}{_GAP}{provider:<{provider_width}}{_GAP}{target}"
            for name, provider, target in rows[group]
        )
        if not rows[group]:
            lines.append("  (none installed)")
        blocks.append("\n".join(lines) + "\n")
    blocks.append(_built_in_block())
    return "\n".join(blocks)


def _built_in_block() -> str:
    name_width = max(len(name) for name, _, _ in BUILT_IN)
    kind_width = max(len(kind) for _, kind, _ in BUILT_IN)
    lines = ["built in: part of wink-decl, written in prompt files by name"]
    lines.extend(
        f"  {name:<{name_width}}{_GAP}{kind:<{kind_width}}{_GAP}{written}"
        for name, kind, written in BUILT_IN
    )
    return "\n".join(lines) + "\n"


def plugin_warnings(catalog: PluginCatalog) -> str:
    """One warning per name that several distributions register, worded as ``resolve`` does."""
    return "".join(
        f"warning: {problem.message}\n  hint: {problem.hint}\n"
        for _, _, problem in _conflicts(catalog)
    )


def _entries(catalog: PluginCatalog, group: str) -> list[PluginEntry]:
    return [entry for name in catalog.names(group) for entry in catalog.entries(group, name)]


def _reference(catalog: PluginCatalog, entry: PluginEntry) -> str:
    """The name a prompt writes to get ``entry``: ``name@distribution`` when the name clashes."""
    clashes = len(catalog.entries(entry.group, entry.name)) > 1
    return entry.reference if clashes else entry.name


def _row(catalog: PluginCatalog, entry: PluginEntry) -> tuple[str, str, str]:
    provider = f"{entry.distribution} {entry.version}".strip() or "(unknown distribution)"
    return _reference(catalog, entry), provider, entry.value


def _conflicts(catalog: PluginCatalog) -> list[tuple[str, str, PluginProblem]]:
    found: list[tuple[str, str, PluginProblem]] = []
    for group in GROUPS:
        for name in catalog.conflicts(group):
            problem = catalog.resolve(group, name)
            if not isinstance(problem, PluginProblem):
                raise AssertionError("unreachable: two entries are ambiguous")  # noqa: TRY004
            found.append((group, name, problem))
    return found


def _json_report(catalog: PluginCatalog) -> str:
    report: dict[str, object] = {
        _KINDS[group]: [
            {
                "name": entry.name,
                "reference": _reference(catalog, entry),
                "distribution": entry.distribution or None,
                "version": entry.version or None,
                "target": entry.value,
            }
            for entry in _entries(catalog, group)
        ]
        for group in GROUPS
    }
    report["signatures"] = {_KINDS[group]: SIGNATURES[group] for group in GROUPS}
    report["built_in"] = [
        {"name": name, "kind": kind, "written": written, "distribution": "built in"}
        for name, kind, written in BUILT_IN
    ]
    report["conflicts"] = [
        {
            "kind": _NOUNS[group],
            "name": name,
            "message": problem.message,
            "hint": problem.hint,
            "choices": list(problem.suggestions),
        }
        for group, name, problem in _conflicts(catalog)
    ]
    return json.dumps(report, indent=2, ensure_ascii=False) + "\n"


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text for people (the default), or one JSON object for tools",
    )


def _run(args: argparse.Namespace, console: Console) -> int:
    catalog = PluginCatalog()
    console.out.write(plugin_report(catalog, args.format))
    console.err.write(plugin_warnings(catalog))
    return 0


COMMAND = implemented("plugins", configure=_configure, run=_run)
