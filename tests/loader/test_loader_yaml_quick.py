"""The quick read of a YAML file: the composer's answer, or none at all.

Whatever the quick read (``_yaml_quick``) gives for a text must be what composing it and
reading the nodes (``_yaml_plain``) gives: the same data, key order and value types, and the
same ``has_numbers`` and ``bad_numbers``. Whatever it does not read, that path reads as before.
"""

# pyright: reportPrivateUsage=false
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml.error import MarkedYAMLError
from ruamel.yaml.reader import ReaderError

from wink_decl.diagnostics import Span
from wink_decl.limits import DEFAULT_LIMITS, MAX_DEPTH_CEILING
from wink_decl.loader import Limits, load_text
from wink_decl.loader import _yaml as yaml_module
from wink_decl.loader._yaml_compose import compose
from wink_decl.loader._yaml_plain import NotPlain, PlainReader
from wink_decl.loader._yaml_quick import (
    QuickRead,
    _NotQuick,
    _Reader,
    quick_read,
)

from .test_loader_properties import YAML_LEAVES, YAML_STYLES, dump_yaml, json_data

KEYS = (
    "a", "key", "Key x", "k ", "'q'", '"d"', "'it''s'", '"a: b"', "1", "true", "on", "yes",
    "~", "null", "Null", "a:b", ":x", "-a", "x#y", "2001-01-01", "<<", "=", "tx", "n",
    "'1'", "[a]", "{a}", "? a", "&k a", "*k", "!t a", "a,b", "\u00e9t\u00e9",
)  # fmt: skip
VALUES = (
    "", "x", "hello world", "0o7", "0o8", "07", "1_000", "_1", "+_", ".inf", "-.inf", ".nan",
    ".NaN", "1e3", "1.5e-3", "+1", "-1", "~", "Null", "NULL", "nULL", "yes", "on", "True",
    "tRUE", "-", "- -", "- a", ":x", "a:b", "a: b", "x:", "#x", "x #c", "x#c", "x  ",
    "'s'", "'s''q'", "''", '""', '"d"', '"a\\"b"', "'open", '"open', "'a' # c", "'a'#c",
    "'a' b", "[a, b]", "[]", "{}", "[ ]", "{a: 1, b: 'x'}", '{"a": b, c: "d"}', "{a: b,}",
    "[a, [b]]", "{a:b}", "{a: b, a: c}", "{1: a}", "{a: 2001-01-01}", "[a, b] # c",
    "[a, b]x", "[-1, -a, - a]", "[a #b]", "[a: b]", "[a , b ]", "|", "|-", "|+", "|2",
    "|#c", "| # c", ">", ">-", "&a x", "*a", "!!str x", "!x", "1.5", "0x1F", "0b11", "-0",
    "9223372036854775808", "1e400", "2001-12-14", "a]", "${x}", "%x", "@x", "`x`", "?x",
    "? x", "x: y:", ",x", "=", "<<", "\u00e9", "a'b", 'a"b',
)  # fmt: skip
SAFE_VALUES = (
    "x", "hello world", "0o7", "1_000", ".inf", "1e3", "+1", "~", "yes", "True", "'s''q'",
    '"d"', "[a, b]", "{a: 1, b: 'x'}", "[]", "x#c", "${x}", "a:b", "-1", "",
)  # fmt: skip
COMMENTS = ("", "", " # c", "  #c", " #")


def slow_read(text: str, limits: Limits = DEFAULT_LIMITS) -> QuickRead | None:
    """What composing ``text`` and reading its nodes plainly gives (None: not plain)."""
    try:
        root = compose(text)
    except (MarkedYAMLError, ReaderError):
        return None
    if root is None:
        return None
    reader = PlainReader(limits)
    try:
        data = reader.document(root, text)
    except NotPlain:
        return None
    return data, reader.has_numbers, reader.bad_numbers


def assert_same(text: str, limits: Limits = DEFAULT_LIMITS) -> QuickRead | None:
    quick = quick_read(text, limits)
    if quick is not None:  # repr tells True from 1, 1.0 from 1, and shows NaN alike
        assert repr(quick) == repr(slow_read(text, limits)), text
    return quick


def _literal(draw: st.DrawFn, indent: int) -> list[str]:
    body: list[str] = []
    for _ in range(draw(st.integers(0, 4))):
        extra = draw(st.sampled_from((0, 0, 1, 2)))
        body.append(draw(st.sampled_from(("", " " * extra, " " * (indent + extra) + "t x"))))
        body.append(" " * (indent + extra) + draw(st.sampled_from(("text", "# not", "- a"))))
    return body


def _mapping(draw: st.DrawFn, indent: int, depth: int, first: str | None = None) -> list[str]:
    lines: list[str] = []
    for index in range(draw(st.integers(1, 3))):
        pad = first if index == 0 and first is not None else " " * indent
        key = draw(st.sampled_from(KEYS[:8] if draw(st.booleans()) else KEYS))
        sep = draw(st.sampled_from((": ", ": ", ": ", ":", ":  ", " : ")))
        kinds = ("scalar", "scalar", "empty", "literal")
        kind = draw(st.sampled_from((*kinds, "map", "seq") if depth < 3 else kinds))
        comment = draw(st.sampled_from(COMMENTS))
        if kind == "map":
            lines.append(f"{pad}{key}:{comment}")
            lines += _mapping(draw, indent + draw(st.sampled_from((1, 2, 4))), depth + 1)
        elif kind == "seq":
            lines.append(f"{pad}{key}:{comment}")
            lines += _sequence(draw, indent + draw(st.sampled_from((0, 2, 3))), depth + 1)
        elif kind == "literal":
            header = draw(st.sampled_from(("|", "|-", "|+", "|2", ">")))
            lines.append(f"{pad}{key}: {header}{comment}")
            lines += _literal(draw, indent + draw(st.sampled_from((1, 2, 4))))
        else:
            values = SAFE_VALUES if draw(st.booleans()) else VALUES
            value = draw(st.sampled_from(values)) if kind == "scalar" else ""
            lines.append(f"{pad}{key}{sep}{value}{comment}")
        if draw(st.integers(0, 5)) == 0:
            lines.append(" " * draw(st.integers(0, 5)) + draw(st.sampled_from(("", "# c", "#"))))
    return lines


def _sequence(draw: st.DrawFn, indent: int, depth: int) -> list[str]:
    lines: list[str] = []
    pad = " " * indent
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(("scalar", "map", "nested", "literal", "empty")))
        if kind == "map":
            gap = draw(st.sampled_from((1, 2)))
            lines += _mapping(draw, indent + 1 + gap, depth + 1, first=pad + "-" + " " * gap)
        elif kind == "nested" and depth < 3:
            lines.append(pad + "-")
            lines += _mapping(draw, indent + draw(st.sampled_from((1, 2))), depth + 1)
        elif kind == "literal":
            lines.append(pad + "- " + draw(st.sampled_from(("|", "|-", "|+"))))
            lines += _literal(draw, indent + draw(st.sampled_from((1, 2))))
        else:
            values = SAFE_VALUES if draw(st.booleans()) else VALUES
            value = draw(st.sampled_from(values)) if kind == "scalar" else ""
            lines.append(f"{pad}- {value}")
    return lines


@st.composite
def yaml_texts(draw: st.DrawFn) -> str:
    """Prompt-like YAML around the quick read's edges, now and then one line moved."""
    lines = _mapping(draw, draw(st.sampled_from((0, 0, 1))), 1)
    if lines and draw(st.integers(0, 5)) == 0:
        index = draw(st.integers(0, len(lines) - 1))
        shift = draw(st.sampled_from((-1, 1, 2)))
        line = lines[index]
        lines[index] = line[1:] if shift < 0 and line.startswith(" ") else " " * shift + line
    if draw(st.integers(0, 9)) == 0:
        lines.insert(draw(st.integers(0, len(lines))), draw(st.sampled_from(("---", "...", "- a"))))
    ending = draw(st.sampled_from(("\n", "\n", "", "\n\n", "\n  ")))
    return "\n".join(lines) + ending


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(yaml_texts())
def test_the_quick_read_is_the_composers_read_or_none(text: str) -> None:
    assert_same(text)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_data(YAML_LEAVES), YAML_STYLES)
def test_dumped_yaml_reads_as_the_composer_reads_it(
    data: dict[str, Any], style: dict[str, Any]
) -> None:
    assert_same(dump_yaml(data, style))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from((*VALUES, *KEYS, ":", " ", "\n", "- ", "  ", "#")), max_size=12))
def test_any_text_of_these_pieces_reads_as_the_composer_reads_it(pieces: list[str]) -> None:
    assert_same("".join(pieces))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(yaml_texts(), st.integers(1, 4), st.integers(1, 12), st.integers(1, 6))
def test_near_a_limit_the_quick_read_steps_aside(
    text: str, max_depth: int, max_nodes: int, max_key_length: int
) -> None:
    limits = Limits(max_depth=max_depth, max_nodes=max_nodes, max_key_length=max_key_length)
    if assert_same(text, limits) is not None:
        assert slow_read(text, limits) is not None


QUICK = {
    "mapping": ("a: x\nb: 1\n", {"a": "x", "b": 1}),
    "core-numbers": (
        "a: 0o7\nb: 1_000\nc: .inf\nd: 1e3\ne: +1\nf: 0x1F\ng: -.5\n",
        {"a": 7, "b": 1000, "c": float("inf"), "d": 1000.0, "e": 1, "f": 31, "g": -0.5},
    ),
    "text-that-starts-like-a-number": (
        "a: 1a\nb: .x\nc: -a\nd: 12345678901234567890\n",
        {"a": "1a", "b": ".x", "c": "-a", "d": 12345678901234567890},
    ),
    "yaml-1.1-words-are-text": (
        "a: yes\nb: on\nc: nULL\nd: '~'\n",
        {"a": "yes", "b": "on", "c": "nULL", "d": "~"},
    ),
    "null-and-bools": (
        "a: ~\nb: Null\nc:\nd: True\ne: FALSE\n",
        {"a": None, "b": None, "c": None, "d": True, "e": False},
    ),
    "comments-and-hashes": (
        "# head\na: x #c\nb: x#c  # tail\n  # indented\n\nc: '#'\n",
        {"a": "x", "b": "x#c", "c": "#"},
    ),
    "quoted": (
        "'a': 'it''s'\n\"b\": \"x: y\"\nc: ''\n",
        {"a": "it's", "b": "x: y", "c": ""},
    ),
    "colons-in-text": ("a: b:c\nu: http://x\n", {"a": "b:c", "u": "http://x"}),
    "flow": (
        "p: {type: string, default: 'a, b'}\nl: [a, -1, \"c\" ]\ne: []\nf: {}\n",
        {"p": {"type": "string", "default": "a, b"}, "l": ["a", -1, "c"], "e": [], "f": {}},
    ),
    "block-list-at-key-indent": (
        "a:\n- x\n- k: v\n  w: 2\nb: 1\n",
        {"a": ["x", {"k": "v", "w": 2}], "b": 1},
    ),
    "nested": (
        "a:\n  b:\n    - c\n    -\n      d: e\n    - \n  f: g\n",
        {"a": {"b": ["c", {"d": "e"}, None], "f": "g"}},
    ),
    "literal-clip": ("a: |\n  x\n\n   y \n\nb: 1\n", {"a": "x\n\n y \n", "b": 1}),
    "literal-margin-only-line": ("a: |\n  x\n  \n  y\n", {"a": "x\n\ny\n"}),
    "flow-quoted-keys": ("a: {'k': 1, \"d\": x}\n", {"a": {"k": 1, "d": "x"}}),
    "literal-strip": ("a: |-\n  x\n\n", {"a": "x"}),
    "literal-keep": ("a: |+ # c\n  x\n\n# c\n\n", {"a": "x\n\n"}),
    "literal-in-list": ("a:\n  - |\n   # x\n  - y\n", {"a": ["# x\n", "y"]}),
    "no-final-newline": ("a: x", {"a": "x"}),
    "indented-root": ("  a: 1\n  b: 2\n", {"a": 1, "b": 2}),
}

NOT_QUICK = {
    "empty": "",
    "comment-only": "# c\n",
    "root-list": "- a\n",
    "root-scalar": "a\n",
    "tab": "a:\tb\n",
    "carriage-return": "a: b\r\n",
    "bom": "\ufeffa: b\n",
    "next-line": "a: b\x85",
    "control": "a: \x07\n",
    "document-start": "---\na: b\n",
    "document-end": "a: b\n...\n",
    "directive": "%YAML 1.2\n---\na: b\n",
    "explicit-key": "? a\n: b\n",
    "anchor-and-alias": "a: &x b\nc: *x\n",
    "tag": "a: !!str b\n",
    "number-key": "1: a\n",
    "bool-key": "true: a\n",
    "null-key": "~: a\n",
    "date-key": "2001-01-01: a\n",
    "duplicate-key": "a: 1\na: 2\n",
    "duplicate-flow-key": "a: {b: 1, b: 2}\n",
    "number-flow-key": "a: {1: b}\n",
    "number-flow-key-after-quoted": "a: {'k': 1, 1: b}\n",
    "duplicate-quoted-flow-key": "a: {'k': 1, \"k\": 2}\n",
    "literal-blank-to-the-end": "a: |\n\n",
    "date": "a: 2001-12-14\n",
    "merge": "a: <<\n",
    "value-tag": "a: =\n",
    "continuation": "a: b\n  c\n",
    "quoted-continuation": "a: 'b\n  c'\n",
    "escape": 'a: "b\\n"\n',
    "nested-flow": "a: [b, [c]]\n",
    "flow-trailing-comma": "a: [b, c,]\n",
    "flow-over-lines": "a: [b,\n  c]\n",
    "flow-then-text": "a: [b] c\n",
    "folded": "a: >\n  b\n",
    "indentation-indicator": "a: |2\n   b\n",
    "literal-at-end-without-newline": "a: |\n  b",
    "literal-empty": "a: |\nb: 1\n",
    "literal-deeper-blank-first": "a: |\n     \n  b\n",
    "list-in-list": "a:\n  - - b\n",
    "compact-mapping-misaligned": "a:\n  - b: 1\n     c: 2\n",
    "mapping-in-value": "a: b: c\n",
    "dash-value": "a: - b\n",
    "indicator-value": "a: @b\n",
    "list-after-value": "a: b\n- c\n",
    "value-on-next-line": "a:\n  b\n",
    "too-long-key": "a" * 1_001 + ": b\n",
}


@pytest.mark.parametrize(("text", "data"), QUICK.values(), ids=QUICK.keys())
def test_these_read_quick(text: str, data: dict[str, object]) -> None:
    quick = assert_same(text)
    assert quick is not None
    assert repr(quick[0]) == repr(data)


@pytest.mark.parametrize("text", NOT_QUICK.values(), ids=NOT_QUICK.keys())
def test_these_are_left_to_the_composer(text: str) -> None:
    assert quick_read(text, DEFAULT_LIMITS) is None


def test_numbers_are_counted_as_the_plain_read_counts_them() -> None:
    assert quick_read("a: x\n", DEFAULT_LIMITS) == ({"a": "x"}, False, False)
    assert quick_read("a: 1\n", DEFAULT_LIMITS) == ({"a": 1}, True, False)
    assert repr(quick_read("a: [.nan]\n", DEFAULT_LIMITS)) == "({'a': [nan]}, True, True)"


@pytest.mark.parametrize(
    ("text", "limits"),
    [
        ("a:\n  b:\n    c: 1\n", Limits(max_depth=2)),
        ("a:\n- b\n", Limits(max_depth=1)),
        ("a:\n  - b: 1\n", Limits(max_depth=3)),
        ("a: [b]\n", Limits(max_depth=1)),
        ("a: 1\nb: 2\n", Limits(max_nodes=3)),
        ("abc: 1\n", Limits(max_key_length=2)),
    ],
    ids=["depth-mapping", "depth-list", "depth-compact", "depth-flow", "nodes", "key-length"],
)
def test_a_file_near_a_limit_is_left_to_the_composer(text: str, limits: Limits) -> None:
    assert quick_read(text, limits) is None


def _all_spans(text: str) -> list[tuple[object, Span | None, Span | None]]:
    result = load_text(text, path="p.yaml", format="yaml")
    assert result.file is not None
    spans = result.file.source_map
    return [(path, spans.value_span(path), spans.key_span(path)) for path in spans.paths()]


def _never_quick(_text: str, _limits: Limits) -> None:
    return None


@pytest.mark.parametrize("text", [text for text, _ in QUICK.values()], ids=QUICK.keys())
def test_a_quick_read_file_has_the_spans_of_a_composed_one(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    quick = _all_spans(text)
    monkeypatch.setattr(yaml_module, "quick_read", _never_quick)
    assert quick == _all_spans(text)


def test_a_span_asked_for_first_composes_the_nodes_once() -> None:
    result = load_text("key: review\nsections:\n  - title: T\n", path="p.yaml", format="yaml")
    assert result.file is not None
    spans = result.file.source_map
    assert spans.key_span(("sections", 0, "title")) == Span("p.yaml", 3, 5, 3, 9)
    assert spans.value_span(("sections", 0, "title")) == Span("p.yaml", 3, 12, 3, 12)


def test_block_mappings_nested_near_the_ceiling_read_quick() -> None:
    """199 levels: three Python frames a level, well within the interpreter's recursion limit."""
    ceiling = Limits(max_depth=MAX_DEPTH_CEILING)
    levels = MAX_DEPTH_CEILING - 1
    text = "".join(f"{' ' * level}k{level}:\n" for level in range(levels - 1))
    text += f"{' ' * (levels - 1)}k{levels - 1}: x\n"
    quick = assert_same(text, ceiling)
    assert quick is not None
    assert quick_read(" " + text.replace("\n", "\n "), ceiling) is not None
    assert quick_read(text.replace("x\n", "\n" + " " * levels + "y: x\n"), ceiling) is None


def line_read(text: str, limits: Limits = DEFAULT_LIMITS) -> QuickRead | None:
    """What the whole-text line read (``_Reader.lines_read``) alone gives for ``text``."""
    reader = _Reader(limits)
    try:
        data = reader.lines_read(text)
    except _NotQuick:  # a value the quick reads leave to the composer (a date)
        return None
    return None if data is None else (data, reader.has_numbers, reader.bad_numbers)


def assert_line_read_same(text: str, limits: Limits = DEFAULT_LIMITS) -> QuickRead | None:
    """The line read gives None, or what the line-by-line read and the composer give."""
    fast = line_read(text, limits)
    if fast is not None:
        reader = _Reader(limits)
        data = reader.document(text)
        assert repr(fast) == repr((data, reader.has_numbers, reader.bad_numbers)), text
        assert repr(fast) == repr(slow_read(text, limits)), text
    return fast


FAST_KEYS = ("a", "b c", "k ", "1", "true", "x#y", "-k", "2001-01-01", "\u00e9")
FAST_VALUES = (
    "x", "1", "0o7", ".inf", "yes", "~", "Null", "x: y", "x:", "x #c", "x#c", "x ", "a:b",
    "2001-01-01", "{a: b, c: 1}", "{a: b, a: c}", "{1: a}", "{-a: -1}", "{a: b} # c",
    "{a: b}x", "{a: 'b'}", "{a:b}", "${x} (y).", "'q'", "-1",
)  # fmt: skip


@st.composite
def fast_texts(draw: st.DrawFn) -> str:
    """Texts of key lines and ``- key`` lines nested by spaces, now and then one line off."""
    lines: list[str] = []
    column = 0
    for _ in range(draw(st.integers(1, 10))):
        column = max(0, column + draw(st.sampled_from((-4, -2, 0, 0, 2, 2, 1))))
        dash = draw(st.sampled_from(("", "", "- ", "-  ")))
        key = draw(st.sampled_from(FAST_KEYS))
        value = draw(st.sampled_from(("", "", *FAST_VALUES)))
        comment = draw(st.sampled_from(("", "", " # c")))
        lines.append(f"{' ' * column}{dash}{key}:{' ' + value if value else ''}{comment}")
        if draw(st.integers(0, 6)) == 0:
            lines.append(draw(st.sampled_from(("", "  ", "# c", "  #c", "  x", "- a"))))
    ending = draw(st.sampled_from(("\n", "\n", "", "\n\n", "\n# c\n")))
    return "\n".join(lines) + ending


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fast_texts(), st.integers(2, 5), st.integers(2, 30))
def test_the_line_read_is_the_other_reads_or_none(
    text: str, max_depth: int, max_nodes: int
) -> None:
    assert_line_read_same(text)
    assert_line_read_same(text, Limits(max_depth=max_depth, max_nodes=max_nodes))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(yaml_texts())
def test_the_line_read_of_any_prompt_like_text_is_the_other_reads_or_none(text: str) -> None:
    assert_line_read_same(text)


LINE_READ = {
    "dedent": ("a:\n  b:\n    c: 1\nd: 2\n", {"a": {"b": {"c": 1}}, "d": 2}),
    "list-at-key-column": ("a:\n- b: 1\n  c: x\nd:\n", {"a": [{"b": 1, "c": "x"}], "d": None}),
    "list-deeper": ("a:\n  -  b: y\n  - c: {d: e}\n", {"a": [{"b": "y"}, {"c": {"d": "e"}}]}),
    "flow-pairs": ("a: {b: c, d: 1}\n", {"a": {"b": "c", "d": 1}}),
    "comments-and-blanks": (
        "# c\na: x\n\n  # c\nb: ${y} (z).\n\n# c\n",
        {"a": "x", "b": "${y} (z)."},
    ),
    "no-final-newline": ("a: true", {"a": True}),
}
NOT_LINE_READ = {
    "between-indentations": "a:\n    b: 1\n  c: 2\n",
    "deeper-after-a-value": "a: b\n  c: d\n",
    "list-item-at-a-mapping-column": "a: 1\n- b: 2\n",
    "key-at-a-deeper-lists-column": "a:\n  - b: 1\n  c: 2\n",
    "comment-after-a-value": "a: b # c\n",
    "duplicate": "a: 1\na: 2\n",
    "key-not-text": "1: a\n",
    "flow-not-plain": "a: {b: 'c'}\n",
    "flow-nested": "a: {b: [c]}\n",
    "flow-duplicate": "a: {b: c, b: d}\n",
    "flow-key-not-text": "a: {null: c}\n",
    "date": "a: 2001-01-01\n",
    "other-line": "a:\n  - b\n",
    "empty": "\n# c\n",
}


@pytest.mark.parametrize(("text", "data"), LINE_READ.values(), ids=LINE_READ.keys())
def test_these_are_line_read(text: str, data: dict[str, object]) -> None:
    fast = assert_line_read_same(text)
    assert fast is not None
    assert fast[0] == data
    assert quick_read(text, DEFAULT_LIMITS) == fast


@pytest.mark.parametrize("text", NOT_LINE_READ.values(), ids=NOT_LINE_READ.keys())
def test_these_are_left_to_the_line_by_line_read(text: str) -> None:
    assert line_read(text) is None
    assert_same(text)  # the line-by-line read (or the composer) decides, as before


@pytest.mark.parametrize(
    ("text", "limits"),
    [
        ("a:\n  b: 1\n", Limits(max_depth=2)),
        ("a:\n- b: 1\n", Limits(max_depth=2)),
        ("a: {b: c}\n", Limits(max_depth=2)),
        ("a: 1\nb: 2\n", Limits(max_nodes=3)),
        ("abc: 1\n", Limits(max_key_length=2)),
        ("a: {abc: 1}\n", Limits(max_key_length=2)),
    ],
    ids=["depth-mapping", "depth-list", "depth-flow", "nodes", "key-length", "flow-key-length"],
)
def test_near_a_limit_the_line_read_steps_aside(text: str, limits: Limits) -> None:
    assert line_read(text, limits) is None
    assert quick_read(text, limits) is None
