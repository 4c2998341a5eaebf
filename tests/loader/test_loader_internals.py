"""Corners of the loader's parts that whole files reach rarely or never."""

from types import SimpleNamespace
from typing import Any, cast

import pytest
from ruamel.yaml.error import MarkedYAMLError
from ruamel.yaml.tag import Tag

from wink_decl.diagnostics import Diagnostic, Span
from wink_decl.loader import PROMPT_FILE, Limits, load_text
from wink_decl.loader._toml_errors import display_key, syntax_diagnostic
from wink_decl.loader._toml_positions import TomlPositions
from wink_decl.loader._yaml import SAFE_NESTING, nesting_bound
from wink_decl.loader._yaml_errors import syntax_diagnostic as yaml_syntax_diagnostic
from wink_decl.loader._yaml_walk import Walker


def test_toml_message_without_a_position_or_a_known_wording() -> None:
    diagnostic = syntax_diagnostic("a = 1\n", "p.toml", "Something new went wrong")
    assert diagnostic == Diagnostic(
        message="TOML cannot read this: Something new went wrong.",
        span=Span("p.toml", 1, 6),
        code="toml-syntax",
        expected="valid TOML",
        hint="Look for a missing '=', quote or bracket on this line.",
    )


def test_toml_conflict_with_nothing_named_before_it() -> None:
    diagnostic = syntax_diagnostic(
        "a = 1\n", "p.toml", "Cannot overwrite a value (at line 1, column 6)"
    )
    assert (diagnostic.message, diagnostic.span) == (
        "Key 'a' appears twice in this table (first on line 1).",
        Span("p.toml", 1, 1, 1, 1),
    )


@pytest.mark.parametrize(
    ("path", "shown"),
    [(("a", "b"), "a.b"), (("sections", 0, "key"), "sections.key"), (("a b", "c"), '"a b".c')],
    ids=["bare", "array-index", "quoted"],
)
def test_display_key(path: tuple[str | int, ...], shown: str) -> None:
    assert display_key(path) == shown


@pytest.mark.parametrize(
    ("text", "values", "keys"),
    [
        ("a", {(): (0, 0), ("a",): (1, 1)}, {("a",): (0, 0)}),
        (
            "a.",
            {(): (0, 1), ("a",): (0, 0), ("a", ""): (2, 2)},
            {("a",): (0, 0), ("a", ""): (2, 2)},
        ),
        ("a =", {(): (0, 2), ("a",): (3, 3)}, {("a",): (0, 0)}),
        ("[a", {(): (0, 1), ("a",): (0, 1)}, {("a",): (1, 1)}),
        ("x = [1, ", {(): (0, 7), ("x",): (4, 7), ("x", 0): (5, 5)}, {("x",): (0, 0)}),
        (
            'x = {"q',
            {(): (0, 6), ("x",): (4, 6), ("x", "q"): (7, 7)},
            {("x",): (0, 0), ("x", "q"): (5, 6)},
        ),
        ("'k", {(): (0, 1), ("k",): (2, 2)}, {("k",): (0, 1)}),
        ("x = ,", {(): (0, 4), ("x",): (4, 4)}, {("x",): (0, 0)}),
    ],
    ids=[
        "key-only",
        "dot-at-end",
        "no-value",
        "open-header",
        "open-array",
        "open-table",
        "open-key",
        "bad-value",
    ],
)
def test_toml_positions_of_a_cut_text(
    text: str,
    values: dict[tuple[str | int, ...], tuple[int, int]],
    keys: dict[tuple[str | int, ...], tuple[int, int]],
) -> None:
    scan = TomlPositions(text)
    assert scan.values == values
    assert scan.keys == keys


def test_yaml_error_without_marks() -> None:
    error = MarkedYAMLError(problem="something odd")
    diagnostic = yaml_syntax_diagnostic("a: 1\n", "p.yaml", error)
    assert (diagnostic.message, diagnostic.span) == (
        "YAML cannot read this: something odd.",
        Span("p.yaml", 1, 1),
    )


def test_tag_not_found_in_the_text_is_named_from_the_node() -> None:
    walker = Walker("a: x\n", "p.yaml", Limits(), PROMPT_FILE)
    node = SimpleNamespace(
        ctag=Tag(suffix="tag:yaml.org,2002:python/name"), start_mark=SimpleNamespace(index=3)
    )
    diagnostic = walker.tag_diagnostic(cast("Any", node), (1, 4, 1, 4))
    assert (diagnostic.message, diagnostic.span) == (
        "Tags such as '!!python/name' are not allowed in prompt files.",
        Span("p.yaml", 1, 4, 1, 4),
    )


def test_many_indicators_but_shallow_loads_after_an_event_check() -> None:
    text = "items:\n" + "".join(f"  - [a{i}, {{b: c}}]\n" for i in range(600))
    assert nesting_bound(text) > SAFE_NESTING
    result = load_text(text, path="p.yaml", format="yaml")
    assert result.file is not None
    assert len(result.file.data["items"]) == 600  # type: ignore[index]


def test_old_mac_line_breaks_always_get_the_event_check() -> None:
    text = "items:\r" + "".join(f"  - [a{i}, {{b: c}}]\r" for i in range(400))
    assert nesting_bound(text) == SAFE_NESTING + 1
    result = load_text(text, path="p.yaml", format="yaml")
    assert result.file is not None
    spans = result.file.source_map
    assert spans.value_span(("items", 399, 1, "b")) == Span("p.yaml", 401, 16, 401, 16)


def test_toml_keys_with_unicode_escapes() -> None:
    text = '"caf\\u00e9" = 1\n"\\U0001F600" = 2\n'
    result = load_text(text, path="p.toml", format="toml")
    assert result.file is not None
    assert result.file.data == {"café": 1, "\U0001f600": 2}
    assert result.file.source_map.key_span(("\U0001f600",)) == Span("p.toml", 2, 1, 2, 12)


@pytest.mark.parametrize(
    ("text", "path", "expected"),
    [
        ("a:\n  - title: first  \n      second\n", ("a", 0), Span("p.yaml", 2, 5, 2, 16)),
        ("a:\n  - [x, y\n    ]\n", ("a",), Span("p.yaml", 2, 3, 2, 9)),
    ],
    ids=["plain-text-with-trailing-blanks", "bracket-closed-below"],
)
def test_first_line_of_a_block_collection(
    text: str, path: tuple[str | int, ...], expected: Span
) -> None:
    result = load_text(text, path="p.yaml", format="yaml")
    assert result.file is not None
    assert result.file.source_map.value_span(path) == expected
