"""compare_params: the fields a prompt file declares against a handler's params dataclass."""

# No `from __future__ import annotations`: the dataclasses keep real field types, as
# handlers' params classes do.
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, Optional

import pytest

from wink_decl.plugins import compare_params
from wink_decl.runtime.planning import UpdateStep


@dataclass(frozen=True)
class Lookup:
    query: str
    limit: int = 10
    exact: bool = False
    weight: float = 1.0
    tags: tuple[str, ...] = ()
    note: str | None = None
    cursor: Optional[int] = None  # noqa: UP045  # the typing.Optional spelling on purpose
    pair: typing.Tuple[str, int] = ("a", 1)  # noqa: UP006  # the typing.Tuple spelling too
    mode: Literal["fast", "slow"] = "fast"
    mixed: Literal["one", 2] = "one"
    labels: list[str] = field(default_factory=list[str])
    computed: int = field(default=0, init=False)


@dataclass(frozen=True)
class Broken:
    path: "Missing"  # noqa: F821  # pyright: ignore[reportUndefinedVariable]


@dataclass(frozen=True)
class Elsewhere:
    count: int


Elsewhere.__module__ = "nowhere_at_all"  # its module is not imported: builtins still resolve

LOOKUP: Mapping[str, tuple[type, bool]] = {
    "query": (str, True),
    "limit": (int, False),
    "exact": (bool, False),
    "weight": (float, False),
    "tags": (tuple[str, ...], False),
    "note": (str, False),
    "cursor": (int, False),
    "pair": (tuple[str, int], False),
    "mode": (str, False),
}


def test_matching_declarations_have_no_problems() -> None:
    assert compare_params(LOOKUP, Lookup) == []
    assert compare_params({"query": (str, True)}, Lookup) == []


def test_required_in_the_file_but_defaulted_in_the_class_is_fine() -> None:
    assert compare_params({"query": (str, True), "limit": (int, True)}, Lookup) == []


@pytest.mark.parametrize(
    ("declared", "actual", "problems"),
    [
        (
            {"query": (str, True), "page": (int, False)},
            Lookup,
            ["Field 'page' is declared in the prompt file but Lookup has no such field."],
        ),
        (
            {"limit": (int, False)},
            Lookup,
            ["Field 'query' is required by Lookup but the prompt file does not declare it."],
        ),
        (
            {"query": (str, False)},
            Lookup,
            ["Field 'query' is optional in the prompt file but Lookup requires it."],
        ),
        (
            {
                "query": (int, True),
                "limit": (str, False),
                "exact": (int, False),
                "weight": (int, False),
                "note": (int, False),
            },
            Lookup,
            [
                "Field 'query' is declared as int in the prompt file but Lookup.query is str.",
                "Field 'limit' is declared as str in the prompt file but Lookup.limit is int.",
                "Field 'exact' is declared as int in the prompt file but Lookup.exact is bool.",
                "Field 'weight' is declared as int in the prompt file but Lookup.weight is float.",
                "Field 'note' is declared as int in the prompt file but Lookup.note is str | None.",
            ],
        ),
        (
            {
                "query": (str, True),
                "tags": (tuple[int, ...], False),
                "pair": (tuple[str, ...], False),
                "labels": (tuple[str, ...], False),
                "mixed": (str, False),
            },
            Lookup,
            [
                "Field 'tags' is declared as tuple[int, ...] in the prompt file but "
                "Lookup.tags is tuple[str, ...].",
                "Field 'pair' is declared as tuple[str, ...] in the prompt file but "
                "Lookup.pair is Tuple[str, int].",
                "Field 'labels' is declared as tuple[str, ...] in the prompt file but "
                "Lookup.labels is list[str].",
                "Field 'mixed' is declared as str in the prompt file but "
                "Lookup.mixed is Literal['one', 2].",
            ],
        ),
        (
            {"computed": (int, False), "query": (str, True)},
            Lookup,
            ["Field 'computed' is declared in the prompt file but Lookup has no such field."],
        ),
        (
            {"page": (int, False), "query": (bool, False)},
            Lookup,
            [
                "Field 'page' is declared in the prompt file but Lookup has no such field.",
                "Field 'query' is optional in the prompt file but Lookup requires it.",
                "Field 'query' is declared as bool in the prompt file but Lookup.query is str.",
            ],
        ),
        (
            {"path": (str, True)},
            Broken,
            [
                "Field 'path' cannot be checked: the type of Broken.path ('Missing') "
                "cannot be resolved."
            ],
        ),
        (
            {},
            Broken,
            ["Field 'path' is required by Broken but the prompt file does not declare it."],
        ),
        ({"count": (int, True)}, Elsewhere, []),
        ({"path": (str, True)}, str, ["str is not a dataclass, so its fields cannot be compared."]),
        (
            {"path": (str, True), "text": (str, False)},
            type(None),
            [
                "Field 'path' is declared in the prompt file but the handler takes no params.",
                "Field 'text' is declared in the prompt file but the handler takes no params.",
            ],
        ),
        ({}, type(None), []),
    ],
    ids=[
        "undeclared-in-class",
        "required-but-not-declared",
        "optional-but-required",
        "scalar-mismatches",
        "tuple-and-literal-mismatches",
        "init-false-is-no-field",
        "several-in-order",
        "unresolvable-annotation",
        "unresolvable-but-undeclared",
        "class-of-an-unimported-module",
        "not-a-dataclass",
        "fields-for-a-handler-that-takes-none",
        "no-fields-for-a-handler-that-takes-none",
    ],
)
def test_compare_params_problems(
    declared: Mapping[str, tuple[type, bool]], actual: type, problems: list[str]
) -> None:
    assert compare_params(declared, actual) == problems


def test_declared_enums_and_optional_unions_compare_by_their_values() -> None:
    declared: Mapping[str, tuple[object, bool]] = {
        "query": (str, True),
        "mode": (Literal["fast", "slow"], False),
        "note": (str | None, False),
        "limit": (Literal["ten"], False),
    }
    assert compare_params(declared, Lookup) == [
        "Field 'limit' is declared as Literal['ten'] in the prompt file but Lookup.limit is int."
    ]


def test_planning_update_step_literal_status_takes_a_string() -> None:
    declared: Mapping[str, tuple[type, bool]] = {
        "step_id": (int, True),
        "title": (str, False),
        "status": (str, False),
    }
    assert compare_params(declared, UpdateStep) == []
