"""A render plan: one visibility state frozen into literal runs, slots and a tool list."""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from wink_decl.errors import PromptRenderError
from wink_decl.prompt.param_hints import ParamHint, param_hints
from wink_decl.prompt.visibility import SectionPath, SectionVisibility

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from wink_decl.prompt._params_resolver import ParamsResolver
    from wink_decl.prompt._tree import Node
    from wink_decl.prompt.text_template import Piece
    from wink_decl.prompt.tool import Tool

__all__ = ["SUMMARY_RULE", "FullRender", "Plan", "PlanBuilder", "default_suffix"]

SUMMARY_RULE = "\n\n---\n"
SECTION_SEPARATOR = "\n\n"
_NO_DESCRIPTIONS: Mapping[str, Mapping[str, ParamHint]] = MappingProxyType({})


def default_suffix(key: str, children: Sequence[str]) -> str:
    """The suffix that tells the model how to open a summarized section."""
    if children:
        return (
            f'[This section is summarized. Call `read_section` with key "{key}" to view full '
            f"content including subsections: {', '.join(children)}.]"
        )
    return (
        f'[This section is summarized. To view full content, call `read_section` with key "{key}".]'
    )


class Plan(NamedTuple):
    """Everything about a render that does not depend on parameter values.

    A named tuple, as ``Node`` is: a frozen dataclass sets each of its eight fields through
    ``object.__setattr__``, which cost as much as the rest of building a small plan.
    """

    runs: tuple[str, ...]
    """Literal text between placeholder occurrences; one more run than occurrences."""
    occurrences: tuple[int, ...]
    """For each placeholder occurrence, in order, the index of its distinct slot."""
    sources: tuple[Node, ...]
    """One node per distinct params source; slots point into this tuple."""
    slots: tuple[tuple[int, str], ...]
    """Distinct (source, field) pairs, each looked up once per render."""
    tools: tuple[Tool[Any, Any], ...]
    tool_param_descriptions: Mapping[str, Mapping[str, ParamHint]]
    section_visibility: Mapping[SectionPath, SectionVisibility]
    bare_bodies: tuple[tuple[int, int], ...] = ()
    """(first occurrence, count) of each body made of placeholders only: empty values drop it."""

    def text(self, resolver: ParamsResolver) -> str:
        """Substitute this render's values; values are data and are never substituted again."""
        runs, occurrences, sources, slots, _, _, _, bare_bodies = self
        if not occurrences:
            return runs[0]
        if len(sources) == 1:  # one params instance: most templates
            instance = resolver.instance(sources[0])
            values = [str(getattr(instance, name)) for _, name in slots]
        else:
            instances = [resolver.instance(node) for node in sources]
            values = [str(getattr(instances[s], name)) for s, name in slots]
        if len(values) == 1 and not bare_bodies:
            return values[0].join(runs)
        parts = [""] * (2 * len(runs) - 1)
        parts[::2] = runs
        parts[1::2] = [values[slot] for slot in occurrences]
        for first, count in bare_bodies:
            if not any(parts[2 * first + 1 : 2 * (first + count) : 2]):
                # The body rendered empty: the heading stands alone, without its blank line.
                parts[2 * first] = parts[2 * first][: -len(SECTION_SEPARATOR)]
        return "".join(parts)


class PlanBuilder:
    """Collects the pieces of one walk over the tree and freezes them into a ``Plan``.

    Literal text is gathered into runs as the walk goes, so freezing copies lists to tuples
    and walks nothing again.
    """

    __slots__ = (
        "_bare_bodies",
        "_hints",
        "_nodes",
        "_occurrences",
        "_run",
        "_runs",
        "_slots",
        "_source_nodes",
        "_sources",
        "_summarized",
        "_tools",
        "_visibility",
    )

    def __init__(
        self, nodes: Sequence[Node], hints: Mapping[str, Mapping[str, ParamHint]] | None = None
    ) -> None:
        """Start an empty plan over ``nodes``; ``hints`` replace tools' own parameter hints."""
        self._nodes = nodes
        self._hints = hints
        self._runs: list[str] = []
        """The finished runs: each ends where a placeholder occurs."""
        self._run: list[str] = []
        """The literal pieces since the last placeholder."""
        self._occurrences: list[int] = []
        self._sources: dict[tuple[type, int], int] = {}
        self._source_nodes: list[Node] = []
        self._slots: dict[tuple[int, str], int] = {}
        self._tools: list[Tool[Any, Any]] = []
        self._visibility: dict[SectionPath, SectionVisibility] = {}
        self._summarized = False
        self._bare_bodies: list[tuple[int, int]] = []

    def full(self, node: Node) -> None:
        """Add a section at FULL: heading, body, and its tools."""
        self._section(node, node.section.compiled_body.pieces)
        self._tools.extend(node.tools)
        self._visibility[node.path] = SectionVisibility.FULL

    def summarized(self, node: Node, children: Sequence[str]) -> None:
        """Add a section at SUMMARY: heading, summary, rule and suffix; no children, no tools."""
        section = node.section
        summary = section.summary
        if summary is None:
            raise PromptRenderError(
                f"Section '{node.dotted}' is summarized but has no summary: add a summary or "
                "keep it at full visibility.",
                section_path=node.path,
            )
        custom = section.compiled_suffix
        suffix: Sequence[Piece] = (
            (default_suffix(node.dotted, children),)
            if custom is None
            else custom.bind({"section_key": node.dotted}).pieces
        )
        self._section(node, (*summary.pieces, SUMMARY_RULE, *suffix))
        self._visibility[node.path] = SectionVisibility.SUMMARY
        self._summarized = True

    def finish(self, read_section: Tool[Any, Any] | None) -> Plan:
        """Freeze; ``read_section`` is appended when anything was summarized."""
        tools = (
            (*self._tools, read_section)
            if self._summarized and read_section
            else tuple(self._tools)
        )
        return Plan(
            runs=(*self._runs, "".join(self._run)),
            occurrences=tuple(self._occurrences),
            sources=tuple(self._source_nodes),
            slots=tuple(self._slots),
            tools=tools,
            tool_param_descriptions=_descriptions(tools, self._hints),
            section_visibility=MappingProxyType(self._visibility),
            bare_bodies=tuple(self._bare_bodies),
        )

    def _section(self, node: Node, body: Iterable[Piece]) -> None:
        run = self._run
        if self._visibility:
            run.append(SECTION_SEPARATOR)
        run.append(node.heading)
        pieces = tuple(body)
        if not pieces:
            return
        run.append(SECTION_SEPARATOR)
        slots = self._slots
        occurrences = self._occurrences
        first = len(occurrences)
        source = -1  # the node's params source: looked up at its first slot, once a section
        for piece in pieces:
            if isinstance(piece, str):
                run.append(piece)
                continue
            if source < 0:
                source = self._source(node)
            self._runs.append("".join(run))
            run.clear()
            occurrences.append(slots.setdefault((source, piece.name), len(slots)))
        found = len(occurrences) - first
        if found == len(pieces):
            # Placeholders only: when every value is empty the body is empty too.
            self._bare_bodies.append((first, found))

    def _source(self, node: Node) -> int:
        """The index of the node's params source (its type and default), added when new."""
        params_type = node.params_type
        assert params_type is not None  # noqa: S101  # construction refuses slots without params
        default = node.section.default_params
        source_key = (params_type, 0 if default is None else id(default))
        source = self._sources.get(source_key)
        if source is None:
            source = self._sources[source_key] = len(self._source_nodes)
            self._source_nodes.append(node)
        return source


class FullRender:
    """What a ``Plan`` gives, for a template whose every section is enabled at FULL: no plan.

    The renderer's answer to the first render of such a template (``Engine.plan_for``): a
    template rendered once (a file loaded, rendered and dropped) would build a plan and use it
    once, which costs three times the render. This walks the nodes instead, and gives exactly
    the text, tools and visibilities the plan would: params are resolved first, source by
    source, and each distinct (source, field) value is made a string once, in the order of
    its first occurrence, as ``Plan.text`` does.
    """

    __slots__ = ("_nodes", "section_visibility", "tool_param_descriptions", "tools")

    def __init__(
        self, nodes: Sequence[Node], hints: Mapping[str, Mapping[str, ParamHint]] | None
    ) -> None:
        """Gather the tools and visibilities of ``nodes``, every one of them shown."""
        self._nodes = nodes
        tools: list[Tool[Any, Any]] = []
        for node in nodes:
            if node.tools:
                tools.extend(node.tools)
        self.tools: tuple[Tool[Any, Any], ...] = tuple(tools)
        self.tool_param_descriptions = _descriptions(self.tools, hints)
        self.section_visibility: Mapping[SectionPath, SectionVisibility] = MappingProxyType(
            dict.fromkeys([node.path for node in nodes], SectionVisibility.FULL)
        )

    def text(self, resolver: ParamsResolver) -> str:
        """The text ``Plan.text`` gives for the state where every section is at FULL."""
        sources: dict[tuple[type | None, int], int] = {}
        instances: list[object] = []
        bodies: list[tuple[str, tuple[Piece, ...], int]] = []
        for node in self._nodes:  # every params instance first, source by source
            section = node.section
            body = section.compiled_body
            source = -1
            if body.placeholders:
                default = section.default_params
                key = (node.params_type, 0 if default is None else id(default))
                source = sources.get(key, -1)
                if source < 0:
                    source = sources[key] = len(instances)
                    instances.append(resolver.instance(node))
            bodies.append((node.heading, body.pieces, source))
        values: dict[tuple[int, str], str] = {}
        chunks: list[str] = []
        for heading, pieces, source in bodies:
            parts: list[str] = []
            for piece in pieces:
                if isinstance(piece, str):
                    parts.append(piece)
                    continue
                value = values.get((source, piece.name))
                if value is None:
                    value = values[source, piece.name] = str(getattr(instances[source], piece.name))
                parts.append(value)
            text = "".join(parts)
            # A body that renders empty (placeholders only, every value empty): the heading
            # stands alone, as in Plan.text (a literal piece is never empty).
            chunks.append(f"{heading}{SECTION_SEPARATOR}{text}" if text else heading)
        return SECTION_SEPARATOR.join(chunks)


def _descriptions(
    tools: Sequence[Tool[Any, Any]], hints: Mapping[str, Mapping[str, ParamHint]] | None
) -> Mapping[str, Mapping[str, ParamHint]]:
    if not tools:
        return _NO_DESCRIPTIONS
    given = hints or {}  # hints are given when overrides were applied (docs/overrides.md)
    return MappingProxyType(
        {tool.name: given.get(tool.name) or param_hints(tool.params_type) for tool in tools}
    )
