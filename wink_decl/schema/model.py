"""The prompt-file model: frozen, closed pydantic models; the JSON Schema is generated from it.

Tools, sections and the document are here; conditions, policies and params live in private
modules next to it and are re-exported.

``PromptDocument.model_validate(data)`` is the hot-path validator. Optional fields default to
None but refuse an explicit ``null`` (see ``NotNull``), so the schema shows them as plain types.
"""

# Annotations are evaluated as the classes are made, not left as strings: pydantic would
# compile each string again to read it, which costs start-up time (names defined further
# down are quoted).
import re
from typing import Annotated

from pydantic import ConfigDict, StrictBool, StrictStr, Tag, model_validator
from typing_extensions import TypeAliasType

from wink_decl.diagnostics import DiagnosticCode
from wink_decl.schema import _unions as u
from wink_decl.schema._base import (
    DeclaredToolName,
    DocModel,
    EntryPoint,
    Key,
    ParamRef,
    Scalar,
    Value,
    config_for,
)
from wink_decl.schema._conditions import (
    AllCondition,
    AnyCondition,
    Condition,
    EqualsCondition,
    EqualsSpec,
    NotCondition,
    ParamCondition,
    PredicateCondition,
    SummaryWhen,
    Visibility,
)
from wink_decl.schema._param_spec import ItemSpec, ParamSpec, params_field
from wink_decl.schema._policies import (
    PluginPolicyDoc,
    PluginSpec,
    PolicyDoc,
    ReadBeforeWritePolicyDoc,
    ReadBeforeWriteSpec,
    SequentialPolicyDoc,
    policies_field,
)
from wink_decl.schema._types import (
    EXAMPLE_DESCRIPTION,
    FIELD_NAME,
    INCLUDE,
    NAMESPACE,
    NON_BLANK,
    PARAM_NAME,
    TITLE,
    TOOL_DESCRIPTION,
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


# -- tools --------------------------------------------------------------------------------------


class ToolExampleDoc(DocModel):
    """One worked call: what the model sends and what it gets back."""

    model_config = config_for("Tool example", "One worked call: `input` sent, `output` returned.")
    noun = "tool example"
    description: Annotated[str, EXAMPLE_DESCRIPTION] = doc(
        description="What the example shows, up to 200 characters.",
        examples=["Line length"],
    )
    input: dict[str, object] = doc(
        description="The params the model sends, as a mapping.",
        examples=[{"rule_id": "E501"}],
    )
    output: Annotated[dict[str, object] | None, NotNull()] = doc(
        None,
        description="The result the tool returns, as a mapping (leave out when it has none).",
        examples=[{"rule_id": "E501", "text": "Lines are at most 100 characters."}],
    )


class ToolDoc(DocModel):
    """A tool the model may call, implemented by a handler registered as an entry point."""

    model_config = config_for("Tool", "A tool the model may call, implemented by a plugin handler.")
    noun = "tool"
    description: Annotated[str, TOOL_DESCRIPTION] = doc(
        description="What the tool does, for the model: 1-200 ASCII characters.",
        examples=["Look up one style rule by id."],
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
    reads: Annotated[ParamRef | None, NotNull()] = doc(
        None,
        description="The param that holds the path of a file this tool reads; "
        "read_before_write then counts a call as reading that file.",
        markdown="The param that holds the path of a file this tool reads. "
        "`read_before_write` then counts a successful call as reading that file, "
        "whatever the tool's name.",
        examples=["path"],
    )
    writes: Annotated[ParamRef | None, NotNull()] = doc(
        None,
        description="The param that holds the path of a file this tool creates or changes; "
        "read_before_write then lets it change an existing file only after it was read.",
        markdown="The param that holds the path of a file this tool creates or changes. "
        "`read_before_write` then lets it change an existing file only after the file was "
        "read in the session, whatever the tool's name.",
        examples=["path"],
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

KEYABLE = re.compile(r"[A-Za-z0-9]")
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
                    # if/then, not anyOf: editors then say "Missing property 'summary'"
                    # where anyOf made them blame the visibility value.
                    "if": {
                        "required": ["visibility"],
                        "properties": {"visibility": {"not": {"const": "full"}}},
                    },
                    "then": {"required": ["summary"]},
                },
                {  # no key: the title must give one
                    "anyOf": [
                        {"required": ["key"]},
                        {
                            "properties": {
                                "title": {
                                    "pattern": KEYABLE.pattern,
                                    "patternErrorMessage": "Without a 'key', the title needs "
                                    "a letter or digit to derive the key from.",
                                }
                            }
                        },
                    ]
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
    policies: tuple[PolicyDoc, ...] = policies_field()
    accepts_overrides: StrictBool = doc(
        True,  # noqa: FBT003  # the field's default value
        description="Whether override files may rewrite this section's text.",
        examples=[False],
    )
    children: "tuple[SectionItem, ...]" = doc(
        (),
        description="Nested sections or includes.",
        examples=[[{"title": "Details", "template": "..."}]],
    )

    @model_validator(mode="after")
    def _consistent(self) -> "SectionDoc":
        problems: list[Problem] = []
        if self.summary is None and self.visibility != "full":
            problems.append(
                Problem(
                    "A summarized section needs a 'summary'.",
                    code=DiagnosticCode.MISSING_KEY,
                    at=("visibility",),
                    hint="add 'summary', or set 'visibility' to full",
                )
            )
        if self.key is None and not KEYABLE.search(self.title):
            problems.append(
                Problem(
                    f"The title '{self.title.strip()}' gives no usable key.",
                    code=DiagnosticCode.MISSING_KEY,
                    at=("title",),
                    hint="add a 'key' such as 'intro'",
                )
            )
        if problems:
            raise semantic_error(*problems)
        return self


class IncludeDoc(DocModel):
    """A section taken from another file under the same prompt root."""

    model_config = config_for(
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

# -- the document -------------------------------------------------------------------------------


class PromptDocument(DocModel):
    """A prompt file: key, params, sections, tools, policies, output; docs/prompt-files.md."""

    model_config = ConfigDict(
        title="wink-decl prompt",
        json_schema_extra={
            "markdownDescription": "A prompt for an LLM agent: `key`, `params`, `sections` "
            "(at least one), `tools`, `policies` and, for a structured answer, `output`. "
            "Every key, with examples: docs/prompt-files.md."
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
    params: dict[Annotated[str, PARAM_NAME], ParamSpec] = params_field()
    output: dict[Annotated[str, FIELD_NAME], ParamSpec] = doc(
        {},
        description="The fields of the final answer, when it must be structured (JSON).",
        markdown="The fields of the final answer by name, declared like `params`: the model is "
        "asked for a JSON object of this shape and the answer is checked against it. Leave out "
        "for a free-text answer.\n\n```yaml\noutput:\n  approved: {type: boolean}\n"
        "  reason: {type: string, description: Why in one sentence.}\n```",
        examples=[{"approved": {"type": "boolean"}, "reason": {"type": "string"}}],
    )
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
    policies: tuple[PolicyDoc, ...] = policies_field()
