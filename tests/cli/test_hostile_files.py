"""``wink-decl validate`` on prompt files written to hurt, end to end, each in a child process.

Every run has a time and a memory limit (``run_python``): a case that regresses fails there
instead of hanging CI. The limits are far above what the cases need; they are not timings.
What they take is in ``benchmarks/hostile.py``, as ratios.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from concurrency import MIB, run_python

COMMAND = "import sys\nfrom wink_decl.cli import main\nsys.exit(main(sys.argv[1:]))\n"
MEMORY = 1536 * MIB
TIMEOUT = 60.0
N = 40_000
SECTION_YAML = "sections:\n  - {key: a, title: A, template: x}\n"
SECTION_TOML = '[[sections]]\nkey = "a"\ntitle = "A"\ntemplate = "x"\n'
ALLOWED = "one of ns, key, name, description, params, output, sections, tools, policies"
DEEP_HINT = (
    "  hint: flatten the structure: nest mappings and lists less deeply, or allow more with "
    "--limit max_depth=128"
)
ONE_ERROR = "1 file checked: 0 valid, 1 invalid (1 error, 0 warnings)\n"


def validate(folder: Path, *argv: str, timeout: float = TIMEOUT) -> tuple[int, str, str]:
    """``wink-decl validate ARGV`` in ``folder``, in a child process under the limits."""
    done = run_python(COMMAND, args=["validate", *argv], cwd=folder, timeout=timeout, memory=MEMORY)
    return done.returncode, done.stdout, done.stderr


def diagnostic(
    name: str, line: int, column: int, end_column: int, code: str, message: str, **more: object
) -> dict[str, object]:
    """One object of ``--format json``."""
    return {
        "file": name,
        "line": line,
        "column": column,
        "end_line": line,
        "end_column": end_column,
        "severity": "error",
        "code": code,
        "message": message,
        "expected": more.get("expected"),
        "hint": more.get("hint"),
        "suggestions": [],
    }


def as_json(objects: list[dict[str, object]]) -> str:
    return json.dumps(objects, indent=2, ensure_ascii=False) + "\n"


def unknown(name: str, line: int, column: int, key: str) -> dict[str, object]:
    message = f"Unknown key '{key}' in prompt."
    return diagnostic(
        name, line, column, column + len(key) - 1, "unknown-key", message, expected=ALLOWED
    )


def test_many_duplicate_keys_in_yaml(tmp_path: Path) -> None:
    (tmp_path / "d.wink.yaml").write_text("key: x\n" + "x: 1\n" * N)
    message = "Key 'x' appears twice in this mapping (first on line 2)."
    expected = [
        diagnostic(
            "d.wink.yaml",
            line,
            1,
            1,
            "duplicate-key",
            message,
            expected="each key once in a mapping",
            hint="remove one of the two, or merge their values under the first",
        )
        for line in range(3, N + 2)
    ]
    assert validate(tmp_path, "d.wink.yaml", "--format", "json") == (1, as_json(expected), "")


def test_many_duplicate_keys_in_toml(tmp_path: Path) -> None:
    (tmp_path / "d.wink.toml").write_text('key = "x"\n' + "x = 1\n" * N)
    assert validate(tmp_path, "d.wink.toml") == (
        1,
        "",
        "d.wink.toml:3:1: error: Key 'x' appears twice in this table (first on line 2).\n"
        "  expected: each key and each table once\n"
        "   3 | x = 1\n"
        "     | ^\n"
        "  hint: remove one of the two, or merge them into the first\n" + ONE_ERROR,
    )


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("u.wink.yaml", "key: x\n" + "".join(f"k{i}: 1\n" for i in range(N)) + SECTION_YAML),
        ("u.wink.toml", 'key = "x"\n' + "".join(f"k{i} = 1\n" for i in range(N)) + SECTION_TOML),
    ],
    ids=["yaml", "toml"],
)
def test_many_unknown_keys(tmp_path: Path, name: str, text: str) -> None:
    (tmp_path / name).write_text(text)
    expected = [unknown(name, i + 2, 1, f"k{i}") for i in range(N)]
    assert validate(tmp_path, name, "--format", "json") == (1, as_json(expected), "")


def test_one_line_of_many_keys(tmp_path: Path) -> None:
    start = "{key: x, sections: [{key: a, title: A, template: x}]"
    pairs = [f"k{i}: 1" for i in range(N)]
    (tmp_path / "l.wink.yaml").write_text(start + "".join(", " + pair for pair in pairs) + "}\n")
    expected: list[dict[str, object]] = []
    column = len(start) + 3  # past ", "
    for i, pair in enumerate(pairs):
        expected.append(unknown("l.wink.yaml", 1, column, f"k{i}"))
        column += len(pair) + 2
    assert validate(tmp_path, "l.wink.yaml", "--format", "json") == (1, as_json(expected), "")


def test_a_dotted_key_of_64000_parts(tmp_path: Path) -> None:
    key = "a" + ".a" * 63_999
    (tmp_path / "k.wink.toml").write_text(f'key = "x"\n{key} = 1\n')
    assert (
        validate(tmp_path, "k.wink.toml")
        == (
            1,
            "",
            "k.wink.toml:2:1: error: This dotted key is 127,999 characters long, more than the "
            "limit of 1,000.\n"
            "  expected: a key of at most 1,000 characters, counting every part and dot\n"
            f"   2 | {key[:100]}...\n"  # a window of the line: the report stays small
            "     | " + "^" * 100 + "\n"
            "  hint: use a shorter key, or allow more with --limit max_key_length=128000\n"
            + ONE_ERROR,
        )
    )


@pytest.mark.parametrize(
    ("name", "text", "column"),
    [
        ("n.wink.yaml", "key: x\nx: " + "[" * 100_000 + "]" * 100_000 + "\n", 67),
        ("n.wink.toml", 'key = "x"\nx = ' + "[" * 100_000 + "]" * 100_000 + "\n", 68),
        ("t.wink.toml", 'key = "x"\nx = ' + "{a = " * 20_000 + "1" + "}" * 20_000 + "\n", 320),
        ("m.wink.yaml", "key: x\nx: " + "{a: " * 20_000 + "1" + "}" * 20_000 + "\n", 256),
    ],
    ids=["yaml-lists", "toml-lists", "toml-inline-tables", "yaml-flow-mappings"],
)
def test_flow_collections_nested_past_the_parser_recursion(
    tmp_path: Path, name: str, text: str, column: int
) -> None:
    (tmp_path / name).write_text(text)
    low = column - 1 - 40  # a window of the line, the caret 40 characters in
    quoted = text.splitlines()[1][low : low + 100]
    assert validate(tmp_path, name) == (
        1,
        "",
        f"{name}:2:{column}: error: Values are nested more than 64 levels deep here.\n"
        "  expected: at most 64 levels of nested mappings and lists\n"
        f"   2 | ...{quoted}...\n"
        "     | " + " " * 43 + "^\n" + DEEP_HINT + "\n" + ONE_ERROR,
    )


def test_a_link_to_dev_null_named_like_a_prompt_file(tmp_path: Path) -> None:
    (tmp_path / "x.wink.yaml").symlink_to("/dev/null")
    # A root holding /dev too: then the device itself is what is refused (never opened).
    assert validate(tmp_path, "x.wink.yaml", "--root", "/") == (
        1,
        "",
        "x.wink.yaml: error: This file cannot be read: it is a character device, not a regular "
        "file.\n"
        "  expected: a regular file\n"
        "  hint: replace it with a regular file; folders, pipes, devices and sockets are never "
        "opened\n" + ONE_ERROR,
    )


GROWING = """\
import os, sys
from wink_decl.cli import main
from wink_decl.loader import regular_files

real_read = os.read
grown = []

def read(descriptor, size):
    if not grown:  # by the first read, someone has written more since the file was opened
        grown.append(True)
        with open("x.wink.yaml", "a") as stream:
            stream.write("# " + "more " * 20 + "\\n")
    return real_read(descriptor, size)

regular_files.os = type("Os", (), {"__getattr__": lambda self, name: getattr(os, name)})()
regular_files.os.read = read
sys.exit(main(sys.argv[1:]))
"""


def test_a_file_that_grows_while_it_is_read(tmp_path: Path) -> None:
    (tmp_path / "x.wink.yaml").write_text("key: x\n")
    argv = ["validate", "x.wink.yaml", "--limit", "max_bytes=40"]
    done = run_python(GROWING, args=argv, cwd=tmp_path, timeout=TIMEOUT, memory=MEMORY)
    assert (done.returncode, done.stdout, done.stderr) == (
        1,
        "",
        "x.wink.yaml:1:1: error: This file is 110 bytes long, more than the limit of 40 bytes.\n"
        "  expected: a file of at most 40 bytes\n"
        "   1 | key: x\n"
        "     | ^\n"
        "  hint: split the prompt into several smaller files, or allow more with "
        "--limit max_bytes=160\n" + ONE_ERROR,
    )


REFUSED = (
    "x.wink.yaml: error: This file cannot be read: it is {kind}, not a regular file.\n"
    "  expected: a regular file\n"
    "  hint: replace it with a regular file; folders, pipes, devices and sockets are never "
    "opened\n" + ONE_ERROR
)


def test_a_fifo_named_like_a_prompt_file(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "x.wink.yaml")
    expected = REFUSED.format(kind="a named pipe (FIFO)")
    assert validate(tmp_path, "x.wink.yaml", timeout=5) == (1, "", expected)


def test_a_link_to_dev_zero_named_like_a_prompt_file(tmp_path: Path) -> None:
    (tmp_path / "x.wink.yaml").symlink_to("/dev/zero")
    expected = REFUSED.format(kind="a character device")
    assert validate(tmp_path, "x.wink.yaml", "--root", "/", timeout=10) == (1, "", expected)
    outside = validate(tmp_path, "x.wink.yaml", timeout=10)  # under its own folder's root
    assert outside[2].startswith("x.wink.yaml: error: This file is a symbolic link to a file ")


def test_many_duplicate_keys_reported_as_text(tmp_path: Path) -> None:
    (tmp_path / "d.wink.yaml").write_text("key: x\n" + "x: 1\n" * N)
    block = (
        "d.wink.yaml:{line}:1: error: Key 'x' appears twice in this mapping (first on line 2).\n"
        "  expected: each key once in a mapping\n"
        "{line:>4} | x: 1\n"
        "     | ^\n"
        "  hint: remove one of the two, or merge their values under the first\n"
    )
    expected = "".join(block.format(line=line) for line in range(3, N + 2))
    summary = f"1 file checked: 0 valid, 1 invalid ({N - 1} errors, 0 warnings)\n"
    # Linear, it takes seconds; quadratic, over a minute.
    assert validate(tmp_path, "d.wink.yaml", timeout=10) == (1, "", expected + summary)


def test_the_hostile_files_benchmark_runs() -> None:
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "hostile.py"
    done = run_python(script, args=["--divide", "100", "--rounds", "1"], timeout=TIMEOUT)
    assert (done.returncode, done.stderr) == (0, "")
    lines = done.stdout.splitlines()
    assert lines[0].startswith("seconds at 10n (load, check)")
    assert [line.split(" n=")[0].strip() for line in lines[1:9]] == [
        "duplicate keys, YAML",
        "unknown keys, YAML",
        "one line of unknown keys, YAML",
        "duplicate keys, TOML",
        "unknown keys, TOML",
        "dotted key, TOML",
        "nested lists, YAML",
        "nested lists, TOML",
    ]
    assert lines[-1].startswith("  ratio ")


OUTSIDE_TEXT = "token: s3cr3t-never-printed\n"


def test_a_link_to_a_file_outside_the_checkout_is_not_read(tmp_path: Path) -> None:
    # A YAML file the reader may read: loaded, its lines would be quoted in the CI log.
    (tmp_path / "credentials.yaml").write_text(OUTSIDE_TEXT)
    checkout = tmp_path / "checkout"
    (checkout / "prompts").mkdir(parents=True)
    (checkout / "prompts" / "x.wink.yaml").symlink_to(tmp_path / "credentials.yaml")
    refused = (
        "prompts/x.wink.yaml: error: This file is a symbolic link to a file outside the prompt "
        "root, so it is not read.\n"
        "  expected: a prompt file whose real path lies inside the prompt root\n"
        "  hint: replace the link with the file itself, or choose a prompt root that holds what "
        "it links to (--root)\n" + ONE_ERROR
    )
    assert validate(checkout, "prompts") == (1, "", refused)
    assert validate(checkout, "prompts/x.wink.yaml") == (1, "", refused)
    code, out, _ = validate(checkout, "prompts", "--format", "json")
    assert (code, "s3cr3t" in out, json.loads(out)[0]["code"]) == (1, False, "outside-root")


def test_a_link_to_a_prompt_file_inside_the_root_is_read(tmp_path: Path) -> None:
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "a.wink.yaml").write_text(
        "key: a\nsections: [{key: s, title: S, template: x}]\n"
    )
    (tmp_path / "b.wink.yaml").symlink_to(tmp_path / "shared" / "a.wink.yaml")
    assert validate(tmp_path, "b.wink.yaml", "--root", ".") == (
        0,
        "",
        "1 file checked: 1 valid, 0 invalid\n",
    )


def test_an_include_that_is_a_fifo_is_refused_unopened(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "lib.wink.yaml")
    (tmp_path / "a.wink.yaml").write_text("key: a\nsections:\n  - include: lib.wink.yaml#x\n")
    assert validate(tmp_path, "a.wink.yaml", timeout=10) == (
        1,
        "",
        "a.wink.yaml:3:14: error: Included file 'lib.wink.yaml' cannot be read: it is a named "
        "pipe (FIFO), not a regular file.\n"
        "   3 |   - include: lib.wink.yaml#x\n"
        "     |              ^^^^^^^^^^^^^^^\n" + ONE_ERROR,
    )


def test_a_loop_of_links_in_a_folder_is_reported_not_an_internal_error(tmp_path: Path) -> None:
    (tmp_path / "a.wink.yaml").symlink_to("b.wink.yaml")
    (tmp_path / "b.wink.yaml").symlink_to("a.wink.yaml")
    looped = (
        "{}: error: This file cannot be read: too many levels of symbolic links.\n"
        "  expected: a prompt file that exists and can be read\n"
        "  hint: check the path and the file's permissions\n"
    )
    assert validate(tmp_path, ".", timeout=20) == (
        1,
        "",
        looped.format("a.wink.yaml")
        + looped.format("b.wink.yaml")
        + "2 files checked: 0 valid, 2 invalid (2 errors, 0 warnings)\n",
    )
