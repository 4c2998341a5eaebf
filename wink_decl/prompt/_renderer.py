"""The renderer: visibility state per render, cached format plans, ``read_section`` reads."""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from wink_decl.errors import PromptRenderError
from wink_decl.prompt._plan import FullRender, Plan, PlanBuilder
from wink_decl.prompt._tree import Node
from wink_decl.prompt.visibility import SectionPath, SectionVisibility
from wink_decl.suggestions import did_you_mean_sentence

if TYPE_CHECKING:
    from wink_decl.prompt._params_resolver import ParamsResolver
    from wink_decl.prompt.context_protocols import SessionView
    from wink_decl.prompt.param_hints import ParamHint
    from wink_decl.prompt.tool import Tool

__all__ = ["Engine", "Overrides", "SectionRead", "State"]

State = dict[int, tuple[bool, SectionVisibility]]
"""Nodes whose (enabled, visibility) differ from their constant base, by index."""

Overrides = Mapping[SectionPath, SectionVisibility] | Mapping[str, SectionVisibility]

_PlanKey = tuple[tuple[int, tuple[bool, SectionVisibility]], ...]

_FULL = SectionVisibility.FULL
_SUMMARY = SectionVisibility.SUMMARY
_PLAN_CACHE_SIZE = 256
_PLANS_LOCK = threading.Lock()
"""Taken only to add a plan, by every engine: a lock of its own cost each template as much as
a tenth of its first render, and adding a plan is rare and quick."""
_EVERYWHERE = 1 << 30
"""A summary depth no tree reaches: every ancestor may be summarized."""


class SectionRead:
    """What ``read_section`` found: the content, what it reveals, and whether it was open.

    ``tools`` are the tools a render offers once ``sections`` are shown at FULL and that the
    current render does not offer; ``sections`` are the read section and its summarized
    ancestors (root first), which the session must show at FULL for those tools to be
    offered. Both are empty when the sections the read shows at full carry no tools.
    """

    __slots__ = ("already_expanded", "content", "sections", "tools")

    def __init__(
        self,
        content: str,
        tools: tuple[Tool[Any, Any], ...] = (),
        sections: tuple[SectionPath, ...] = (),
        *,
        already: bool = False,
    ) -> None:
        """Record one read."""
        self.content = content
        self.tools = tools
        self.sections = sections
        self.already_expanded = already


class Engine:
    """Renders one template; plans are cached per visibility state."""

    __slots__ = (
        "_plans",
        "_walk_first",
        "by_dotted",
        "by_path",
        "dynamic",
        "nodes",
        "param_hints",
        "read_section_tool",
    )

    def __init__(self, nodes: tuple[Node, ...], read_section: Tool[Any, Any] | None) -> None:
        """Index the nodes; ``read_section`` is appended whenever a section is summarized."""
        self.nodes = nodes
        self.read_section_tool = read_section
        self.param_hints: Mapping[str, Mapping[str, ParamHint]] | None = None
        """Tools' parameter hints as overrides replaced them; set before the first render."""
        by_path: dict[SectionPath, int] = {}
        by_dotted: dict[str, int] = {}
        dynamic: list[int] = []
        every_full = True
        for node in nodes:  # one pass: a template is built once per file
            index = node.index
            by_path[node.path] = by_dotted[node.dotted] = index
            # node.is_dynamic, without a property call per node
            if node.enabled_predicate is not None or node.visibility_predicate is not None:
                dynamic.append(index)
            elif not node.base_enabled or node.base_visibility is not _FULL:
                every_full = False
        self.by_path = by_path
        self.by_dotted = by_dotted
        self.dynamic: tuple[int, ...] = tuple(dynamic)
        self._walk_first = every_full and not dynamic
        """True until the first render of a template whose every section is at FULL, which
        walks the nodes instead of building a plan (``FullRender``)."""
        self._plans: dict[_PlanKey, Plan] = {}
        """Read without a lock; added to under ``_PLANS_LOCK``."""

    # -- the hot path -----------------------------------------------------------------------

    def plan_for(
        self, overrides: Overrides | None, session: SessionView | None, resolver: ParamsResolver
    ) -> Plan | FullRender:
        """The plan for this render's visibility state, built once per distinct state.

        The first render of a template whose every section is at FULL takes no plan: a
        ``FullRender`` gives the same (a template rendered once never builds one).
        """
        session_overrides = None if session is None else session.visibility_overrides
        if overrides or session_overrides or self.dynamic:
            chosen = self.override_indices(overrides, session_overrides)
            return self._plan_of(self.state(chosen, resolver, session))
        plan = self._plans.get(())
        if plan is not None:
            return plan
        if self._walk_first:  # two threads may both walk: each gets the same answer
            self._walk_first = False
            return FullRender(self.nodes, self.param_hints)
        return self._add_plan(())

    def _add_plan(self, key: _PlanKey) -> Plan:
        """Build the plan for ``key`` and keep it, evicting the oldest when the cache is full.

        Building needs no lock (it only reads the tree); keeping it does, so two threads never
        evict the same entry or iterate the dict while another changes it. Whoever stores
        first wins, so every render of one state shares one plan.
        """
        built = self._build(dict(key), 0, len(self.nodes), focus=None)
        with _PLANS_LOCK:
            if len(self._plans) >= _PLAN_CACHE_SIZE and key not in self._plans:
                del self._plans[next(iter(self._plans))]
            return self._plans.setdefault(key, built)

    # -- visibility state ---------------------------------------------------------------------

    def override_indices(
        self,
        overrides: Overrides | None,
        session_overrides: Mapping[SectionPath, SectionVisibility] | None,
    ) -> dict[int, SectionVisibility]:
        """Overrides by node index; the session's win over the render's.

        An unknown path given to render is a caller's mistake; the session may hold
        overrides for other prompts, so its unknown paths are ignored.
        """
        chosen: dict[int, SectionVisibility] = {}
        for path, visibility in (overrides or {}).items():
            chosen[self._index_of(path)] = _check_override(path, visibility)
        for path, visibility in (session_overrides or {}).items():
            index = self.by_path.get(path)
            if index is not None:
                chosen[index] = visibility
        return chosen

    def state(
        self,
        overrides: Mapping[int, SectionVisibility],
        resolver: ParamsResolver,
        session: SessionView | None,
        *,
        focus: int | None = None,
    ) -> State:
        """Evaluate callables and overrides where they can matter.

        Enablement is decided for sections that are shown or listed in a parent's summary
        (with ``focus``, for the whole subtree being read); visibility for shown ones only.
        """
        nodes = self.nodes
        if focus is None:
            watch = sorted({*self.dynamic, *overrides})
            enabled_depth = 1
        else:
            stop = nodes[focus].end
            watch = [i for i in sorted({*self.dynamic, *overrides}) if focus <= i < stop]
            enabled_depth = _EVERYWHERE
        state: State = {}
        for index in watch:
            node = nodes[index]
            if not self._ancestors_allow(node, state, focus, enabled_depth):
                continue
            enabled = self._enabled(node, resolver, session)
            visibility = node.base_visibility
            if enabled and self._ancestors_allow(node, state, focus, 0):
                visibility = overrides.get(index) or self._visibility(node, resolver, session)
            if enabled is not node.base_enabled or visibility is not node.base_visibility:
                state[index] = (enabled, visibility)
        return state

    def _ancestors_allow(
        self, node: Node, state: State, focus: int | None, summarized_allowed: int
    ) -> bool:
        """All ancestors enabled, and none summarized except the nearest ``summarized_allowed``."""
        nodes = self.nodes
        for position, index in enumerate(node.ancestors):
            enabled, visibility = state.get(index) or (
                nodes[index].base_enabled,
                nodes[index].base_visibility,
            )
            if not enabled:
                return False
            if index == focus:
                return True
            if visibility is _SUMMARY and position >= summarized_allowed:
                return False
        return True

    @staticmethod
    def _enabled(node: Node, resolver: ParamsResolver, session: SessionView | None) -> bool:
        predicate = node.enabled_predicate
        if predicate is None:
            return node.base_enabled
        params = resolver.instance(node) if predicate.takes_params else None
        return bool(predicate(params, session))

    @staticmethod
    def _visibility(
        node: Node, resolver: ParamsResolver, session: SessionView | None
    ) -> SectionVisibility:
        predicate = node.visibility_predicate
        if predicate is None:
            return node.base_visibility
        params = resolver.instance(node) if predicate.takes_params else None
        value = predicate(params, session)
        if not isinstance(value, SectionVisibility):
            raise PromptRenderError(
                f"The visibility callable of section '{node.dotted}' returned {value!r}; "
                "return SectionVisibility.FULL or SectionVisibility.SUMMARY.",
                section_path=node.path,
            )
        return value

    def _index_of(self, path: object) -> int:
        key = _path_key(path)
        index = self.by_path.get(key)  # pyright: ignore[reportArgumentType]
        if index is None:
            shown = ".".join(key) if isinstance(key, tuple) else repr(key)  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
            raise PromptRenderError(
                f"visibility_overrides names an unknown section '{shown}'."
                f"{did_you_mean_sentence(shown, self.by_dotted)}",  # pyright: ignore[reportUnknownArgumentType]
                section_path=key if isinstance(key, tuple) else (),  # pyright: ignore[reportUnknownArgumentType]
            )
        return index

    # -- plans -----------------------------------------------------------------------------

    def _effective(self, state: State, index: int) -> tuple[bool, SectionVisibility]:
        node = self.nodes[index]
        return state.get(index) or (node.base_enabled, node.base_visibility)

    def _build(self, state: State, start: int, stop: int, *, focus: int | None) -> Plan:
        """Walk the nodes once under ``state`` and freeze the result into a plan."""
        nodes = self.nodes
        builder = PlanBuilder(nodes, self.param_hints)
        index = start
        while index < stop:
            node = nodes[index]
            if index in state:
                enabled, visibility = state[index]
            else:  # most nodes keep their constant base: no tuple made for them
                enabled, visibility = node.base_enabled, node.base_visibility
            if not enabled:
                index = node.end
            elif visibility is _SUMMARY and index != focus:
                builder.summarized(node, self._listed_children(node, state))
                index = node.end
            else:
                builder.full(node)
                index += 1
        return builder.finish(self.read_section_tool)

    def _listed_children(self, node: Node, state: State) -> Sequence[str]:
        return [
            self.nodes[child].section.key
            for child in node.children
            if self._effective(state, child)[0]
        ]

    # -- read_section ------------------------------------------------------------------------

    def read(
        self,
        key: str,
        overrides: Overrides | None,
        resolver: ParamsResolver,
        session: SessionView | None,
    ) -> SectionRead | None:
        """Render one section at FULL for ``read_section``; None when it is unknown or disabled.

        Descendants keep their own visibility in the content: a summarized child stays a
        summary, and its tools stay hidden until it is read in turn. When the sections shown
        at full carry tools, the read asks for the section and its summarized ancestors to be
        shown at FULL, and reveals every tool that the render of that state adds, so that a
        fresh render from a session holding those overrides offers exactly what was revealed.
        """
        index = self.by_dotted.get(key)
        if index is None or not self._enabled_chain(index, resolver, session):
            return None
        session_overrides = None if session is None else session.visibility_overrides
        chosen = self.override_indices(overrides, session_overrides)
        current = self.state(chosen, resolver, session)
        node = self.nodes[index]
        focused = self._build(
            self.state(chosen, resolver, session, focus=index), index, node.end, focus=index
        )
        content = focused.text(resolver)
        if self._shown(index, current):
            return SectionRead(content, already=True)
        if not any(tool is not self.read_section_tool for tool in focused.tools):
            return SectionRead(content)
        expand = (
            *(i for i in reversed(node.ancestors) if self._effective(current, i)[1] is _SUMMARY),
            index,
        )
        opened = self.state({**chosen, **dict.fromkeys(expand, _FULL)}, resolver, session)
        offered = set(self._plan_of(current).tools)
        revealed = tuple(t for t in self._plan_of(opened).tools if t not in offered)
        return SectionRead(content, revealed, tuple(self.nodes[i].path for i in expand))

    def _plan_of(self, state: State) -> Plan:
        """The cached plan of a whole-template state (what ``plan_for`` would find)."""
        key = tuple(state.items())
        plan = self._plans.get(key)
        return self._add_plan(key) if plan is None else plan

    def readable_keys(self, resolver: ParamsResolver, session: SessionView | None) -> list[str]:
        """Dotted keys a model may read: every section whose chain is enabled."""
        return [
            node.dotted for node in self.nodes if self._enabled_chain(node.index, resolver, session)
        ]

    def _enabled_chain(
        self, index: int, resolver: ParamsResolver, session: SessionView | None
    ) -> bool:
        node = self.nodes[index]
        return all(
            self._enabled(self.nodes[i], resolver, session)
            for i in (*reversed(node.ancestors), index)
        )

    def _shown(self, index: int, state: State) -> bool:
        node = self.nodes[index]
        return all(self._effective(state, i) == (True, _FULL) for i in (index, *node.ancestors))


def _path_key(path: object) -> object:
    """A dotted string or a tuple of keys, lower-cased like section keys are."""
    if isinstance(path, str):
        return tuple(path.lower().split("."))
    if isinstance(path, tuple):
        parts = cast("tuple[object, ...]", path)
        return tuple(part.lower() if isinstance(part, str) else part for part in parts)
    return path


def _check_override(path: object, visibility: object) -> SectionVisibility:
    if not isinstance(visibility, SectionVisibility):
        raise PromptRenderError(
            f"visibility_overrides[{path!r}] must be a SectionVisibility, got {visibility!r}."
        )
    return visibility
