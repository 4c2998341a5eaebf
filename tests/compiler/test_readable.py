"""The shape checks that let a schema-refused file be checked for reference mistakes too."""

from __future__ import annotations

from pathlib import Path

import pytest
from compiler_support import compile_in, report

from wink_decl.compiler._readable import (
    UnreadableData,
    param_declarations,
    readable_list,
    readable_mapping,
    required,
)

_BUILDABLE = {
    "plain": {"type": "string"},
    "listed": {"type": "array", "items": {"type": "integer"}, "default": [1, 2]},
    "chosen": {"type": "string", "enum": ["a", "b"], "default": "a"},
}


def test_declarations_a_dataclass_can_be_made_from_come_back_as_they_are() -> None:
    assert param_declarations(_BUILDABLE) is _BUILDABLE
    assert param_declarations({}) == {}


@pytest.mark.parametrize(
    "declared",
    [
        ["name"],
        {"not-an-identifier": {"type": "string"}},
        {"__slots__": {"type": "string"}},
        {"class": {"type": "string"}},
        {"name": "string"},
        {"name": {}},
        {"name": {"type": ["string"]}},
        {"name": {"type": "text"}},
        {"name": {"type": "array", "items": "string"}},
        {"name": {"type": "array", "items": {"type": "array"}}},
        {"name": {"type": "string", "enum": "ab"}},
        {"name": {"type": "string", "enum": [["a"]]}},
        {"name": {"type": "string", "default": {"a": 1}}},
        {"name": {"type": "array", "default": [[1]]}},
    ],
    ids=[
        "a list",
        "not an identifier",
        "python machinery",
        "a keyword",
        "a spec that is text",
        "no type",
        "a type that is a list",
        "an unknown type",
        "items that are text",
        "items of an unknown type",
        "an enum that is text",
        "an enum holding a list",
        "a default that is a mapping",
        "a default list holding a list",
    ],
)
def test_declarations_no_dataclass_can_be_made_from_stop_the_checks(declared: object) -> None:
    with pytest.raises(UnreadableData):
        param_declarations(declared)


def test_each_shape_comes_back_as_it_is_or_stops_the_checks() -> None:
    assert readable_mapping({"a": 1}) == {"a": 1}
    assert readable_list([1]) == [1]
    assert required({"a": 1}, "a") == 1
    for call in (
        lambda: readable_mapping([1]),
        lambda: readable_list({"a": 1}),
        lambda: required({"a": 1}, "b"),
    ):
        with pytest.raises(UnreadableData):
            call()


def test_the_checks_stop_at_a_policy_without_the_shape_the_schema_requires(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The unknown tool before it is still reported; the sequential policy after it is not read.
    monkeypatch.chdir(tmp_path)
    text = (
        "key: t\nsections:\n  - {key: a, title: A, tools: [nope]}\n"
        "policies:\n  - read_before_write: {bogus: 1}\n  - sequential: {other: []}\n"
    )
    assert report(compile_in(tmp_path, text)) == (
        "prompt.wink.yaml:3:32: error: Tool 'nope' is not declared under tools:.\n"
        "  expected: a declared tool (none are declared)\n"
        "   3 |   - {key: a, title: A, tools: [nope]}\n"
        "     |                                ^^^^\n"
        "  hint: declare 'nope' under tools:\n"
        "prompt.wink.yaml:5:25: error: Unknown key 'bogus' in 'read_before_write' policy.\n"
        "  expected: one of read_tools, write_tools, path_field\n"
        "   5 |   - read_before_write: {bogus: 1}\n"
        "     |                         ^^^^^"
    )
