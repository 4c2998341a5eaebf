"""``--params-file``: YAML, TOML or JSON values, checked against the declarations with spans."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

Run = Callable[..., tuple[int, str, str]]

KINDS = """\
key: kinds
params:
  name: {type: string}
  level: {type: string, enum: [low, high], default: low}
  count: {type: integer, default: 1}
  strict: {type: boolean, default: false}
  tags: {type: array, items: {type: integer}, default: []}
sections:
  - key: main
    title: Main
    template: ${name} ${level} ${count} ${strict} ${tags}
"""

DECLARED = "  expected: one of the declared params (name, level, count, strict, tags)\n"
MAPPING = "  expected: a mapping such as 'language: Python', or a JSON object\n"


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "kinds.wink.yaml").write_text(KINDS)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def rendered(line: str) -> str:
    return f"## 1. Main (main)\n\n{line}\n\ntools: (none)\n"


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("p.yaml", "name: Ada\ncount: 2\ntags: [1, 2]\n"),
        ("p.yml", "name: Ada\ncount: 2\ntags: [1, 2]\n"),
        ("p.toml", 'name = "Ada"\ncount = 2\ntags = [1, 2]\n'),
        ("p.json", '{"name": "Ada", "count": 2, "tags": [1, 2]}'),
    ],
    ids=["yaml", "yml", "toml", "json"],
)
def test_values_from_a_file(cli: Run, here: Path, name: str, content: str) -> None:
    (here / name).write_text(content)
    assert cli("render", "kinds.wink.yaml", "--params-file", name) == (
        0,
        rendered("Ada low 2 False (1, 2)"),
        "",
    )


def test_the_command_line_wins(cli: Run, here: Path) -> None:
    (here / "p.yaml").write_text("name: Ada\ncount: many\nstrict: yes\n")
    argv = ["--params-file", "p.yaml", "--param", "count=3", "--param", "name=Bo"]
    assert cli("render", "kinds.wink.yaml", *argv, "--param", "strict=true") == (
        0,
        rendered("Bo low 3 True ()"),
        "",
    )


def test_wrong_values_point_at_their_place(cli: Run, here: Path) -> None:
    (here / "p.yaml").write_text(
        "name: Ada\nnmae: x\nlevel: hgh\ncount: 1.5\nzzz: 1\ntags: [1, a]\nstrict: 1\n"
    )
    assert cli("render", "kinds.wink.yaml", "--params-file", "p.yaml") == (
        1,
        "",
        "p.yaml:2:1: error: Unknown param 'nmae'. Did you mean 'name'?\n"
        + DECLARED
        + "   2 | nmae: x\n"
        "     | ^^^^\n"
        "p.yaml:3:8: error: Param 'level' must be one of low, high, not \"hgh\".\n"
        "   3 | level: hgh\n"
        "     |        ^^^\n"
        "  hint: did you mean 'high'?\n"
        "p.yaml:4:8: error: Param 'count' must be a whole number, not 1.5.\n"
        "   4 | count: 1.5\n"
        "     |        ^^^\n"
        "p.yaml:5:1: error: Unknown param 'zzz'.\n" + DECLARED + "   5 | zzz: 1\n"
        "     | ^^^\n"
        "p.yaml:6:7: error: Param 'tags' must be a list of whole numbers, not [1, \"a\"].\n"
        "   6 | tags: [1, a]\n"
        "     |       ^^^^^^\n"
        "p.yaml:7:9: error: Param 'strict' must be true or false, not 1.\n"
        "   7 | strict: 1\n"
        "     |         ^\n",
    )


def test_json_values_have_no_spans(cli: Run, here: Path) -> None:
    (here / "p.json").write_text('{"name": "Ada", "level": 3, "nmae": 1}')
    assert cli("render", "kinds.wink.yaml", "--params-file", "p.json") == (
        1,
        "",
        "p.json: error: Param 'level' must be one of low, high, not 3.\n"
        "p.json: error: Unknown param 'nmae'. Did you mean 'name'?\n" + DECLARED,
    )


def test_a_wrong_file_value_and_a_command_line_mistake(cli: Run, here: Path) -> None:
    (here / "p.yaml").write_text("name: Ada\ncount: x\n")
    argv = ["--params-file", "p.yaml", "--param", "count=y"]
    assert cli("render", "kinds.wink.yaml", *argv) == (
        1,
        "",
        "kinds.wink.yaml: error: --param count=y: expected a whole number\n",
    )


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        (
            "p.yaml",
            "name: [\n",
            "p.yaml:1:8: error: A value is missing here, or it starts with a character that "
            "needs quotes.\n"
            "  expected: a value\n"
            "   1 | name: [\n"
            "     |        ^\n"
            "  hint: put text that starts with a character such as , [ ] { } # & * ! | > % @ in "
            "quotes\n",
        ),
        (
            "p.yaml",
            "- a\n",
            "p.yaml:1:1: error: This file holds a list; a params file must map param names to "
            "their values.\n" + MAPPING + "   1 | - a\n     | ^^^\n",
        ),
        (
            "p.yaml",
            "",
            "p.yaml:1:1: error: This file is empty; a params file must map param names to "
            "their values.\n" + MAPPING,
        ),
        (
            "p.yaml",
            b"name: \xff\n",
            "p.yaml:1:7: error: This file is not valid UTF-8 text (byte 0xff).\n"
            "  expected: UTF-8 text\n"
            "   1 | name: \ufffd\n"
            "     |       ^\n"
            "  hint: save the file as UTF-8 in your editor\n",
        ),
        (
            "p.json",
            '{"name": "Ada",\n "strict": }',
            "p.json:2:12: error: This file is not valid JSON: expecting value.\n"
            '   2 |  "strict": }\n'
            "     |            ^\n",
        ),
        (
            "p.json",
            '{"name": "Ada",\n "strict": true,\n}',
            "p.json:2:16: error: This file is not valid JSON: trailing comma before the closing "
            "'}'.\n"
            '   2 |  "strict": true,\n'
            "     |                ^\n",
        ),
        (
            "p.json",
            "[1]",
            "p.json:1:1: error: This file holds a list; a params file must map param names to "
            "their values.\n" + MAPPING + "   1 | [1]\n     | ^\n",
        ),
        (
            "p.json",
            "3",
            "p.json:1:1: error: This file holds a single value; a params file must map param "
            "names to their values.\n" + MAPPING + "   1 | 3\n     | ^\n",
        ),
        (
            "p.json",
            b"\xff\xfe",
            "p.json: error: This file is not UTF-8 text: byte 1 cannot be decoded.\n",
        ),
    ],
    ids=[
        "yaml-syntax",
        "yaml-list",
        "yaml-empty",
        "yaml-encoding",
        "json-syntax",
        "json-trailing-comma",
        "json-list",
        "json-value",
        "json-encoding",
    ],
)
def test_files_that_do_not_load(
    cli: Run, here: Path, name: str, content: str | bytes, expected: str
) -> None:
    path = here / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    assert cli("render", "kinds.wink.yaml", "--params-file", name) == (1, "", expected)


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ["--params-file", "p.txt"],
            "wink-decl: error: --params-file 'p.txt' is neither YAML, TOML nor JSON\n"
            "  hint: use a file whose name ends in .yaml, .yml, .toml or .json\n",
        ),
        (["--params-file", "."], "wink-decl: error: --params-file '.' is a folder, not a file\n"),
        (
            ["--params-file", "p.tx"],
            "wink-decl: error: no such file or folder: 'p.tx'\n  hint: did you mean 'p.txt'?\n",
        ),
    ],
    ids=["unknown-kind", "folder", "missing"],
)
def test_usage_errors(cli: Run, here: Path, argv: list[str], expected: str) -> None:
    (here / "p.txt").write_text("name: Ada\n")
    assert cli("render", "kinds.wink.yaml", *argv) == (2, "", expected)
