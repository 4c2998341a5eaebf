"""Numbers JSON cannot carry (NaN, infinity, whole numbers past 64 bits) are refused up front."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from compiler_support import compile_in, compiled, report, write

from wink_decl.compiler import artifact_json, make_params
from wink_decl.compiler._numbers import LARGEST, SMALLEST, number_problems
from wink_decl.loader import load_text

RANGE = "a whole number from -9223372036854775808 to 9223372036854775807 (64 bits)"
HINT = "  hint: put it in quotes if it is meant as text"


def lines(*texts: str) -> str:
    return "\n".join(texts)


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        (
            "prompt.wink.yaml",
            "key: t\nparams:\n  x: {type: number, default: .nan}\nsections: [{title: T}]\n",
            lines(
                "prompt.wink.yaml:3:30: error: '.nan' (not a number) cannot be written in JSON.",
                "  expected: a finite number",
                "   3 |   x: {type: number, default: .nan}",
                "     |                              ^^^^",
                HINT,
            ),
        ),
        (
            "prompt.wink.yaml",
            "key: t\nparams:\n  x: {type: number, enum: [1.5, -.Inf]}\nsections: [{title: T}]\n",
            lines(
                "prompt.wink.yaml:3:33: error: '-.Inf' (infinity) cannot be written in JSON.",
                "  expected: a finite number",
                "   3 |   x: {type: number, enum: [1.5, -.Inf]}",
                "     |                                 ^^^^^",
                HINT,
            ),
        ),
        (
            "prompt.wink.yaml",
            "key: t\nsections:\n  - {title: T, enabled: {equals: {param: x, value: 1e400}}}\n",
            lines(
                "prompt.wink.yaml:3:52: error: '1e400' is too large: it reads as infinity, which "
                "JSON cannot write.",
                "  expected: a finite number",
                "   3 |   - {title: T, enabled: {equals: {param: x, value: 1e400}}}",
                "     |                                                    ^^^^^",
                HINT,
            ),
        ),
        (
            "prompt.wink.yaml",
            "key: 0x8000000000000000\nsections: [{title: T}]\n",
            lines(
                "prompt.wink.yaml:1:6: error: The whole number '0x8000000000000000' is too large.",
                f"  expected: {RANGE}",
                "   1 | key: 0x8000000000000000",
                "     |      ^^^^^^^^^^^^^^^^^^",
                HINT,
            ),
        ),
        (
            "prompt.wink.yaml",
            "key: t\nsections: [{title: T, template: -9_223_372_036_854_775_809}]\n",
            lines(
                "prompt.wink.yaml:2:33: error: The whole number '-9_223_372_036_854_775_809' is "
                "too small.",
                f"  expected: {RANGE}",
                "   2 | sections: [{title: T, template: -9_223_372_036_854_775_809}]",
                "     |                                 ^^^^^^^^^^^^^^^^^^^^^^^^^^",
                HINT,
            ),
        ),
        (
            "prompt.wink.toml",
            'key = "t"\n[params.x]\ntype = "number"\ndefault = -nan\n[[sections]]\ntitle = "T"\n',
            lines(
                "prompt.wink.toml:4:11: error: '-nan' (not a number) cannot be written in JSON.",
                "  expected: a finite number",
                "   4 | default = -nan",
                "     |           ^^^^",
                HINT,
            ),
        ),
        (
            "prompt.wink.toml",
            'key = "t"\n[[sections]]\ntitle = "T"\n[[tools.look.examples]]\ninput = {n = 0b'
            + "1" * 70
            + "}\n",
            lines(
                "prompt.wink.toml:5:14: error: The whole number "
                "'0b11111111111111111111111111111111111...' is too large.",
                f"  expected: {RANGE}",
                "   5 | input = {n = 0b" + "1" * 70 + "}",
                "     |              " + "^" * 72,
                HINT,
            ),
        ),
    ],
    ids=[
        "yaml-nan",
        "yaml-minus-inf",
        "overflow",
        "hex-past-64-bits",
        "below-64-bits",
        "toml-nan",
        "toml-binary",
    ],
)
def test_a_number_json_cannot_carry_is_refused_where_it_is_written(
    here: Path, name: str, text: str, expected: str
) -> None:
    result = compile_in(here, text, name=name)
    assert report(result) == expected
    assert [d.code for d in result.diagnostics] == ["number"]


def test_every_such_number_is_reported_and_nothing_else_reads_them(here: Path) -> None:
    text = "key: 1e999\ntitle: .nan\nsections: [{title: T, visibility: 0x1" + "0" * 5000 + "}]\n"
    result = compile_in(here, text)
    assert [(d.code, d.span.line if d.span else 0) for d in result.diagnostics] == [
        ("number", 1),
        ("number", 2),
        ("number", 3),
    ]
    assert "The whole number '0x10000000000000000000000000000000000...' is too large." in report(
        result
    )


@pytest.mark.parametrize("value", [SMALLEST, LARGEST, 0, -1.5e308, 5e-324])
def test_the_largest_numbers_that_fit_are_kept(here: Path, value: float) -> None:
    text = f"key: t\nparams:\n  x: {{type: number, default: {value!r}}}\nsections: [{{title: T}}]\n"
    prompt = compiled(compile_in(here, text))
    assert prompt.artifact["params"]["x"]["default"] == value
    assert json.loads(artifact_json(prompt.artifact))["params"]["x"]["default"] == value


def test_hex_octal_and_binary_literals_are_whole_numbers(here: Path) -> None:
    text = (
        "key: t\nparams:\n  x: {type: integer, default: 0x1F}\n  y: {type: integer, default: "
        "0o17}\n  z: {type: integer, default: 0b101}\n"
        "sections: [{title: T, template: '${x} ${y} ${z}'}]\n"
    )
    prompt = compiled(compile_in(here, text))
    assert prompt.template.render(*make_params(prompt, {})).text == "## 1. T (t)\n\n31 15 5"
    assert "0x" not in artifact_json(prompt.artifact)


def test_an_included_file_with_such_a_number_is_listed_with_it(here: Path) -> None:
    write(here, "lib.wink.yaml", "key: lib\nsections: [{key: a, title: A, template: .inf}]\n")
    result = compile_in(here, "key: main\nsections:\n  - include: lib.wink.yaml#a\n")
    assert report(result) == lines(
        "lib.wink.yaml:2:41: error: '.inf' (infinity) cannot be written in JSON.",
        "  expected: a finite number",
        "   2 | sections: [{key: a, title: A, template: .inf}]",
        "     |                                         ^^^^",
        HINT,
        "prompt.wink.yaml:3:14: error: Included file 'lib.wink.yaml' has errors (listed with it).",
        "   3 |   - include: lib.wink.yaml#a",
        "     |              ^^^^^^^^^^^^^^^",
    )


def test_a_file_without_such_numbers_is_looked_at_once() -> None:
    loaded = load_text("a: [1, 2.5, {b: [true, null, x]}]\n", path="p.wink.yaml", format="yaml")
    assert loaded.file is not None
    assert number_problems(loaded.file) == []


def test_the_artifact_never_holds_nan_or_infinity() -> None:
    assert artifact_json({"a": 1.5}) == '{\n  "a": 1.5\n}\n'
    for value in (math.nan, math.inf, -math.inf):
        with pytest.raises(ValueError, match="not JSON compliant"):
            artifact_json({"a": value})
