"""SourceMap: lookups by JSON path, nearest existing prefix, immutability."""

import pytest

from wink_decl.diagnostics import Span
from wink_decl.loader import SourceMap, load_text

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
