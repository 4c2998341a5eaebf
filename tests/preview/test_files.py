"""Which files a preview serves, and how a name from a URL is refused or found."""

from __future__ import annotations

from pathlib import Path

import pytest

from wink_decl.preview.files import PromptFolder


def test_a_folder_serves_its_prompt_files_by_relative_name(served: Path) -> None:
    (served / "sub").mkdir()
    (served / "sub" / "deep.wink.yml").write_text("key: deep\n")
    (served / "notes.yaml").write_text("not: a prompt\n")
    folder = PromptFolder(served, served)
    assert [folder.name_of(p) for p in folder.files()] == [
        "plain.wink.toml",
        "review.wink.yaml",
        "sub/deep.wink.yml",
    ]
    assert folder.resolve("sub/deep.wink.yml") == served / "sub" / "deep.wink.yml"
    assert folder.resolve("notes.yaml") is None


def test_one_file_serves_itself_alone(served: Path) -> None:
    folder = PromptFolder(served / "plain.wink.toml", served)
    assert (folder.base, folder.files()) == (served, [served / "plain.wink.toml"])
    assert folder.resolve("plain.wink.toml") == served / "plain.wink.toml"
    assert folder.resolve("review.wink.yaml") is None


def test_a_file_gone_serves_nothing(served: Path) -> None:
    folder = PromptFolder(served / "gone.wink.yaml", served)
    assert (folder.files(), folder.listing()) == ([], [])


@pytest.mark.parametrize(
    "name",
    ["", "/etc/passwd", "\\x.wink.yaml", "a\\..\\review.wink.yaml", "..", "x/../review.wink.yaml"],
    ids=["empty", "absolute", "backslash-absolute", "backslashes", "parent", "dot-dot-inside"],
)
def test_names_that_could_leave_the_folder_are_refused(served: Path, name: str) -> None:
    assert PromptFolder(served, served).resolve(name) is None


def test_the_listing_has_the_problems_validate_finds(served: Path) -> None:
    (served / "plain.wink.toml").write_text('key = "plain"\n')
    listed = PromptFolder(served, served).listing()
    assert [(entry.name, [d.message for d in entry.problems]) for entry in listed] == [
        ("plain.wink.toml", ["Prompt is missing 'sections'."]),
        ("review.wink.yaml", []),
    ]
