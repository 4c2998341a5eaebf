"""The loader's public API: exports, limits, and the plain data it builds."""

import ast
import dataclasses
import math
import re
from pathlib import Path

import pytest

import wink_decl.loader
from wink_decl.loader import Limits, LoadedFile, LoadResult, SourceMap, load_text

INIT = Path(wink_decl.loader.__file__)


def isort_style(name: str) -> tuple[int, list[int | str]]:
    """ruff's RUF022 order: SCREAMING_CASE, then CamelCase, then the rest."""
    if len(name) > 1 and name.isupper():
        group = 0
    elif name[:1].isupper():
        group = 1
    else:
        group = 2
    return group, [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def test_all_is_sorted_complete_and_resolvable() -> None:
    names = wink_decl.loader.__all__
    assert names == sorted(names, key=isort_style)
    bound: set[str] = set()
    for statement in ast.parse(INIT.read_text(encoding="utf-8")).body:
        if isinstance(statement, ast.ImportFrom):
            bound.update(alias.asname or alias.name for alias in statement.names)
    assert sorted(bound) == sorted(names)
    assert all(getattr(wink_decl.loader, name, None) is not None for name in names)


def test_the_loader_imports_no_runtime_layer() -> None:
    sources = [path.read_text(encoding="utf-8") for path in INIT.parent.glob("*.py")]
    for source in sources:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith(("wink_decl.runtime", "wink_decl.compiler"))


@pytest.mark.parametrize(
    ("limits", "message"),
    [
        ({"max_bytes": 0}, "Limits.max_bytes must be a whole number of at least 1"),
        ({"max_depth": 0}, "Limits.max_depth must be a whole number of at least 1"),
        ({"max_nodes": -1}, "Limits.max_nodes must be a whole number of at least 1"),
        ({"max_depth": 201}, "Limits.max_depth must be at most 200"),
    ],
    ids=["bytes", "depth", "nodes", "depth-ceiling"],
)
def test_limits_are_checked(limits: dict[str, int], message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        Limits(**limits)


def test_limits_defaults() -> None:
    assert Limits() == Limits(max_bytes=1_000_000, max_depth=64, max_nodes=200_000)


def test_result_of_a_good_file() -> None:
    result = load_text("key: review\n", path="p.yaml", format="yaml")
    assert isinstance(result, LoadResult)
    assert isinstance(result.file, LoadedFile)
    assert result.diagnostics == ()
    assert (result.file.path, result.file.text, result.file.format) == (
        "p.yaml",
        "key: review\n",
        "yaml",
    )


YAML_SCALARS = """\
text: plain text
quoted: "1"
yes_is_text: yes
on_is_text: on
true_is_bool: true
false_is_bool: False
int: 42
negative: -17
hex: 0x1F
octal: 0o17
binary: 0b101
leading_zero: 017
underscore: 1_000
odd_int: _
odd_binary: 0b_
odd_sign: +_
float: 2.5
exponent: 1e3
inf: -.inf
nan: .nan
null: ~
empty:
date: 2024-05-31
datetime: 2024-05-31T09:30:00Z
equals: =
merge_as_value: <<
"2024-01-01": date as key
2024-02-01: unquoted date key
"""


def test_yaml_scalars_are_plain_json_data() -> None:
    text = YAML_SCALARS.replace("null: ~", "nothing: ~")
    result = load_text(text, path="p", format="yaml")
    assert result.file is not None, result.diagnostics
    data = result.file.data
    assert isinstance(data, dict)
    nan = data.pop("nan")  # type: ignore[union-attr]
    assert isinstance(nan, float)
    assert math.isnan(nan)
    assert data == {
        "text": "plain text",
        "quoted": "1",
        "yes_is_text": "yes",
        "on_is_text": "on",
        "true_is_bool": True,
        "false_is_bool": False,
        "int": 42,
        "negative": -17,
        "hex": 31,
        "octal": 15,
        "binary": 5,
        "leading_zero": 17,
        "underscore": 1000,
        "odd_int": "_",
        "odd_binary": "0b_",
        "odd_sign": "+_",
        "float": 2.5,
        "exponent": 1000.0,
        "inf": -math.inf,
        "nothing": None,
        "empty": None,
        "date": "2024-05-31",
        "datetime": "2024-05-31T09:30:00Z",
        "equals": "=",
        "merge_as_value": "<<",
        "2024-01-01": "date as key",
        "2024-02-01": "unquoted date key",
    }


def test_toml_dates_and_times_stay_text() -> None:
    text = (
        "d = 2024-05-31\nt = 07:30:00\nlocal = 2024-05-31T09:30:00\n"
        "offset = 2024-05-31T09:30:00+02:00\nlist = [2024-01-01, 2024-01-02]\n"
        "inline = { at = 1979-05-27 07:32:00Z }\n"
    )
    result = load_text(text, path="p", format="toml")
    assert result.file is not None
    assert result.file.data == {
        "d": "2024-05-31",
        "t": "07:30:00",
        "local": "2024-05-31T09:30:00",
        "offset": "2024-05-31T09:30:00+02:00",
        "list": ["2024-01-01", "2024-01-02"],
        "inline": {"at": "1979-05-27 07:32:00Z"},
    }


def test_aliases_expand_into_separate_copies() -> None:
    text = "base: &base {visibility: full, tools: [a]}\nfirst: *base\nsecond: *base\n"
    result = load_text(text, path="p", format="yaml")
    assert result.file is not None
    data = result.file.data
    assert isinstance(data, dict)
    assert data["first"] == data["second"] == {"visibility": "full", "tools": ["a"]}
    assert data["first"] is not data["second"]


def test_alias_keys_and_anchored_collections() -> None:
    text = "names: [&k title]\n*k : Review\nlist: &l\n  - a\nagain: *l\n"
    result = load_text(text, path="p", format="yaml")
    assert result.file is not None, result.diagnostics
    assert result.file.data == {
        "names": ["title"],
        "title": "Review",
        "list": ["a"],
        "again": ["a"],
    }
    spans = result.file.source_map
    assert spans.key_span(("title",)) is not None
    assert spans.value_span(("again",)) is not None


def test_a_loaded_file_and_its_result_are_the_frozen_dataclasses_of_their_fields() -> None:
    """Their fields are set slot by slot: as the dataclass's own ``__init__`` would set them."""
    source_map = SourceMap("p.toml", {}, {})
    file = LoadedFile("p.toml", "a = 1\n", "toml", {"a": 1}, source_map)
    assert {f.name: getattr(file, f.name) for f in dataclasses.fields(file)} == {
        "path": "p.toml",
        "text": "a = 1\n",
        "format": "toml",
        "data": {"a": 1},
        "source_map": source_map,
        "has_numbers": True,
        "bad_numbers": True,
    }
    by_name = LoadedFile(
        path="p.toml",
        text="a = 1\n",
        format="toml",
        data={"a": 1},
        source_map=source_map,
        has_numbers=False,
        bad_numbers=False,
    )
    assert dataclasses.replace(file, has_numbers=False, bad_numbers=False) == by_name
    assert repr(by_name).endswith("has_numbers=False, bad_numbers=False)")
    with pytest.raises(dataclasses.FrozenInstanceError, match=r"^cannot assign to field 'text'$"):
        file.text = "b = 2\n"  # type: ignore[misc]
    result = LoadResult(file, ())
    assert (result.file, result.diagnostics, result.text) == (file, (), None)
    assert result == LoadResult(file=file, diagnostics=(), text=None)
    assert hash(LoadResult(None, (), "t")) == hash(LoadResult(None, (), "t"))
    assert repr(LoadResult(None, ())) == "LoadResult(file=None, diagnostics=(), text=None)"
