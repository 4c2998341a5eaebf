"""``wink-decl validate`` on eval files and datasets written to hurt, each in a child process.

Every run has a time and a memory limit (``run_python``): a case that regresses fails there
instead of hanging CI. The limits are far above what the cases need; they are not timings.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from concurrency import MIB, run_python

COMMAND = "import sys\nfrom wink_decl.cli import main\nsys.exit(main(sys.argv[1:]))\n"
MEMORY = 1536 * MIB
TIMEOUT = 60.0
N = 40_000
PROMPT = (
    "key: review\nparams:\n  change: {type: string, default: x}\n"
    "sections:\n  - {key: task, title: Task, template: Do it.}\n"
)
HEAD = "prompt: review.wink.yaml\nmodels:\n  - openai:gpt-4.1-mini\n"
ONE_ERROR = "1 file checked: 0 valid, 1 invalid (1 error, 0 warnings)\n"


def validate(folder: Path, *argv: str, timeout: float = TIMEOUT) -> tuple[int, str, str]:
    """``wink-decl validate ARGV`` in ``folder``, in a child process under the limits."""
    done = run_python(COMMAND, args=["validate", *argv], cwd=folder, timeout=timeout, memory=MEMORY)
    return done.returncode, done.stdout, done.stderr


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """An eval folder: the prompt, and an eval file whose dataset is ``cases.*``."""
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "review.wink.yaml").write_text(PROMPT)
    return tmp_path / "evals"


def with_dataset(folder: Path, name: str) -> None:
    (folder / "x.wink-eval.yaml").write_text(HEAD + f"dataset: {name}\n")


def refused(name: str, reason: str) -> str:
    return (
        f"x.wink-eval.yaml:4:10: error: The dataset '{name}' cannot be read: {reason}.\n"
        "  expected: a regular file that can be read\n"
        f"   4 | dataset: {name}\n"
        "     |          " + "^" * len(name) + "\n" + ONE_ERROR
    )


def outside(name: str) -> str:
    return (
        f"x.wink-eval.yaml:4:10: error: The dataset '{name}' lies outside the eval file's "
        "folder, so it is not read.\n"
        "  expected: a file inside the folder of the eval file (links included)\n"
        f"   4 | dataset: {name}\n"
        "     |          " + "^" * len(name) + "\n"
        "  hint: move the dataset beside the eval file, or into a folder below it\n" + ONE_ERROR
    )


def test_a_fifo_named_like_a_dataset_is_refused_unopened(folder: Path) -> None:
    os.mkfifo(folder / "cases.jsonl")
    with_dataset(folder, "cases.jsonl")
    expected = refused("cases.jsonl", "it is a named pipe (FIFO), not a regular file")
    assert validate(folder, "x.wink-eval.yaml", timeout=10) == (1, "", expected)


def test_a_dataset_linked_to_dev_zero_is_refused_unopened(folder: Path) -> None:
    (folder / "cases.jsonl").symlink_to("/dev/zero")
    with_dataset(folder, "cases.jsonl")
    assert validate(folder, "x.wink-eval.yaml", timeout=10) == (1, "", outside("cases.jsonl"))


def test_a_dataset_outside_the_eval_folder_is_not_read(folder: Path) -> None:
    (folder.parent / "secret.jsonl").write_text('{"id": "s3cr3t-never-printed"}\n')
    (folder / "cases.jsonl").symlink_to(folder.parent / "secret.jsonl")
    with_dataset(folder, "cases.jsonl")
    assert validate(folder, "x.wink-eval.yaml") == (1, "", outside("cases.jsonl"))
    with_dataset(folder, "../secret.jsonl")
    assert validate(folder, "x.wink-eval.yaml") == (1, "", outside("../secret.jsonl"))


def test_a_dataset_linked_inside_the_eval_folder_is_read(folder: Path) -> None:
    (folder / "data").mkdir()
    (folder / "data" / "all.jsonl").write_text("{}\n")
    (folder / "cases.jsonl").symlink_to(folder / "data" / "all.jsonl")
    with_dataset(folder, "cases.jsonl")
    assert validate(folder, "x.wink-eval.yaml") == (0, "", "1 file checked: 1 valid, 0 invalid\n")


def test_an_eval_file_that_is_a_fifo_is_refused_unopened(folder: Path) -> None:
    os.mkfifo(folder / "x.wink-eval.yaml")
    assert validate(folder, ".", timeout=10) == (
        1,
        "",
        "x.wink-eval.yaml: error: This file cannot be read: it is a named pipe (FIFO), not a "
        "regular file.\n"
        "  expected: a regular file\n"
        "  hint: replace it with a regular file; folders, pipes, devices and sockets are never "
        "opened\n" + "2 files checked: 1 valid, 1 invalid (1 error, 0 warnings)\n",
    )


def test_many_bad_lines_are_each_reported_in_linear_time(folder: Path) -> None:
    (folder / "cases.jsonl").write_text("[1]\n" * N)
    with_dataset(folder, "cases.jsonl")
    status, out, err = validate(folder, "x.wink-eval.yaml", "--format", "json", timeout=30)
    assert (status, out.count('"code": "dataset"'), err) == (1, N, "")


def test_a_line_nested_past_the_parser_recursion_is_too_deep(folder: Path) -> None:
    (folder / "cases.jsonl").write_text('{"x": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    with_dataset(folder, "cases.jsonl")
    status, _, err = validate(folder, "x.wink-eval.yaml", timeout=20)
    assert (status, err.splitlines()[0], err.splitlines()[-1]) == (
        1,
        "cases.jsonl:1:70: error: Values are nested more than 64 levels deep here.",
        ONE_ERROR.strip(),
    )


def test_brackets_inside_text_do_not_count_as_nesting(folder: Path) -> None:
    text = '"' + "[{" * 100 + '\\" ]'
    (folder / "cases.jsonl").write_text('{"params": {"change": ' + text + '"}}\n')
    with_dataset(folder, "cases.jsonl")
    assert validate(folder, "x.wink-eval.yaml") == (0, "", "1 file checked: 1 valid, 0 invalid\n")


def test_a_csv_cell_larger_than_the_reader_takes(folder: Path) -> None:
    (folder / "cases.csv").write_text("change\n" + "x" * 200_000 + "\n")
    with_dataset(folder, "cases.csv")
    status, _, err = validate(folder, "x.wink-eval.yaml")
    assert (status, err.splitlines()[0]) == (
        1,
        "cases.csv:2:1: error: Line 2 is not a CSV row: field larger than field limit (131072).",
    )


def test_a_csv_header_larger_than_the_reader_takes(folder: Path) -> None:
    (folder / "cases.csv").write_text("x" * 200_000 + "\n")
    with_dataset(folder, "cases.csv")
    status, _, err = validate(folder, "x.wink-eval.yaml")
    assert (status, err.splitlines()[0]) == (
        1,
        "cases.csv:1:1: error: Line 1 is not a CSV row: field larger than field limit (131072).",
    )


def test_a_yaml_dataset_that_expands_past_the_values_limit(folder: Path) -> None:
    bomb = "- &a [x, x, x, x, x, x, x, x, x, x]\n"
    bomb += "".join(
        f"- &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
        for p, c in zip("abcde", "bcdef", strict=True)
    )
    (folder / "cases.yaml").write_text(bomb)
    with_dataset(folder, "cases.yaml")
    status, _, err = validate(folder, "x.wink-eval.yaml", timeout=20)
    assert (status, err.splitlines()[0].split(": error: ")[1]) == (
        1,
        "The alias '*e' makes this file expand to more than 200,000 values.",
    )


def test_cases_past_the_limit_stop_the_reading(folder: Path) -> None:
    (folder / "cases.jsonl").write_text("{}\n" * N)
    with_dataset(folder, "cases.jsonl")
    status, _, err = validate(folder, "x.wink-eval.yaml", "--limit", "max_cases=1000")
    assert (status, err.splitlines()[0], err.splitlines()[-1]) == (
        1,
        "cases.jsonl:1001:1: error: This case is past the limit of 1,000 cases per eval file.",
        ONE_ERROR.strip(),
    )


def test_many_unknown_keys_in_an_eval_file_in_linear_time(folder: Path) -> None:
    (folder / "x.wink-eval.yaml").write_text(
        HEAD + "cases: [{id: a}]\n" + "".join(f"k{i}: 1\n" for i in range(N))
    )
    status, out, err = validate(folder, "x.wink-eval.yaml", "--format", "json", timeout=30)
    assert (status, out.count('"code": "unknown-key"'), err) == (1, N, "")
