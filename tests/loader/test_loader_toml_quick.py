"""The quick reader of plain TOML: tomli's answer, or none at all.

What it reads must be exactly what tomli reads (same keys in the same order, same types) and
what the checks after tomli would say about it; anything else it must leave to tomli.
"""

from __future__ import annotations

import pytest
import tomli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Span
from wink_decl.limits import DEFAULT_LIMITS
from wink_decl.loader import Limits, LoadResult, load_text
from wink_decl.loader import _toml as toml_loader
from wink_decl.loader._toml import QuickCheck
from wink_decl.loader._toml_quick import QuickRead, read_plain_toml
from wink_decl.loader._toml_scan import scan as scan_before_parsing

HEADERS = ("[a]", "[a.b]", "[b]", "[[a]]", "[[a.b]]", "[[c]]", "[ a ]", "[a . b]", '["a"]', "[a]]")
KEYS = ("a", "b", "c", "1", "-", "a-b_c", '"a"', "'b'", "a.b", "a .b", "")
VALUES = (
    '"x"',
    '"#= \'"',
    "'q\"#'",
    '"a\\nb"',
    "'a\\b'",
    '""',
    "''",
    "0",
    "-1",
    "-0",
    "+1",
    "1_0",
    "01",
    "123456789012345678",
    "1234567890123456789",
    "-1234567890123456789",
    "0x1f",
    "1.5",
    "1e3",
    "inf",
    "1979-05-27",
    "true",
    "false",
    "truex",
    "[]",
    "[,]",
    '[1, "a", ]',
    "[ 'b' , false,true ]",
    "[[1]]",
    "[{x = 1}]",
    "{}",
    '{x = 1, y = "z"}',
    "{x=1,}",
    "{x = 1, x = 2}",
    "{ x = false , y = true, z = 'w' }",
    "{x = {y = 1}}",
    '"""\nab"""',
    '"""ab\n"""',
    '"""a""""',
    '"""a"b""c"""',
    '"""a\\\n  b"""',
    "'''\n'a'''",
    "'''a''''",
    "'''\n\n'''",
    '"""',
    '"unclosed',
)
TAILS = ("", " # c", "#c", "  ", "\t# [a] = 1", " x", "\r", "# \x01")
OTHER_LINES = ("", "# comment", "  # indented", "\t", " ", "\x7f", "a", "=", "\ufeffa = 1")


PLAIN_HEADERS = HEADERS[:6]
PLAIN_KEYS = KEYS[:6]
PLAIN_VALUES = tuple(
    value for value in VALUES if read_plain_toml(f"a = {value}\n", DEFAULT_LIMITS) is not None
)
"""The values read quickly: more of them makes more texts that are (weighting only)."""
PLAIN_TAILS = TAILS[:5]


def _line(header: str | None, key: str, value: str, tail: str, indent: str) -> str:
    if header is not None:
        return indent + header + tail
    return f"{indent}{key}{' = ' if indent else '='}{value}{tail}"


def _lines(
    headers: tuple[str, ...], keys: tuple[str, ...], values: tuple[str, ...], tails: tuple[str, ...]
) -> st.SearchStrategy[str]:
    return st.builds(
        _line,
        st.none() | st.sampled_from(headers),
        st.sampled_from(keys),
        st.sampled_from(values),
        st.sampled_from(tails),
        st.sampled_from(("", " ", "\t")),
    )


LINES = st.one_of(
    _lines(PLAIN_HEADERS, PLAIN_KEYS, PLAIN_VALUES, PLAIN_TAILS),
    _lines(PLAIN_HEADERS, PLAIN_KEYS, PLAIN_VALUES, PLAIN_TAILS),
    _lines(HEADERS, KEYS, VALUES, TAILS),
    st.sampled_from(OTHER_LINES),
)


def _joined(lines: list[str], end: str) -> str:
    return "\n".join(lines) + end


TEXTS = st.builds(_joined, st.lists(LINES, max_size=8), st.sampled_from(("", "\n", "\n\n", " ")))
"""Texts around the edges of what the quick reader reads: headers, keys and values it reads
and ones it must leave to tomli, in any order (tables defined twice, [a] after [a.b])."""
NEAR = st.text(alphabet="ab=[].\"'#{}\n ,01-+_\t", max_size=30)
"""Anything from TOML's punctuation."""


def _never_plain(_text: str, _limits: Limits) -> None:
    """In place of the quick reader: every text is read by tomli."""


def _loaded_through_tomli(text: str, limits: Limits) -> LoadResult:
    """``load_text`` of ``text`` with the quick read off: what tomli and the checks give."""
    original = toml_loader.read_plain_toml
    toml_loader.read_plain_toml = _never_plain
    try:
        return load_text(text, path="p.toml", format="toml", limits=limits)
    finally:
        toml_loader.read_plain_toml = original


def _tomli_reads(text: str) -> dict[str, object] | None:
    try:
        return tomli.loads(text)
    except tomli.TOMLDecodeError:
        return None


def assert_same_as_tomli(text: str, limits: Limits = DEFAULT_LIMITS) -> QuickRead | None:
    """The quick read of ``text``, after checking it against tomli and the checks after it."""
    quick = read_plain_toml(text, limits)
    if quick is None:
        return None
    data = _tomli_reads(text)
    assert data is not None, text
    assert repr(quick.data) == repr(data)  # the same order and types (True is not 1)
    check = QuickCheck(limits)
    assert check.table(data)
    assert (quick.has_numbers, False) == (check.has_numbers, check.bad_numbers)
    return quick


SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(TEXTS)
def test_a_quick_read_is_what_tomli_reads(text: str) -> None:
    assert_same_as_tomli(text)


@SETTINGS
@given(NEAR)
def test_a_quick_read_of_toml_punctuation_is_what_tomli_reads(text: str) -> None:
    assert_same_as_tomli(text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEXTS, st.integers(1, 6) | st.just(64), st.integers(1, 120) | st.just(200_000))
def test_a_quick_load_is_the_load_through_tomli(text: str, max_depth: int, max_nodes: int) -> None:
    limits = Limits(max_depth=max_depth, max_nodes=max_nodes)
    quick = load_text(text, path="p.toml", format="toml", limits=limits)
    slow = _loaded_through_tomli(text, limits)
    assert quick.diagnostics == slow.diagnostics
    if quick.file is None or slow.file is None:
        assert quick.file is slow.file
        return
    assert repr(quick.file.data) == repr(slow.file.data)
    assert quick.file.has_numbers == slow.file.has_numbers
    assert quick.file.bad_numbers == slow.file.bad_numbers


PLAIN = """\
key = "brief"  # a comment
name = 'Brief #1 = "one"'
count = 7
off = false

[params.topic]
type = "string"
default = ""

[params.words]
type = "integer"
choices = [1, -2, 'x', "y", true, false,]
inline = { a = 1, b = "q", c = false, d = true, e = '' }
empty = {}

[[sections]]
template = \"\"\"
Write about ${topic}.
\"\"\"

  [[sections]]
  template = '''
'quoted' ""'''
"""


def test_a_plain_file_is_read_quickly_as_tomli_reads_it() -> None:
    quick = assert_same_as_tomli(PLAIN)
    assert quick is not None
    assert quick.has_numbers
    assert quick.data["sections"] == [
        {"template": "Write about ${topic}.\n"},
        {"template": "'quoted' \"\""},
    ]
    assert assert_same_as_tomli("a = 'x'\n[b]\n[c.d]\n[c.e]\n") == QuickRead(
        {"a": "x", "b": {}, "c": {"d": {}, "e": {}}}, has_numbers=False
    )
    assert assert_same_as_tomli("# only\n\n[a.b]\n[a.b.c]\n[[d]]\n[[d]]\n# end") == QuickRead(
        {"a": {"b": {"c": {}}}, "d": [{}, {}]}, has_numbers=False
    )


LEFT_TO_TOMLI = (
    "",  # empty: reported by the loader
    "# nothing but a comment\n",
    "a = 1\na = 2\n",  # a key defined twice
    "[a]\n[a]\n",  # a table defined twice
    "[a.b]\n[a]\n",  # legal, but doubtful here
    "[[a]]\n[a.b]\n",  # a header through an array of tables
    "a = 1\n[a.b]\n",  # a header through a value
    "a = {}\n[a.b]\n",  # a header through an inline table
    "[a]\n[[a]]\n",  # an array of tables over a table
    "a = [1]\n[[a]]\n",  # an array of tables over an array
    "a = {b = 1, b = 2}\n",  # a key twice in an inline table
    "a.b = 1\n",  # a dotted key
    '"a" = 1\n',  # a quoted key
    'a = "\\n"\n',  # an escape
    "a = 1\r\n",  # CR LF
    "a = 'x\x01'\n",  # a control character
    "a = 01\n",
    "a = +1\n",
    "a = 1_000\n",
    "a = 1234567890123456789\n",  # 19 digits: maybe past 64 bits
    "a = 1.5\n",
    "a = 2024-01-02\n",  # a date: kept as written, by the checker
    "a = [[1]]\n",
    "a = {b = {c = 1}}\n",
    "a = {b = 1,}\n",
    "a = [\n  1,\n]\n",
    "[ a ]\n",
    "a = 1 b = 2\n",
    'a = """x""""\n',
)


@pytest.mark.parametrize("text", LEFT_TO_TOMLI)
def test_what_the_quick_reader_leaves_to_tomli(text: str) -> None:
    assert read_plain_toml(text, DEFAULT_LIMITS) is None


@pytest.mark.parametrize(
    ("text", "limits"),
    [
        ("a = 'x'\n", Limits(max_nodes=8)),  # as long as max_nodes: it might hold too many
        ("a = 'x'\n", Limits(max_depth=2)),  # an inline table would be too deep
        ("[a.b]\n", Limits(max_depth=4)),  # its inline tables would be too deep
        ("[[a.b]]\n", Limits(max_depth=4)),
    ],
)
def test_a_file_near_a_limit_is_left_to_tomli(text: str, limits: Limits) -> None:
    assert read_plain_toml(text, limits) is None


def test_a_file_within_the_limits_is_read_quickly() -> None:
    assert read_plain_toml("a = 'x'\n", Limits(max_nodes=9)) == QuickRead({"a": "x"}, False)
    assert read_plain_toml("[a]\nb = {}\n", Limits(max_depth=4)) == QuickRead(
        {"a": {"b": {}}}, has_numbers=False
    )


def _no_tomli(text: str) -> dict[str, object]:
    raise AssertionError(text)


def test_a_quick_load_keeps_its_spans_lazy_and_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tomli, "loads", _no_tomli)  # a plain file is read without it
    result = load_text(PLAIN, path="p.toml", format="toml")
    assert result.file is not None
    assert (result.file.has_numbers, result.file.bad_numbers) == (True, False)
    source_map = result.file.source_map
    assert source_map.value_span(("params", "words", "choices", 1)) == source_map.value_span(
        ("params", "words", "choices", 1)
    )
    span = source_map.value_span(("count",))
    assert span is not None
    assert (span.line, span.column) == (3, 9)
    key_span = source_map.key_span(("sections", 1, "template"))
    assert key_span is not None
    assert (key_span.line, key_span.column) == (22, 3)


LONG_LINES = st.sampled_from(
    (
        "k" * 99 + " = 1",
        "k" * 100 + " = 'x'",
        "k" * 101 + " = 'x'",
        "a = {" + "k" * 100 + " = 1}",
        "a = {" + "k" * 101 + " = 1}",
        "[" + "h" * 12 + "]",
        "[[" + ".".join("h" * 5 for _ in range(3)) + "]]",
        "[" + "h" * 50 + "." + "i" * 49 + "]",
        "[" + "h" * 50 + "." + "i" * 50 + "]",
        "[[" + "h" * 50 + "." + "j" * 50 + "]]",
        "[" + ".".join("h" for _ in range(8)) + "]",
        "a = 12345678",
        "b = 'x' # " + "c" * 30,
    )
)
"""Keys and headers around the lengths and nesting the scan before parsing refuses."""
SCANNED_TEXTS = st.builds(
    _joined, st.lists(LINES | LONG_LINES, max_size=6), st.sampled_from(("", "\n"))
)
SCANNED_LIMITS = st.builds(
    Limits,
    max_depth=st.integers(1, 9) | st.just(64),
    max_key_length=st.integers(1, 20) | st.sampled_from((99, 100, 101, 1_000)),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SCANNED_TEXTS, SCANNED_LIMITS)
def test_a_quick_read_refuses_all_the_scan_before_parsing_refuses(
    text: str, limits: Limits
) -> None:
    # The quick read runs first, and alone: what it reads, the scan would have let through.
    if assert_same_as_tomli(text, limits) is not None:
        assert scan_before_parsing(text, limits) is None
    quick = load_text(text, path="p.toml", format="toml", limits=limits)
    slow = _loaded_through_tomli(text, limits)
    assert quick.diagnostics == slow.diagnostics
    assert repr(None if quick.file is None else quick.file.data) == repr(
        None if slow.file is None else slow.file.data
    )


@pytest.mark.parametrize(
    ("text", "limits"),
    [
        ("k = 1\n", Limits(max_key_length=99)),  # bare keys are read up to 100 characters
        ("k" * 101 + " = 1\n", DEFAULT_LIMITS),
        ("a = {" + "k" * 101 + " = 1}\n", DEFAULT_LIMITS),
        ("[abc.de]\n", Limits(max_key_length=5)),
        (f"[{'a' * 50}.{'b' * 50}]\n", Limits(max_key_length=100)),  # a name, dots and all
        (f"[[{'a' * 50}.{'b' * 50}]]\n", Limits(max_key_length=100)),
    ],
)
def test_a_key_the_scan_may_find_too_long_is_left_to_it(text: str, limits: Limits) -> None:
    assert read_plain_toml(text, limits) is None


def test_a_key_within_the_lengths_is_read_quickly() -> None:
    key = "k" * 100
    assert read_plain_toml(f"{key} = 1\n", DEFAULT_LIMITS) == QuickRead({key: 1}, has_numbers=True)
    header = Limits(max_key_length=100)
    assert read_plain_toml("[ab.c]\n[[ab.d]]\n", header) == QuickRead(
        {"ab": {"c": {}, "d": [{}]}}, has_numbers=False
    )
    assert read_plain_toml(f"[{key[:-2]}.c]\n", header) == QuickRead(
        {key[:-2]: {"c": {}}}, has_numbers=False
    )


def test_a_key_too_long_is_reported_by_the_scan_as_before() -> None:
    limits = Limits(max_key_length=100)
    text = f"[{'a' * 50}.{'b' * 50}]\n"
    result = load_text(text, path="p.toml", format="toml", limits=limits)
    assert [(d.code, d.span) for d in result.diagnostics] == [
        (DiagnosticCode.TOO_LONG, Span("p.toml", 1, 2, 1, 102))
    ]
