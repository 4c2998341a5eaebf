"""A file the schema refused: which parts its checks read, and where they stop."""

from __future__ import annotations

from pathlib import Path

import pytest
from compiler_support import compile_in, report

from wink_decl.compiler._readable import UnreadableData, readable
from wink_decl.schema import IncludeDoc, ParamCondition, ParamSpec, SectionDoc
from wink_decl.schema.readable import UNREADABLE, Entry, readable_parts


def test_a_refused_document_is_read_part_by_part() -> None:
    parts = readable_parts(
        {
            "key": "Bad Key",
            "params": {"topic": {"type": "string"}},
            "tools": {"lookup": {"handler": 3}, "bad name": {}},
            "sections": [
                {"key": "a", "title": "A", "visibility": "ful", "enabled": {"param": "topic"}},
                {"key": "B", "title": "B"},
                {"title": "!!!"},
                3,
                {"include": "x.wink.yaml"},
                {"include": "x.wink.yaml#a"},
                {"title": "Outer", "children": 3},
            ],
        }
    )
    assert (parts.model, parts.ns) == (None, None)
    assert parts.params == {"topic": ParamSpec(type="string")}
    assert parts.tools == {"lookup": UNREADABLE, "bad name": UNREADABLE}
    assert parts.policies == ()
    sections = readable(parts.sections)
    first = sections[0].item
    assert isinstance(first, SectionDoc)
    # The refused visibility reads as its default; the other fields as written.
    assert (first.key, first.title, first.visibility) == ("a", "A", "full")
    assert first.enabled == ParamCondition(param="topic")
    assert [entry.item for entry in sections[1:6]] == [
        UNREADABLE,  # a refused key: which key it has cannot be known
        UNREADABLE,  # no key, and a title that gives none
        UNREADABLE,  # not a mapping
        UNREADABLE,  # an include without '#section'
        IncludeDoc(include="x.wink.yaml#a"),
    ]
    assert sections[6] == Entry(("sections", 6), SectionDoc(title="Outer"), UNREADABLE)


def test_a_part_the_document_requires_is_unreadable_when_left_out_or_refused() -> None:
    parts = readable_parts({"tools": [], "ns": 3})
    assert (parts.ns, parts.sections, parts.tools) == (UNREADABLE, UNREADABLE, UNREADABLE)


def test_the_checks_stop_at_an_unreadable_part_they_need() -> None:
    assert readable(()) == ()
    with pytest.raises(UnreadableData):
        readable(UNREADABLE)


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
