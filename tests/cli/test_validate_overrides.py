"""``validate`` with override files: each prompt compiled once, the checks kept by ``--cache-dir``,
and ``wink_decl.validate`` reporting exactly what the command reports."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import wink_decl
from wink_decl import _checking
from wink_decl.compiler import compile as compile_module
from wink_decl.overrides import text_hash

Run = Callable[..., tuple[int, str, str]]

NOTES = """key: notes
params:
  topic: {type: string}
sections:
  - key: task
    title: Task
    template: Write short notes about ${topic}.
"""
OTHER = "key: other\nsections:\n  - key: task\n    title: Task\n    template: Be brief.\n"
OLD_HASH = text_hash("Write notes about ${topic}.")
NEW_HASH = text_hash("Write short notes about ${topic}.")
NOTES_OVERRIDE = "overrides/prompts/notes/short.wink-override.yaml"
STALE_ONLY = f"""sections:
  task:
    template:
      hash: {OLD_HASH}
      text: Jot down ${{topic}}.
"""
STALE_AND_UNKNOWN = (
    f"{STALE_ONLY}  tsak:\n    template:\n      hash: {OLD_HASH}\n      text: Jot.\n"
)
OTHER_OVERRIDE = "overrides/prompts/other/terse.wink-override.yaml"
CURRENT = f"""sections:
  task:
    template:
      hash: {text_hash("Be brief.")}
      text: Be terse.
"""
STALE = (
    f"{NOTES_OVERRIDE}:4:13: {{severity}}: The override of sections.task.template was written "
    "for another text: the base text has changed since, so the base text is used.\n"
    f"  expected: hash: {NEW_HASH}\n"
    f"   4 |       hash: {OLD_HASH}\n"
    f"     |             {'^' * 71}\n"
    "  hint: compare the override with the new base text, then re-pin it: wink-decl "
    "overrides repin FILE --tag TAG shows each stale entry's base text and, with "
    "--all or --entry, writes the new hashes and keeps your texts\n"
)
UNKNOWN = (
    f"{NOTES_OVERRIDE}:6:3: error: Prompt 'prompts/notes' has no section 'tsak'.\n"
    "  expected: a section of the prompt, its dotted key from the top\n"
    "   6 |   tsak:\n"
    "     |   ^^^^\n"
    "  hint: did you mean 'task'?\n"
)
REPORT = (
    STALE.format(severity="warning")
    + UNKNOWN
    + "2 files checked: 1 valid, 1 invalid (1 error, 1 warning)\n"
)
STRICT_REPORT = (
    STALE.format(severity="error")
    + UNKNOWN
    + "2 files checked: 1 valid, 1 invalid (2 errors, 0 warnings)\n"
)
NOTES_FILE = "prompts/notes.wink.yaml"
OTHER_FILE = "prompts/other.wink.yaml"


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two prompts; ``notes`` has a tag with a stale and an unknown entry; the cwd."""
    monkeypatch.chdir(tmp_path)
    Path("prompts").mkdir()
    Path(NOTES_FILE).write_text(NOTES)
    Path(OTHER_FILE).write_text(OTHER)
    write(NOTES_OVERRIDE, STALE_AND_UNKNOWN)
    return tmp_path


def write(name: str, text: str) -> None:
    Path(name).parent.mkdir(parents=True, exist_ok=True)
    Path(name).write_text(text)


@pytest.fixture
def compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every prompt file compiled from now on (in this process: fewer files than need workers).

    The registries of earlier tests are forgotten: one would not compile a file again whose
    path and bytes it has compiled before, as in another test's folder.
    """
    monkeypatch.setattr(_checking, "_REGISTRIES", {})  # pyright: ignore[reportPrivateUsage]
    seen: list[str] = []
    real = compile_module.compile_loaded

    def counted(file: Any, *, file_path: str | os.PathLike[str], **options: Any) -> Any:
        seen.append(os.fspath(file_path))
        return real(file, file_path=file_path, **options)

    monkeypatch.setattr(compile_module, "compile_loaded", counted)
    return seen


@pytest.mark.parametrize(
    "options",
    [
        [],
        ["--cache-dir", "cache"],
        ["--import-plugins"],
        ["--import-plugins", "--cache-dir", "cache"],
    ],
    ids=["checked", "cached", "plugins-imported", "plugins-imported-cached"],
)
def test_each_prompt_is_compiled_once_with_its_override_files(
    cli: Run, tree: Path, compiles: list[str], options: list[str]
) -> None:
    assert cli("validate", "prompts", *options) == (1, "", REPORT)
    assert sorted(compiles) == [NOTES_FILE, OTHER_FILE]


def cached(cli: Run, *options: str) -> tuple[int, str, str]:
    """``validate prompts --cache-dir cache``, as a new process runs it: nothing in memory."""
    _checking._REGISTRIES.clear()  # pyright: ignore[reportPrivateUsage]
    return cli("validate", "prompts", "--cache-dir", "cache", *options)


def test_a_warm_cache_compiles_nothing_and_an_edit_recompiles_that_prompt_alone(
    cli: Run, tree: Path, compiles: list[str]
) -> None:
    write(OTHER_OVERRIDE, CURRENT)
    assert cached(cli) == (1, "", REPORT)
    assert sorted(compiles) == [NOTES_FILE, OTHER_FILE]
    compiles.clear()
    assert cached(cli) == (1, "", REPORT)
    assert compiles == []
    assert cached(cli, "--strict") == (1, "", STRICT_REPORT)
    assert sorted(compiles) == [NOTES_FILE, OTHER_FILE]  # how stale entries count: in the key
    compiles.clear()
    Path(NOTES_OVERRIDE).write_text(STALE_ONLY)
    fixed = (
        STALE.format(severity="warning")
        + "2 files checked: 2 valid, 0 invalid (0 errors, 1 warning)\n"
    )
    assert cached(cli) == (0, "", fixed)
    assert compiles == [NOTES_FILE]
    compiles.clear()
    assert cached(cli) == (0, "", fixed)
    assert compiles == []


def test_a_warm_cache_with_an_empty_overrides_folder_compiles_nothing(
    cli: Run, tree: Path, compiles: list[str]
) -> None:
    Path(NOTES_OVERRIDE).unlink()  # the folders stay: an overrides folder without a file
    without = (0, "", "2 files checked: 2 valid, 0 invalid\n")
    assert cached(cli) == without
    assert sorted(compiles) == [NOTES_FILE, OTHER_FILE]
    compiles.clear()
    assert cached(cli) == without
    assert compiles == []


@pytest.mark.parametrize("strict", [False, True], ids=["warnings", "strict"])
def test_the_function_reports_what_the_command_reports(cli: Run, tree: Path, strict: bool) -> None:
    options = ["--strict"] if strict else []
    status, out, err = cli("validate", "prompts", "--format", "json", *options)
    assert (status, err) == (1, "")
    found = wink_decl.validate(["prompts"], strict=strict)
    assert [d.to_json() for d in found] == json.loads(out)
    assert [(d.code, d.severity) for d in found] == [
        ("override-stale", "error" if strict else "warning"),
        ("override-unknown", "error"),
    ]
    Path("overrides").rename("variants")
    assert wink_decl.validate(["prompts"], strict=strict) == []
    status, out, _ = cli("validate", "prompts", "--format", "json", "--overrides", "variants")
    moved = wink_decl.validate(["prompts"], overrides="variants")
    assert [d.to_json() for d in moved] == json.loads(out)
    assert len(moved) == 2


def test_files_whose_address_cannot_be_read_cheaply_are_compiled_once_or_reported(
    cli: Run, tree: Path, compiles: list[str]
) -> None:
    """A prompt written unusually is built to learn its address; a broken link is unreadable."""
    Path("prompts/flow.wink.yaml").write_text(
        "{key: flow, sections: [{key: a, title: A, template: Hi.}]}\n"
    )
    Path("prompts/gone.wink.yaml").symlink_to("nowhere.wink.yaml")
    gone = (
        "prompts/gone.wink.yaml: error: This file cannot be read: no such file or directory.\n"
        "  expected: a prompt file that exists and can be read\n"
        "  hint: check the path and the file's permissions\n"
    )
    assert cli("validate", "prompts") == (
        1,
        "",
        STALE.format(severity="warning")
        + UNKNOWN
        + gone
        + "4 files checked: 2 valid, 2 invalid (2 errors, 1 warning)\n",
    )
    assert sorted(compiles) == ["prompts/flow.wink.yaml", NOTES_FILE, OTHER_FILE]
