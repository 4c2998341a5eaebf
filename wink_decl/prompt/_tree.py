"""The section tree flattened depth-first into numbered, addressed nodes, built once."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, cast

from wink_decl.errors import PromptValidationError
from wink_decl.prompt._predicates import Predicate
from wink_decl.prompt.keys import dotted
from wink_decl.prompt.section import Section
from wink_decl.prompt.tool import RESERVED_TOOL_NAMES, Tool
from wink_decl.prompt.visibility import SectionPath, SectionVisibility

__all__ = ["Node", "flatten"]


class Node(NamedTuple):
    """One section at its place in one template (a section object may sit in several).

    A named tuple: every template builds one per section, and a tuple is the cheapest
    immutable record to build (a frozen dataclass sets each field through
    ``object.__setattr__``, which cost more than the rest of flattening a small tree).
    """

    # The field hides tuple.index(), which nothing asks a node for.
    index: int  # pyright: ignore[reportIncompatibleMethodOverride]
    section: Section[Any]
    path: SectionPath
    dotted: str
    number: str
    depth: int
    heading: str
    end: int
    """Index just past this node's last descendant: skipping a subtree is ``i = node.end``."""
    ancestors: tuple[int, ...]
    """Indices of the ancestors, nearest first."""
    children: tuple[int, ...]
    tools: tuple[Tool[Any, Any], ...]
    params_type: type | None
    base_enabled: bool
    """The constant enablement, or True when a callable decides (it is then in ``dynamic``)."""
    base_visibility: SectionVisibility
    enabled_predicate: Predicate | None
    visibility_predicate: Predicate | None

    @property
    def is_dynamic(self) -> bool:
        """True when a callable decides enablement or visibility at render time."""
        return self.enabled_predicate is not None or self.visibility_predicate is not None


def flatten(sections: Sequence[Section[Any]]) -> tuple[Node, ...]:
    """Number and address every section depth-first, refusing duplicate sibling keys."""
    nodes: list[Node | None] = []
    _add_level(nodes, sections, ancestors=(), path=(), prefix="")
    flat = cast("tuple[Node, ...]", tuple(nodes))  # every reserved slot is filled by now
    _check_tool_names(flat)
    return flat


def _add_level(
    nodes: list[Node | None],
    sections: Sequence[Section[Any]],
    *,
    ancestors: tuple[int, ...],
    path: SectionPath,
    prefix: str,
) -> tuple[int, ...]:
    seen: set[str] = set()
    indices: list[int] = []
    for position, section in enumerate(sections, start=1):
        if not isinstance(section, Section):  # pyright: ignore[reportUnnecessaryIsInstance]  # untyped callers
            where = f"under '{dotted(path)}'" if path else "at the top level"
            raise PromptValidationError(
                f"Expected a Section {where}, got {type(section).__qualname__}.", section_path=path
            )
        key = section.key
        if key in seen:
            raise PromptValidationError(
                f"Duplicate section key '{dotted((*path, key))}': sibling keys must be unique.",
                section_path=(*path, key),
            )
        seen.add(key)
        indices.append(_add_node(nodes, section, ancestors, (*path, key), f"{prefix}{position}"))
    return tuple(indices)


def _add_node(
    nodes: list[Node | None],
    section: Section[Any],
    ancestors: tuple[int, ...],
    path: SectionPath,
    number: str,
) -> int:
    index = len(nodes)
    nodes.append(None)  # reserve the slot; children are numbered after their parent
    # One call for everything the node copies: a property call apiece cost more than the rest.
    (
        title,
        sections,
        tools,
        params_type,
        base_enabled,
        base_visibility,
        enabled_predicate,
        visibility_predicate,
    ) = section.tree_parts()
    depth = len(path) - 1
    dotted_path = ".".join(path)
    children = (
        _add_level(nodes, sections, ancestors=(index, *ancestors), path=path, prefix=f"{number}.")
        if sections
        else ()  # most sections are leaves
    )
    # tuple.__new__, not Node(...): the named tuple's own __new__ is a Python call of sixteen
    # arguments, which cost a third of making a node.
    nodes[index] = _new_node(
        Node,
        (
            index,
            section,
            path,
            dotted_path,
            number,
            depth,
            f"{'#' * (depth + 2)} {number}. {title} ({dotted_path})",  # heading
            len(nodes),  # end
            ancestors,
            children,
            tools,
            params_type,
            base_enabled,
            base_visibility,
            enabled_predicate,
            visibility_predicate,
        ),
    )
    return index


_new_node: Callable[[type[Node], tuple[object, ...]], Node] = tuple.__new__  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]


def _check_tool_names(nodes: tuple[Node, ...]) -> None:
    """Tool names are unique across the whole template, disabled sections included."""
    owners: dict[str, str] = {}
    for node in nodes:
        for tool in node.tools:
            if tool.name in RESERVED_TOOL_NAMES:
                raise PromptValidationError(
                    f"Tool name '{tool.name}' in section '{node.dotted}' is reserved by wink-decl.",
                    section_path=node.path,
                )
            first = owners.get(tool.name)
            owners[tool.name] = node.dotted
            if first is not None:
                where = (
                    f"twice in section '{first}'"
                    if first == node.dotted
                    else f"in sections '{first}' and '{node.dotted}'"
                )
                raise PromptValidationError(
                    f"Duplicate tool name '{tool.name}' {where}: tool names must be unique "
                    "across the prompt.",
                    section_path=node.path,
                )
