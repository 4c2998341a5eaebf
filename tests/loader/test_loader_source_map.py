"""SourceMap: lookups by JSON path, nearest existing prefix, immutability."""

from typing import Literal

import pytest

from wink_decl.diagnostics import Span
from wink_decl.loader import SourceMap, load_text
from wink_decl.loader._source_map import source_map_on_first_use

TEXT = "key: review\nsections:\n  - title: Task\n    tools: [read_file]\n"


@pytest.fixture
def spans() -> SourceMap:
    result = load_text(TEXT, path="p.yaml", format="yaml")
    assert result.file is not None
    return result.file.source_map


def test_value_and_key_spans(spans: SourceMap) -> None:
    assert spans.path == "p.yaml"
    assert spans.value_span(("sections", 0, "title")) == Span("p.yaml", 3, 12, 3, 15)
    assert spans.key_span(("sections", 0, "title")) == Span("p.yaml", 3, 5, 3, 9)


def test_list_items_and_the_root_have_no_key(spans: SourceMap) -> None:
    assert spans.key_span(("sections", 0)) is None
    assert spans.key_span(("sections", 0, "tools", 0)) is None
    assert spans.key_span(()) is None


def test_missing_paths_have_no_span(spans: SourceMap) -> None:
    assert spans.value_span(("nope",)) is None
    assert spans.key_span(("sections", 3)) is None


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        (("sections", 0, "tools", 0), Span("p.yaml", 4, 13, 4, 21)),
        (("sections", 0, "tools", 5), Span("p.yaml", 4, 12, 4, 22)),
        (("sections", 0, "summary"), Span("p.yaml", 3, 5, 3, 15)),
        (("sections", 7, "title"), Span("p.yaml", 3, 3, 3, 15)),
        (("title",), Span("p.yaml", 1, 1)),
        ((), Span("p.yaml", 1, 1)),
    ],
    ids=["exists", "missing-item", "missing-key", "missing-index", "missing-top", "root"],
)
def test_nearest_is_the_longest_existing_prefix(
    spans: SourceMap, path: tuple[str | int, ...], expected: Span
) -> None:
    assert spans.nearest(path) == expected


def test_paths_in_document_order(spans: SourceMap) -> None:
    assert list(spans.paths()) == [
        (),
        ("key",),
        ("sections",),
        ("sections", 0),
        ("sections", 0, "title"),
        ("sections", 0, "tools"),
        ("sections", 0, "tools", 0),
    ]


def test_source_map_is_immutable(spans: SourceMap) -> None:
    with pytest.raises(AttributeError, match="immutable; cannot set 'path'"):
        spans.path = "other"  # type: ignore[misc]
    with pytest.raises(AttributeError, match="immutable; cannot delete 'path'"):
        del spans.path  # type: ignore[misc]
    assert repr(spans) == "SourceMap('p.yaml', 7 values)"


def test_index_spans_become_lines_and_columns_when_looked_up() -> None:
    result = load_text('a = 1\nb = "two"\n', path="p.toml", format="toml")
    assert result.file is not None
    spans = result.file.source_map
    assert spans.value_span(("b",)) == Span("p.toml", 2, 5, 2, 9)
    assert spans.key_span(("b",)) == Span("p.toml", 2, 1, 2, 1)
    assert spans.nearest(("b", "c")) == Span("p.toml", 2, 5, 2, 9)


def test_a_map_made_on_first_use_answers_as_the_map_it_makes() -> None:
    made: list[SourceMap] = []
    eager = SourceMap("p.toml", {(): (0, 0), ("a",): (1, 2)}, {("a",): (3, 4)})

    def make() -> SourceMap:
        made.append(eager)
        return eager

    deferred = source_map_on_first_use("p.toml", make)
    assert (deferred.path, made) == ("p.toml", [])  # nothing made until a span is asked for
    assert deferred.value_span(("a",)) == Span("p.toml", 1, 2)
    assert deferred.key_span(("a",)) == Span("p.toml", 3, 4)
    assert deferred.nearest(("a", 0)) == Span("p.toml", 1, 2)
    assert list(deferred.paths()) == [(), ("a",)]
    assert repr(deferred) == "SourceMap('p.toml', 2 values)"
    assert made == [eager]  # made once, on the first lookup
    with pytest.raises(AttributeError, match="SourceMap is immutable"):
        deferred.path = "q.toml"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("text", "file_format", "span"),
    [("a: b\n", "yaml", Span("p", 1, 4, 1, 4)), ("a = 'b'\n", "toml", Span("p", 1, 5, 1, 7))],
)
def test_a_quick_read_makes_its_source_map_when_first_asked(
    text: str, file_format: Literal["yaml", "toml"], span: Span
) -> None:
    result = load_text(text, path="p", format=file_format)
    assert result.file is not None
    source_map = result.file.source_map
    assert type(source_map) is not SourceMap  # not made yet
    assert source_map.value_span(("a",)) == span
