"""The eval-file model: frozen, closed pydantic models; the eval JSON Schema is generated from it.

An eval file names a prompt, the models to run it on, named experiments, and cases (inline
or from a dataset), each with the checks its answers must pass (docs/evals.md). The checks
live in a private module beside this one and are re-exported.
"""

# Annotations are evaluated as the classes are made, not left as strings: pydantic would
# compile each string again to read it, which costs start-up time (names defined further
# down are quoted).
from typing import Annotated

from pydantic import ConfigDict, StrictInt, Tag, model_validator
from typing_extensions import TypeAliasType

from wink_decl.diagnostics import DiagnosticCode
from wink_decl.schema import _unions as u
from wink_decl.schema._base import DocModel, config_for
from wink_decl.schema._eval_checks import (
    AllCheckDoc,
    AnyCheckDoc,
    CheckDoc,
    CheckItem,
    ContainsCheckDoc,
    EqualsCheckDoc,
    EvaluatorSpec,
    FieldCheckDoc,
    FieldSpec,
    IContainsCheckDoc,
    JsonSchemaCheckDoc,
    JudgeCheckDoc,
    JudgeSpec,
    MaxLatencyCheckDoc,
    MaxTokensCheckDoc,
    MaxTurnsCheckDoc,
    ModelName,
    Number,
    PluginCheckDoc,
    RegexCheckDoc,
    StartsWithCheckDoc,
    ToolCalledCheckDoc,
    ToolCallsCheckDoc,
    ToolCallsSpec,
    ToolNotCalledCheckDoc,
    ToolsSucceededCheckDoc,
    checks_field,
)
from wink_decl.schema._types import (
    CASE_ID,
    EXPERIMENT_NAME,
    NON_BLANK,
    PARAM_REF,
    TAG,
    NotNull,
    Problem,
    doc,
    semantic_error,
)

__all__ = [
    "AllCheckDoc",
    "AnyCheckDoc",
    "CaseDoc",
    "CheckDoc",
    "CheckItem",
    "ContainsCheckDoc",
    "DatasetCaseDoc",
    "DefaultsDoc",
    "EqualsCheckDoc",
    "EvalDocument",
    "EvaluatorSpec",
    "ExperimentDoc",
    "FieldCheckDoc",
    "FieldSpec",
    "IContainsCheckDoc",
    "JsonSchemaCheckDoc",
    "JudgeCheckDoc",
    "JudgeSpec",
    "MaxLatencyCheckDoc",
    "MaxTokensCheckDoc",
    "MaxTurnsCheckDoc",
    "ModelDoc",
    "ModelItem",
    "PluginCheckDoc",
    "RegexCheckDoc",
    "StartsWithCheckDoc",
    "ToolCalledCheckDoc",
    "ToolCallsCheckDoc",
    "ToolCallsSpec",
    "ToolNotCalledCheckDoc",
    "ToolsSucceededCheckDoc",
]

ParamName = Annotated[str, PARAM_REF]


class ModelDoc(DocModel):
    """A model to run the prompt on, with where its provider is served and its options."""

    model_config = config_for(
        "Model", "`{model: PROVIDER:MODEL, base_url: URL, options: {...}}`: a model in full."
    )
    noun = "model"
    union_tag = "mapping"
    model: ModelName = doc(
        description="The provider and the model, as wink-decl run --model takes them.",
        markdown="The provider and the model, as `wink-decl run --model` takes them: "
        "`openai:gpt-4.1-mini`, `anthropic:claude-sonnet-4-5`, `openai:qwen3:8b`.",
        examples=["openai:gpt-4.1-mini"],
    )
    base_url: Annotated[Annotated[str, NON_BLANK] | None, NotNull()] = doc(
        None,
        description="Where the provider's API is served; default: the provider's usual "
        "variable (such as OPENAI_BASE_URL), else its own address.",
        markdown="Where the provider's API is served; default: the provider's usual variable "
        "(such as `OPENAI_BASE_URL`), else its own address.",
        examples=["http://127.0.0.1:11434/v1"],
    )
    options: dict[str, object] = doc(
        {},
        description="Settings passed to the model's requests as they are written.",
        examples=[{"temperature": 0}],
    )


ModelItem = TypeAliasType(
    "ModelItem",
    Annotated[
        Annotated[ModelName, Tag("name")] | Annotated[ModelDoc, Tag("mapping")],
        u.MODEL.discriminator(u.model_tag),
    ],
)
"""``provider:model`` text, or a ``ModelDoc`` mapping."""


class ExperimentDoc(DocModel):
    """A named variant of the prompt run: an override tag, another model, or both."""

    model_config = ConfigDict(
        title="Experiment",
        json_schema_extra={
            "markdownDescription": "A variant compared with the baseline: an override `tag`, "
            "a `model` instead of the suite's models, or both.",
            "anyOf": [{"required": ["tag"]}, {"required": ["model"]}],
        },
    )
    noun = "experiment"
    tag: Annotated[Annotated[str, TAG] | None, NotNull()] = doc(
        None,
        description="The override tag applied to the prompt (a file in the overrides folder).",
        markdown="The override tag applied to the prompt: "
        "`<overrides>/<ns>/<prompt-key>/<tag>.wink-override.yaml` (docs/overrides.md).",
        examples=["concise"],
    )
    model: Annotated[ModelItem | None, NotNull()] = doc(
        None,
        description="The model this experiment runs on instead of the suite's models.",
        examples=["openai:gpt-4.1"],
    )

    @model_validator(mode="after")
    def _changes_something(self) -> "ExperimentDoc":
        if self.tag is None and self.model is None:
            raise semantic_error(
                Problem(
                    "An experiment needs a 'tag', a 'model' or both.",
                    code=DiagnosticCode.MISSING_KEY,
                    hint="add 'tag: NAME' to apply an override tag, or 'model: PROVIDER:MODEL'",
                )
            )
        return self


def _params_field(where: str) -> dict[str, object]:
    return doc(
        {},
        description=f"Param values {where}, by name, of the prompt's declared types.",
        examples=[{"language": "Python"}],
    )


class DefaultsDoc(DocModel):
    """What every case gets: param values, and checks before its own."""

    model_config = config_for(
        "Defaults", "Param values and checks every case gets (a case's own params win)."
    )
    noun = "'defaults'"
    params: dict[ParamName, object] = _params_field("for every case (a case's own win)")
    assert_: tuple[CheckItem, ...] = checks_field("every case")


_REPEAT = doc(
    1,
    description="How many times the case runs under each experiment and model.",
    examples=[3],
    ge=1,
)


class CaseDoc(DocModel):
    """One case: an id, the prompt's params, what is expected, and the checks."""

    model_config = config_for(
        "Case", "One case: `id`, `params`, optional `expected`, `assert` and `repeat`."
    )
    noun = "case"
    id: Annotated[str, CASE_ID] = doc(
        description="The case's name in reports and for --filter, unique in the suite.",
        markdown="The case's name in reports and for `--filter`, unique in the suite.",
        examples=["add-bug"],
    )
    params: dict[ParamName, object] = _params_field("for this case")
    expected: object = doc(
        None,
        description="The expected answer (any value), which checks with a null value compare with.",
        markdown="The expected answer (any value): `equals`, `contains`, `icontains` and "
        "`starts_with` with a null value compare the answer with it.",
        examples=["a + b"],
    )
    assert_: tuple[CheckItem, ...] = checks_field("this case")
    repeat: StrictInt = _REPEAT


class DatasetCaseDoc(CaseDoc):
    """A case read from a dataset file: its id may be left out (its line or row names it)."""

    model_config = config_for(
        "Dataset case", "A case of a dataset file; without `id` its line or row names it."
    )
    id: Annotated[Annotated[str, CASE_ID] | None, NotNull()] = doc(  # pyright: ignore[reportIncompatibleVariableOverride]  # optional here
        None,
        description="The case's name; default: the file's name and the case's line or row.",
        examples=["add-bug"],
    )


class EvalDocument(DocModel):
    """An eval file: prompt, models, experiments, defaults, cases; see docs/prompt-files.md."""

    model_config = ConfigDict(
        title="wink-decl eval",
        json_schema_extra={
            "markdownDescription": "An evaluation of one prompt: `prompt`, `models`, "
            "`experiments`, `defaults`, `cases` and/or `dataset`, and the `threshold` pass "
            "rate (docs/evals.md). Every key, with examples: docs/prompt-files.md.",
            "anyOf": [{"required": ["cases"]}, {"required": ["dataset"]}],
        },
    )
    noun = "eval file"
    prompt: Annotated[str, NON_BLANK] = doc(
        description="The prompt file, relative to this file, or its address ns/key.",
        markdown="The prompt file, relative to this file (`../prompts/review.wink.yaml`), or "
        "its address `ns/key` under the prompt root.",
        examples=["../prompts/agents/code-review.wink.yaml", "agents/code-review"],
    )
    models: tuple[ModelItem, ...] = doc(
        description="The models every case runs on: provider:model, or a mapping with model, "
        "base_url and options.",
        markdown="The models every case runs on (at least one): `provider:model`, or "
        "`{model: ..., base_url: ..., options: {...}}`.",
        examples=[["openai:gpt-4.1-mini"]],
        min_length=1,
    )
    experiments: dict[Annotated[str, EXPERIMENT_NAME], ExperimentDoc] = doc(
        {},
        description="Named variants compared with the baseline (which has no tag and no "
        "model change): an override tag, a model, or both.",
        markdown="Named variants compared with `baseline` (no tag, no model change), each an "
        "override `tag`, a `model`, or both.\n\n```yaml\nexperiments:\n  concise: {tag: "
        "concise}\n  bigger: {model: openai:gpt-4.1}\n```",
        examples=[{"concise": {"tag": "concise"}, "bigger": {"model": "openai:gpt-4.1"}}],
    )
    defaults: Annotated[DefaultsDoc | None, NotNull()] = doc(
        None,
        description="Param values and checks every case gets.",
        examples=[{"params": {"language": "Python"}, "assert": [{"max_turns": 6}]}],
    )
    cases: tuple[CaseDoc, ...] = doc(
        (),
        description="The cases, each with an id, params, optional expected, assert and repeat.",
        examples=[[{"id": "add-bug", "params": {"change": "..."}, "expected": "a + b"}]],
    )
    dataset: Annotated[Annotated[str, NON_BLANK] | None, NotNull()] = doc(
        None,
        description="A JSONL, CSV or YAML file of more cases, relative to this file.",
        markdown="A file of more cases, relative to this file and inside its folder: JSONL "
        "(one case object a line), CSV (a header row; columns are params, except `id` and "
        "`expected`) or YAML (a list of cases).",
        examples=["cases.jsonl"],
    )
    threshold: Number = doc(
        1.0,
        description="The pass rate, from 0 to 1, every experiment and model must reach for "
        "exit status 0.",
        examples=[0.8],
        ge=0,
        le=1,
    )

    @model_validator(mode="after")
    def _has_cases(self) -> "EvalDocument":
        if not self.cases and self.dataset is None:
            raise semantic_error(
                Problem(
                    "An eval file needs 'cases', a 'dataset' or both.",
                    code=DiagnosticCode.MISSING_KEY,
                    hint="add 'cases:' with a case such as '- id: first', or 'dataset: "
                    "cases.jsonl'",
                )
            )
        return self
