"""``--params-file`` read as a prompt file is: regular files only, capped, each key once.

Files that could block or never end run the command in a child process under a time and
memory limit, so a regression fails instead of hanging the run.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from concurrency import MIB, run_python

Run = Callable[..., tuple[int, str, str]]

PROMPT = """\
key: greet
params:
  name: {type: string}
sections:
  - key: main
    title: Main
    template: Hello ${name}.
"""

COMMAND = "import sys\nfrom wink_decl.cli import main\nsys.exit(main(sys.argv[1:]))\n"


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "greet.wink.yaml").write_text(PROMPT)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def refused(name: str, kind: str) -> str:
    return (
        f"{name}: error: This file cannot be read: it is {kind}, not a regular file.\n"
        "  expected: a regular file\n"
        "  hint: replace it with a regular file; folders, pipes, devices and sockets are never "
        "opened\n"
    )


@pytest.mark.parametrize(
    ("name", "make", "kind"),
    [
        ("p.json", "fifo", "a named pipe (FIFO)"),
        ("p.yaml", "fifo", "a named pipe (FIFO)"),
        ("p.toml", "/dev/zero", "a character device"),
        ("p.json", "/dev/zero", "a character device"),
    ],
    ids=["fifo-json", "fifo-yaml", "zero-toml", "zero-json"],
)
def test_a_pipe_or_a_device_is_refused_unopened(
    here: Path, name: str, make: str, kind: str
) -> None:
    if make == "fifo":
        os.mkfifo(here / name)
    else:
        (here / name).symlink_to(make)
    argv = ["render", "greet.wink.yaml", "--params-file", name]
    done = run_python(COMMAND, args=argv, cwd=here, timeout=30, memory=1024 * MIB)
    assert (done.returncode, done.stdout, done.stderr) == (1, "", refused(name, kind))


@pytest.mark.parametrize("name", ["p.yaml", "p.json"], ids=["yaml", "json"])
def test_a_params_file_larger_than_its_limit_is_not_read(cli: Run, here: Path, name: str) -> None:
    (here / name).write_text('{"name": "' + "x" * 100 + '"}\n')
    assert cli(
        "render", "greet.wink.yaml", "--params-file", name, "--limit", "max_params_file_bytes=50"
    ) == (
        1,
        "",
        f"{name}:1:1: error: This file is 113 bytes long, more than the limit of 50 bytes.\n"
        "  expected: a file of at most 50 bytes\n"
        "  hint: keep only the values this prompt needs in the file, or allow more with "
        "--limit max_params_file_bytes=200\n",
    )


DUPLICATE = "  hint: remove one of the two, or merge their values under the first\n"


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        (
            "p.yaml",
            "name: Ada\nname: Bo\n",
            "p.yaml:2:1: error: Key 'name' appears twice in this mapping (first on line 1).\n"
            "  expected: each key once in a mapping\n"
            "   2 | name: Bo\n"
            "     | ^^^^\n" + DUPLICATE,
        ),
        (
            "p.toml",
            'name = "Ada"\nname = "Bo"\n',
            "p.toml:2:1: error: Key 'name' appears twice in this table (first on line 1).\n"
            "  expected: each key and each table once\n"
            '   2 | name = "Bo"\n'
            "     | ^^^^\n"
            "  hint: remove one of the two, or merge them into the first\n",
        ),
        (
            "p.json",
            '{"name": "Ada",\n "name": "Bo"}',
            "p.json:2:2: error: Key 'name' appears twice in this object (first on line 1).\n"
            "  expected: each key once in an object\n"
            '   2 |  "name": "Bo"}\n'
            "     |  ^^^^^^\n"
            "  hint: remove one of the two\n",
        ),
        (
            "p.json",
            '{"name": "Ada", "tags": [{"a": 1}, {"a": 1, "\\u0061": 2}], "name": "Bo"}',
            "p.json:1:45: error: Key 'a' appears twice in this object (first on line 1).\n"
            "  expected: each key once in an object\n"
            '   1 | {"name": "Ada", "tags": [{"a": 1}, {"a": 1, "\\u0061": 2}], "name": "Bo"}\n'
            "     |                                             ^^^^^^^^\n"
            "  hint: remove one of the two\n",
        ),
    ],
    ids=["yaml", "toml", "json", "json-first-in-the-file"],
)
def test_a_key_written_twice_is_refused(
    cli: Run, here: Path, name: str, content: str, expected: str
) -> None:
    (here / name).write_text(content)
    assert cli("render", "greet.wink.yaml", "--params-file", name) == (1, "", expected)


def test_a_json_key_too_long_is_refused(cli: Run, here: Path) -> None:
    (here / "p.json").write_text('{"name": "Ada", "' + "n" * 30 + '": 1}')
    assert cli(
        "render", "greet.wink.yaml", "--params-file", "p.json", "--limit", "max_key_length=20"
    ) == (
        1,
        "",
        "p.json:1:17: error: This key is 30 characters long, more than the limit of 20.\n"
        "  expected: a key of at most 20 characters\n"
        '   1 | {"name": "Ada", "' + "n" * 30 + '": 1}\n'
        "     |                 " + "^" * 32 + "\n"
        "  hint: use a shorter key, or allow more with --limit max_key_length=40\n",
    )


def test_json_nested_too_deep_is_refused_before_the_json_module_recurses(here: Path) -> None:
    (here / "p.json").write_text('{"name": ' + "[" * 100_000 + "]" * 100_000 + "}")
    argv = ["render", "greet.wink.yaml", "--params-file", "p.json", "--limit", "max_depth=3"]
    done = run_python(COMMAND, args=argv, cwd=here, timeout=30, memory=1024 * MIB)
    assert (done.returncode, done.stdout) == (1, "")
    header, expected, quoted, caret, hint = done.stderr.splitlines()
    assert header == "p.json:1:12: error: Values are nested more than 3 levels deep here."
    assert expected == "  expected: at most 3 levels of nested mappings and lists"
    assert quoted.startswith('   1 | {"name": [[[')
    assert caret == "     |            ^"
    assert hint == (
        "  hint: flatten the structure: nest mappings and lists less deeply, or allow more "
        "with --limit max_depth=6"
    )


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (  # brackets in text do not nest
            '{"name": "[[[[[[[[[[ {{{{{{{{{"}',
            (0, "## 1. Main (main)\n\nHello [[[[[[[[[[ {{{{{{{{{.\n\ntools: (none)\n", ""),
        ),
        (
            '{"name": "Ada", "x": [[1], [2], [3], [4], [5], [6], [7], [8], [9]]}',
            (
                1,
                "",
                "p.json: error: Unknown param 'x'.\n"
                "  expected: one of the declared params (name)\n",
            ),
        ),
    ],
    ids=["brackets-in-text", "many-but-shallow"],
)
def test_json_with_many_brackets_but_not_deep_loads(
    cli: Run, here: Path, content: str, expected: tuple[int, str, str]
) -> None:
    (here / "p.json").write_text(content)
    argv = ["--params-file", "p.json", "--limit", "max_depth=3"]
    assert cli("render", "greet.wink.yaml", *argv) == expected


def test_json_nested_too_deep_is_refused_where_it_goes_too_deep(cli: Run, here: Path) -> None:
    (here / "p.json").write_text('{"name": "]]]]", "x": [[1], [[[2]]]]}')
    argv = ["--params-file", "p.json", "--limit", "max_depth=3"]
    assert cli("render", "greet.wink.yaml", *argv) == (
        1,
        "",
        "p.json:1:30: error: Values are nested more than 3 levels deep here.\n"
        "  expected: at most 3 levels of nested mappings and lists\n"
        '   1 | {"name": "]]]]", "x": [[1], [[[2]]]]}\n'
        "     |                              ^\n"
        "  hint: flatten the structure: nest mappings and lists less deeply, or allow more "
        "with --limit max_depth=6\n",
    )
