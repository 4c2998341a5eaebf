"""Plugin code imported on first use: validation reads package metadata only."""

from __future__ import annotations

import inspect
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from wink_decl.errors import PromptRenderError
from wink_decl.plugins import PluginLoadError, check_handler
from wink_decl.runtime._callables import builtin_name
from wink_decl.runtime._keys import did_you_mean
from wink_decl.runtime.policy import PolicyDecision
from wink_decl.runtime.tool import BuiltinToolHandler
from wink_decl.runtime.tool_result import ToolResult

if TYPE_CHECKING:
    from wink_decl.diagnostics import Span
    from wink_decl.plugins import PluginCatalog, PluginEntry  # types only
    from wink_decl.runtime.tool import Tool
    from wink_decl.runtime.tool_context import ToolContext

__all__ = ["LazyHandler", "LazyPolicy", "LazyPredicate"]

_POLICY_METHODS = ("check", "on_result")
_PREDICATE = "(params, *, session)"
_SETTABLE = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
"""Parameters a config can set: it is passed as keyword arguments."""


class _PluginRef:
    """An entry point the file named, imported and checked once, on first use.

    Each kind says how the imported object becomes the one used; the answer, either way, is
    remembered. A compiled prompt is shared by every thread that uses it, so the first use is
    made under a lock: a policy factory runs once, and every thread gets the one policy.
    """

    __slots__ = ("_catalog", "_entry", "_loaded", "_lock", "_problem", "_resolved", "span")

    def __init__(
        self, catalog: PluginCatalog, entry: PluginEntry, span: Span | None = None
    ) -> None:
        self._catalog = catalog
        self._entry = entry
        self.span = span
        """Where the file named the plugin, for the diagnostics of binding."""
        self._loaded: Any = None
        self._problem: str | None = None
        self._resolved = False
        """Set last, once ``_loaded`` and ``_problem`` hold the answer: read without the lock."""
        self._lock = threading.Lock()

    def _resolve(self, build: Callable[[object], tuple[Any, str | None]]) -> str | None:
        """Import now and ``build`` what is used from it; the problem, or None when usable."""
        if not self._resolved:
            with self._lock:
                # A thread that waited here finds the answer made while it waited.
                self._resolved = self._resolved or self._import(build)
        return self._problem

    def _import(self, build: Callable[[object], tuple[Any, str | None]]) -> bool:
        try:
            imported = self._catalog.load(self._entry)
        except PluginLoadError as error:
            self._problem = str(error)
        else:
            self._loaded, self._problem = build(imported)
        return True


class LazyHandler(_PluginRef, BuiltinToolHandler):
    """Stands in for a plugin handler until the first call imports and checks it.

    A handler that cannot be imported or has the wrong shape fails that call with a clear
    message, as any failing tool does; evaluation goes on.
    """

    __slots__ = ("_tool_name",)

    def __init__(
        self, catalog: PluginCatalog, entry: PluginEntry, tool_name: str, span: Span | None = None
    ) -> None:
        """Remember what to load, and where the file named it."""
        super().__init__(catalog, entry, span)
        self._tool_name = tool_name

    @property
    def entry(self) -> PluginEntry:
        """The entry point this handler loads."""
        return self._entry

    def resolve(self) -> str | None:
        """Import and check now; the problem, or None when the handler is usable."""
        return self._resolve(self._checked)

    def _checked(self, imported: object) -> tuple[Any, str | None]:
        problem = check_handler(imported, name=self._tool_name, entry=self._entry)
        return (imported if problem is None else None), problem

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


class LazyPredicate(_PluginRef):
    """An enablement predicate from the ``wink_decl.predicates`` group, imported on first use."""

    __slots__ = ()

    def __init__(
        self, catalog: PluginCatalog, entry: PluginEntry, span: Span | None = None
    ) -> None:
        """Remember what to load, and where the file named it."""
        super().__init__(catalog, entry, span)

    def resolve(self) -> str | None:
        """Import and check now; the problem, or None when the predicate is usable."""
        return self._resolve(self._checked)

    def _checked(self, imported: object) -> tuple[Any, str | None]:
        problem = _predicate_problem(imported, self._entry)
        return (imported if problem is None else None), problem

    def check(self, params: Any, session: Any) -> bool:
        """Call ``(params, *, session)``; a predicate that cannot be used fails the render."""
        problem = self.resolve()
        if problem is not None:
            raise PromptRenderError(problem)
        return bool(self._loaded(params, session=session))


class LazyPolicy(_PluginRef):
    """A policy from the ``wink_decl.policies`` group: its factory is called with the config."""

    __slots__ = ("_config",)

    def __init__(
        self,
        catalog: PluginCatalog,
        entry: PluginEntry,
        config: dict[str, Any],
        span: Span | None = None,
    ) -> None:
        """Remember what to build, and where the file named it."""
        super().__init__(catalog, entry, span)
        self._config = config

    @property
    def name(self) -> str:
        """The entry-point name."""
        return self._entry.name

    def resolve(self) -> str | None:
        """Import the factory and build the policy now; the problem, or None when it works."""
        return self._resolve(lambda factory: _build_policy(factory, self._config, self._entry))

    def _policy(self) -> Any:
        problem = self.resolve()
        if problem is not None:
            # The executor turns a failing policy into a denial of that call; evaluation goes on.
            raise PluginLoadError(problem, entry=self._entry)
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


def _predicate_problem(obj: object, entry: PluginEntry) -> str | None:
    """Why ``obj`` cannot be called as ``predicate(params, *, session=...)``, or None."""
    where = f"Predicate {entry.label}"
    if not callable(obj):
        return f"{where} is a value of type '{type(obj).__name__}', not a function."
    builtin = builtin_name(obj)
    if builtin is not None:  # judged alike on every Python, whatever inspect reads from C
        return f"{where} is the builtin '{builtin}', not a function that accepts {_PREDICATE}."
    try:
        signature = inspect.signature(obj)
    except (TypeError, ValueError):
        return f"{where} has no signature that can be read; it must accept {_PREDICATE}."
    try:
        signature.bind(None, session=None)
    except TypeError:
        return f"{where} must accept {_PREDICATE}."
    return None


def _build_policy(
    factory: object, config: dict[str, Any], entry: PluginEntry
) -> tuple[Any, str | None]:
    """The policy ``factory(**config)`` builds, or why it could not be built."""
    where = f"Policy {entry.label}"
    if not callable(factory):
        return None, f"{where} is a value of type '{type(factory).__name__}', not a function."
    misfit = _config_misfit(factory, config)
    if misfit is not None:
        return None, f"{where} {misfit}"
    try:
        built = factory(**config)
    except Exception as error:  # noqa: BLE001  # plugin code may raise anything; say what
        return None, f"{where} refused its config: {type(error).__name__}: {error}"
    missing = [m for m in _POLICY_METHODS if not callable(getattr(built, m, None))]
    if missing:
        return (
            None,
            f"{where} built a {type(built).__name__}, which has no {' or '.join(missing)}().",
        )
    return built, None


def _config_misfit(factory: Callable[..., object], config: dict[str, Any]) -> str | None:
    """What in ``config`` the factory's parameters cannot take, or None when all fit.

    Checked before the call, in our own words: from 3.13 Python adds a "Did you mean" of its
    own to the TypeError of an unknown keyword, and the message must read the same on all.
    """
    parameters = _parameters(factory)
    if parameters is None:
        return None  # nothing to check against: the call itself tells
    settable = [p.name for p in parameters if p.kind in _SETTABLE]
    if not any(p.kind is p.VAR_KEYWORD for p in parameters):
        unknown = next((key for key in config if key not in settable), None)
        if unknown is not None:
            takes = ", ".join(settable) if settable else "no settings"
            suggestion = did_you_mean(unknown, settable)
            return f"has no config setting '{unknown}'; it takes {takes}.{suggestion}"
    required = [p.name for p in parameters if p.kind in _SETTABLE and p.default is p.empty]
    needed = next((name for name in required if name not in config), None)
    return None if needed is None else f"needs the config setting '{needed}'."


def _parameters(factory: Callable[..., object]) -> list[inspect.Parameter] | None:
    """The factory's parameters, or None for a builtin or a signature that cannot be read."""
    if builtin_name(factory) is not None:
        return None  # what inspect reads from C differs from one Python to the next
    try:
        return list(inspect.signature(factory).parameters.values())
    except (TypeError, ValueError):
        return None
