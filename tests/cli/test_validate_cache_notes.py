"""``validate --cache-dir`` with a cache it cannot use: one note, then the run as without one."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

Run = Callable[..., tuple[int, str, str]]

VALID = (0, "", "4 files checked: 4 valid, 0 invalid\n")
BROKEN = "key: broken\nsections: 3\n"


def note(folder: str, reason: str) -> str:
    return f"wink-decl: note: not using --cache-dir '{folder}': {reason}\n"


def entries(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.glob("*.json"))


def test_a_file_named_as_the_cache_is_left_alone(cli: Run, project: Path) -> None:
    Path("cache").write_text("mine\n")
    status, out, err = VALID
    assert cli("validate", "prompts", "--cache-dir", "cache") == (
        status,
        out,
        note("cache", "it is not a folder") + err,
    )
    assert Path("cache").read_text() == "mine\n"


def test_the_exit_status_and_report_are_those_without_a_cache(cli: Run, project: Path) -> None:
    Path("prompts/broken.wink.yaml").write_text(BROKEN)
    Path("cache").write_text("")
    status, out, err = cli("validate", "prompts")
    assert status == 1
    assert cli("validate", "prompts", "--cache-dir", "cache") == (
        status,
        out,
        note("cache", "it is not a folder") + err,
    )
    assert cli("validate", "prompts", "--cache-dir", "cache", "--format", "json") == (
        status,
        cli("validate", "prompts", "--format", "json")[1],
        note("cache", "it is not a folder"),
    )


def test_a_folder_that_cannot_be_made_is_noted(cli: Run, project: Path) -> None:
    Path("cache").write_text("")
    status, out, err = VALID
    assert cli("validate", "prompts", "--cache-dir", "cache/inner") == (
        status,
        out,
        note("cache/inner", "it cannot be made (not a directory)") + err,
    )


def test_a_folder_that_cannot_be_written_is_noted(
    cli: Run, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As a folder that is read-only for this user; root may write anywhere, so it is told so."""
    (project / "cache").mkdir()
    allowed = os.access

    def refused(path: str | os.PathLike[str], mode: int, **options: object) -> bool:
        return Path(path) != Path("cache") and allowed(path, mode, **options)  # pyright: ignore[reportArgumentType]

    monkeypatch.setattr(os, "access", refused)
    status, out, err = VALID
    assert cli("validate", "prompts", "--cache-dir", "cache") == (
        status,
        out,
        note("cache", "it cannot be written") + err,
    )
    assert entries(project / "cache") == []


def test_a_short_key_is_noted_and_never_shown(
    cli: Run, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WINK_DECL_CACHE_KEY", "hunter2-is-short")
    status, out, err = VALID
    assert cli("validate", "prompts", "--cache-dir", "cache") == (
        status,
        out,
        note("cache", "WINK_DECL_CACHE_KEY is shorter than 32 characters") + err,
    )
    assert entries(project / "cache") == []


def test_no_key_file_that_can_be_made_is_noted(
    cli: Run, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (project / "state").write_text("")  # where the key file's folder would be made
    monkeypatch.setenv("XDG_STATE_HOME", str(project / "state"))
    status, out, err = VALID
    assert cli("validate", "prompts", "--cache-dir", "cache") == (
        status,
        out,
        note("cache", "no key to sign its entries could be read or made (set WINK_DECL_CACHE_KEY)")
        + err,
    )
    assert entries(project / "cache") == []


def test_a_usable_cache_is_used_without_a_note(cli: Run, project: Path) -> None:
    assert cli("validate", "prompts", "--cache-dir", "cache") == VALID
    assert len(entries(project / "cache")) == 4
