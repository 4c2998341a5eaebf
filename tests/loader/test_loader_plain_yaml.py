"""The plain read of a YAML file: the full walk's data and nothing else, or it steps aside.

A plain file skips the walk that records spans; its spans come from that walk when first
asked for. Whatever the plain read accepts, the full walk must read to the same data with no
diagnostic; whatever it refuses, the full walk handles (and reports, when it is a mistake).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from wink_decl.diagnostics import Span
from wink_decl.limits import DEFAULT_LIMITS, MAX_DEPTH_CEILING
from wink_decl.loader import Limits, load_text
from wink_decl.loader import _yaml_walk as walk_module
from wink_decl.loader._yaml_compose import compose
from wink_decl.loader._yaml_plain import NotPlain, PlainReader, PlainSpans
from wink_decl.loader._yaml_walk import Walker
from wink_decl.loader.file_kinds import PROMPT_FILE

from .test_loader_properties import YAML_LEAVES, YAML_STYLES, dump_yaml, json_data

SMALL = Limits(max_depth=3, max_nodes=6, max_key_length=5)


def plain(text: str, limits: Limits = DEFAULT_LIMITS) -> tuple[object, bool]:
    root = compose(text)
    assert root is not None
    reader = PlainReader(limits)
    return reader.document(root, text), reader.has_numbers


def walked(text: str, limits: Limits = DEFAULT_LIMITS) -> tuple[object, list[str], bool]:
    root = compose(text)
    assert root is not None
    walker = Walker(text, "p.yaml", limits, PROMPT_FILE)
    data, _ = walker.value(root, (), 0, 0)
    return data, [d.message for d in walker.diagnostics], walker.has_numbers


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_data(YAML_LEAVES), YAML_STYLES)
def test_a_plain_file_reads_as_the_full_walk_reads_it(
    data: dict[str, Any], style: dict[str, Any]
) -> None:
    text = dump_yaml(data, style)
    if "&" in text and "*" in text:  # it may hold an alias: the full walk reads it
        with pytest.raises(NotPlain):
            plain(text)
    else:
        assert plain(text) == (data, walked(text)[2])
    assert walked(text)[:2] == (data, [])


@pytest.mark.parametrize(
    ("text", "data", "has_numbers"),
    [
        (
            "a: text\nb: [true, null, 'x']\nc: {d: ~}\n",
            {"a": "text", "b": [True, None, "x"], "c": {"d": None}},
            False,
        ),
        ("a: [1, -0x10, 0o7]\n", {"a": [1, -16, 7]}, True),
        ("a: 1.5\nb: .inf\n", {"a": 1.5, "b": float("inf")}, True),
        ("&top {a: &x b}\n", {"a": "b"}, False),  # anchors that no alias uses
        ("a:\n  - [x, y]\n  - {b: c}\n", {"a": [["x", "y"], {"b": "c"}]}, False),
    ],
    ids=["text-bool-null", "whole-numbers", "decimals", "unused-anchors", "nested"],
)
def test_plain_files(text: str, data: object, has_numbers: bool) -> None:
    assert plain(text) == (data, has_numbers)
    assert walked(text) == (data, [], has_numbers)


@pytest.mark.parametrize(
    "text",
    [
        "a: &x 1\nb: *x\n",  # an alias
        "a: &x b\nc: *x\n",  # an alias of text
        "a: &s [*s]\n",  # a list that holds itself
        "a: &m {b: *m}\n",  # a mapping that holds itself
        "a: [&x b, *x]\n",  # an alias of an earlier item
        "a: !!str 1\n",  # an explicit tag on a value
        "a: !!map {b: c}\n",  # on a mapping
        "a: !!seq [b]\n",  # on a list
        "a: 2026-11-26\n",  # a date (kept as written, by the full walk)
        "a: =\n",  # YAML's value key
        "a: <<\n",  # a merge key written as a value
        "<<: {b: c}\n",  # as a key
        "a: 1\na: 2\n",  # a key written twice
        "1: a\n",  # a key that is not text
        "[a]: b\n",  # a list as a key
        "? {a: b}\n: c\n",  # a mapping as a key
        "- a\n",  # a list, not a mapping
        "a\n",  # a scalar
    ],
)
def test_anything_else_is_left_to_the_full_walk(text: str) -> None:
    with pytest.raises(NotPlain):
        plain(text)


def test_a_file_that_may_hold_an_alias_is_left_to_the_full_walk() -> None:
    """An alias needs both '&' and '*': a text with both is read by the full walk, alike."""
    text = "a: '&'\nb: [x*, 2]\n"
    with pytest.raises(NotPlain):
        plain(text)
    result = load_text(text, path="p.yaml", format="yaml")
    assert result.file is not None
    assert (result.file.data, result.file.has_numbers) == ({"a": "&", "b": ["x*", 2]}, True)
    assert plain(text.replace("&", "+")) == ({"a": "+", "b": ["x*", 2]}, True)


def test_what_reaches_a_limit_is_left_to_the_full_walk() -> None:
    """At the limits the read is plain; one past, the full walk reports it."""
    assert plain("a: {b: {c: x}}\n", SMALL)[0] == {"a": {"b": {"c": "x"}}}  # 3 levels
    assert plain("a: [1, 2, 3]\nb: c\n", SMALL)[0] == {"a": [1, 2, 3], "b": "c"}  # 6 values
    assert plain("abcde: x\n", SMALL)[0] == {"abcde": "x"}  # a key of 5 characters
    for text in ("a: {b: {c: {d: x}}}\n", "a: [1, 2, 3, 4]\nb: c\n", "abcdef: x\n"):
        with pytest.raises(NotPlain):
            plain(text, SMALL)
        assert len(walked_diagnostics(text, SMALL)) == 1


def walked_diagnostics(text: str, limits: Limits) -> list[str]:
    result = load_text(text, path="p.yaml", format="yaml", limits=limits)
    assert result.file is None
    return [d.message for d in result.diagnostics]


def test_a_plain_files_spans_are_walked_once_when_first_asked_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    walks: list[int] = []
    value = walk_module.Walker.value

    def counted(self: Walker, *args: Any) -> tuple[object, int]:
        if args[0] is not None and args[1] == ():
            walks.append(1)
        return value(self, *args)

    monkeypatch.setattr(walk_module.Walker, "value", counted)
    text = "a: x\nb:\n  - 1\n  - {c: d}\n"
    result = load_text(text, path="p.yaml", format="yaml")
    assert result.file is not None
    assert walks == []
    spans = result.file.source_map
    assert [(p, spans.value_span(p)) for p in spans.paths()] == [
        ((), span(1, 1, 1, 4)),
        (("a",), span(1, 4, 1, 4)),
        (("b",), span(3, 3, 3, 5)),  # a block list: its first line
        (("b", 0), span(3, 5, 3, 5)),
        (("b", 1), span(4, 5, 4, 10)),
        (("b", 1, "c"), span(4, 9, 4, 9)),
    ]
    assert spans.key_span(("b", 1, "c")) == span(4, 6, 4, 6)
    assert walks == [1]


def span(line: int, column: int, end_line: int, end_column: int) -> Span:
    return Span("p.yaml", line, column, end_line, end_column)


def test_a_plain_file_nested_to_the_ceiling_reads_as_the_full_walk_reads_it() -> None:
    """200 levels (``MAX_DEPTH_CEILING``): two Python frames a level, as in the full walk."""
    ceiling = Limits(max_depth=MAX_DEPTH_CEILING)
    text = "a: " + "[" * (MAX_DEPTH_CEILING - 1) + "]" * (MAX_DEPTH_CEILING - 1) + "\n"
    data, _ = plain(text, ceiling)
    assert data == walked(text, ceiling)[0]
    with pytest.raises(NotPlain):
        plain("a: [" + text[3:-1] + "]\n", ceiling)  # one level more: the walk reports it


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_data(YAML_LEAVES), YAML_STYLES)
def test_a_plain_files_nodes_are_found_by_path_as_the_full_walk_records_them(
    data: dict[str, Any], style: dict[str, Any]
) -> None:
    text = dump_yaml(data, style)
    root = compose(text)
    assert root is not None
    walker = Walker(text, "p.yaml", DEFAULT_LIMITS, PROMPT_FILE)
    walker.value(root, (), 0, 0)
    spans = PlainSpans(text, "p.yaml", DEFAULT_LIMITS, PROMPT_FILE, root)
    assert all(spans.value(path) is node for path, node in walker.values.items())
    assert all(spans.key(path) is node for path, node in walker.keys.items())
    for missing in [("no such key",), (0,), *((*path, 0) for path in walker.keys)]:
        if missing not in walker.values:
            with pytest.raises(KeyError):
                spans.value(missing)
    for no_key in [(), *(path for path in walker.values if path and path[-1].__class__ is int)]:
        with pytest.raises(KeyError):
            spans.key(no_key)
    assert list(spans.walked_values()) == list(walker.values)  # every path: the full walk's
    assert list(spans.walked_keys()) == list(walker.keys)


def test_a_plain_files_spans_are_looked_up_without_the_full_walk(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    walks: list[int] = []
    value = walk_module.Walker.value

    def counted(self: Walker, *args: Any) -> tuple[object, int]:
        walks.append(1)
        return value(self, *args)

    monkeypatch.setattr(walk_module.Walker, "value", counted)
    result = load_text("a: x\nb:\n  - 1\n  - {c: d}\n", path="p.yaml", format="yaml")
    assert result.file is not None
    spans = result.file.source_map
    assert spans.value_span(("b", 1, "c")) == span(4, 9, 4, 9)
    assert spans.key_span(("b", 1, "c")) == span(4, 6, 4, 6)
    assert spans.key_span(("b", 0)) is None  # a list item has no key
    assert spans.value_span(("b", 2)) is None
    assert spans.value_span(("b", "c")) is None
    assert spans.nearest(("b", 1, "e", 3)) == span(4, 5, 4, 10)
    assert walks == []
