"""Properties over random documents: data round-trips and every value has a span in the text."""

import io
import math
import re
import tomllib
from typing import Any, TypeGuard, cast

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from wink_decl.diagnostics import Span
from wink_decl.loader import JSONPath, LoadedFile, SourceMap, load_text
from wink_decl.loader._toml_positions import TomlPositions
from wink_decl.loader._yaml import nesting_bound

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Characters a writer would have to escape, and line breaks other than \n that
# str.splitlines (and so the renderer) would count: kept out of generated text.
PLAIN_TEXT = st.text(
    st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"), blacklist_characters="\x85"),
    max_size=12,
)
ANY_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
KEYS = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), max_size=6)


def json_data(leaves: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    values = st.recursive(
        leaves,
        lambda children: st.lists(children, max_size=4)
        | st.dictionaries(KEYS, children, max_size=4),
        max_leaves=16,
    )
    return st.dictionaries(KEYS, values, max_size=5)


def all_paths(value: object, path: JSONPath = ()) -> list[JSONPath]:
    paths = [path]
    if isinstance(value, dict):
        for key, item in cast("dict[str, object]", value).items():
            paths.extend(all_paths(item, (*path, key)))
    elif isinstance(value, list):
        for index, item in enumerate(cast("list[object]", value)):
            paths.extend(all_paths(item, (*path, index)))
    return paths


def depth_of(value: object) -> int:
    if isinstance(value, dict):
        items = list(cast("dict[str, object]", value).values())
    elif isinstance(value, list):
        items = cast("list[object]", value)
    else:
        return 0
    return 1 + max(map(depth_of, items), default=0)


def assert_inside(span: Span, text: str) -> None:
    lines = text.splitlines() or [""]
    for line, column in ((span.line, span.column), (span.end_line, span.end_column)):
        assert 1 <= line <= len(lines), (span, lines)
        assert 1 <= column <= len(lines[line - 1]) + 1, (span, lines[line - 1])
    assert (span.line, span.column) <= (span.end_line, span.end_column), span


def assert_spans_cover(file: LoadedFile) -> SourceMap:
    spans = file.source_map
    assert sorted(map(repr, spans.paths())) == sorted(map(repr, all_paths(file.data)))
    for path in spans.paths():
        value = spans.value_span(path)
        assert value is not None
        assert_inside(value, file.text)
        key = spans.key_span(path)
        if path and isinstance(path[-1], str):
            assert key is not None, path
            assert_inside(key, file.text)
        else:
            assert key is None
    return spans


# -- YAML ---------------------------------------------------------------------------------------

YAML_LEAVES = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | ANY_TEXT
)


def dump_yaml(data: object, style: dict[str, Any]) -> str:
    yaml: Any = YAML(typ="safe", pure=False)  # libyaml writes what libyaml reads
    yaml.default_flow_style = style["flow"]
    yaml.width = style["width"]
    yaml.allow_unicode = style["unicode"]
    yaml.indent(mapping=style["indent"], sequence=style["indent"] + 2, offset=2)
    stream = io.StringIO()
    yaml.dump(data, stream)
    text = stream.getvalue()
    return text.replace("\n", "\r\n") if style["crlf"] else text


YAML_STYLES = st.fixed_dictionaries(
    {
        "flow": st.sampled_from([False, True, None]),
        "width": st.sampled_from([12, 40, 4096]),
        "unicode": st.booleans(),
        "indent": st.sampled_from([2, 4]),
        "crlf": st.booleans(),
    }
)


@SETTINGS
@given(json_data(YAML_LEAVES), YAML_STYLES)
def test_yaml_round_trips_and_every_value_has_a_span(
    data: dict[str, Any], style: dict[str, Any]
) -> None:
    text = dump_yaml(data, style)
    result = load_text(text, path="p.yaml", format="yaml")
    assert result.diagnostics == (), text
    assert result.file is not None
    assert result.file.data == data
    assert_spans_cover(result.file)


@SETTINGS
@given(json_data(YAML_LEAVES), YAML_STYLES)
def test_yaml_nesting_bound_is_never_below_the_depth(
    data: dict[str, Any], style: dict[str, Any]
) -> None:
    text = dump_yaml(data, style)
    assert nesting_bound(text) >= depth_of(data)
    assert nesting_bound(text * 30) >= depth_of(data)  # past the shortcut for small files


# -- TOML ---------------------------------------------------------------------------------------

BARE = re.compile(r"[A-Za-z0-9_-]+")
ESCAPES = {"\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r", '"': '\\"'}


class TomlWriter:
    """Writes data as TOML in styles drawn from ``choose`` (a Hypothesis data object)."""

    def __init__(self, choose: st.DataObject) -> None:
        self.choose = choose
        self.lines: list[str] = []

    def pick(self, *options: str) -> str:
        return self.choose.draw(st.sampled_from(options))

    def key(self, key: str) -> str:
        if BARE.fullmatch(key) and self.pick("bare", "bare", "quoted") == "bare":
            return key
        if "'" not in key and self.pick("basic", "literal") == "literal":
            return f"'{key}'"
        return self.basic(key)

    def dotted(self, path: list[str]) -> str:
        return self.pick(".", " . ").join(self.key(part) for part in path)

    def basic(self, text: str) -> str:
        return '"' + "".join(self.escape(char) for char in text) + '"'

    def escape(self, char: str, *, newline: bool = False) -> str:
        if char == "\\":
            return "\\\\"
        if char == "\n" and newline:
            return char
        if char in ESCAPES:
            return ESCAPES[char]
        if ord(char) < 0x20 or ord(char) == 0x7F or char in "\x85\u2028\u2029":
            return f"\\u{ord(char):04X}"
        return char

    def string(self, text: str) -> str:
        style = self.pick("basic", "literal", "multiline", "multiline-literal")
        plain = not re.search(r"[\x00-\x1f\x7f\x85\u2028\u2029']", text)
        if style == "literal" and plain:
            return f"'{text}'"
        if style == "multiline-literal" and not re.search(
            r"[\x00-\x09\x0b-\x1f\x7f\x85\u2028\u2029']", text
        ):
            return "'''" + self.opening_newline(text) + text + "'''"
        if style == "multiline":
            body = [self.escape(char, newline=True) for char in text]
            spots = [i for i in range(1, len(body)) if text[i] not in " \t\n"]
            if spots and self.pick("join", "plain") == "join":
                spot = self.choose.draw(st.sampled_from(spots))
                body.insert(spot, "\\\n" + self.pick("", "  ", "\n   "))
            return '"""' + self.opening_newline(text) + "".join(body) + '"""'
        return self.basic(text)

    def opening_newline(self, text: str) -> str:
        """A line break right after an opening triple quote is dropped by TOML."""
        return "\n" if text.startswith("\n") else self.pick("", "\n")

    def inline(self, value: object) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, int):
            return str(value)
        if isinstance(value, str):
            return self.string(value)
        if isinstance(value, list):
            items = [self.inline(item) for item in cast("list[object]", value)]
            if items and self.pick("one-line", "lines") == "lines":
                body = "".join(f"\n  {item},{self.pick('', ' # note')}" for item in items)
                return "[" + body + "\n]"
            return "[" + ", ".join(items) + "]"
        pairs = cast("dict[str, object]", value).items()
        return "{" + ", ".join(f"{self.key(k)} = {self.inline(v)}" for k, v in pairs) + "}"

    def pairs(self, table: dict[str, object], prefix: list[str]) -> None:
        headers: list[tuple[str, object]] = []
        for key, value in table.items():
            if self.header_style(value):
                headers.append((key, value))
            elif is_table(value) and value and self.pick("inline", "dotted") == "dotted":
                self.dotted_pairs(value, [key])
            else:
                self.lines.append(f"{self.key(key)} = {self.inline(value)}")
        for key, value in headers:
            path = [*prefix, key]
            if isinstance(value, dict):
                self.lines.append(f"[{self.dotted(path)}]")
                self.pairs(cast("dict[str, object]", value), path)
            else:
                for item in cast("list[dict[str, object]]", value):
                    self.lines.append(f"[[{self.dotted(path)}]]")
                    self.pairs(item, path)

    def header_style(self, value: object) -> bool:
        """Whether ``value`` (a table, or a list of tables) gets its own header."""
        if isinstance(value, dict):
            return self.pick("inline", "dotted", "header") == "header"
        if not isinstance(value, list) or not value:
            return False
        if not all(isinstance(item, dict) for item in cast("list[object]", value)):
            return False
        return self.pick("inline", "array-of-tables") != "inline"

    def dotted_pairs(self, table: dict[str, object], path: list[str]) -> None:
        for key, value in table.items():
            if is_table(value) and value:
                self.dotted_pairs(value, [*path, key])
            else:
                self.lines.append(f"{self.dotted([*path, key])} = {self.inline(value)}")


def is_table(value: object) -> TypeGuard[dict[str, object]]:
    return isinstance(value, dict)


TOML_LEAVES = st.booleans() | st.integers() | ANY_TEXT


def reparses_to(snippet: str, value: object) -> bool:
    try:
        return tomllib.loads(f"v = {snippet}")["v"] == value
    except tomllib.TOMLDecodeError:
        return False


def text_at(span: Span, text: str) -> str:
    starts = [0]
    for line in text.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    start = starts[span.line - 1] + span.column - 1
    return text[start : starts[span.end_line - 1] + span.end_column]


@SETTINGS
@given(json_data(TOML_LEAVES), st.data(), st.booleans())
def test_toml_every_value_has_a_span_that_reads_back(
    data: dict[str, Any], choose: st.DataObject, crlf: bool
) -> None:
    writer = TomlWriter(choose)
    writer.pairs(data, [])
    text = "# generated\n" + "\n".join(writer.lines) + "\n"
    if crlf:
        text = text.replace("\n", "\r\n")
    assert tomllib.loads(text) == data  # the writer is right
    result = load_text(text, path="p.toml", format="toml")
    if not data:
        assert [d.code for d in result.diagnostics] == ["not-a-mapping"]
        return
    assert result.diagnostics == (), text
    assert result.file is not None
    assert result.file.data == data
    spans = assert_spans_cover(result.file)
    for path in spans.paths():
        if not path:
            continue
        value = cast("Any", result.file.data)
        for part in path:
            value = value[part]
        snippet = text_at(cast("Span", spans.value_span(path)), text)
        if reparses_to(snippet, value):
            continue
        # a table or array of tables written with headers or dotted keys
        assert isinstance(value, dict | list), (path, snippet)
        assert snippet.startswith("[") or TomlPositions(f"{snippet} = 1").last is not None


@SETTINGS
@given(st.floats(allow_nan=False), st.integers())
def test_toml_numbers_read_back(number: float, integer: int) -> None:
    text = f"f = {number!r}\ni = {integer}\nh = 0x{abs(integer):X}\n".replace("inf", "inf")
    result = load_text(text, path="p.toml", format="toml")
    assert result.file is not None, result.diagnostics
    data = cast("dict[str, Any]", result.file.data)
    assert math.isclose(data["f"], number) or data["f"] == number
    assert data["i"] == integer
    spans = result.file.source_map
    assert text_at(cast("Span", spans.value_span(("i",))), text) == str(integer)
