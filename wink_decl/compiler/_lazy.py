"""Plugin code imported on first use: validation reads package metadata only."""

from __future__ import annotations

import inspect
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

from wink_decl.errors import PromptRenderError
from wink_decl.plugins import (
    PluginCallError,
    PluginLoadError,
    describe_exception,
    settings_misfit,
)
from wink_decl.prompt.callables import builtin_name
from wink_decl.prompt.tool import BuiltinToolHandler, Tool

if TYPE_CHECKING:
    from wink_decl.diagnostics import Diagnostic, Span
    from wink_decl.plugins import PluginCatalog, PluginEntry  # types only
    from wink_decl.prompt.policy import PolicyDecision, ToolPolicy
    from wink_decl.prompt.tool import ToolExample, ToolHandler
    from wink_decl.prompt.tool_context import ToolContext
    from wink_decl.prompt.tool_result import ToolResult

    _AnyTool = Tool[Any, Any]
else:
    _AnyTool = Tool  # Tool[Any, Any] would make a specialised subclass at run time

__all__ = ["Completion", "LazyHandler", "LazyPolicy", "LazyPredicate", "LazyTool"]

Completion = Callable[[], "tuple[Tool[Any, Any] | None, Sequence[Diagnostic]]"]
"""Imports a tool's handler and builds the typed tool: it, or None and the problems found."""
Where = Callable[[], "Span"]
"""Works out where the file named a plugin (see ``CompileContext.span_later``)."""

_set = object.__setattr__
"""How frozen runtime objects are given their fields (as their own ``__post_init__`` does)."""
_POLICY_METHODS = ("check", "on_result")
_PREDICATE = "(params, *, session)"
_PREDICATE_SHAPE = "a function (params, *, session) that returns true or false without raising"


class _PluginRef:
    """An entry point the file named, imported and checked once, on first use.

    Each kind says how the imported object becomes the one used; the answer, either way, is
    remembered. A compiled prompt is shared by every thread that uses it, so the first use is
    made under a lock: a policy factory runs once, and every thread gets the one policy.
    """

    __slots__ = (
        "_catalog",
        "_cause",
        "_entry",
        "_loaded",
        "_lock",
        "_problem",
        "_resolved",
        "_span",
        "_where",
    )

    def __init__(
        self, catalog: PluginCatalog, entry: PluginEntry, where: Where | None = None
    ) -> None:
        self._catalog = catalog
        self._entry = entry
        self._where = where
        self._span: Span | None = None
        self._loaded: object = None
        self._problem: str | None = None
        self._cause: BaseException | None = None
        self._resolved = False
        """Set last, once ``_loaded`` and ``_problem`` hold the answer: read without the lock."""
        self._lock = threading.Lock()

    @property
    def span(self) -> Span | None:
        """Where the file named the plugin, for the diagnostics of binding.

        Worked out when first asked for: a plugin that binds cleanly (most) never asks, and
        the file's source map is then never made.
        """
        where = self._where
        if where is not None:  # two threads may both work it out: the same span either way
            self._span = where()
            self._where = None
        return self._span

    def _resolve(self, build: Callable[[object], tuple[object, str | None]]) -> str | None:
        """Import now and ``build`` what is used from it; the problem, or None when usable."""
        if not self._resolved:
            with self._lock:
                # A thread that waited here finds the answer made while it waited.
                self._resolved = self._resolved or self._import(build)
        return self._problem

    @property
    def cause(self) -> BaseException | None:
        """What the plugin raised when it was imported or built (None: it did not raise)."""
        return self._cause

    def _import(self, build: Callable[[object], tuple[object, str | None]]) -> bool:
        try:
            self._loaded, self._problem = build(self._catalog.load(self._entry))
        except PluginLoadError as error:  # its import raised, or building what it gave did
            self._problem, self._cause = str(error), error.__cause__
        return True


class LazyHandler(_PluginRef, BuiltinToolHandler):
    """Stands in for a plugin handler until the first call imports and checks it.

    A handler that cannot be imported or has the wrong shape fails that call with a clear
    message, as any failing tool does; evaluation goes on.
    """

    __slots__ = ("_tool_name",)

    def __init__(
        self, catalog: PluginCatalog, entry: PluginEntry, tool_name: str, where: Where | None = None
    ) -> None:
        """Remember what to load, and how to find where the file named it."""
        super().__init__(catalog, entry, where)
        self._tool_name = tool_name

    @property
    def entry(self) -> PluginEntry:
        """The entry point this handler loads."""
        return self._entry

    def resolve(self) -> str | None:
        """Import and check now; the problem, or None when the handler is usable."""
        return self._resolve(self._checked)

    def _checked(self, imported: object) -> tuple[object, str | None]:
        # Imported here: checking a file names handlers; only binding or a call imports one.
        from wink_decl.plugins import check_handler  # noqa: PLC0415

        problem = check_handler(imported, name=self._tool_name, entry=self._entry)
        return (imported if problem is None else None), problem

    @property
    def target(self) -> object:
        """The imported handler (None until resolved, or when it is unusable)."""
        return self._loaded

    def __call__(self, params: object, *, context: ToolContext) -> ToolResult[Any]:
        """Call the real handler, importing it the first time."""
        problem = self.resolve()
        if problem is not None:
            from wink_decl.prompt.tool_result import ToolResult  # noqa: PLC0415  # calls only

            return ToolResult.error(problem)
        return cast("ToolHandler[object, object]", self._loaded)(params, context=context)


class LazyPredicate(_PluginRef):
    """An enablement predicate from the ``wink_decl.predicates`` group, imported on first use."""

    __slots__ = ()

    def resolve(self) -> str | None:
        """Import and check now; the problem, or None when the predicate is usable."""
        return self._resolve(self._checked)

    def _checked(self, imported: object) -> tuple[object, str | None]:
        problem = _predicate_problem(imported, self._entry)
        return (imported if problem is None else None), problem

    def check(self, params: object, session: object) -> bool:
        """Call ``(params, *, session)``; a predicate that cannot be used fails the render."""
        problem = self.resolve()
        if problem is not None:
            raise PromptRenderError(problem)
        try:
            answer = cast("Callable[..., object]", self._loaded)(params, session=session)
        except Exception as error:  # plugin code may raise anything: blame it, not wink-decl
            raise PluginCallError(
                error, entry=self._entry, expected=_PREDICATE_SHAPE, span=self.span
            ) from error
        return bool(answer)


class LazyPolicy(_PluginRef):
    """A policy from the ``wink_decl.policies`` group: its factory is called with the config."""

    __slots__ = ("_config",)

    def __init__(
        self,
        catalog: PluginCatalog,
        entry: PluginEntry,
        config: dict[str, object],
        where: Where | None = None,
    ) -> None:
        """Remember what to build, and how to find where the file named it."""
        super().__init__(catalog, entry, where)
        self._config = config

    @property
    def name(self) -> str:
        """The entry-point name."""
        return self._entry.name

    def resolve(self) -> str | None:
        """Import the factory and build the policy now; the problem, or None when it works."""
        return self._resolve(lambda factory: _build_policy(factory, self._config, self._entry))

    def _policy(self) -> ToolPolicy:
        problem = self.resolve()
        if problem is not None:
            # The executor turns a failing policy into a denial of that call; evaluation goes on.
            raise PluginLoadError(problem, entry=self._entry) from self._cause
        return cast("ToolPolicy", self._loaded)  # checked to have both methods when built

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
    factory: object, config: dict[str, object], entry: PluginEntry
) -> tuple[object, str | None]:
    """The policy ``factory(**config)`` builds, or why it could not be built.

    Raises:
        PluginLoadError: the factory raised (its exception is the cause).
    """
    where = f"Policy {entry.label}"
    if not callable(factory):
        return None, f"{where} is a value of type '{type(factory).__name__}', not a function."
    misfit = settings_misfit(factory, config)
    if misfit is not None:
        return None, f"{where} {misfit}"
    try:
        built = factory(**config)
    except Exception as error:  # plugin code may raise anything: say what, keep it for -v
        raise PluginLoadError(
            f"{where} refused its config: {describe_exception(error)}", entry=entry
        ) from error
    missing = [m for m in _POLICY_METHODS if not callable(getattr(built, m, None))]
    if missing:
        return (
            None,
            f"{where} built a {type(built).__name__}, which has no {' or '.join(missing)}().",
        )
    return built, None


class LazyTool(_AnyTool):
    """A tool whose params (or result) the file leaves to its handler, typed on first need.

    Compiling reads package metadata only, so these types are unknown until the handler is
    imported. ``bind`` imports it and makes the checks that need it (``bind_plugins`` calls
    it); so does the first read of ``params_type``, ``result_type`` or ``examples``, as a
    render makes. Name, description, handler, ``reads`` and ``writes`` come from the file.
    """

    __slots__ = ("_complete", "_entry", "_lock", "_problems", "_settled", "_typed", "example_count")

    example_count: int
    _entry: PluginEntry
    _complete: Completion | None
    _typed: Tool[Any, Any] | None
    _problems: tuple[Diagnostic, ...]
    _settled: bool
    _lock: threading.Lock

    def __init__(
        self,
        *,
        name: str,
        description: str,
        handler: LazyHandler,
        accepts_overrides: bool,
        reads: str | None,
        writes: str | None,
        example_count: int,
        complete: Completion,
    ) -> None:
        """Check what is known now as the runtime does (``PromptValidationError``)."""
        # A tool without params stands in: the runtime's checks of name and description.
        shell: Tool[None, object] = Tool(
            name=name,
            description=description,
            handler=handler,
            accepts_overrides=accepts_overrides,
            params_type=type(None),
        )
        # Tool is frozen: its own fields, and these, are set as its __post_init__ sets them.
        for field in ("name", "description", "handler", "accepts_overrides"):
            _set(self, field, getattr(shell, field))
        _set(self, "reads", reads)
        _set(self, "writes", writes)
        _set(self, "example_count", example_count)
        """How many examples the file gives (known without typing the tool)."""
        _set(self, "_entry", handler.entry)
        _set(self, "_complete", complete)
        _set(self, "_typed", None)
        _set(self, "_problems", ())
        _set(self, "_settled", False)  # noqa: FBT003  # setattr's value
        """Set last, once ``_typed`` and ``_problems`` hold the answer: read without the lock."""
        _set(self, "_lock", threading.Lock())

    @property
    def settled(self) -> bool:
        """True once ``bind`` has run: the types are known, or why they cannot be."""
        return self._settled

    @property
    def typed(self) -> bool:
        """True once the handler is imported and the tool typed without problems."""
        return self._typed is not None

    def bind(self) -> tuple[Diagnostic, ...]:
        """Import the handler and type the tool now (once); the problems, none when it works."""
        if not self._settled:
            with self._lock:
                if not self._settled:  # a thread that waited here finds the answer made
                    complete = self._complete
                    assert complete is not None  # noqa: S101  # dropped only once settled
                    typed, problems = complete()
                    _set(self, "_typed", typed)
                    _set(self, "_problems", tuple(problems))
                    _set(self, "_complete", None)  # let go of the file it was compiled from
                    _set(self, "_settled", True)  # noqa: FBT003  # setattr's value
        return self._problems

    # Read-only stand-ins for three of Tool's fields (the pyright ignores: a property in place
    # of a field is what it flags, and is what is meant here).
    @property
    def params_type(self) -> type[Any]:  # pyright: ignore[reportIncompatibleVariableOverride]
        """The params dataclass, from the handler unless declared (imported on first read)."""
        return self._tool().params_type

    @property
    def result_type(self) -> type[Any] | None:  # pyright: ignore[reportIncompatibleVariableOverride]
        """The result dataclass, from the handler unless declared (imported on first read)."""
        return self._tool().result_type

    @property
    def examples(self) -> Sequence[ToolExample[Any, Any]]:  # pyright: ignore[reportIncompatibleVariableOverride]
        """The examples, parsed with the tool's types (imported on first read)."""
        return self._tool().examples

    def _tool(self) -> Tool[Any, Any]:
        problems = self.bind()
        typed = self._typed
        if typed is None:
            reasons = " ".join(problem.message for problem in problems)
            raise PromptRenderError(
                f"Tool '{self.name}' takes its types from handler '{self._entry.name}', which "
                f"cannot give them: {reasons}"
            )
        return typed

    def __repr__(self) -> str:
        """Names the tool and its handler; reading the types would import the handler."""
        state = "typed" if self.typed else "untyped"
        return f"LazyTool(name={self.name!r}, handler={self._entry.reference!r}, {state})"
