"""``wink-decl validate``: every problem of every file, the summary, JSON, workers, progress."""

from __future__ import annotations

import io
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from wink_decl import _checking
from wink_decl.cli import _app, _validate
from wink_decl.cli._command import Console

Run = Callable[..., tuple[int, str, str]]

REPO = Path(__file__).resolve().parents[2]
CASES = REPO / "tests" / "cases"


def copy_case(name: str, into: Path) -> Path:
    """``tests/cases/<name>`` copied to ``into/cases/<name-without-kind>``."""
    target = into / "cases" / Path(name).name
    shutil.copytree(CASES / name, target)
    return target


def expected_text(case: Path) -> str:
    """The case's golden report, with paths as the command shows them (from the cwd)."""
    text = (case / "expected.txt").read_text()
    prefix = f"cases/{case.name}/"
    return "\n".join(
        prefix + line if line.startswith("prompt.wink.") else line for line in text.split("\n")
    )


def test_valid_folder(cli: Run, project: Path) -> None:
    assert cli("validate", "prompts") == (0, "", "4 files checked: 4 valid, 0 invalid\n")


def test_valid_folder_as_json(cli: Run, project: Path) -> None:
    assert cli("validate", "prompts", "--format", "json") == (0, "[]\n", "")


def test_a_file_and_its_folder_are_checked_once(cli: Run, project: Path) -> None:
    assert cli("validate", "prompts/agents/code-review.wink.yaml", "prompts", "prompts/") == (
        0,
        "",
        "4 files checked: 4 valid, 0 invalid\n",
    )


def test_real_paths_are_realpath(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each folder resolved once, a file's real path is still exactly ``os.path.realpath``'s."""
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "a.wink.yaml").write_text("key: a\n")
    (tmp_path / "linked").symlink_to(tmp_path / "real")
    (tmp_path / "real" / "b.wink.yaml").symlink_to(tmp_path / "real" / "a.wink.yaml")
    (tmp_path / "loop.wink.yaml").symlink_to(tmp_path / "loop.wink.yaml")
    monkeypatch.chdir(tmp_path / "real")
    names = [
        "a.wink.yaml",
        "b.wink.yaml",
        "missing.wink.yaml",
        "..",
        ".",
        "../linked/a.wink.yaml",
        "../linked/b.wink.yaml",
        "../linked/",
        str(tmp_path / "linked" / "a.wink.yaml"),
        str(tmp_path / "loop.wink.yaml"),
    ]
    real_path = _validate._RealPaths()  # pyright: ignore[reportPrivateUsage]
    assert [real_path(name) for name in names * 2] == [os.path.realpath(n) for n in names * 2]


@pytest.mark.parametrize(("given", "during"), [(None, "__all__"), ("logfire", "logfire")])
def test_pydantic_looks_for_no_plugins_while_files_are_checked(
    cli: Run, project: Path, monkeypatch: pytest.MonkeyPatch, given: str | None, during: str
) -> None:
    """Unless the user chose which, for the checks only: the variable is gone afterwards."""
    monkeypatch.delenv("PYDANTIC_DISABLE_PLUGINS", raising=False)
    if given is not None:
        monkeypatch.setenv("PYDANTIC_DISABLE_PLUGINS", given)
    seen: list[str | None] = []
    check_all = _validate.check_all

    def recording(*args: Any) -> list[_checking.Checked]:
        seen.append(os.environ.get("PYDANTIC_DISABLE_PLUGINS"))
        return check_all(*args)

    monkeypatch.setattr(_validate, "check_all", recording)
    assert cli("validate", "prompts") == (0, "", "4 files checked: 4 valid, 0 invalid\n")
    assert seen == [during]
    assert os.environ.get("PYDANTIC_DISABLE_PLUGINS") == given


def test_one_file(cli: Run, project: Path) -> None:
    assert cli("validate", "prompts/release/pipeline.wink.toml") == (
        0,
        "",
        "1 file checked: 1 valid, 0 invalid\n",
    )


def test_every_problem_of_every_file_sorted(
    cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    tools = copy_case("invalid/tool-mistakes", tmp_path)
    syntax = copy_case("invalid/broken-syntax-yaml", tmp_path)
    assert cli("validate", "cases/tool-mistakes", "cases/broken-syntax-yaml") == (
        1,
        "",
        expected_text(syntax)
        + expected_text(tools)
        + "2 files checked: 0 valid, 2 invalid (5 errors, 1 warning)\n",
    )


def test_problems_as_json(cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    copy_case("invalid/broken-syntax-yaml", tmp_path)
    expected: list[dict[str, object]] = [
        {
            "file": "cases/broken-syntax-yaml/prompt.wink.yaml",
            "line": 5,
            "column": 12,
            "end_line": 5,
            "end_column": 12,
            "severity": "error",
            "code": "yaml-syntax",
            "message": "This quoted text is never closed.",
            "expected": 'a closing " at the end of the text',
            "hint": "add the closing \" at the end of the text; inside '...' write a quote as "
            '\'\', inside "..." as \\"',
            "suggestions": [],
        }
    ]
    assert cli("validate", "cases", "--format", "json") == (
        1,
        json.dumps(expected, indent=2) + "\n",
        "",
    )


def test_warnings_leave_a_file_valid(
    cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "unused.wink.yaml").write_text(
        "key: unused\n"
        "sections:\n"
        "  - {key: main, title: Main, template: Hello.}\n"
        "tools:\n"
        "  lonely: {description: Never offered., handler: planning.read_plan}\n"
    )
    assert cli("validate", "unused.wink.yaml") == (
        0,
        "",
        "unused.wink.yaml:5:3: warning: Tool 'lonely' is declared but no section offers it.\n"
        "   5 |   lonely: {description: Never offered., handler: planning.read_plan}\n"
        "     |   ^^^^^^\n"
        "  hint: list it under tools: in the section that explains when to use it\n"
        "1 file checked: 1 valid, 0 invalid (0 errors, 1 warning)\n",
    )


def test_a_file_that_is_not_a_prompt(
    cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("hello\n")
    assert cli("validate", "notes.txt") == (
        1,
        "",
        "notes.txt: error: This file is neither YAML nor TOML: its name does not end in .yaml, "
        ".yml or .toml.\n"
        "  expected: a name such as review.wink.yaml or review.wink.toml\n"
        "  hint: rename the file so that it ends in .wink.yaml or .wink.toml\n"
        "1 file checked: 0 valid, 1 invalid (1 error, 0 warnings)\n",
    )


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ["prompts/agnets"],
            "wink-decl: error: no such file or folder: 'prompts/agnets'\n"
            "  hint: did you mean 'prompts/agents'?\n",
        ),
        (["nowhere/at/all"], "wink-decl: error: no such file or folder: 'nowhere/at/all'\n"),
        (
            ["prompts", "empty"],
            "wink-decl: error: no prompt files under 'empty'\n"
            "  hint: prompt file names end in .wink.yaml, .wink.yml, .wink.toml\n",
        ),
        (
            ["prompts", "-j", "0"],
            "wink-decl: error: argument -j/--jobs: expected a whole number of at least 1, "
            "not '0'\n"
            "  run 'wink-decl validate --help' for its options\n",
        ),
        (
            ["prompts", "--jobs", "many"],
            "wink-decl: error: argument -j/--jobs: expected a whole number of at least 1, "
            "not 'many'\n"
            "  run 'wink-decl validate --help' for its options\n",
        ),
    ],
    ids=["missing-with-hint", "missing", "empty-folder", "zero-jobs", "word-jobs"],
)
def test_usage_errors(cli: Run, project: Path, argv: list[str], expected: str) -> None:
    (project / "empty").mkdir()
    assert cli("validate", *argv) == (2, "", expected)


def many_files(tmp_path: Path, copies: int) -> list[str]:
    """``copies`` copies of the bundled prompts and of two broken cases, as folder arguments."""
    folders: list[str] = []
    for number in range(copies):
        for source in (REPO / "prompts", CASES / "invalid" / "tool-mistakes"):
            name = f"set{number:02}/{source.name}"
            shutil.copytree(source, tmp_path / name)
            folders.append(name)
    return folders


@pytest.mark.parametrize("output", ["text", "json"])
def test_workers_report_exactly_what_one_process_does(
    cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, output: str
) -> None:
    monkeypatch.chdir(tmp_path)
    folders = many_files(tmp_path, 4)
    serial = cli("validate", *folders, "--format", output, "--jobs", "1")
    assert serial[0] == 1
    assert cli("validate", *folders, "--format", output, "--jobs", "2") == serial


def test_workers_by_default_from_the_threshold(
    cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    folders = many_files(tmp_path, 2)
    serial = cli("validate", *folders)
    monkeypatch.setattr(_validate, "PARALLEL_MIN_FILES", 4)
    monkeypatch.setattr(_checking, "available_cpus", lambda: 2)
    assert cli("validate", *folders) == serial


def test_available_cpus(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _checking.available_cpus() == len(os.sched_getaffinity(0))
    monkeypatch.delattr(os, "sched_getaffinity")
    monkeypatch.setattr(os, "cpu_count", lambda: 5)
    assert _checking.available_cpus() == 5
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert _checking.available_cpus() == 1


class FakeTerminal(io.StringIO):
    """A stderr that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def run_on_terminal(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), FakeTerminal()
    code = _app.run(argv, Console(out, err))
    return code, out.getvalue(), err.getvalue()


def bar(done: int, total: int) -> str:
    filled = 20 * done // total
    return f"\r[{'#' * filled}{'.' * (20 - filled)}] {done}/{total} files"


def test_progress_bar_on_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for number in range(5):
        shutil.copytree(REPO / "prompts", tmp_path / f"set{number}")
    folders = [f"set{number}" for number in range(5)]
    drawn = "".join(bar(done, 20) for done in range(1, 21))
    clear = "\r" + " " * len(bar(20, 20).lstrip("\r")) + "\r"
    assert run_on_terminal(["validate", *folders]) == (
        0,
        "",
        drawn + clear + "20 files checked: 20 valid, 0 invalid\n",
    )
    assert run_on_terminal(["validate", *folders, "--format", "json"]) == (0, "[]\n", "")
    assert run_on_terminal(["validate", *folders[:4]]) == (
        0,
        "",
        "16 files checked: 16 valid, 0 invalid\n",
    )


def test_progress_bar_with_workers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for number in range(5):
        shutil.copytree(REPO / "prompts", tmp_path / f"set{number}")
    folders = [f"set{number}" for number in range(5)]
    # 20 files, 2 workers, 4 chunks each: chunks of 3 files, the last of 2.
    drawn = "".join(bar(done, 20) for done in (3, 6, 9, 12, 15, 18, 20))
    clear = "\r" + " " * len(bar(20, 20).lstrip("\r")) + "\r"
    assert run_on_terminal(["validate", *folders, "-j", "2"]) == (
        0,
        "",
        drawn + clear + "20 files checked: 20 valid, 0 invalid\n",
    )


def test_a_cache_folder_gives_the_same_report_and_notices_edits(
    cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    tools = copy_case("invalid/tool-mistakes", tmp_path)
    valid = copy_case("valid/basic-yaml", tmp_path)
    first = cli("validate", "cases", "--cache-dir", "cache")
    assert first == (
        1,
        "",
        expected_text(tools) + "2 files checked: 1 valid, 1 invalid (4 errors, 1 warning)\n",
    )
    entries = sorted(p.name for p in (tmp_path / "cache").glob("*.json"))
    assert len(entries) == 2
    assert cli("validate", "cases", "--cache-dir", "cache", "--jobs", "2") == first
    assert sorted(p.name for p in (tmp_path / "cache").glob("*.json")) == entries
    prompt = valid / "prompt.wink.yaml"
    prompt.write_text(prompt.read_text().replace("title:", "tilte:", 1))
    status, _, err = cli("validate", "cases", "--cache-dir", "cache")
    assert (status, err.count("Unknown key 'tilte'")) == (1, 1)
    assert len(list((tmp_path / "cache").glob("*.json"))) == 3
