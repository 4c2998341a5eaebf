"""The prompt-file model: frozen, closed pydantic models; the JSON Schema is generated from it.

``PromptDocument.model_validate(data)`` is the hot-path validator. Optional fields default to
None but refuse an explicit ``null`` (see ``NotNull``), so the schema shows them as plain types.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal, cast

from pydantic import ConfigDict, JsonValue, StrictBool, StrictStr, Tag, model_validator
from pydantic.json_schema import WithJsonSchema
from typing_extensions import TypeAliasType

from wink_decl.schema import _unions as u
from wink_decl.schema._base import DocModel
from wink_decl.schema._params import PARAM_RULES, check_param
from wink_decl.schema._types import (
    DECLARED_TOOL_NAME,
    ENTRY_POINT,
    FIELD_NAME,
    INCLUDE,
    KEY,
    NAMESPACE,
    NON_BLANK,
    PARAM_NAME,
    PARAM_REF,
    TITLE,
    TOOL_DESCRIPTION,
    TOOL_REF,
    EnumDocs,
    NotNull,
    Problem,
    doc,
    semantic_error,
)

__all__ = [
    "AllCondition",
    "AnyCondition",
    "Condition",
    "EqualsCondition",
    "EqualsSpec",
    "IncludeDoc",
    "ItemSpec",
    "NotCondition",
    "ParamCondition",
    "ParamSpec",
    "PluginPolicyDoc",
    "PluginSpec",
    "PolicyDoc",
    "PredicateCondition",
    "PromptDocument",
    "ReadBeforeWritePolicyDoc",
    "ReadBeforeWriteSpec",
    "Scalar",
    "SectionDoc",
    "SectionItem",
    "SequentialPolicyDoc",
    "SummaryWhen",
    "ToolDoc",
    "ToolExampleDoc",
    "Value",
    "Visibility",
]

Key = Annotated[str, KEY]
ToolRef = Annotated[str, TOOL_REF]
DeclaredToolName = Annotated[str, DECLARED_TOOL_NAME]
ParamRef = Annotated[str, PARAM_REF]
EntryPoint = Annotated[str, ENTRY_POINT]

Scalar = TypeAliasType(
    "Scalar",
    Annotated[
        Annotated[StrictStr, Tag("string")]
        | Annotated[int, Tag("integer")]
        | Annotated[float, Tag("number")]
        | Annotated[bool, Tag("boolean")],
        u.SCALAR.discriminator(u.scalar_tag),
        WithJsonSchema({"type": ["string", "number", "boolean"]}),
    ],
)
"""Text, a whole number, a number, or true/false; chosen by the value's own type."""

Value = TypeAliasType(
    "Value",
    Annotated[
        Annotated[StrictStr, Tag("string")]
        | Annotated[int, Tag("integer")]
        | Annotated[float, Tag("number")]
        | Annotated[bool, Tag("boolean")]
        | Annotated[tuple[Scalar, ...], Tag("array")],
        u.VALUE.discriminator(u.value_tag),
        WithJsonSchema(
            {
                "type": ["string", "number", "boolean", "array"],
                "items": {"type": ["string", "number", "boolean"]},
            }
        ),
    ],
)
"""A scalar or a list of scalars: what a param default may be."""


def _config(title: str, markdown: str) -> ConfigDict:
    return ConfigDict(title=title, json_schema_extra={"markdownDescription": markdown})


# -- conditions ---------------------------------------------------------------------------------


class ParamCondition(DocModel):
    """True when the named param is truthy (non-empty text, non-zero, true, a non-empty list)."""

    model_config = _config("Param condition", "`{param: NAME}`: true when the param is truthy.")
    noun = "condition"
    union_tag = "param"
    one_key_of = u.CONDITION
    param: ParamRef = doc(
        description="The param whose value decides.",
        examples=["strict"],
    )


class NotCondition(DocModel):
    """True when the inner condition is false."""

    model_config = _config("Not", "`{not: CONDITION}`: true when the inner condition is false.")
    noun = "condition"
    union_tag = "not"
    one_key_of = u.CONDITION
    not_: Condition = doc(
        alias="not",
        description="The condition to negate.",
        examples=[{"param": "strict"}],
    )


class AllCondition(DocModel):
    """True when every listed condition is true."""

    model_config = _config("All", "`{all: [C, ...]}`: true when every condition is true.")
    noun = "condition"
    union_tag = "all"
    one_key_of = u.CONDITION
    all_: tuple[Condition, ...] = doc(
        alias="all",
        description="The conditions that must all be true (at least one).",
        examples=[[{"param": "strict"}, {"not": {"param": "brief"}}]],
        min_length=1,
    )


class AnyCondition(DocModel):
    """True when at least one listed condition is true."""

    model_config = _config("Any", "`{any: [C, ...]}`: true when at least one condition is true.")
    noun = "condition"
    union_tag = "any"
    one_key_of = u.CONDITION
    any_: tuple[Condition, ...] = doc(
        alias="any",
        description="The conditions of which one must be true (at least one).",
        examples=[[{"param": "strict"}, {"param": "thorough"}]],
        min_length=1,
    )


class EqualsSpec(DocModel):
    """A param and the value it is compared with."""

    model_config = _config("Equals", "The param to compare and the value to compare it with.")
    noun = "'equals' condition"
    param: ParamRef = doc(description="The param to compare.", examples=["level"])
    value: Scalar = doc(
        description="The value the param must equal: text, a number, true or false.",
        examples=["high", 3, True],
    )


class EqualsCondition(DocModel):
    """True when a param equals a value."""

    model_config = _config(
        "Equals condition", "`{equals: {param: NAME, value: V}}`: true when the param equals V."
    )
    noun = "condition"
    union_tag = "equals"
    one_key_of = u.CONDITION
    equals: EqualsSpec = doc(
        description="The param and the value it must equal.",
        examples=[{"param": "level", "value": "high"}],
    )


class PredicateCondition(DocModel):
    """True when a predicate registered under the entry-point group wink_decl.predicates says so."""

    model_config = _config(
        "Predicate condition",
        "`{predicate: NAME}`: asks a function registered in the entry-point group "
        "`wink_decl.predicates`.",
    )
    noun = "condition"
    union_tag = "predicate"
    one_key_of = u.CONDITION
    predicate: EntryPoint = doc(
        description="An entry-point name in the group wink_decl.predicates.",
        markdown="An entry-point name in the group `wink_decl.predicates`; add `@distribution` "
        "when two installed distributions register the same name.",
        examples=["review.is_large_change", "review.is_large_change@acme-review"],
    )


Condition = TypeAliasType(
    "Condition",
    Annotated[
        Annotated[StrictBool, Tag("bool")]
        | Annotated[ParamCondition, Tag("param")]
        | Annotated[NotCondition, Tag("not")]
        | Annotated[AllCondition, Tag("all")]
        | Annotated[AnyCondition, Tag("any")]
        | Annotated[EqualsCondition, Tag("equals")]
        | Annotated[PredicateCondition, Tag("predicate")],
        u.CONDITION.discriminator(u.condition_tag),
    ],
)
"""true, false, or a one-key mapping: param, not, all, any, equals, predicate."""

for _model in (NotCondition, AllCondition, AnyCondition):
    _model.model_rebuild()

# -- visibility ---------------------------------------------------------------------------------


class SummaryWhen(DocModel):
    """Summarized while the condition holds, shown in full otherwise."""

    model_config = _config(
        "Summary when", "`{summary_when: CONDITION}`: summarized while the condition is true."
    )
    noun = "visibility"
    union_tag = "summary_when"
    one_key_of = u.VISIBILITY
    summary_when: Condition = doc(
        description="While this condition is true the section shows its summary.",
        examples=[{"param": "brief"}, {"not": {"param": "strict"}}],
    )


VisibilityMode = Annotated[
    Literal["full", "summary"],
    EnumDocs(
        (
            ("full", "The section's template and its children are shown."),
            ("summary", "Only the `summary` is shown; the model can call `read_section`."),
        )
    ),
]

Visibility = Annotated[
    Annotated[VisibilityMode, Tag("mode")] | Annotated[SummaryWhen, Tag("summary_when")],
    u.VISIBILITY.discriminator(u.visibility_tag),
]
"""full, summary, or {summary_when: CONDITION}."""

# -- policies -----------------------------------------------------------------------------------


class SequentialPolicyDoc(DocModel):
    """A tool may run only after the tools it depends on have succeeded."""

    model_config = _config(
        "Sequential policy",
        "`{sequential: {TOOL: [TOOL, ...]}}`: each tool runs only after the listed tools "
        "have succeeded in the session.",
    )
    noun = "policy"
    union_tag = "sequential"
    one_key_of = u.POLICY
    sequential: dict[ToolRef, tuple[ToolRef, ...]] = doc(
        description="Each tool name maps to the tools that must have succeeded before it runs.",
        examples=[{"deploy": ["test", "build"]}],
    )

    @model_validator(mode="after")
    def _no_self_dependency(self) -> SequentialPolicyDoc:
        problems = [
            Problem(
                f"Tool '{tool}' cannot depend on itself.",
                at=("sequential", tool, list(needs).index(tool)),
            )
            for tool, needs in self.sequential.items()
            if tool in needs
        ]
        if problems:
            raise semantic_error(*problems)
        return self


class ReadBeforeWriteSpec(DocModel):
    """Which tools read and write files, and which param holds the path."""

    model_config = _config(
        "Read before write",
        "Which tools read and write files and the param that holds the path.",
    )
    noun = "'read_before_write' policy"
    read_tools: tuple[ToolRef, ...] = doc(
        ("read_file",),
        description="Tools that read a file.",
        examples=[["read_file"]],
    )
    write_tools: tuple[ToolRef, ...] = doc(
        ("write_file",),
        description="Tools that write a file; each may overwrite a file only after it was read.",
        examples=[["write_file", "edit_file"]],
    )
    path_field: ParamRef = doc(
        "path",
        description="The tool param that holds the file path.",
        examples=["path"],
    )


class ReadBeforeWritePolicyDoc(DocModel):
    """An existing file may be overwritten only after it was read in the session."""

    model_config = _config(
        "Read-before-write policy",
        "`{read_before_write: {}}`: an existing file may be overwritten only after it was "
        "read in the session.",
    )
    noun = "policy"
    union_tag = "read_before_write"
    one_key_of = u.POLICY
    read_before_write: ReadBeforeWriteSpec = doc(
        description="Options; {} uses read_file, write_file and the param 'path'.",
        examples=[{}, {"write_tools": ["write_file", "edit_file"]}],
    )


class PluginSpec(DocModel):
    """A policy registered under the entry-point group wink_decl.policies, and its settings."""

    model_config = _config(
        "Plugin", "A policy from the entry-point group `wink_decl.policies` and its settings."
    )
    noun = "'plugin' policy"
    name: EntryPoint = doc(
        description="An entry-point name in the group wink_decl.policies.",
        markdown="An entry-point name in the group `wink_decl.policies`; add `@distribution` "
        "when two installed distributions register the same name.",
        examples=["audit.log_calls"],
    )
    config: dict[str, Any] = doc(
        {},
        description="Settings passed to the policy as they are written.",
        examples=[{"level": "info"}],
    )


class PluginPolicyDoc(DocModel):
    """A policy provided by an installed plugin."""

    model_config = _config(
        "Plugin policy", "`{plugin: {name: NAME, config: {...}}}`: a policy from a plugin."
    )
    noun = "policy"
    union_tag = "plugin"
    one_key_of = u.POLICY
    plugin: PluginSpec = doc(
        description="The plugin's entry-point name and its settings.",
        examples=[{"name": "audit.log_calls", "config": {"level": "info"}}],
    )


PolicyDoc = Annotated[
    Annotated[SequentialPolicyDoc, Tag("sequential")]
    | Annotated[ReadBeforeWritePolicyDoc, Tag("read_before_write")]
    | Annotated[PluginPolicyDoc, Tag("plugin")],
    u.POLICY.discriminator(u.policy_tag),
]
"""A one-key mapping: sequential, read_before_write or plugin."""


def _policies_doc() -> Any:
    return doc(
        (),
        description="Policies that govern tools; each item is a mapping with exactly one key: "
        "sequential, read_before_write or plugin.",
        markdown="Policies that govern tools; each item has exactly one key:\n\n"
        "- `sequential: {deploy: [test, build]}`\n- `read_before_write: {}`\n"
        "- `plugin: {name: audit.log_calls, config: {...}}`",
        examples=[[{"sequential": {"deploy": ["test", "build"]}}, {"read_before_write": {}}]],
    )


# -- params -------------------------------------------------------------------------------------

ItemType = Annotated[
    Literal["string", "integer", "number", "boolean"],
    EnumDocs(
        (
            ("string", "Text."),
            ("integer", "A whole number."),
            ("number", "A number, whole or decimal."),
            ("boolean", "`true` or `false`."),
        )
    ),
]
ParamType = Annotated[
    Literal["string", "integer", "number", "boolean", "array"],
    EnumDocs(
        (
            ("string", "Text."),
            ("integer", "A whole number."),
            ("number", "A number, whole or decimal."),
            ("boolean", "`true` or `false`."),
            ("array", "A list; `items` gives the type of its elements."),
        )
    ),
]


class ItemSpec(DocModel):
    """The type of each element of an array param."""

    model_config = _config("Array items", "The type of each element of an array param.")
    noun = "'items'"
    type: ItemType = doc(description="The type of every element.", examples=["string"])


class ParamSpec(DocModel):
    """A typed input: required unless it has a default."""

    model_config = ConfigDict(
        title="Param",
        json_schema_extra={
            "markdownDescription": "A typed input; required unless `default` is given.",
            "allOf": cast("list[JsonValue]", PARAM_RULES),
        },
    )
    noun = "param"
    type: ParamType = doc(
        description="The value's type: string, integer, number, boolean or array.",
        examples=["string", "boolean"],
    )
    description: Annotated[StrictStr | None, NotNull()] = doc(
        None,
        description="What the param means; tools show it to the model.",
        examples=["Language of the change"],
    )
    items: Annotated[ItemSpec | None, NotNull()] = doc(
        None,
        description="For an array: the type of its elements (required for arrays only).",
        markdown="For `type: array` only, and required there: `items: {type: string}`.",
        examples=[{"type": "string"}],
    )
    default: Annotated[Value | None, NotNull()] = doc(
        None,
        description="The value used when none is given; it makes the param optional.",
        examples=[False, [], "low"],
    )
    enum: Annotated[tuple[Scalar, ...] | None, NotNull()] = doc(
        None,
        description="The only values allowed (not for arrays); a default must be one of them.",
        examples=[["low", "high"]],
        min_length=1,
    )

    @model_validator(mode="after")
    def _consistent(self) -> ParamSpec:
        problems = check_param(
            self.type, None if self.items is None else self.items.type, self.default, self.enum
        )
        if problems:
            raise semantic_error(*problems)
        return self


_PARAMS_DOC = doc(
    {},
    description="Typed inputs by name; each is required unless it has a default.",
    markdown="Typed inputs by name, used in templates as `${name}`; each is required unless it "
    "has a `default`.\n\n```yaml\nparams:\n  language: {type: string}\n"
    "  strict: {type: boolean, default: false}\n```",
    examples=[{"language": {"type": "string"}, "strict": {"type": "boolean", "default": False}}],
)

# -- tools --------------------------------------------------------------------------------------


class ToolExampleDoc(DocModel):
    """One worked call: what the model sends and what it gets back."""

    model_config = _config("Tool example", "One worked call: `input` sent, `output` returned.")
    noun = "tool example"
    description: Annotated[str, NON_BLANK] = doc(
        description="What the example shows, up to 200 characters.",
        examples=["Line length"],
        max_length=200,
    )
    input: dict[str, Any] = doc(
        description="The params the model sends, as a mapping.",
        examples=[{"rule_id": "E501"}],
    )
    output: Annotated[dict[str, Any] | None, NotNull()] = doc(
        None,
        description="The result the tool returns, as a mapping (leave out when it has none).",
        examples=[{"rule_id": "E501", "text": "Lines are at most 100 characters."}],
    )


class ToolDoc(DocModel):
    """A tool the model may call, implemented by a handler registered as an entry point."""

    model_config = _config("Tool", "A tool the model may call, implemented by a plugin handler.")
    noun = "tool"
    description: Annotated[str, TOOL_DESCRIPTION] = doc(
        description="What the tool does, for the model: 1-200 ASCII characters.",
        examples=["Look up one style rule by id."],
        max_length=200,
    )
    handler: EntryPoint = doc(
        description="An entry-point name in the group wink_decl.handlers.",
        markdown="An entry-point name in the group `wink_decl.handlers`; add `@distribution` "
        "when two installed distributions register the same name.",
        examples=["style.lookup_rule", "style.lookup_rule@acme-style"],
    )
    params: dict[Annotated[str, FIELD_NAME], ParamSpec] = doc(
        {},
        description="The tool's inputs by name.",
        examples=[{"rule_id": {"type": "string", "description": "Rule id such as E501"}}],
    )
    result: Annotated[dict[Annotated[str, FIELD_NAME], ParamSpec] | None, NotNull()] = doc(
        None,
        description="The fields of the tool's result by name (leave out when it returns none).",
        examples=[{"rule_id": {"type": "string"}, "text": {"type": "string"}}],
    )
    examples: tuple[ToolExampleDoc, ...] = doc(
        (),
        description="Worked calls shown to the model.",
        examples=[[{"description": "Line length", "input": {"rule_id": "E501"}}]],
    )
    accepts_overrides: StrictBool = doc(
        True,  # noqa: FBT003  # the field's default value
        description="Whether override files may rewrite this tool's description.",
        examples=[False],
    )


# -- sections -----------------------------------------------------------------------------------

_KEYABLE = re.compile(r"[A-Za-z0-9]")
"""A title gives a key (``Project Context`` gives ``project-context``) when it has one of these."""


class SectionDoc(DocModel):
    """A titled part of the prompt: template, summary, visibility, tools and children."""

    model_config = ConfigDict(
        title="Section",
        json_schema_extra={
            "markdownDescription": "A titled part of the prompt: template, summary, "
            "visibility, tools, children.",
            "allOf": [
                {  # summarized (always or sometimes): a summary is needed
                    "if": {
                        "properties": {"visibility": {"not": {"const": "full"}}},
                        "required": ["visibility"],
                    },
                    "then": {"required": ["summary"]},
                },
                {  # no key: the title must give one
                    "if": {"not": {"required": ["key"]}},
                    "then": {"properties": {"title": {"pattern": _KEYABLE.pattern}}},
                },
            ],
        },
    )
    noun = "section"
    union_tag = "section"
    key: Annotated[Key | None, NotNull()] = doc(
        None,
        description="The section's key, used in paths and by read_section; derived from the "
        "title when left out.",
        markdown="The section's key, used in dotted paths and by `read_section`; derived from "
        "the title when left out (`Project Context` gives `project-context`).",
        examples=["task", "reference"],
    )
    title: Annotated[str, TITLE] = doc(description="The heading, one line.", examples=["Task"])
    template: StrictStr = doc(
        "",
        description="The body; ${name} inserts a param and $$ writes a dollar sign.",
        markdown="The body, Markdown: `${name}` inserts a param, `$$` writes `$`.",
        examples=["Review the ${language} change below."],
    )
    summary: Annotated[Annotated[str, NON_BLANK] | None, NotNull()] = doc(
        None,
        description="Shown instead of the body while the section is summarized.",
        examples=["Style rules for ${language} are available."],
    )
    summary_suffix: Annotated[StrictStr | None, NotNull()] = doc(
        None,
        description="Replaces the default line after a summary; ${section_key} is the key.",
        markdown="Replaces the default line after a summary; `${section_key}` is this "
        "section's key.",
        examples=['Call `read_section` with "${section_key}" for the rules.'],
    )
    visibility: Visibility = doc(
        "full",
        description="full, summary, or {summary_when: CONDITION}.",
        markdown="`full` (the default), `summary` (needs `summary`), or "
        "`{summary_when: CONDITION}`.",
        examples=["summary", {"summary_when": {"param": "brief"}}],
    )
    enabled: Condition = doc(
        True,  # noqa: FBT003  # the field's default value
        description="When false the section and its children are left out.",
        markdown="`true`, `false`, or a condition such as `{param: strict}`; when false the "
        "section and its children are left out.",
        examples=[{"param": "strict"}, False],
    )
    tools: tuple[DeclaredToolName, ...] = doc(
        (),
        description="Names of tools declared under tools: that this section offers.",
        examples=[["lookup_rule"]],
    )
    policies: tuple[PolicyDoc, ...] = _policies_doc()
    accepts_overrides: StrictBool = doc(
        True,  # noqa: FBT003  # the field's default value
        description="Whether override files may rewrite this section's text.",
        examples=[False],
    )
    children: tuple[SectionItem, ...] = doc(
        (),
        description="Nested sections or includes.",
        examples=[[{"title": "Details", "template": "..."}]],
    )

    @model_validator(mode="after")
    def _consistent(self) -> SectionDoc:
        problems: list[Problem] = []
        if self.summary is None and self.visibility != "full":
            problems.append(
                Problem(
                    "A summarized section needs a 'summary'.",
                    code="missing-key",
                    at=("visibility",),
                    hint="add 'summary', or set 'visibility' to full",
                )
            )
        if self.key is None and not _KEYABLE.search(self.title):
            problems.append(
                Problem(
                    f"The title '{self.title.strip()}' gives no usable key.",
                    code="missing-key",
                    at=("title",),
                    hint="add a 'key' such as 'intro'",
                )
            )
        if problems:
            raise semantic_error(*problems)
        return self


class IncludeDoc(DocModel):
    """A section taken from another file under the same prompt root."""

    model_config = _config(
        "Include", "`{include: path#section.path}`: a section from another file."
    )
    noun = "include"
    union_tag = "include"
    include: Annotated[str, INCLUDE] = doc(
        description="<relative path>#<dotted section path> of a section in another file.",
        markdown="`<relative path>#<dotted section path>`: a section from another file under "
        "the same prompt root.",
        examples=["common/safety.wink.yaml#tone"],
    )


SectionItem = TypeAliasType(
    "SectionItem",
    Annotated[
        Annotated[SectionDoc, Tag("section")] | Annotated[IncludeDoc, Tag("include")],
        u.SECTION_ITEM.discriminator(u.section_item_tag),
    ],
)
"""A section, or an include of a section from another file."""

SectionDoc.model_rebuild()

# -- the document -------------------------------------------------------------------------------


class PromptDocument(DocModel):
    """A prompt file: key, params, sections, tools and policies."""

    model_config = ConfigDict(
        title="wink-decl prompt",
        json_schema_extra={
            "markdownDescription": "A prompt for an LLM agent: `key`, `params`, `sections` "
            "(at least one), `tools` and `policies`."
        },
    )
    noun = "prompt"
    ns: Annotated[Annotated[str, NAMESPACE] | None, NotNull()] = doc(
        None,
        description="The namespace; defaults to the folder path under the prompt root.",
        examples=["agents/review"],
    )
    key: Key = doc(description="The prompt's key within its namespace.", examples=["code-review"])
    name: Annotated[StrictStr | None, NotNull()] = doc(
        None, description="A display name; defaults to the key.", examples=["Code review"]
    )
    description: Annotated[StrictStr | None, NotNull()] = doc(
        None,
        description="What the prompt is for, for people.",
        examples=["Reviews a change against the house style."],
    )
    params: dict[Annotated[str, PARAM_NAME], ParamSpec] = _PARAMS_DOC
    sections: tuple[SectionItem, ...] = doc(
        description="The sections, in order (at least one).",
        examples=[[{"key": "task", "title": "Task", "template": "Review the change."}]],
        min_length=1,
    )
    tools: dict[DeclaredToolName, ToolDoc] = doc(
        {},
        description="Tools by name; sections list the ones they offer.",
        examples=[{"lookup_rule": {"description": "Look up a rule.", "handler": "style.lookup"}}],
    )
    policies: tuple[PolicyDoc, ...] = _policies_doc()
