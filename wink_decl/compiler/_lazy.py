"""Plugin code imported on first use: validation reads package metadata only."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from wink_decl.errors import PromptRenderError
from wink_decl.plugins import PluginLoadError, check_handler
from wink_decl.runtime.policy import PolicyDecision
from wink_decl.runtime.tool import BuiltinToolHandler
from wink_decl.runtime.tool_result import ToolResult

if TYPE_CHECKING:
    from wink_decl.plugins import PluginCatalog, PluginEntry  # types only
    from wink_decl.runtime.tool import Tool
    from wink_decl.runtime.tool_context import ToolContext

__all__ = ["LazyHandler", "LazyPolicy", "LazyPredicate"]


class LazyHandler(BuiltinToolHandler):
    """Stands in for a plugin handler until the first call imports and checks it.

    A handler that cannot be imported or has the wrong shape fails that call with a clear
    message, as any failing tool does; evaluation goes on.
    """

    __slots__ = ("_catalog", "_entry", "_loaded", "_problem", "_tool_name")

    def __init__(self, catalog: PluginCatalog, entry: PluginEntry, tool_name: str) -> None:
        """Remember what to load."""
        self._catalog = catalog
        self._entry = entry
        self._tool_name = tool_name
        self._loaded: Any = None
        self._problem: str | None = None

    @property
    def entry(self) -> PluginEntry:
        """The entry point this handler loads."""
        return self._entry

    def resolve(self) -> str | None:
        """Import and check now; the problem, or None when the handler is usable."""
        if self._loaded is None and self._problem is None:
            try:
                loaded = self._catalog.load(self._entry)
            except PluginLoadError as error:
                self._problem = str(error)
            else:
                self._problem = check_handler(loaded, name=self._tool_name, entry=self._entry)
                self._loaded = loaded if self._problem is None else None
        return self._problem

    @property
    def target(self) -> Any:
        """The imported handler (None until resolved, or when it is unusable)."""
        return self._loaded

    def __call__(self, params: Any, *, context: ToolContext) -> ToolResult[Any]:
        """Call the real handler, importing it the first time."""
        problem = self.resolve()
        if problem is not None:
            return ToolResult.error(problem)
        return self._loaded(params, context=context)


class LazyPredicate:
    """An enablement predicate from the ``wink_decl.predicates`` group, imported on first use."""

    __slots__ = ("_catalog", "_entry", "_loaded")

    def __init__(self, catalog: PluginCatalog, entry: PluginEntry) -> None:
        """Remember what to load."""
        self._catalog = catalog
        self._entry = entry
        self._loaded: Any = None

    def check(self, params: Any, session: Any) -> bool:
        """Call ``(params, *, session)``; a predicate that cannot be imported fails the render."""
        if self._loaded is None:
            try:
                self._loaded = self._catalog.load(self._entry)
            except PluginLoadError as error:
                raise PromptRenderError(str(error)) from error
        return bool(self._loaded(params, session=session))


class LazyPolicy:
    """A policy from the ``wink_decl.policies`` group: its factory is called with the config."""

    __slots__ = ("_catalog", "_config", "_entry", "_loaded")

    def __init__(self, catalog: PluginCatalog, entry: PluginEntry, config: dict[str, Any]) -> None:
        """Remember what to build."""
        self._catalog = catalog
        self._entry = entry
        self._config = config
        self._loaded: Any = None

    @property
    def name(self) -> str:
        """The entry-point name."""
        return self._entry.name

    def _policy(self) -> Any:
        if self._loaded is None:
            factory = cast("Callable[..., Any]", self._catalog.load(self._entry))
            self._loaded = factory(**self._config)
        return self._loaded

    def check(self, tool: Tool[Any, Any], params: Any, *, context: ToolContext) -> PolicyDecision:
        """Delegate to the built policy."""
        decision: PolicyDecision = self._policy().check(tool, params, context=context)
        return decision

    def on_result(
        self, tool: Tool[Any, Any], params: Any, result: ToolResult[Any], *, context: ToolContext
    ) -> None:
        """Delegate to the built policy."""
        self._policy().on_result(tool, params, result, context=context)
