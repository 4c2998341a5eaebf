"""Spans are worked out when asked for: the answers are the ones worked out while loading."""

from __future__ import annotations

import pytest

from wink_decl.diagnostics import Span
from wink_decl.loader import JSONPath, SourceMap, load_text


def _spans(text: str, path: str) -> SourceMap:
    result = load_text(text, path=path, format="toml" if path.endswith(".toml") else "yaml")
    assert result.file is not None, result.diagnostics
    return result.file.source_map


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "? a\n: 1\nb: 2\n",
            {(): (1, 1, 1, 1), ("a",): (2, 3, 2, 3), ("b",): (3, 4, 3, 4)},
        ),
        (
            "x: &k a\ny:\n  *k : 1\n  c: 2\n",
            {
                (): (1, 1, 1, 7),
                ("x",): (1, 7, 1, 7),
                ("y",): (3, 3, 3, 8),
                ("y", "a"): (3, 8, 3, 8),
                ("y", "c"): (4, 6, 4, 6),
            },
        ),
        (
            "a: [1,\n  2]\nb: |\n  text\nc: &n {d: e}\n",
            {
                (): (1, 1, 1, 5),
                ("a",): (1, 4, 2, 4),
                ("a", 0): (1, 5, 1, 5),
                ("a", 1): (2, 3, 2, 3),
                ("b",): (3, 4, 4, 6),
                ("c",): (5, 7, 5, 12),
                ("c", "d"): (5, 11, 5, 11),
            },
        ),
    ],
    ids=["explicit-first-key", "alias-first-key", "flow-block-anchor"],
)
def test_yaml_value_spans_in_document_order(
    text: str, expected: dict[JSONPath, tuple[int, int, int, int]]
) -> None:
    spans = _spans(text, "p.yaml")
    assert list(spans.paths()) == list(expected)
    for json_path, found in expected.items():
        assert spans.value_span(json_path) == Span("p.yaml", *found)


def test_yaml_key_spans_of_flow_and_block_values() -> None:
    spans = _spans("a: [1,\n  2]\nb: |\n  text\nc: &n {d: e}\n", "p.yaml")
    assert spans.key_span(("b",)) == Span("p.yaml", 3, 1, 3, 1)
    assert spans.key_span(("c", "d")) == Span("p.yaml", 5, 8, 5, 8)
    assert spans.key_span(("a", 0)) is None


def test_a_yaml_key_span_is_asked_for_twice_and_is_the_same() -> None:
    spans = _spans("key: review\nsections: []\n", "p.yaml")
    first = spans.key_span(("sections",))
    assert first == Span("p.yaml", 2, 1, 2, 8)
    assert spans.key_span(("sections",)) == first


def test_toml_positions_are_scanned_only_when_asked_for() -> None:
    spans = _spans('a = 1\n[t]\nb = "two"\n', "p.toml")
    assert repr(spans) == "SourceMap('p.toml', 4 values)"
    assert list(spans.paths()) == [(), ("a",), ("t",), ("t", "b")]
    assert spans.value_span(("t", "b")) == Span("p.toml", 3, 5, 3, 9)
    assert spans.value_span(("t", "c")) is None
