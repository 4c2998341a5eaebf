"""``max_key_length`` in both formats, and what TOML is scanned for before tomllib reads it."""

from __future__ import annotations

import pytest

from wink_decl.diagnostics import render_text
from wink_decl.loader import Limits, load_text

SMALL = Limits(max_depth=4, max_key_length=12)
LONG = "  hint: use a shorter key, or allow more with --limit max_key_length=24"
DEEP = (
    "  expected: at most 4 levels of nested mappings and lists",
    "  hint: flatten the structure: nest mappings and lists less deeply, or allow more with "
    "--limit max_depth=8",
)


def lines(*parts: str) -> str:
    return "\n".join(parts)


def dotted(line: int, column: int, length: int, quoted: str) -> str:
    return lines(
        f"p:{line}:{column}: error: This dotted key is {length} characters long, more than the "
        "limit of 12.",
        "  expected: a key of at most 12 characters, counting every part and dot",
        f"{line:>4} | {quoted}",
        "     | " + " " * (column - 1) + "^" * length,
        LONG,
    )


def deep(column: int, quoted: str) -> str:
    return lines(
        f"p:1:{column}: error: Values are nested more than 4 levels deep here.",
        DEEP[0],
        f"   1 | {quoted}",
        "     | " + " " * (column - 1) + "^",
        DEEP[1],
    )


TOML_REFUSED = [
    pytest.param(
        'key = "a"\nabc.def.ghi.jk = 1\n', dotted(2, 1, 14, "abc.def.ghi.jk = 1"), id="pair"
    ),
    pytest.param('[tools."read file".x]\n', dotted(1, 2, 19, '[tools."read file".x]'), id="header"),
    pytest.param(
        "x = {alpha.beta_gamma = 1}\n",
        dotted(1, 6, 16, "x = {alpha.beta_gamma = 1}"),
        id="inline-table",
    ),
    pytest.param(
        "a_very_long_key = 1\n",
        lines(
            "p:1:1: error: This key is 15 characters long, more than the limit of 12.",
            "  expected: a key of at most 12 characters",
            "   1 | a_very_long_key = 1",
            "     | ^^^^^^^^^^^^^^^",
            LONG,
        ),
        id="bare",
    ),
    pytest.param(
        'x = [1]\n"twelve chars" = 1\n',
        lines(
            "p:2:1: error: This key is 14 characters long, more than the limit of 12.",
            "  expected: a key of at most 12 characters",
            '   2 | "twelve chars" = 1',
            "     | ^^^^^^^^^^^^^^",
            LONG,
        ),
        id="quoted-after-a-list",
    ),
    pytest.param("a.b.c.d.e = 1\n", deep(7, "a.b.c.d.e = 1"), id="pair-parts"),
    pytest.param("[a.b.c.d]\n", deep(8, "[a.b.c.d]"), id="header-parts"),
    pytest.param("[[a.b.c.d]]\n", deep(9, "[[a.b.c.d]]"), id="array-of-tables-parts"),
    pytest.param("x = {a.b.c.d.e = 1}\n", deep(12, "x = {a.b.c.d.e = 1}"), id="inline-parts"),
    pytest.param("x = [[[[[1]]]]]\n", deep(8, "x = [[[[[1]]]]]"), id="brackets"),
]


@pytest.mark.parametrize(("text", "expected"), TOML_REFUSED)
def test_toml_keys_too_long_or_too_deep_are_refused_before_tomllib(
    text: str, expected: str
) -> None:
    result = load_text(text, path="p", format="toml", limits=SMALL)
    assert result.file is None
    assert render_text(result.diagnostics, {"p": text}) == expected


@pytest.mark.parametrize(
    ("text", "data"),
    [
        ('a."b.c.d.e" = 1\n', {"a": {"b.c.d.e": 1}}),  # dots inside a quoted part
        ("a.b.c.d = 1\n", {"a": {"b": {"c": {"d": 1}}}}),  # as deep as allowed
        ("[a.b.c]\nd = 1\n", {"a": {"b": {"c": {"d": 1}}}}),
        ('name = "a.b.c.d.e.f.g.h"\n', {"name": "a.b.c.d.e.f.g.h"}),  # dots in a value
        ("pi = 3.14159265358979\n", {"pi": 3.14159265358979}),  # a long value, not a key
        ('s = "[[[[[[ {{{{{"\n# ]]]]] [[[[[[\n', {"s": "[[[[[[ {{{{{"}),  # text, not brackets
        ("ab = [1]\n[[x]]\ny = 1\n", {"ab": [1], "x": [{"y": 1}]}),
    ],
    ids=[
        "dots-in-quotes",
        "deepest-pair",
        "deepest-header",
        "dots-in-text",
        "long-number",
        "brackets-in-text",
        "short-keys-in-long-lines",
    ],
)
def test_toml_within_the_limits_loads(text: str, data: object) -> None:
    result = load_text(text, path="p", format="toml", limits=SMALL)
    assert result.diagnostics == ()
    assert result.file is not None
    assert result.file.data == data


def test_a_toml_number_python_will_not_convert_is_refused() -> None:
    digits = "1" * 5000
    text = f"n = -{digits}\n"
    result = load_text(text, path="p", format="toml")
    assert render_text(result.diagnostics, {"p": text}) == lines(
        "p:1:5: error: This number has 5,000 digits, more than Python reads (4,300).",
        "  expected: a whole number of at most 4,300 digits",
        f"   1 | {text[:100]}...",  # a window of the line
        "     |     " + "^" * 96,
        "  hint: put it in quotes to keep it as text",
    )


@pytest.mark.parametrize(
    "value",
    ["1_" * 3000 + "1", '"' + "1" * 5000 + '"', "1." + "1" * 5000, "0x" + "f" * 5000],
    ids=["underscores", "text", "float", "hexadecimal"],
)
def test_long_values_python_converts_load(value: str) -> None:
    result = load_text(f"n = {value}\n", path="p", format="toml")
    assert result.diagnostics == ()


YAML_KEYS = [
    pytest.param(
        "a_very_long_key: 1\n",
        lines(
            "p:1:1: error: This key is 15 characters long, more than the limit of 12.",
            "  expected: a key of at most 12 characters",
            "   1 | a_very_long_key: 1",
            "     | ^^^^^^^^^^^^^^^",
            LONG,
        ),
        id="plain",
    ),
    pytest.param(
        'x:\n  "quoted \\u00e9 keys": 2\n',
        lines(
            "p:2:3: error: This key is 13 characters long, more than the limit of 12.",
            "  expected: a key of at most 12 characters",
            '   2 |   "quoted \\u00e9 keys": 2',
            "     |   " + "^" * 20,
            LONG,
        ),
        id="quoted-counts-characters",
    ),
    pytest.param(
        "? " + "k" * 20 + "\n: 1\n",
        lines(
            "p:1:3: error: This key is 20 characters long, more than the limit of 12.",
            "  expected: a key of at most 12 characters",
            "   1 | ? " + "k" * 20,
            "     |   " + "^" * 20,
            LONG,
        ),
        id="explicit",
    ),
]


@pytest.mark.parametrize(("text", "expected"), YAML_KEYS)
def test_yaml_keys_too_long_are_refused(text: str, expected: str) -> None:
    result = load_text(text, path="p", format="yaml", limits=SMALL)
    assert result.file is None
    assert render_text(result.diagnostics, {"p": text}) == expected


def test_keys_of_the_limit_load() -> None:
    text = 'twelve_chars: 1\n"twelve chars": 2\n'
    result = load_text(text, path="p", format="yaml", limits=SMALL)
    assert result.file is not None
    assert result.file.data == {"twelve_chars": 1, "twelve chars": 2}


@pytest.mark.parametrize(
    ("name", "text", "has_numbers"),
    [
        ("p.yaml", "a: text\nb: [true, null, '1']\nc: {d: 2026-11-26}\n", False),
        ("p.yaml", "a: text\nb: [x, 1]\n", True),
        ("p.yaml", "a: {b: 1.5}\n", True),
        ("p.yaml", "a: &n .inf\nb: *n\n", True),
        ("p.toml", 'a = "text"\nb = [true, "1"]\nc = 2026-11-26\n[d]\ne = false\n', False),
        ("p.toml", 'a = ["x", 1]\n', True),
        ("p.toml", "[a]\nb = 1.5\n", True),
    ],
)
def test_the_loader_says_whether_the_data_holds_a_number(
    name: str, text: str, has_numbers: bool
) -> None:
    """The compiler's check of numbers looks at a file only when there is a number to check."""
    result = load_text(text, path=name, format="yaml" if name.endswith("yaml") else "toml")
    assert result.file is not None
    assert result.file.has_numbers is has_numbers


@pytest.mark.parametrize(
    ("name", "text", "bad_numbers"),
    [
        ("p.yaml", "a: text\nb: [true, null, '1']\n", False),
        ("p.yaml", "a: [-9223372036854775808, 9223372036854775807, 1.5e308]\n", False),
        ("p.yaml", "a: [x, 9223372036854775808]\n", True),
        ("p.yaml", "a: {b: -0x8000000000000001}\n", True),
        ("p.yaml", "a: .nan\n", True),
        ("p.yaml", "a: 1e400\n", True),
        ("p.yaml", "a: &n 5\nb: *n\n", False),  # an alias: the full walk reads it
        ("p.yaml", "a: &n .inf\nb: *n\n", True),
        ("p.yaml", "a: &n x\nb: [*n, 9223372036854775808]\n", True),
        ("p.toml", 'a = "text"\nb = [true, "1"]\nc = 2026-11-26\n', False),
        ("p.toml", "a = [-9223372036854775808, 9223372036854775807, 1.5e308]\n", False),
        ("p.toml", "[a]\nb = nan\n", True),
        ("p.toml", "a = [1, -inf]\n", True),
        ("p.toml", "a = 1e400\n", True),
    ],
)
def test_the_loader_says_whether_a_number_does_not_fit(
    name: str, text: str, bad_numbers: bool
) -> None:
    """The compiler's check of numbers walks a file only when the loader met such a number."""
    result = load_text(text, path=name, format="yaml" if name.endswith("yaml") else "toml")
    assert result.file is not None
    assert result.file.bad_numbers is bad_numbers
