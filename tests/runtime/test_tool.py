"""Tool, ToolExample, ToolResult, ToolContext, ResourceRegistry and PolicyDecision."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from wink_decl import (
    InMemoryFilesystem,
    MarkdownSection,
    PolicyDecision,
    Prompt,
    PromptTemplate,
    PromptValidationError,
    ResourceRegistry,
    Session,
    Tool,
    ToolContext,
    ToolExample,
    ToolResult,
)
from wink_decl.prompt.tool import BuiltinToolHandler
from wink_decl.prompt.tool_schema import to_openai_tools

SIGNATURE = "must have the signature (params, *, context)"


@dataclass(frozen=True)
class Params:
    query: str = "wink"
    limit: int = 3


@dataclass(frozen=True)
class Result:
    hits: int = 0


@dataclass(frozen=True)
class Other:
    value: str = ""


def loose(value: object) -> Any:
    """Hand a deliberately wrong value to a typed parameter."""
    return value


def one_argument(handler: Callable[[Params], object]) -> Any:
    """A lambda of the wrong shape, typed so pyright knows its parameter."""
    return handler


def lookup(
    name: str = "lookup", description: str = "Look up.", **kwargs: Any
) -> Tool[Params, Result]:
    """``Tool[Params, Result]`` with a name and description unless given."""
    return Tool[Params, Result](name=name, description=description, **kwargs)


def make_context(*resources: object, heartbeat: Callable[[], None] | None = None) -> ToolContext:
    prompt: Prompt[Any] = Prompt(PromptTemplate(ns="tests", key="tools"), resources=resources)
    return ToolContext(
        prompt=prompt, rendered_prompt=None, adapter=None, session=Session(), heartbeat=heartbeat
    )


# --- types -----------------------------------------------------------------------------------


def test_generic_form_records_the_types() -> None:
    tool = lookup()
    assert (tool.params_type, tool.result_type) == (Params, Result)
    assert isinstance(tool, Tool)
    assert Tool[Params, Result] is Tool[Params, Result]


def test_explicit_form_records_the_types() -> None:
    tool: Tool[Params, Result] = Tool(
        name="lookup", description="Look up.", params_type=Params, result_type=Result
    )
    assert (tool.params_type, tool.result_type) == (Params, Result)
    assert type(tool) is Tool


def test_generic_and_explicit_forms_may_agree() -> None:
    tool = lookup(params_type=Params, result_type=Result)
    assert (tool.params_type, tool.result_type) == (Params, Result)


@pytest.mark.parametrize(
    "build",
    [
        lambda: loose(Tool)[Params](name="lookup", description="d"),
        lambda: Tool[Params, None](name="lookup", description="d"),
        lambda: loose(Tool)(name="lookup", description="d", params_type=Params),
        lambda: loose(Tool)(
            name="lookup", description="d", params_type=Params, result_type=type(None)
        ),
    ],
    ids=["one-argument", "result-none", "explicit-params-only", "explicit-none-type"],
)
def test_result_type_may_be_absent(build: Callable[[], Tool[Params, Any]]) -> None:
    tool = build()
    assert (tool.params_type, tool.result_type) == (Params, None)


@pytest.mark.parametrize(
    ("build", "message", "dataclass_type"),
    [
        (
            lambda: lookup(params_type=Other),
            "Tool 'lookup' declares params type Params in Tool[...] but params_type=Other: "
            "give one.",
            None,
        ),
        (
            lambda: lookup(result_type=Other),
            "Tool 'lookup' declares result type Result in Tool[...] but result_type=Other: "
            "give one.",
            None,
        ),
        (
            lambda: loose(Tool)(name="lookup", description="d"),
            "Tool 'lookup' has no params type: write Tool[Params, Result](...) or pass "
            "params_type= (Tool[None, Result] for a tool that takes no arguments).",
            None,
        ),
        (
            lambda: loose(Tool)[int, Result](name="lookup", description="d"),
            "Tool 'lookup' params type must be a dataclass, got int.",
            int,
        ),
        (
            lambda: loose(Tool)(name="lookup", description="d", params_type=Params()),
            "Tool 'lookup' params type must be a dataclass, got Params(query='wink', limit=3).",
            None,
        ),
        (
            lambda: loose(Tool)[Params, list[int]](name="lookup", description="d"),
            "Tool 'lookup' result type must be a dataclass, got list.",
            None,
        ),
    ],
    ids=[
        "params-conflict",
        "result-conflict",
        "no-params-type",
        "params-not-dataclass",
        "params-is-an-instance",
        "result-not-dataclass",
    ],
)
def test_types_are_refused(
    build: Callable[[], object], message: str, dataclass_type: type | None
) -> None:
    with pytest.raises(PromptValidationError) as excinfo:
        build()
    assert str(excinfo.value) == message
    assert excinfo.value.dataclass_type is dataclass_type
    assert excinfo.value.section_path == ()


# --- tools without params ----------------------------------------------------------------------


def report(params: None, *, context: ToolContext) -> ToolResult[Result]:
    return ToolResult.ok(Result(hits=0 if params is None else 1))


@pytest.mark.parametrize(
    "build",
    [
        lambda: Tool[None, Result](name="status", description="Status.", handler=report),
        lambda: Tool(
            name="status",
            description="Status.",
            params_type=type(None),
            result_type=Result,
            handler=report,
        ),
    ],
    ids=["generic", "keyword"],
)
def test_a_tool_may_take_no_params(build: Callable[[], Tool[None, Result]]) -> None:
    tool = build()
    assert (tool.params_type, tool.result_type) == (type(None), Result)
    assert to_openai_tools([tool]) == [
        {
            "type": "function",
            "function": {
                "name": "status",
                "description": "Status.",
                "parameters": {"type": "object", "properties": {}, "additionalProperties": False},
            },
        }
    ]
    template = PromptTemplate(
        ns="tests", key="status", sections=[MarkdownSection(title="T", key="t", tools=[tool])]
    )
    assert dict(template.render().tool_param_descriptions) == {"status": {}}


def test_a_tool_without_params_takes_examples_with_no_input() -> None:
    example = ToolExample(description="Check.", input=None, output=Result(1))
    tool = Tool[None, Result](name="status", description="Status.", examples=[example])
    assert tool.examples == (example,)
    with pytest.raises(PromptValidationError) as info:
        Tool[None, Result](
            name="status",
            description="Status.",
            examples=loose([ToolExample(description="Check.", input=Params(), output=Result())]),
        )
    assert str(info.value) == (
        "Tool 'status' example 1: input must be None (the tool takes no params), got Params."
    )


# --- files a tool reads or writes --------------------------------------------------------------


@dataclass(frozen=True)
class Patch:
    target: str
    text: str = ""


def test_reads_and_writes_name_params_fields() -> None:
    tool = Tool[Patch, None](name="patch", description="Patch.", reads="target", writes="target")
    assert (tool.reads, tool.writes) == ("target", "target")
    assert (lookup().reads, lookup().writes) == (None, None)


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (
            lambda: Tool[Patch, None](name="patch", description="Patch.", writes="path"),
            "Tool 'patch' writes the file named by field 'path', which Patch does not have (its "
            "fields: target, text).",
        ),
        (
            lambda: Tool[Patch, None](name="patch", description="Patch.", reads="targte"),
            "Tool 'patch' reads the file named by field 'targte', which Patch does not have (its "
            "fields: target, text). Did you mean 'target'?",
        ),
        (
            lambda: Tool[None, None](name="patch", description="Patch.", writes="path"),
            "Tool 'patch' writes the file named by field 'path', but it takes no params: give it "
            "a params dataclass with that field.",
        ),
    ],
    ids=["unknown-field", "suggestion", "no-params"],
)
def test_reads_and_writes_must_name_a_field(build: Callable[[], object], message: str) -> None:
    with pytest.raises(PromptValidationError) as info:
        build()
    assert str(info.value) == message


# --- name and description --------------------------------------------------------------------


def test_description_is_stripped_and_defaults_are_kept() -> None:
    tool = lookup(description="\n  Look up documents by query.  \t")
    assert tool.description == "Look up documents by query."
    assert (tool.handler, tool.examples, tool.accepts_overrides) == (None, (), True)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            " lookup",
            "Tool name ' lookup' is invalid: use 1-64 lowercase letters, digits, '_' or '-'.",
        ),
        (
            "look up",
            "Tool name 'look up' is invalid: use 1-64 lowercase letters, digits, '_' or '-'.",
        ),
        (
            "read_section",
            "Tool name 'read_section' is reserved by wink-decl: choose another name.",
        ),
    ],
    ids=["leading-space", "inner-space", "reserved"],
)
def test_names_are_refused(name: str, message: str) -> None:
    with pytest.raises(PromptValidationError) as excinfo:
        lookup(name=name)
    assert str(excinfo.value) == message


class BuiltinHandler(BuiltinToolHandler):
    def __call__(self, params: Params, *, context: ToolContext) -> ToolResult[Result]:
        return ToolResult.ok(Result(hits=params.limit), context.prompt.name)


def test_builtin_handlers_may_use_the_reserved_name() -> None:
    tool = lookup(name="read_section", handler=BuiltinHandler())
    assert tool.name == "read_section"


@pytest.mark.parametrize(
    "name",
    ["lookup", "web-search_2", "0", "_", "t" * 64],
    ids=["word", "mixed", "digit", "underscore", "64-chars"],
)
def test_valid_names(name: str) -> None:
    assert lookup(name=name).name == name


# --- examples --------------------------------------------------------------------------------


def test_valid_examples_become_a_tuple() -> None:
    first = ToolExample("Search for wink.", Params(), Result(hits=2))
    second = ToolExample("d" * 200, Params(query="x", limit=1), Result())
    tool = lookup(examples=[first, second])
    assert tool.examples == (first, second)


def test_example_output_is_none_without_result_type() -> None:
    example: ToolExample[Params, None] = ToolExample("No result.", Params(), None)
    tool = Tool[Params, None](name="notify", description="Notify.", examples=[example])
    assert tool.examples == (example,)


GOOD = ToolExample("Fine.", Params(), Result())


@pytest.mark.parametrize(
    ("examples", "message", "dataclass_type"),
    [
        (
            [("Search.", Params(), Result())],
            "Tool 'lookup' example 1 must be a ToolExample, got tuple.",
            None,
        ),
        (
            [ToolExample(" \n ", Params(), Result())],
            "Tool 'lookup' example 1: description must be 1-200 characters after stripping.",
            None,
        ),
        (
            [GOOD, ToolExample("d" * 201, Params(), Result())],
            "Tool 'lookup' example 2: description must be 1-200 characters after stripping.",
            None,
        ),
        (
            [ToolExample("Wrong input.", Other(), Result())],
            "Tool 'lookup' example 1: input must be a Params, got Other.",
            Params,
        ),
        (
            [ToolExample("No input.", None, Result())],
            "Tool 'lookup' example 1: input must be a Params, got NoneType.",
            Params,
        ),
        (
            [GOOD, GOOD, ToolExample("Wrong output.", Params(), Other())],
            "Tool 'lookup' example 3: output must be a Result, got Other.",
            Result,
        ),
        (
            [ToolExample("No output.", Params(), None)],
            "Tool 'lookup' example 1: output must be a Result, got NoneType.",
            Result,
        ),
    ],
    ids=[
        "not-an-example",
        "blank-description",
        "long-description",
        "wrong-input",
        "missing-input",
        "wrong-output",
        "missing-output",
    ],
)
def test_examples_are_refused(
    examples: list[object], message: str, dataclass_type: type | None
) -> None:
    with pytest.raises(PromptValidationError) as excinfo:
        lookup(examples=loose(examples))
    assert str(excinfo.value) == message
    assert excinfo.value.dataclass_type is dataclass_type


def test_example_output_is_refused_without_result_type() -> None:
    with pytest.raises(PromptValidationError) as excinfo:
        Tool[Params, None](
            name="notify", description="d", examples=[loose(ToolExample("x", Params(), Result()))]
        )
    assert str(excinfo.value) == (
        "Tool 'notify' example 1: output must be None (the tool has no result type), got Result."
    )


# --- handlers --------------------------------------------------------------------------------


def plain_handler(params: Params, *, context: ToolContext) -> ToolResult[Result]:
    return ToolResult.ok(Result(hits=params.limit), f"found in {context.prompt.name}")


def positional_only(params: Params, /, *, context: ToolContext) -> ToolResult[Result]:
    return ToolResult.ok(Result(hits=params.limit), f"found in {context.prompt.name}")


class Handlers:
    def search(self, params: Params, *, context: ToolContext) -> ToolResult[Result]:
        return ToolResult.ok(Result(hits=params.limit), f"found in {context.prompt.name}")

    def no_context(self, params: Params) -> ToolResult[Result]:
        return ToolResult.ok(Result(hits=params.limit), "found")


class CallableHandler:
    def __call__(self, params: Params, *, context: ToolContext) -> ToolResult[Result]:
        return ToolResult.ok(Result(hits=params.limit), f"found in {context.prompt.name}")


class CallableWithoutContext:
    def __call__(self, params: Params) -> ToolResult[Result]:
        return ToolResult.ok(Result(hits=params.limit), "found")


@pytest.mark.parametrize(
    "handler",
    [plain_handler, positional_only, Handlers().search, CallableHandler()],
    ids=["function", "positional-only", "bound-method", "callable-object"],
)
def test_accepted_handlers(handler: Callable[..., ToolResult[Result]]) -> None:
    tool = lookup(handler=handler)
    assert tool.handler is handler
    assert tool.handler is not None
    assert tool.handler(Params(limit=4), context=make_context()) == ToolResult.ok(
        Result(hits=4), "found in tools"
    )


def star_args(*args: object) -> None: ...


def star_args_and_kwargs(*args: object, **kwargs: object) -> None: ...


def extra_positional(params: Params, extra: int, *, context: ToolContext) -> None: ...


def missing_context(params: Params) -> None: ...


def context_positional(params: Params, context: ToolContext) -> None: ...


def context_misnamed(params: Params, *, ctx: ToolContext) -> None: ...


def extra_keyword(params: Params, *, context: ToolContext, retries: int = 0) -> None: ...


def no_params(*, context: ToolContext) -> None: ...


def var_keyword(params: Params, **kwargs: object) -> None: ...


@pytest.mark.parametrize(
    ("handler", "shown"),
    [
        (one_argument(lambda params: params), "<lambda> has (params)"),
        (star_args, "star_args has (*args: 'object') -> 'None'"),
        (
            star_args_and_kwargs,
            "star_args_and_kwargs has (*args: 'object', **kwargs: 'object') -> 'None'",
        ),
        (
            extra_positional,
            "extra_positional has (params: 'Params', extra: 'int', *, context: 'ToolContext') "
            "-> 'None'",
        ),
        (missing_context, "missing_context has (params: 'Params') -> 'None'"),
        (
            context_positional,
            "context_positional has (params: 'Params', context: 'ToolContext') -> 'None'",
        ),
        (
            context_misnamed,
            "context_misnamed has (params: 'Params', *, ctx: 'ToolContext') -> 'None'",
        ),
        (
            extra_keyword,
            "extra_keyword has (params: 'Params', *, context: 'ToolContext', "
            "retries: 'int' = 0) -> 'None'",
        ),
        (no_params, "no_params has (*, context: 'ToolContext') -> 'None'"),
        (var_keyword, "var_keyword has (params: 'Params', **kwargs: 'object') -> 'None'"),
        (
            Handlers().no_context,
            "Handlers.no_context has (params: 'Params') -> 'ToolResult[Result]'",
        ),
        (
            CallableWithoutContext(),
            "CallableWithoutContext has (params: 'Params') -> 'ToolResult[Result]'",
        ),
    ],
    ids=[
        "lambda-one-argument",
        "star-args",
        "star-args-and-kwargs",
        "extra-positional",
        "missing-context",
        "context-not-keyword-only",
        "context-misnamed",
        "extra-keyword-only",
        "no-params",
        "var-keyword",
        "bound-method",
        "callable-object",
    ],
)
def test_handler_signatures_are_refused(handler: object, shown: str) -> None:
    with pytest.raises(PromptValidationError) as excinfo:
        lookup(handler=loose(handler))
    assert str(excinfo.value) == f"Tool 'lookup' handler {SIGNATURE}; {shown}."


def test_handler_that_is_not_callable_is_refused() -> None:
    with pytest.raises(PromptValidationError) as excinfo:
        lookup(handler=loose(42))
    assert str(excinfo.value) == (
        "Tool 'lookup' handler must be a callable with the signature (params, *, context)."
    )


@pytest.mark.parametrize("handler", [range, bool, len], ids=["range", "bool", "len"])
def test_builtin_handlers_are_refused_alike_on_every_python(handler: object) -> None:
    with pytest.raises(PromptValidationError) as excinfo:
        lookup(handler=loose(handler))
    name = getattr(handler, "__qualname__", "")
    assert str(excinfo.value) == (
        f"Tool 'lookup' handler is the builtin '{name}'; wrap it in a Python function with the "
        "signature (params, *, context)."
    )


# --- ToolResult ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hit:
    title: str
    url: str | None = None


@dataclass(frozen=True)
class Page:
    hits: tuple[Hit, ...]
    total: int
    cursor: str | None = None
    tags: list[str] = field(default_factory=list[str])


@dataclass(frozen=True)
class Summary:
    count: int

    def render(self) -> str:
        return f"{self.count} documents"


@dataclass(frozen=True)
class BadRender:
    count: int

    def render(self) -> object:
        return self.count


def test_constructor_defaults() -> None:
    result: ToolResult[Result] = ToolResult("Done.")
    assert (result.message, result.value, result.success, result.exclude_value_from_context) == (
        "Done.",
        None,
        True,
        False,
    )


def test_ok_and_error_factories() -> None:
    assert ToolResult.ok(Result(hits=1), "Found one.") == ToolResult(
        message="Found one.", value=Result(hits=1), success=True
    )
    assert ToolResult.ok(Result()).message == ""
    assert ToolResult.error("No index.") == ToolResult(
        message="No index.", value=None, success=False
    )


def test_result_is_frozen() -> None:
    result = ToolResult.ok(Result())
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.success = False  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]


@pytest.mark.parametrize(
    ("result", "text"),
    [
        (ToolResult[Any]("Nothing."), ""),
        (ToolResult.error("Failed."), ""),
        (ToolResult.ok(Summary(3), "Counted."), "3 documents"),
        (
            ToolResult.ok(Page(hits=(Hit("Caf\u00e9", "https://x.test"), Hit("B")), total=2)),
            '{"hits": [{"title": "Caf\u00e9", "url": "https://x.test"}, {"title": "B"}], '
            '"total": 2, "tags": []}',
        ),
        (
            ToolResult("Hidden.", value=Result(hits=1), exclude_value_from_context=True),
            '{"hits": 1}',
        ),
    ],
    ids=[
        "no-value",
        "error",
        "own-render",
        "dataclass-json-without-none",
        "excluded-still-renders",
    ],
)
def test_render(result: ToolResult[Any], text: str) -> None:
    assert result.render() == text


def test_render_refuses_a_non_string_render() -> None:
    with pytest.raises(TypeError) as excinfo:
        ToolResult.ok(BadRender(3)).render()
    assert str(excinfo.value) == "BadRender.render() must return str, got int."


# --- ToolContext -----------------------------------------------------------------------------


class Filesystem:
    pass


class MemoryFilesystem(Filesystem):
    pass


class Clock:
    pass


def test_context_resources_are_the_prompts() -> None:
    filesystem = Filesystem()
    context = make_context(filesystem)
    assert context.resources is context.prompt.resources
    assert context.resources.get(Filesystem) is filesystem


def test_beat_calls_the_heartbeat_each_time() -> None:
    beats: list[None] = []
    context = make_context(heartbeat=lambda: beats.append(None))
    context.beat()
    context.beat()
    assert len(beats) == 2


def test_beat_without_heartbeat_does_nothing() -> None:
    context = make_context()
    context.beat()
    assert context.heartbeat is None


def test_context_filesystem_is_the_filesystem_resource_or_none() -> None:
    filesystem = InMemoryFilesystem()
    assert make_context(filesystem).filesystem is filesystem
    assert make_context(Clock()).filesystem is None


def test_context_is_frozen() -> None:
    context = make_context()
    with pytest.raises(dataclasses.FrozenInstanceError):
        context.adapter = "other"  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]


# --- ResourceRegistry ------------------------------------------------------------------------


def test_get_returns_the_registered_instance() -> None:
    filesystem, clock = Filesystem(), Clock()
    registry = ResourceRegistry([filesystem, clock])
    assert registry.get(Filesystem) is filesystem
    assert registry.get(Clock) is clock
    assert registry.get_optional(Clock) is clock


def test_lookup_by_base_class_finds_a_subclass() -> None:
    memory = MemoryFilesystem()
    registry = ResourceRegistry([Clock(), memory])
    assert registry.get(Filesystem) is memory
    assert registry.get_optional(Filesystem) is memory


def test_exact_type_wins_over_an_earlier_subclass() -> None:
    memory, filesystem = MemoryFilesystem(), Filesystem()
    registry = ResourceRegistry([memory, filesystem])
    assert registry.get(Filesystem) is filesystem
    assert registry.get(MemoryFilesystem) is memory


def test_get_optional_returns_none_when_missing() -> None:
    assert ResourceRegistry([Clock()]).get_optional(Filesystem) is None


@pytest.mark.parametrize(
    ("resources", "message"),
    [
        ([], "No Filesystem resource is registered (available: none)."),
        (
            [Clock(), Params()],
            "No Filesystem resource is registered (available: Clock, Params).",
        ),
    ],
    ids=["empty", "lists-what-exists"],
)
def test_missing_resource_message(resources: list[object], message: str) -> None:
    with pytest.raises(LookupError) as excinfo:
        ResourceRegistry(resources).get(Filesystem)
    assert str(excinfo.value) == message


def test_two_resources_of_one_type_are_refused() -> None:
    with pytest.raises(ValueError, match=r"^") as excinfo:
        ResourceRegistry([Filesystem(), Clock(), Filesystem()])
    assert str(excinfo.value) == "Two resources of type Filesystem were given; pass one."


def test_iteration_and_len_follow_registration_order() -> None:
    clock, memory, filesystem = Clock(), MemoryFilesystem(), Filesystem()
    registry = ResourceRegistry(iter([clock, memory, filesystem]))
    assert list(registry) == [clock, memory, filesystem]
    assert len(registry) == 3
    assert len(ResourceRegistry()) == 0


def test_prompt_wraps_resources_in_a_registry() -> None:
    template: PromptTemplate[Any] = PromptTemplate(ns="tests", key="tools")
    clock = Clock()
    assert list(Prompt(template, resources=[clock]).resources) == [clock]
    registry = ResourceRegistry([clock])
    assert Prompt(template, resources=registry).resources is registry


# --- PolicyDecision --------------------------------------------------------------------------


def test_policy_decisions() -> None:
    assert (PolicyDecision.allow().allowed, PolicyDecision.allow().reason) == (True, None)
    denied = PolicyDecision.deny("Read the file first.")
    assert (denied.allowed, denied.reason) == (False, "Read the file first.")
    assert denied == PolicyDecision(allowed=False, reason="Read the file first.")
