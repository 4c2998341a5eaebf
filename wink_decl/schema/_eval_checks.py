"""The checks an eval file's ``assert`` lists: one-key mappings, each weighted and negatable.

A check is a mapping with exactly one check key (``contains``, ``tool_calls``, ``all``, ...)
and, beside it, the optional ``weight`` and ``negate`` every check has (docs/evals.md).
"""

# Annotations are evaluated as the classes are made, not left as strings: pydantic would
# compile each string again to read it, which costs start-up time (names defined further
# down are quoted).
from typing import Annotated

from pydantic import ConfigDict, Strict, StrictBool, StrictInt, StrictStr, Tag, model_validator
from typing_extensions import TypeAliasType

from wink_decl.diagnostics import DiagnosticCode
from wink_decl.schema import _unions as u
from wink_decl.schema._base import DocModel, EntryPoint, ToolRef, config_for
from wink_decl.schema._types import MODEL_NAME, NON_BLANK, NotNull, Problem, doc, semantic_error

__all__ = [
    "AllCheckDoc",
    "AnyCheckDoc",
    "CheckDoc",
    "CheckItem",
    "ContainsCheckDoc",
    "EqualsCheckDoc",
    "EvaluatorSpec",
    "FieldCheckDoc",
    "FieldSpec",
    "IContainsCheckDoc",
    "JsonSchemaCheckDoc",
    "JudgeCheckDoc",
    "JudgeSpec",
    "MaxLatencyCheckDoc",
    "MaxTokensCheckDoc",
    "MaxTurnsCheckDoc",
    "ModelName",
    "Number",
    "PluginCheckDoc",
    "RegexCheckDoc",
    "StartsWithCheckDoc",
    "ToolCalledCheckDoc",
    "ToolCallsCheckDoc",
    "ToolCallsSpec",
    "ToolNotCalledCheckDoc",
    "ToolsSucceededCheckDoc",
    "checks_field",
]

Number = Annotated[float, Strict()]
"""A number as written: a whole number or a decimal, never text or true/false."""
ModelName = Annotated[str, MODEL_NAME]
"""``provider:model``, as ``wink-decl run --model`` takes it."""

_EXPECTED = "null (written `~` or left empty in YAML) compares with the case's `expected`, as text."


class CheckDoc(DocModel):
    """What every check may have beside its one key: a weight and a negation."""

    noun = "check"
    one_key_of = u.CHECK
    weight: Number = doc(
        1.0,
        description="The check's share of the case's score, a number above 0.",
        markdown="The check's share of the case's score (the weighted mean of its checks' "
        "values), a number above 0.",
        examples=[2],
        gt=0,
    )
    negate: StrictBool = doc(
        False,  # noqa: FBT003  # the field's default value
        description="When true the check passes when what it checks does not hold.",
        examples=[True],
    )


def _text_check(what: str) -> str | None:
    return doc(
        description=f"The answer's text {what} this text; null: the case's expected.",
        markdown=f"The answer's text {what} this text. {_EXPECTED}",
        examples=["a + b", None],
    )


class EqualsCheckDoc(CheckDoc):
    """The answer's text equals a text (its ends' spaces aside)."""

    model_config = config_for(
        "Equals check", "`{equals: TEXT}`: the answer's text equals TEXT (ends' spaces aside)."
    )
    union_tag = "equals"
    equals: StrictStr | None = _text_check("equals")


class ContainsCheckDoc(CheckDoc):
    """The answer's text contains a text."""

    model_config = config_for("Contains check", "`{contains: TEXT}`: the answer contains TEXT.")
    union_tag = "contains"
    contains: StrictStr | None = _text_check("contains")


class IContainsCheckDoc(CheckDoc):
    """The answer's text contains a text, ignoring case."""

    model_config = config_for(
        "Case-blind contains check", "`{icontains: TEXT}`: the answer contains TEXT, any case."
    )
    union_tag = "icontains"
    icontains: StrictStr | None = _text_check("contains, in any case,")


class StartsWithCheckDoc(CheckDoc):
    """The answer's text starts with a text."""

    model_config = config_for(
        "Starts-with check", "`{starts_with: TEXT}`: the answer starts with TEXT."
    )
    union_tag = "starts_with"
    starts_with: StrictStr | None = _text_check("starts with")


class RegexCheckDoc(CheckDoc):
    """The answer's text matches a regular expression, anywhere in it."""

    model_config = config_for(
        "Regex check",
        "`{regex: PATTERN}`: a Python regular expression found anywhere in the answer.",
    )
    union_tag = "regex"
    regex: StrictStr = doc(
        description="A Python regular expression, searched for anywhere in the answer.",
        markdown="A Python regular expression, searched for anywhere in the answer "
        "(`re.search`). In YAML, single quotes keep backslashes as written: `'line \\d+'`.",
        examples=["line \\d+"],
        min_length=1,
    )


class JsonSchemaCheckDoc(CheckDoc):
    """The structured answer fits a JSON Schema."""

    model_config = config_for(
        "JSON Schema check",
        "`{json_schema: SCHEMA}`: the structured answer (the prompt's `output:`) fits SCHEMA.",
    )
    union_tag = "json_schema"
    json_schema: dict[str, object] = doc(
        description="A JSON Schema the structured answer must fit.",
        markdown="A JSON Schema (draft 2020-12) the structured answer must fit; the prompt "
        "declares the answer's shape under `output:`.",
        examples=[{"type": "object", "required": ["verdict"]}],
    )


class FieldSpec(DocModel):
    """A path in the structured answer and the value found there."""

    model_config = ConfigDict(
        title="Field",
        json_schema_extra={
            "markdownDescription": "`path`, and the value there: `equals` or `contains`.",
            "oneOf": [{"required": ["equals"]}, {"required": ["contains"]}],
        },
    )
    noun = "'field' check"
    path: Annotated[str, NON_BLANK] = doc(
        description="A dotted path in the structured answer; list items by index.",
        markdown="A dotted path in the structured answer; list items by index: `findings.0.text`.",
        examples=["verdict", "findings.0.text"],
    )
    equals: object = doc(
        None,
        description="The value at the path equals this (any JSON value).",
        examples=["reject"],
    )
    contains: object = doc(
        None,
        description="The text or list at the path contains this.",
        examples=["a + b"],
    )

    @model_validator(mode="after")
    def _one_comparison(self) -> "FieldSpec":
        given = {"equals", "contains"} & self.model_fields_set
        if len(given) == 1:
            return self
        if given:
            problem = Problem(
                "A 'field' check compares with 'equals' or with 'contains', not both.",
                at=("contains",),
                key=True,
            )
        else:
            problem = Problem(
                "A 'field' check needs 'equals' or 'contains'.",
                code=DiagnosticCode.MISSING_KEY,
                hint="add 'equals: VALUE', or 'contains: VALUE' for a text or a list",
            )
        raise semantic_error(problem)


class FieldCheckDoc(CheckDoc):
    """A value inside the structured answer equals, or contains, a value."""

    model_config = config_for(
        "Field check",
        "`{field: {path: PATH, equals: VALUE}}` (or `contains:`): a value inside the "
        "structured answer.",
    )
    union_tag = "field"
    field: FieldSpec = doc(
        description="The path and what the value there equals or contains.",
        examples=[{"path": "verdict", "equals": "reject"}],
    )


def _tool_field(what: str) -> str:
    return doc(
        description=f"The tool the model {what}, by name.",
        examples=["read_file"],
    )


class ToolCalledCheckDoc(CheckDoc):
    """The model called a tool."""

    model_config = config_for("Tool-called check", "`{tool_called: NAME}`: the model called it.")
    union_tag = "tool_called"
    tool_called: ToolRef = _tool_field("called at least once")


class ToolNotCalledCheckDoc(CheckDoc):
    """The model never called a tool."""

    model_config = config_for(
        "Tool-not-called check", "`{tool_not_called: NAME}`: the model never called it."
    )
    union_tag = "tool_not_called"
    tool_not_called: ToolRef = _tool_field("never called")


class ToolCallsSpec(DocModel):
    """A tool and how many times it may be called."""

    model_config = ConfigDict(
        title="Tool calls",
        json_schema_extra={
            "markdownDescription": "A tool, and at least `min` and at most `max` calls of it.",
            "anyOf": [{"required": ["min"]}, {"required": ["max"]}],
        },
    )
    noun = "'tool_calls' check"
    name: ToolRef = doc(description="The tool, by name.", examples=["read_file"])
    min: Annotated[StrictInt | None, NotNull()] = doc(
        None, description="The fewest calls that pass.", examples=[1], ge=0
    )
    max: Annotated[StrictInt | None, NotNull()] = doc(
        None, description="The most calls that pass.", examples=[3], ge=0
    )

    @model_validator(mode="after")
    def _bounded(self) -> "ToolCallsSpec":
        low, high = self.min, self.max
        if low is None and high is None:
            raise semantic_error(
                Problem(
                    "A 'tool_calls' check needs 'min', 'max' or both.",
                    code=DiagnosticCode.MISSING_KEY,
                    hint="add 'min: 1' for at least one call",
                )
            )
        if low is not None and high is not None and low > high:
            raise semantic_error(
                Problem(f"'min' ({low}) is more than 'max' ({high}).", at=("min",))
            )
        return self


class ToolCallsCheckDoc(CheckDoc):
    """The model called a tool a number of times within bounds."""

    model_config = config_for(
        "Tool-calls check",
        "`{tool_calls: {name: NAME, min: N, max: M}}`: the number of calls of a tool.",
    )
    union_tag = "tool_calls"
    tool_calls: ToolCallsSpec = doc(
        description="The tool and the fewest and most calls of it that pass.",
        examples=[{"name": "read_file", "min": 1, "max": 3}],
    )


class ToolsSucceededCheckDoc(CheckDoc):
    """Every tool call of the run succeeded (or, with false, one failed)."""

    model_config = config_for(
        "Tools-succeeded check",
        "`{tools_succeeded: true}`: every tool call of the run succeeded; `false`: one failed.",
    )
    union_tag = "tools_succeeded"
    tools_succeeded: StrictBool = doc(
        description="true: every tool call succeeded; false: at least one failed.",
        examples=[True],
    )


class MaxTokensCheckDoc(CheckDoc):
    """The run used at most this many tokens, input and output together."""

    model_config = config_for(
        "Token budget check", "`{max_tokens: N}`: input and output tokens together, at most N."
    )
    union_tag = "max_tokens"
    max_tokens: StrictInt = doc(
        description="The most tokens (input and output) the run may use.",
        examples=[4000],
        ge=1,
    )


class MaxTurnsCheckDoc(CheckDoc):
    """The model answered at most this many times."""

    model_config = config_for(
        "Turn budget check", "`{max_turns: N}`: at most N model answers, tool calls included."
    )
    union_tag = "max_turns"
    max_turns: StrictInt = doc(
        description="The most model answers the run may take, tool-calling ones included.",
        examples=[6],
        ge=1,
    )


class MaxLatencyCheckDoc(CheckDoc):
    """The run took at most this many milliseconds."""

    model_config = config_for(
        "Latency check", "`{max_latency_ms: MS}`: the run took at most MS milliseconds."
    )
    union_tag = "max_latency_ms"
    max_latency_ms: Number = doc(
        description="The most milliseconds the run may take.",
        examples=[20000],
        gt=0,
    )


class JudgeSpec(DocModel):
    """What an LLM judge rates the answer against, and which model judges."""

    model_config = config_for(
        "Judge", "A rubric, and optionally the judge's model and its prompt file."
    )
    noun = "'judge' check"
    rubric: Annotated[str, NON_BLANK] = doc(
        description="What a good answer does, for the judge.",
        examples=["Names the bug and the fix."],
    )
    model: Annotated[ModelName | None, NotNull()] = doc(
        None,
        description="The judge's model, provider:model; default: the suite's first model.",
        markdown="The judge's model, `provider:model`; default: the suite's first model.",
        examples=["openai:gpt-4.1-mini"],
    )
    prompt: Annotated[Annotated[str, NON_BLANK] | None, NotNull()] = doc(
        None,
        description="The judge's prompt file, relative to the eval file; default: the bundled one.",
        examples=["judges/strict.wink.yaml"],
    )


class JudgeCheckDoc(CheckDoc):
    """An LLM judge rates the answer; it passes with excellent or good."""

    model_config = config_for(
        "Judge check",
        "`{judge: {rubric: TEXT}}`: an LLM judge rates the answer excellent, good, fair, poor "
        "or wrong; excellent and good pass.",
    )
    union_tag = "judge"
    judge: JudgeSpec = doc(
        description="The rubric, and optionally the judge's model and prompt file.",
        examples=[{"rubric": "Names the bug and the fix.", "model": "openai:gpt-4.1-mini"}],
    )


class EvaluatorSpec(DocModel):
    """An evaluator registered under the entry-point group wink_decl.evaluators, and its args."""

    model_config = config_for(
        "Evaluator", "An evaluator from the entry-point group `wink_decl.evaluators`, and its args."
    )
    noun = "'plugin' check"
    name: EntryPoint = doc(
        description="An entry-point name in the group wink_decl.evaluators.",
        markdown="An entry-point name in the group `wink_decl.evaluators`; add `@distribution` "
        "when two installed distributions register the same name.",
        examples=["myevals.polite"],
    )
    args: dict[str, object] = doc(
        {},
        description="Settings passed to the evaluator as they are written.",
        examples=[{"min": 0.5}],
    )


class PluginCheckDoc(CheckDoc):
    """A custom evaluator, from an installed plugin."""

    model_config = config_for(
        "Plugin check", "`{plugin: {name: NAME, args: {...}}}`: an evaluator from a plugin."
    )
    union_tag = "plugin"
    plugin: EvaluatorSpec = doc(
        description="The evaluator's entry-point name and its args.",
        examples=[{"name": "myevals.polite", "args": {"min": 0.5}}],
    )


class AllCheckDoc(CheckDoc):
    """Passes when every listed check passes."""

    model_config = config_for("All check", "`{all: [CHECK, ...]}`: every check passes.")
    union_tag = "all"
    all_: "tuple[CheckItem, ...]" = doc(
        alias="all",
        description="The checks that must all pass (at least one); scores their weighted mean.",
        examples=[[{"contains": "a"}, {"contains": "b"}]],
        min_length=1,
    )


class AnyCheckDoc(CheckDoc):
    """Passes when at least one listed check passes."""

    model_config = config_for("Any check", "`{any: [CHECK, ...]}`: one of the checks passes.")
    union_tag = "any"
    any_: "tuple[CheckItem, ...]" = doc(
        alias="any",
        description="The checks of which one must pass (at least one); scores the best.",
        examples=[[{"contains": "a"}, {"equals": "b"}]],
        min_length=1,
    )


CheckItem = TypeAliasType(
    "CheckItem",
    Annotated[
        Annotated[EqualsCheckDoc, Tag("equals")]
        | Annotated[ContainsCheckDoc, Tag("contains")]
        | Annotated[IContainsCheckDoc, Tag("icontains")]
        | Annotated[StartsWithCheckDoc, Tag("starts_with")]
        | Annotated[RegexCheckDoc, Tag("regex")]
        | Annotated[JsonSchemaCheckDoc, Tag("json_schema")]
        | Annotated[FieldCheckDoc, Tag("field")]
        | Annotated[ToolCalledCheckDoc, Tag("tool_called")]
        | Annotated[ToolNotCalledCheckDoc, Tag("tool_not_called")]
        | Annotated[ToolCallsCheckDoc, Tag("tool_calls")]
        | Annotated[ToolsSucceededCheckDoc, Tag("tools_succeeded")]
        | Annotated[MaxTokensCheckDoc, Tag("max_tokens")]
        | Annotated[MaxTurnsCheckDoc, Tag("max_turns")]
        | Annotated[MaxLatencyCheckDoc, Tag("max_latency_ms")]
        | Annotated[JudgeCheckDoc, Tag("judge")]
        | Annotated[PluginCheckDoc, Tag("plugin")]
        | Annotated[AllCheckDoc, Tag("all")]
        | Annotated[AnyCheckDoc, Tag("any")],
        u.CHECK.discriminator(u.check_tag),
    ],
)
"""A mapping with one check key, and optionally ``weight`` and ``negate``."""


def checks_field(where: str) -> tuple[CheckItem, ...]:
    """The documented ``assert:`` list of a case (``where``: "this case") or of the defaults."""
    return doc(
        (),
        alias="assert",
        description=f"The checks {where} must pass; each is a mapping with one check key, "
        "plus optional weight and negate.",
        markdown=f"The checks {where} must pass. Each has one check key, plus optional "
        "`weight` (its share of the score) and `negate`:\n\n"
        "- text: `equals`, `contains`, `icontains`, `starts_with`, `regex`\n"
        "- structured answer: `json_schema`, `field: {path: ..., equals: ...}`\n"
        "- session: `tool_called`, `tool_not_called`, `tool_calls: {name: ..., min: 1}`, "
        "`tools_succeeded`, `max_tokens`, `max_turns`, `max_latency_ms`\n"
        "- `judge: {rubric: ...}`, `plugin: {name: ...}`, `all: [...]`, `any: [...]`",
        examples=[[{"contains": "a + b"}, {"icontains": "return", "weight": 2}]],
    )
