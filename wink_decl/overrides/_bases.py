"""What a template lets override files replace: each part's base text, or why it may not."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from wink_decl.compiler import LazyTool
from wink_decl.json_path import JSONPath
from wink_decl.prompt.param_hints import ParamHint, param_hints
from wink_decl.prompt.tool import RESERVED_TOOL_NAMES

if TYPE_CHECKING:
    from wink_decl.prompt.template import PromptTemplate
    from wink_decl.prompt.tool import Tool

__all__ = ["Base", "Bases", "bases_of", "hint_text"]


@dataclass(frozen=True, slots=True)
class Base:
    """The text an entry at one path replaces, and why it may not be replaced (or None)."""

    text: str
    refusal: str | None = None


@dataclass(frozen=True, slots=True)
class Bases:
    """Every overridable part of one template by its path in an override file."""

    parts: dict[JSONPath, Base]
    sections: tuple[str, ...]
    """Dotted keys of every section."""
    tools: dict[str, Tool[Any, Any]]
    params: dict[str, tuple[str, ...] | None]
    """Each tool's parameters; None for a tool whose types its handler gives and which has
    not been imported (``validate`` imports no plugin code), whose entries are not checked."""


def hint_text(hint: ParamHint, part: str) -> str:
    """The text of one part of a parameter's hint; a required parameter's default is ""."""
    if part == "description":
        return hint.description
    if part == "type":
        return hint.type
    return hint.default or ""


def bases_of(template: PromptTemplate[Any]) -> Bases:
    """What ``template`` lets override files replace (docs/overrides.md)."""
    parts: dict[JSONPath, Base] = {}
    tools: dict[str, Tool[Any, Any]] = {}
    params: dict[str, tuple[str, ...] | None] = {}
    for node in template.nodes:
        section = node.section
        refusal = (
            None
            if section.accepts_overrides
            else f"Section '{node.dotted}' does not accept overrides (accepts_overrides: false)."
        )
        where = ("sections", node.dotted)
        parts[(*where, "template")] = Base(section.template, refusal)
        if section.summary_text is not None:
            parts[(*where, "summary")] = Base(section.summary_text, refusal)
        parts[(*where, "visibility")] = Base(node.base_visibility.value, refusal)
        for tool in node.tools:
            tools[tool.name] = tool
            params[tool.name] = _add_tool(
                parts, tool, refusal and _in_refusing(tool.name, node.dotted)
            )
    read_section = template.engine.read_section_tool
    if read_section is not None:
        tools[read_section.name] = read_section
        params[read_section.name] = _add_tool(parts, read_section, None)
    return Bases(parts, tuple(node.dotted for node in template.nodes), tools, params)


def _in_refusing(name: str, section: str) -> str:
    return (
        f"Tool '{name}' belongs to section '{section}', which does not accept overrides "
        "(accepts_overrides: false)."
    )


def _refusal(tool: Tool[Any, Any], inherited: str | None) -> str | None:
    if tool.name in RESERVED_TOOL_NAMES:
        return f"Tool '{tool.name}' is wink-decl's own: it is never overridden."
    if not tool.accepts_overrides:
        return f"Tool '{tool.name}' does not accept overrides (accepts_overrides: false)."
    return inherited


def _add_tool(
    parts: dict[JSONPath, Base], tool: Tool[Any, Any], inherited: str | None
) -> tuple[str, ...] | None:
    refusal = _refusal(tool, inherited)
    where = ("tools", tool.name)
    parts[(*where, "description")] = Base(tool.description, refusal)
    if isinstance(tool, LazyTool) and not tool.typed:
        return None  # its params come from its handler, which is not imported here
    hints = param_hints(tool.params_type)
    for name, hint in hints.items():
        for part in ("description", "type", "default"):
            parts[(*where, "params", name, part)] = Base(hint_text(hint, part), refusal)
    return tuple(hints)
