"""Conditions (``enabled``, ``summary_when``) and visibility: one-key mappings or constants."""

# Annotations are evaluated as the classes are made, not left as strings: pydantic would
# compile each string again to read it, which costs start-up time (names defined further
# down are quoted).
from typing import Annotated, Literal

from pydantic import StrictBool, Tag
from typing_extensions import TypeAliasType

from wink_decl.schema import _unions as u
from wink_decl.schema._base import DocModel, EntryPoint, ParamRef, Scalar, config_for
from wink_decl.schema._types import EnumDocs, doc

__all__ = [
    "AllCondition",
    "AnyCondition",
    "Condition",
    "EqualsCondition",
    "EqualsSpec",
    "NotCondition",
    "ParamCondition",
    "PredicateCondition",
    "SummaryWhen",
    "Visibility",
]


class ParamCondition(DocModel):
    """True when the named param is truthy (non-empty text, non-zero, true, a non-empty list)."""

    model_config = config_for("Param condition", "`{param: NAME}`: true when the param is truthy.")
    noun = "condition"
    union_tag = "param"
    one_key_of = u.CONDITION
    param: ParamRef = doc(
        description="The param whose value decides.",
        examples=["strict"],
    )


class NotCondition(DocModel):
    """True when the inner condition is false."""

    model_config = config_for("Not", "`{not: CONDITION}`: true when the inner condition is false.")
    noun = "condition"
    union_tag = "not"
    one_key_of = u.CONDITION
    not_: "Condition" = doc(
        alias="not",
        description="The condition to negate.",
        examples=[{"param": "strict"}],
    )


class AllCondition(DocModel):
    """True when every listed condition is true."""

    model_config = config_for("All", "`{all: [C, ...]}`: true when every condition is true.")
    noun = "condition"
    union_tag = "all"
    one_key_of = u.CONDITION
    all_: "tuple[Condition, ...]" = doc(
        alias="all",
        description="The conditions that must all be true (at least one).",
        examples=[[{"param": "strict"}, {"not": {"param": "brief"}}]],
        min_length=1,
    )


class AnyCondition(DocModel):
    """True when at least one listed condition is true."""

    model_config = config_for("Any", "`{any: [C, ...]}`: true when at least one condition is true.")
    noun = "condition"
    union_tag = "any"
    one_key_of = u.CONDITION
    any_: "tuple[Condition, ...]" = doc(
        alias="any",
        description="The conditions of which one must be true (at least one).",
        examples=[[{"param": "strict"}, {"param": "thorough"}]],
        min_length=1,
    )


class EqualsSpec(DocModel):
    """A param and the value it is compared with."""

    model_config = config_for("Equals", "The param to compare and the value to compare it with.")
    noun = "'equals' condition"
    param: ParamRef = doc(description="The param to compare.", examples=["level"])
    value: Scalar = doc(
        description="The value the param must equal: text, a number, true or false.",
        examples=["high", 3, True],
    )


class EqualsCondition(DocModel):
    """True when a param equals a value."""

    model_config = config_for(
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

    model_config = config_for(
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


class SummaryWhen(DocModel):
    """Summarized while the condition holds, shown in full otherwise."""

    model_config = config_for(
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
