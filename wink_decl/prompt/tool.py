"""``Tool`` and ``ToolExample``: typed, validated descriptions of what a model may call."""

from __future__ import annotations

import dataclasses
import inspect
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar, cast

from wink_decl.errors import PromptValidationError
from wink_decl.prompt._generic import is_specialised, specialise
from wink_decl.prompt.callables import builtin_name
from wink_decl.suggestions import did_you_mean_sentence

if TYPE_CHECKING:
    from collections.abc import Sequence

    from wink_decl.prompt.tool_context import ToolContext
    from wink_decl.prompt.tool_result import ToolResult

__all__ = [
    "RESERVED_TOOL_NAMES",
    "BuiltinToolHandler",
    "Tool",
    "ToolExample",
    "ToolHandler",
]

ParamsT = TypeVar("ParamsT")
ResultT = TypeVar("ResultT")
ParamsT_contra = TypeVar("ParamsT_contra", contravariant=True)
ResultT_co = TypeVar("ResultT_co", covariant=True)

_NONE_TYPE: type[None] = type(None)
TOOL_NAME_PATTERN = re.compile(r"^[a-z0-9_-]{1,64}$")
RESERVED_TOOL_NAMES = frozenset({"read_section"})
_DESCRIPTION_LIMIT = 200


class ToolHandler(Protocol[ParamsT_contra, ResultT_co]):
    """The one handler signature: ``(params, *, context) -> ToolResult``."""

    def __call__(
        self, params: ParamsT_contra, *, context: ToolContext
    ) -> ToolResult[ResultT_co]:  # pragma: no cover - protocol
        """Run the tool."""
        ...


class BuiltinToolHandler:
    """Marker base for handlers wink-decl itself provides (they may use reserved names)."""


@dataclass(frozen=True)  # not slotted, like ToolResult: ToolExample[P, R](...) must work
class ToolExample(Generic[ParamsT, ResultT]):
    """One worked call: what the model sends and what it gets back."""

    description: str
    input: ParamsT
    output: ResultT


@dataclass(slots=True, frozen=True, eq=False)
class Tool(Generic[ParamsT, ResultT]):
    """A callable affordance: name, description, params/result dataclasses, handler.

    Write ``Tool[Params, Result](name=..., description=..., handler=...)``, or pass
    ``params_type=`` / ``result_type=`` when the types are built at run time. A tool that
    takes no arguments is ``Tool[None, Result]`` (its ``params_type`` is ``type(None)``): it
    is offered with an empty parameters object and its handler receives ``None``.

    ``reads`` / ``writes`` name the params field that holds the path of a file the tool
    reads or changes, so file policies (``ReadBeforeWritePolicy``) cover it whatever its name.
    """

    name: str
    description: str
    handler: ToolHandler[ParamsT, ResultT] | None = None
    examples: Sequence[ToolExample[ParamsT, ResultT]] = ()
    accepts_overrides: bool = True
    params_type: type[ParamsT] = field(default=cast("type[Any]", None))  # set in __post_init__
    result_type: type[ResultT] | None = None
    reads: str | None = None
    """The params field naming a file this tool reads, or None."""
    writes: str | None = None
    """The params field naming a file this tool creates or changes, or None."""

    _generic_params: ClassVar[object] = None
    _generic_result: ClassVar[object] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:  # noqa: D105
        if not is_specialised(cls):  # Tool[P, R] has Generic's work done (_generic.py)
            super(Tool, cls).__init_subclass__(**kwargs)  # not super(): see __class_getitem__

    def __class_getitem__(cls, items: object) -> object:  # noqa: D105
        params, result = items if isinstance(items, tuple) else (items, None)  # pyright: ignore[reportUnknownVariableType]
        if params is None:  # Tool[None, R]: a tool that takes no params
            params = _NONE_TYPE
        if isinstance(params, TypeVar) or isinstance(result, TypeVar):  # generic subclassing
            # super(Tool, cls), not super(): slots=True rebuilds the class, so the __class__
            # cell the bare form reads is stale. (Generic.__class_getitem__ is a C method
            # from Python 3.12 on, so it cannot be called through __func__ either.)
            return super(Tool, cls).__class_getitem__(items)  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType, reportUnknownVariableType]
        return specialise(cls, ("_generic_params", "_generic_result"), (params, result))  # pyright: ignore[reportUnknownArgumentType]

    def __post_init__(self) -> None:
        """Normalise and validate; every failure names the tool."""
        set_ = object.__setattr__
        set_(self, "name", _check_name(self.name, self.handler))
        set_(self, "description", _check_description(self.name, self.description))
        set_(
            self,
            "params_type",
            _resolve_type(self, "params", self.params_type, self._generic_params),
        )
        result_type = _resolve_type(self, "result", self.result_type, self._generic_result)
        set_(self, "result_type", None if result_type is _NONE_TYPE else result_type)
        set_(self, "examples", tuple(self.examples))
        for role, field_name in (("reads", self.reads), ("writes", self.writes)):
            if field_name is not None:
                _check_path_field(self, role, field_name)
        if self.handler is not None:
            _check_handler(self.name, self.handler)
        for index, example in enumerate(self.examples, start=1):
            _check_example(self, index, example)


def _check_name(name: str, handler: object) -> str:
    if not isinstance(name, str) or not TOOL_NAME_PATTERN.fullmatch(name):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise PromptValidationError(
            f"Tool name '{name}' is invalid: use 1-64 lowercase letters, digits, '_' or '-'."
        )
    if name in RESERVED_TOOL_NAMES and not isinstance(handler, BuiltinToolHandler):
        raise PromptValidationError(
            f"Tool name '{name}' is reserved by wink-decl: choose another name."
        )
    return name


def _check_description(name: str, description: str) -> str:
    text = description.strip() if isinstance(description, str) else ""  # pyright: ignore[reportUnnecessaryIsInstance]
    if not 1 <= len(text) <= _DESCRIPTION_LIMIT:
        raise PromptValidationError(
            f"Tool '{name}' description must be 1-{_DESCRIPTION_LIMIT} characters after "
            f"stripping; it has {len(text)}."
        )
    if not text.isascii():
        bad = next(char for char in text if not char.isascii())
        raise PromptValidationError(
            f"Tool '{name}' description must be ASCII; it contains {bad!r}."
        )
    return text


def _resolve_type(tool: Tool[Any, Any], role: str, explicit: object, generic: object) -> object:
    """Pick the params/result type from ``Tool[P, R]`` or the keyword, refusing a conflict."""
    if explicit is not None and generic is not None and explicit is not generic:
        raise PromptValidationError(
            f"Tool '{tool.name}' declares {role} type {_name(generic)} in Tool[...] but "
            f"{role}_type={_name(explicit)}: give one.",
        )
    chosen = explicit if explicit is not None else generic
    if role == "params" and chosen is None:
        raise PromptValidationError(
            f"Tool '{tool.name}' has no params type: write Tool[Params, Result](...) or pass "
            "params_type= (Tool[None, Result] for a tool that takes no arguments).",
        )
    if chosen is not None and chosen is not _NONE_TYPE and not _is_dataclass_type(chosen):
        raise PromptValidationError(
            f"Tool '{tool.name}' {role} type must be a dataclass, got {_name(chosen)}.",
            dataclass_type=chosen if isinstance(chosen, type) else None,
        )
    return chosen


def _is_dataclass_type(value: object) -> bool:
    return isinstance(value, type) and dataclasses.is_dataclass(value)


def _name(value: object) -> str:
    return getattr(value, "__qualname__", None) or repr(value)


def _check_handler(name: str, handler: object) -> None:
    """Refuse anything but ``(params, *, context)``; the message shows what was given."""
    if isinstance(handler, BuiltinToolHandler):
        return  # wink-decl's own handlers have the shape by construction (and tests)
    builtin = builtin_name(handler)
    if builtin is not None:  # C code: inspect reads its parameters differently per Python
        raise PromptValidationError(
            f"Tool '{name}' handler is the builtin '{builtin}'; wrap it in a Python function "
            "with the signature (params, *, context)."
        )
    try:
        signature = inspect.signature(handler)  # pyright: ignore[reportArgumentType]
    except (TypeError, ValueError):
        raise PromptValidationError(
            f"Tool '{name}' handler must be a callable with the signature (params, *, context)."
        ) from None
    parameters = list(signature.parameters.values())
    kinds = [(p.kind, p.name) for p in parameters]
    good = (
        len(parameters) == 2  # noqa: PLR2004
        and kinds[0][0]
        in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        and kinds[1] == (inspect.Parameter.KEYWORD_ONLY, "context")
    )
    if not good:
        label = getattr(handler, "__qualname__", type(handler).__qualname__)
        raise PromptValidationError(
            f"Tool '{name}' handler must have the signature (params, *, context); "
            f"{label} has {signature}."
        )
    if _is_async(handler):
        label = getattr(handler, "__qualname__", type(handler).__qualname__)
        raise PromptValidationError(
            f"Tool '{name}' handler is an async function ({label}); handlers are called "
            "synchronously, inside the executor's deadline and transaction (docs/runtime.md). "
            "Define it with def, and run any coroutine it needs inside it (asyncio.run)."
        )


def _is_async(handler: object) -> bool:
    """True for ``async def`` functions and objects whose ``__call__`` is one.

    Called synchronously they return a coroutine, never a ``ToolResult``: refused up front,
    since awaiting them would let the call outlive its deadline and its rollback.
    """
    call = getattr(type(handler), "__call__", None)  # noqa: B004  # the class's own method
    return inspect.iscoroutinefunction(handler) or (
        not inspect.isroutine(handler) and inspect.iscoroutinefunction(call)
    )


def _check_example(tool: Tool[Any, Any], index: int, example: object) -> None:
    where = f"Tool '{tool.name}' example {index}"
    if not isinstance(example, ToolExample):
        raise PromptValidationError(f"{where} must be a ToolExample, got {_name(type(example))}.")
    checked = cast("ToolExample[object, object]", example)
    description = checked.description.strip() if isinstance(checked.description, str) else ""  # pyright: ignore[reportUnnecessaryIsInstance]
    if not 1 <= len(description) <= _DESCRIPTION_LIMIT:
        raise PromptValidationError(
            f"{where}: description must be 1-{_DESCRIPTION_LIMIT} characters after stripping."
        )
    _check_instance(where, "input", checked.input, tool.params_type)
    _check_instance(where, "output", checked.output, tool.result_type)


def _check_instance(where: str, role: str, value: object, expected: type | None) -> None:
    if expected is None or expected is _NONE_TYPE:
        if value is not None:
            reason = "takes no params" if role == "input" else "has no result type"
            raise PromptValidationError(
                f"{where}: {role} must be None (the tool {reason}), got {_name(type(value))}."
            )
        return
    if not isinstance(value, expected):
        raise PromptValidationError(
            f"{where}: {role} must be a {_name(expected)}, got {_name(type(value))}.",
            dataclass_type=expected,
        )


def _check_path_field(tool: Tool[Any, Any], role: str, field_name: str) -> None:
    """``reads``/``writes`` must name a field of the params dataclass."""
    params_type = tool.params_type
    names = (
        [] if params_type is _NONE_TYPE else [f.name for f in dataclasses.fields(params_type)]  # pyright: ignore[reportArgumentType]
    )
    if field_name in names:
        return
    if not names:
        raise PromptValidationError(
            f"Tool '{tool.name}' {role} the file named by field '{field_name}', but it takes "
            "no params: give it a params dataclass with that field."
        )
    raise PromptValidationError(
        f"Tool '{tool.name}' {role} the file named by field '{field_name}', which "
        f"{_name(params_type)} does not have (its fields: {', '.join(names)})."
        f"{did_you_mean_sentence(field_name, names)}",
        dataclass_type=params_type,
    )
