"""Exact spans of values and keys in representative YAML and TOML prompt files."""

import pytest

from wink_decl.diagnostics import Span
from wink_decl.loader import JSONPath, SourceMap, load_text

PATH = "review.wink"

YAML_TEXT = """\
# A review prompt.
key: review
title: "Code review"
tags: [style, {level: strict}]
params:
  language:
    type: string   # the language
sections:
  - key: task
    template: |
      Review the change.
      Name each problem.

  - key: notes
    summary: >-
      Folded
      text
    tools:
      - read_file
      - &lister list_dir
  - {key: extra, tools: [*lister]}
plain: first line
  second line
empty:
quoted: 'it''s'
items:
  -
    first
wrapped:
  - tools: [read,
      write]
alias_first:
  - [*lister,
     more]
bracket_alone:
  - [
     alone]
mapping_first:
  - {a: 1,
     b: 2}
block_first:
  - key: |
      block
plain_first:
  - title: first
      second
"""
TOML_TEXT = '''\
# A review prompt.
key = "review"
"quoted key" = 'literal'
tags = ["style", { level = "strict" }]
params.language.type = "string"  # dotted
released = 2024-05-31
when = 1979-05-27 07:32:00Z
numbers = [
  1,  # one
  2.5,
  0x1F,
]
template = """
Review the change.\\
  Then stop."""

[[sections]]
key = "task"

[[sections]]
key = "notes"
tools = { read = "files.read", list = "files.list" }

[sections.extra]
enabled = true
"tab\\there" = 1
'''

YAML_SPANS = [
    pytest.param((), (2, 1, 2, 11), None, id="root"),
    pytest.param(("key",), (2, 6, 2, 11), (2, 1, 2, 3), id="key"),
    pytest.param(("title",), (3, 8, 3, 20), (3, 1, 3, 5), id="title"),
    pytest.param(("tags",), (4, 7, 4, 30), (4, 1, 4, 4), id="tags"),
    pytest.param(("tags", 0), (4, 8, 4, 12), None, id="tags/0"),
    pytest.param(("tags", 1), (4, 15, 4, 29), None, id="tags/1"),
    pytest.param(("tags", 1, "level"), (4, 23, 4, 28), (4, 16, 4, 20), id="tags/1/level"),
    pytest.param(("params",), (6, 3, 6, 11), (5, 1, 5, 6), id="params"),
    pytest.param(("params", "language"), (7, 5, 7, 16), (6, 3, 6, 10), id="params/language"),
    pytest.param(
        ("params", "language", "type"), (7, 11, 7, 16), (7, 5, 7, 8), id="params/language/type"
    ),
    pytest.param(("sections",), (9, 3, 9, 13), (8, 1, 8, 8), id="sections"),
    pytest.param(("sections", 0), (9, 5, 9, 13), None, id="sections/0"),
    pytest.param(("sections", 0, "key"), (9, 10, 9, 13), (9, 5, 9, 7), id="sections/0/key"),
    pytest.param(
        ("sections", 0, "template"), (10, 15, 12, 24), (10, 5, 10, 12), id="sections/0/template"
    ),
    pytest.param(("sections", 1), (14, 5, 14, 14), None, id="sections/1"),
    pytest.param(("sections", 1, "key"), (14, 10, 14, 14), (14, 5, 14, 7), id="sections/1/key"),
    pytest.param(
        ("sections", 1, "summary"), (15, 14, 17, 10), (15, 5, 15, 11), id="sections/1/summary"
    ),
    pytest.param(("sections", 1, "tools"), (19, 7, 19, 17), (18, 5, 18, 9), id="sections/1/tools"),
    pytest.param(("sections", 1, "tools", 0), (19, 9, 19, 17), None, id="sections/1/tools/0"),
    pytest.param(("sections", 1, "tools", 1), (20, 17, 20, 24), None, id="sections/1/tools/1"),
    pytest.param(("sections", 2), (21, 5, 21, 34), None, id="sections/2"),
    pytest.param(("sections", 2, "key"), (21, 11, 21, 15), (21, 6, 21, 8), id="sections/2/key"),
    pytest.param(
        ("sections", 2, "tools"), (21, 25, 21, 33), (21, 18, 21, 22), id="sections/2/tools"
    ),
    pytest.param(("sections", 2, "tools", 0), (21, 26, 21, 32), None, id="sections/2/tools/0"),
    pytest.param(("plain",), (22, 8, 23, 13), (22, 1, 22, 5), id="plain"),
    pytest.param(("empty",), (24, 7, 24, 7), (24, 1, 24, 5), id="empty"),
    pytest.param(("quoted",), (25, 9, 25, 15), (25, 1, 25, 6), id="quoted"),
    pytest.param(("items",), (27, 3, 27, 3), (26, 1, 26, 5), id="items"),
    pytest.param(("items", 0), (28, 5, 28, 9), None, id="items/0"),
    pytest.param(("wrapped",), (30, 3, 30, 16), (29, 1, 29, 7), id="wrapped"),
    pytest.param(("wrapped", 0), (30, 5, 30, 16), None, id="wrapped/0"),
    pytest.param(("wrapped", 0, "tools"), (30, 12, 31, 12), (30, 5, 30, 9), id="wrapped/0/tools"),
    pytest.param(("wrapped", 0, "tools", 0), (30, 13, 30, 16), None, id="wrapped/0/tools/0"),
    pytest.param(("wrapped", 0, "tools", 1), (31, 7, 31, 11), None, id="wrapped/0/tools/1"),
    pytest.param(("alias_first",), (33, 3, 33, 5), (32, 1, 32, 11), id="alias_first"),
    pytest.param(("alias_first", 0), (33, 5, 34, 10), None, id="alias_first/0"),
    pytest.param(("alias_first", 0, 0), (33, 6, 33, 12), None, id="alias_first/0/0"),
    pytest.param(("alias_first", 0, 1), (34, 6, 34, 9), None, id="alias_first/0/1"),
    pytest.param(("bracket_alone",), (36, 3, 36, 5), (35, 1, 35, 13), id="bracket_alone"),
    pytest.param(("bracket_alone", 0), (36, 5, 37, 11), None, id="bracket_alone/0"),
    pytest.param(("bracket_alone", 0, 0), (37, 6, 37, 10), None, id="bracket_alone/0/0"),
    pytest.param(("mapping_first",), (39, 3, 39, 9), (38, 1, 38, 13), id="mapping_first"),
    pytest.param(("mapping_first", 0), (39, 5, 40, 10), None, id="mapping_first/0"),
    pytest.param(("mapping_first", 0, "a"), (39, 9, 39, 9), (39, 6, 39, 6), id="mapping_first/0/a"),
    pytest.param(("mapping_first", 0, "b"), (40, 9, 40, 9), (40, 6, 40, 6), id="mapping_first/0/b"),
    pytest.param(("block_first",), (42, 3, 42, 10), (41, 1, 41, 11), id="block_first"),
    pytest.param(("block_first", 0), (42, 5, 42, 10), None, id="block_first/0"),
    pytest.param(
        ("block_first", 0, "key"), (42, 10, 43, 11), (42, 5, 42, 7), id="block_first/0/key"
    ),
    pytest.param(("plain_first",), (45, 3, 45, 16), (44, 1, 44, 11), id="plain_first"),
    pytest.param(("plain_first", 0), (45, 5, 45, 16), None, id="plain_first/0"),
    pytest.param(
        ("plain_first", 0, "title"), (45, 12, 46, 12), (45, 5, 45, 9), id="plain_first/0/title"
    ),
]

TOML_SPANS = [
    pytest.param((), (2, 1, 2, 14), None, id="root"),
    pytest.param(("key",), (2, 7, 2, 14), (2, 1, 2, 3), id="key"),
    pytest.param(("quoted key",), (3, 16, 3, 24), (3, 1, 3, 12), id="quoted key"),
    pytest.param(("tags",), (4, 8, 4, 38), (4, 1, 4, 4), id="tags"),
    pytest.param(("tags", 0), (4, 9, 4, 15), None, id="tags/0"),
    pytest.param(("tags", 1), (4, 18, 4, 37), None, id="tags/1"),
    pytest.param(("tags", 1, "level"), (4, 28, 4, 35), (4, 20, 4, 24), id="tags/1/level"),
    pytest.param(("params",), (5, 1, 5, 6), (5, 1, 5, 6), id="params"),
    pytest.param(("params", "language"), (5, 8, 5, 15), (5, 8, 5, 15), id="params/language"),
    pytest.param(
        ("params", "language", "type"), (5, 24, 5, 31), (5, 17, 5, 20), id="params/language/type"
    ),
    pytest.param(("released",), (6, 12, 6, 21), (6, 1, 6, 8), id="released"),
    pytest.param(("when",), (7, 8, 7, 27), (7, 1, 7, 4), id="when"),
    pytest.param(("numbers",), (8, 11, 12, 1), (8, 1, 8, 7), id="numbers"),
    pytest.param(("numbers", 0), (9, 3, 9, 3), None, id="numbers/0"),
    pytest.param(("numbers", 1), (10, 3, 10, 5), None, id="numbers/1"),
    pytest.param(("numbers", 2), (11, 3, 11, 6), None, id="numbers/2"),
    pytest.param(("template",), (13, 12, 15, 15), (13, 1, 13, 8), id="template"),
    pytest.param(("sections",), (17, 1, 17, 12), (17, 3, 17, 10), id="sections"),
    pytest.param(("sections", 0), (17, 1, 17, 12), None, id="sections/0"),
    pytest.param(("sections", 0, "key"), (18, 7, 18, 12), (18, 1, 18, 3), id="sections/0/key"),
    pytest.param(("sections", 1), (20, 1, 20, 12), None, id="sections/1"),
    pytest.param(("sections", 1, "key"), (21, 7, 21, 13), (21, 1, 21, 3), id="sections/1/key"),
    pytest.param(("sections", 1, "tools"), (22, 9, 22, 52), (22, 1, 22, 5), id="sections/1/tools"),
    pytest.param(
        ("sections", 1, "tools", "read"),
        (22, 18, 22, 29),
        (22, 11, 22, 14),
        id="sections/1/tools/read",
    ),
    pytest.param(
        ("sections", 1, "tools", "list"),
        (22, 39, 22, 50),
        (22, 32, 22, 35),
        id="sections/1/tools/list",
    ),
    pytest.param(
        ("sections", 1, "extra"), (24, 1, 24, 16), (24, 11, 24, 15), id="sections/1/extra"
    ),
    pytest.param(
        ("sections", 1, "extra", "enabled"),
        (25, 11, 25, 14),
        (25, 1, 25, 7),
        id="sections/1/extra/enabled",
    ),
    pytest.param(
        ("sections", 1, "extra", "tab\there"),
        (26, 15, 26, 15),
        (26, 1, 26, 11),
        id="sections/1/extra/tab\there",
    ),
]


def source_map(text: str, file_format: str) -> SourceMap:
    result = load_text(text, path=PATH, format="yaml" if file_format == "yaml" else "toml")
    assert result.file is not None, result.diagnostics
    return result.file.source_map


def as_span(found: tuple[int, int, int, int] | None) -> Span | None:
    return None if found is None else Span(PATH, *found)


@pytest.mark.parametrize(("path", "value", "key"), YAML_SPANS)
def test_yaml_spans(
    path: JSONPath,
    value: tuple[int, int, int, int],
    key: tuple[int, int, int, int] | None,
) -> None:
    spans = source_map(YAML_TEXT, "yaml")
    assert spans.value_span(path) == as_span(value)
    assert spans.key_span(path) == as_span(key)


@pytest.mark.parametrize(("path", "value", "key"), TOML_SPANS)
def test_toml_spans(
    path: JSONPath,
    value: tuple[int, int, int, int],
    key: tuple[int, int, int, int] | None,
) -> None:
    spans = source_map(TOML_TEXT, "toml")
    assert spans.value_span(path) == as_span(value)
    assert spans.key_span(path) == as_span(key)


@pytest.mark.parametrize(
    ("text", "file_format", "table"),
    [(YAML_TEXT, "yaml", YAML_SPANS), (TOML_TEXT, "toml", TOML_SPANS)],
    ids=["yaml", "toml"],
)
def test_every_path_is_in_the_table_in_document_order(
    text: str, file_format: str, table: list[object]
) -> None:
    expected = [param.values[0] for param in table]  # type: ignore[attr-defined]
    assert list(source_map(text, file_format).paths()) == expected


def test_data_of_the_yaml_document() -> None:
    result = load_text(YAML_TEXT, path=PATH, format="yaml")
    assert result.file is not None
    assert result.file.data == {
        "key": "review",
        "title": "Code review",
        "tags": ["style", {"level": "strict"}],
        "params": {"language": {"type": "string"}},
        "sections": [
            {"key": "task", "template": "Review the change.\nName each problem.\n"},
            {"key": "notes", "summary": "Folded text", "tools": ["read_file", "list_dir"]},
            {"key": "extra", "tools": ["list_dir"]},
        ],
        "plain": "first line second line",
        "empty": None,
        "quoted": "it's",
        "items": ["first"],
        "wrapped": [{"tools": ["read", "write"]}],
        "alias_first": [["list_dir", "more"]],
        "bracket_alone": [["alone"]],
        "mapping_first": [{"a": 1, "b": 2}],
        "block_first": [{"key": "block\n"}],
        "plain_first": [{"title": "first second"}],
    }


def test_data_of_the_toml_document() -> None:
    result = load_text(TOML_TEXT, path=PATH, format="toml")
    assert result.file is not None
    assert result.file.data == {
        "key": "review",
        "quoted key": "literal",
        "tags": ["style", {"level": "strict"}],
        "params": {"language": {"type": "string"}},
        "released": "2024-05-31",
        "when": "1979-05-27 07:32:00Z",
        "numbers": [1, 2.5, 31],
        "template": "Review the change.Then stop.",
        "sections": [
            {"key": "task"},
            {
                "key": "notes",
                "tools": {"read": "files.read", "list": "files.list"},
                "extra": {"enabled": True, "tab\there": 1},
            },
        ],
    }
