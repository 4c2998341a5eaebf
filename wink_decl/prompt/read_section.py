"""The built-in ``read_section`` tool: open a summarized section and reveal its tools."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, cast

from wink_decl.prompt._params_resolver import ParamsResolver
from wink_decl.prompt.tool import BuiltinToolHandler, Tool
from wink_decl.prompt.tool_result import ToolResult
from wink_decl.prompt.visibility import SectionPath
from wink_decl.suggestions import did_you_mean_sentence

if TYPE_CHECKING:
    from wink_decl.prompt._renderer import Engine
    from wink_decl.prompt.tool_context import ToolContext

__all__ = ["ReadSectionParams", "ReadSectionResult", "make_read_section_tool"]

READ_SECTION_DESCRIPTION = "Read the full content of a summarized section."


@dataclass(slots=True, frozen=True)
class ReadSectionParams:
    """Arguments of ``read_section``."""

    section_key: str = field(
        metadata={
            "description": (
                "Key of the section to read, as shown in its summary. Nested sections use "
                "dot notation (e.g. 'context.examples')."
            )
        }
    )


@dataclass(slots=True, frozen=True)
class ReadSectionResult:
    """The section at full visibility, and the tools it brings with it."""

    content: str
    expanded_tools: tuple[Tool[Any, Any], ...] = ()
    """Tools to offer from now on: those a render adds once ``expanded_sections`` are FULL."""
    expanded_sections: tuple[SectionPath, ...] = ()
    """The read section and its summarized ancestors, root first, when tools were revealed:
    the session shows these at FULL so that every later render offers ``expanded_tools``."""

    def render(self) -> str:
        """The model reads the section's content; tools travel out of band."""
        return self.content


class ReadSectionHandler(BuiltinToolHandler):
    """Reads sections of one template, at the visibility of the call's render and session."""

    __slots__ = ("_engine", "_template_label")

    def __init__(self, engine: Engine, template_label: str) -> None:
        """Serve reads for the template whose renderer is ``engine``."""
        self._engine = engine
        self._template_label = template_label

    def __call__(
        self, params: ReadSectionParams, *, context: ToolContext
    ) -> ToolResult[ReadSectionResult]:
        """Return the section rendered at FULL, or a failed result naming close keys."""
        prompt = context.prompt
        if prompt.template.engine is not self._engine:
            return ToolResult.error(
                f"read_section belongs to prompt '{self._template_label}', not to "
                f"'{prompt.template.label}'."
            )
        rendered = context.rendered_prompt
        overrides = None if rendered is None else rendered.visibility_overrides
        resolver = ParamsResolver(prompt.params, prompt.template.defaults)
        key = params.section_key.strip().lower()
        found = self._engine.read(key, overrides, resolver, context.session)
        if found is None:
            keys = self._engine.readable_keys(resolver, context.session)
            suggestion = did_you_mean_sentence(key, keys)
            message = f"Unknown section key: '{params.section_key}'"
            return ToolResult.error(f"{message}.{suggestion}" if suggestion else message)
        message = (
            "Section is already expanded."
            if found.already_expanded
            else f"Content of section '{key}':"
        )
        return ToolResult.ok(ReadSectionResult(found.content, found.tools, found.sections), message)


_PROTOTYPE: Tool[ReadSectionParams, ReadSectionResult] = Tool[ReadSectionParams, ReadSectionResult](
    name="read_section",
    description=READ_SECTION_DESCRIPTION,
    handler=ReadSectionHandler(cast("Engine", None), ""),
    accepts_overrides=False,
)
"""Built and checked once. Every template that summarizes a section needs its own copy (its
handler reads that template), and checking the same constants again would cost more than
the rest of building the tool."""

_SLOTS = tuple(getattr(type(_PROTOTYPE), f.name) for f in fields(_PROTOTYPE))


def make_read_section_tool(
    engine: Engine, template_label: str
) -> Tool[ReadSectionParams, ReadSectionResult]:
    """The ``read_section`` tool of one template: the checked prototype with its own handler."""
    tool = object.__new__(type(_PROTOTYPE))
    for slot in _SLOTS:
        slot.__set__(tool, slot.__get__(_PROTOTYPE))
    object.__setattr__(tool, "handler", ReadSectionHandler(engine, template_label))
    return tool
