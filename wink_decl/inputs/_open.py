"""Sections opened by name (``--open``), as a render's visibility overrides."""

from __future__ import annotations

from typing import TYPE_CHECKING

from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic
from wink_decl.prompt.visibility import SectionPath, SectionVisibility
from wink_decl.suggestions import close_matches

if TYPE_CHECKING:
    from collections.abc import Sequence

    from wink_decl.compiler import CompiledPrompt

__all__ = ["opened_sections"]


def opened_sections(
    prompt: CompiledPrompt, keys: Sequence[str], problems: list[Diagnostic]
) -> dict[SectionPath, SectionVisibility]:
    """FULL for each opened section and the sections above it (else it would stay hidden).

    A key naming no section adds a diagnostic to ``problems`` (with the closest key).
    """
    template = prompt.template
    nodes = template.nodes
    overrides: dict[SectionPath, SectionVisibility] = {}
    for key in keys:
        node = template.find(key)
        if node is None:
            known = [n.dotted for n in nodes]
            match = next(iter(close_matches(key.lower(), known, most=1)), None)
            problems.append(
                Diagnostic(
                    f"--open {key}: the prompt has no such section."
                    + (f" Did you mean '{match}'?" if match else ""),
                    None,
                    DiagnosticCode.UNKNOWN_SECTION,
                    expected="a dotted section key: " + ", ".join(known),
                    path=prompt.source,
                )
            )
            continue
        for index in (*node.ancestors, node.index):
            overrides[nodes[index].path] = SectionVisibility.FULL
    return overrides
