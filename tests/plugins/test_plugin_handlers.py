"""check_handler (whole texts), handler_params_type and handler_result_type."""

# No `from __future__ import annotations`: the signatures in the expected messages show the
# annotations as written, and some handlers below need real (or deliberately broken) ones.
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from wink_decl import ToolContext, ToolResult
from wink_decl.plugins import (
    HANDLERS,
    PluginEntry,
    check_handler,
    handler_params_type,
    handler_result_type,
)
from wink_decl.plugins._annotations import namespace_of
from wink_decl.runtime.planning import SetupPlan
from wink_decl.runtime.planning.plan_model import Plan
from wink_decl.runtime.planning.tools import SETUP_PLAN_TOOL

ENTRY = PluginEntry(HANDLERS, "files.read_file", "pkg.mod:func", "wink-decl-files", "1.0.0")
HANDLER = (
    "Handler 'files.read_file' (wink-decl-files 1.0.0, value 'pkg.mod:func') for tool 'read_file'"
)
PREFIX = f"{HANDLER} must have the signature (params, *, context)"
BUILTIN = HANDLER + " is the builtin '{}', not a function with the signature (params, *, context)."


@dataclass(frozen=True)
class Params:
    path: str


@dataclass(frozen=True)
class Result:
    text: str


class NotADataclass:
    pass


def good(params: Params, *, context: ToolContext) -> ToolResult[Result]:
    return ToolResult.ok(Result(params.path))


def positional_context(path: str, context: ToolContext) -> None:
    pass


def wrong_keyword(params: Params, *, ctx: ToolContext) -> None:
    pass


def one_argument(params: Params) -> None:
    pass


def keyword_only(*, context: ToolContext) -> None:
    pass


def extra_keyword(params: Params, *, context: ToolContext, verbose: bool = False) -> None:
    pass


def unannotated(params: Params, *, context: ToolContext) -> None:
    pass


unannotated.__annotations__.clear()


def plain_params(params: NotADataclass, *, context: ToolContext) -> ToolResult[NotADataclass]:
    return ToolResult.ok(params)


def unresolvable(params: Params, *, context: ToolContext) -> ToolResult[Result]:
    raise NotImplementedError


# Names that exist nowhere, as a module importing them only under TYPE_CHECKING would leave.
unresolvable.__annotations__.update({"params": "Missing", "return": "ToolResult[AlsoMissing]"})


def bare_result(params: Params, *, context: ToolContext) -> ToolResult[Result]:
    return ToolResult.ok(Result(params.path))


bare_result.__annotations__["return"] = ToolResult  # a bare ToolResult, without [Result]


def scalar_result(params: Params, *, context: ToolContext) -> ToolResult[str]:
    return ToolResult.ok(params.path)


def plain_return(params: Params, *, context: ToolContext) -> Result:
    return Result(params.path)


def no_params(params: None, *, context: ToolContext) -> ToolResult[Result]:
    return ToolResult.ok(Result("."))


def quoted_no_params(params: "None", *, context: ToolContext) -> ToolResult[Result]:
    return ToolResult.ok(Result("."))


class CallableHandler:
    def __call__(self, params: Params, *, context: ToolContext) -> ToolResult[Result]:
        return ToolResult.ok(Result(params.path))


class Stray:
    """An object whose module is not imported: its annotations have nowhere to resolve."""

    def __call__(self, params: "Params", *, context: ToolContext) -> "ToolResult[Result]":
        raise NotImplementedError


Stray.__module__ = "nowhere_at_all"


class Unreadable:
    """A callable whose signature cannot be read: its ``__signature__`` is not a Signature."""

    __signature__ = "not a signature"

    def __call__(self, params: Params, *, context: ToolContext) -> None:
        pass


def test_a_good_handler_has_no_problem() -> None:
    assert check_handler(good, name="read_file", entry=ENTRY) is None
    assert check_handler(CallableHandler(), name="read_file", entry=ENTRY) is None
    assert check_handler(SETUP_PLAN_TOOL.handler, name="read_file", entry=ENTRY) is None


@pytest.mark.parametrize(
    ("handler", "message"),
    [
        (
            positional_context,
            f"{PREFIX}; positional_context has (path: str, context: "
            "wink_decl.prompt.tool_context.ToolContext) -> None.",
        ),
        (
            wrong_keyword,
            f"{PREFIX}; wrong_keyword has (params: {__name__}.Params, *, "
            "ctx: wink_decl.prompt.tool_context.ToolContext) -> None.",
        ),
        (
            keyword_only,
            f"{PREFIX}; keyword_only has (*, context: "
            "wink_decl.prompt.tool_context.ToolContext) -> None.",
        ),
        (
            extra_keyword,
            f"{PREFIX}; extra_keyword has (params: {__name__}.Params, *, "
            "context: wink_decl.prompt.tool_context.ToolContext, verbose: bool = False) -> None.",
        ),
        (
            one_argument,
            f"{PREFIX}; one_argument has (params: {__name__}.Params) -> None.",
        ),
        (42, f"{PREFIX.replace('must have', 'must be a callable with')}."),
        (Unreadable(), f"{PREFIX.replace('must have', 'must be a callable with')}."),
        (int, BUILTIN.format("int")),
        (functools.partial(print, end=""), BUILTIN.format("print")),
    ],
    ids=[
        "context-positional",
        "context-misnamed",
        "no-params",
        "extra-keyword",
        "no-context",
        "not-callable",
        "no-signature",
        "builtin",
        "builtin-in-a-partial",
    ],
)
def test_check_handler_names_the_entry_point_and_the_signature_it_has(
    handler: object, message: str
) -> None:
    assert check_handler(handler, name="read_file", entry=ENTRY) == message


@pytest.mark.parametrize(
    ("handler", "params", "result"),
    [
        (good, Params, Result),
        (CallableHandler(), Params, Result),
        (no_params, type(None), Result),
        (quoted_no_params, type(None), Result),
        (SETUP_PLAN_TOOL.handler, SetupPlan, Plan),
        (positional_context, None, None),
        (keyword_only, None, None),
        (unannotated, None, None),
        (plain_params, None, None),
        (unresolvable, None, None),
        (bare_result, Params, None),
        (scalar_result, Params, None),
        (plain_return, Params, None),
        (Stray(), None, None),
        (42, None, None),
        (int, None, None),
    ],
    ids=[
        "function",
        "callable-object",
        "params-annotated-none",
        "params-annotated-none-as-text",
        "future-annotations-and-type-checking-imports",
        "str-params-no-tool-result",
        "no-positional-parameter",
        "unannotated",
        "not-dataclasses",
        "unresolvable-names",
        "bare-tool-result",
        "tool-result-of-str",
        "result-not-tool-result",
        "module-not-imported",
        "not-callable",
        "no-signature",
    ],
)
def test_params_and_result_types_come_from_the_annotations(
    handler: object, params: type | None, result: type | None
) -> None:
    assert (handler_params_type(handler), handler_result_type(handler)) == (params, result)


def test_annotations_resolve_in_the_globals_of_the_function_or_its_module() -> None:
    assert namespace_of(good) is globals()
    assert namespace_of(CallableHandler()) is globals()
    assert namespace_of(Stray()) == {}


def test_a_wrapped_function_resolves_in_the_wrapped_functions_globals() -> None:
    wrapper: Callable[..., Any] = eval("lambda params, *, context: None", {})  # noqa: S307  # a function whose own globals are empty
    wrapper.__wrapped__ = good  # pyright: ignore[reportFunctionMemberAccess]
    assert namespace_of(wrapper) is globals()
