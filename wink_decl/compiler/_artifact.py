"""The compiled prompt as deterministic JSON: diffable, cacheable, never pickle."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from wink_decl.compiler._lazy import LazyTool
from wink_decl.prompt.template import PromptTemplate
from wink_decl.prompt.tool_schema import params_json_schema
from wink_decl.prompt.visibility import SectionVisibility
from wink_decl.version import __version__

if TYPE_CHECKING:
    from collections.abc import Sequence

    from wink_decl.compiler._lazy import LazyHandler
    from wink_decl.plugins import PluginEntry
    from wink_decl.prompt.template import Node  # the type of PromptTemplate.nodes
    from wink_decl.prompt.text_template import CompiledText
    from wink_decl.prompt.tool import Tool
    from wink_decl.schema.model import PromptDocument, ToolDoc

__all__ = ["ARTIFACT_FORMAT", "artifact_json", "build_artifact"]

ARTIFACT_FORMAT = "wink-decl.compiled/1"


def build_artifact(
    template: PromptTemplate[Any], document: PromptDocument, *, source: str, content_hash: str
) -> dict[str, object]:
    """The resolved tree, tool specs and policy table of one compiled prompt."""
    tools = {tool.name: tool for tool in template.all_tools()}
    artifact = _artifact(template, document, tools, source, content_hash)
    if template.output_type is not None:  # only when declared: older artifacts stay as they were
        artifact["output"] = params_json_schema(template.output_type)
    return artifact


def _artifact(
    template: PromptTemplate[Any],
    document: PromptDocument,
    tools: Mapping[str, Tool[Any, Any]],
    source: str,
    content_hash: str,
) -> dict[str, object]:
    return {
        "format": ARTIFACT_FORMAT,
        "wink_decl": __version__,
        "source": source,
        "content_hash": content_hash,
        "prompt": {"ns": template.ns, "key": template.key, "name": template.name},
        "params": {name: spec.as_written() for name, spec in document.params.items()},
        "sections": [_node(node) for node in template.nodes],
        "tools": {
            name: {
                "description": tool.description,
                "handler": _handler(document.tools.get(name), tool.handler),
                **_typed_parts(tool),
                "reads": tool.reads,
                "writes": tool.writes,
                "section": _owner(template.nodes, name),
            }
            for name, tool in sorted(tools.items())
        },
        "policies": {
            "prompt": [getattr(p, "name", type(p).__name__) for p in template.policies],
            "tools": {
                name: [getattr(p, "name", type(p).__name__) for p in template.policies_for(name)]
                for name in sorted(tools)
            },
        },
    }


def _handler(declared: ToolDoc | None, handler: object) -> str:
    """As written; a tool declared in an included file names its entry exactly."""
    return _entry(handler).reference if declared is None else declared.handler


def _typed_parts(tool: Tool[Any, Any]) -> dict[str, object]:
    """Parameters, result and example count; null schemas for a tool not yet typed.

    Only a ``LazyTool`` waits for its handler's types: reading them here would import it.
    """
    if isinstance(tool, LazyTool) and not tool.typed:
        return {"parameters": None, "result": None, "examples": tool.example_count}
    result = tool.result_type
    return {
        "parameters": _parameters(tool.params_type),
        "result": None if result is None else params_json_schema(result),
        "examples": len(tool.examples),
    }


def _parameters(params_type: type) -> dict[str, object]:
    """The params' JSON Schema; an empty object for a tool that takes none (``Tool[None, R]``)."""
    if params_type is type(None):
        return {"type": "object", "properties": {}, "additionalProperties": False}
    return params_json_schema(params_type)


def artifact_json(artifact: Mapping[str, object]) -> str:
    """Canonical text: sorted keys, two-space indent, a final newline; strict JSON.

    NaN and infinity raise ``ValueError`` instead of being written as ``NaN``, which no JSON
    reader takes (the compiler refuses them in prompt files, so none should arrive here).
    """
    return (
        json.dumps(artifact, indent=2, sort_keys=True, ensure_ascii=False, allow_nan=False) + "\n"
    )


def _node(node: Node) -> dict[str, object]:
    section = node.section
    visibility = section.visibility
    enabled = section.enabled
    return {
        "number": node.number,
        "path": node.dotted,
        "title": section.title,
        "template": section.template,
        "summary": None if section.summary is None else _summary_text(section.summary),
        "visibility": visibility.value
        if isinstance(visibility, SectionVisibility)
        else "conditional",
        "enabled": enabled if isinstance(enabled, bool) else "conditional",
        "tools": [tool.name for tool in node.tools],
        "policies": [getattr(p, "name", type(p).__name__) for p in section.policies],
    }


def _entry(handler: object) -> PluginEntry:
    return cast("LazyHandler", handler).entry  # every compiled tool's handler is lazy


def _summary_text(summary: CompiledText) -> str:
    return "".join(p if isinstance(p, str) else "${" + p.name + "}" for p in summary.pieces)


def _owner(nodes: Sequence[Node], tool_name: str) -> str:
    return next(node.dotted for node in nodes if any(t.name == tool_name for t in node.tools))
