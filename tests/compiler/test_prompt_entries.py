"""Finding prompt files: what ``os.walk`` would find, with whether each name is a link."""

from __future__ import annotations

from pathlib import Path

import pytest

from wink_decl.compiler import FoundFile, find_prompt_files, prompt_entries


def test_files_links_and_folders_are_found_as_os_walk_finds_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "c.wink.toml").write_text("")
    (tmp_path / "a.WINK.YAML").write_text("")
    (tmp_path / "notes.yaml").write_text("")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "h.wink.yaml").write_text("")
    (tmp_path / "link.wink.yml").symlink_to(tmp_path / "a.WINK.YAML")
    (tmp_path / "loop.wink.yaml").symlink_to(tmp_path / "loop.wink.yaml")  # stat fails: ELOOP
    (tmp_path / "gone.wink.yaml").symlink_to(tmp_path / "missing")
    (tmp_path / "folder.wink.yaml").symlink_to(tmp_path / "b")  # a link to a folder: not entered
    expected = [
        FoundFile("a.WINK.YAML", is_link=False),
        FoundFile(str(Path("b", "c.wink.toml")), is_link=False),
        FoundFile("gone.wink.yaml", is_link=True),
        FoundFile("link.wink.yml", is_link=True),
        FoundFile("loop.wink.yaml", is_link=True),
    ]
    monkeypatch.chdir(tmp_path)
    assert prompt_entries(".") == expected
    assert find_prompt_files(".") == [Path(found.path) for found in expected]
    assert prompt_entries(tmp_path) == [
        FoundFile(str(tmp_path / found.path), found.is_link) for found in expected
    ]


def test_a_folder_that_cannot_be_listed_is_passed_over(tmp_path: Path) -> None:
    assert prompt_entries(tmp_path / "missing") == []
