"""The store: where files are, which are read, and that hostile ones are refused like prompts."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from override_support import template, write

from wink_decl import DiagnosticError
from wink_decl.diagnostics import render_text
from wink_decl.limits import DEFAULT_LIMITS
from wink_decl.overrides import (
    LocalOverrideStore,
    check_tag,
    default_overrides_root,
    with_overrides,
)

NAME = "tests/review/exp.wink-override.yaml"


def problems(folder: Path, **limits: int) -> str:
    store = LocalOverrideStore(
        folder,
        limits=DEFAULT_LIMITS.with_settings([f"{key}={value}" for key, value in limits.items()]),
    )
    loaded = store.load("tests", "review", "exp")
    assert loaded.file is None
    return render_text(loaded.diagnostics, loaded.sources)


def test_paths_follow_ns_prompt_key_and_tag(tmp_path: Path) -> None:
    store = LocalOverrideStore(tmp_path / "overrides")
    assert store.root == tmp_path / "overrides"
    assert store.path_for("agents/review", "code", "exp") == (
        tmp_path / "overrides/agents/review/code/exp.wink-override.yaml"
    )
    assert store.path_for("a", "b", "t", suffix=".wink-override.toml").name == (
        "t.wink-override.toml"
    )
    assert store.tags("agents/review", "code") == []
    folder = store.folder_for("agents/review", "code")
    folder.mkdir(parents=True)
    for name in (
        "b.wink-override.toml",
        "a.wink-override.yaml",
        "notes.txt",
        ".x.wink-override.yaml",
    ):
        (folder / name).write_text("")
    assert store.tags("agents/review", "code") == ["a", "b"]
    assert default_overrides_root("prompts") == Path.cwd() / "overrides"


@pytest.mark.parametrize("tag", ["", "../x", "a.b", "-a", "x" * 65])
def test_a_tag_is_one_plain_name(tag: str) -> None:
    with pytest.raises(ValueError, match="is not a tag") as caught:
        check_tag(tag)
    assert str(caught.value) == (
        f"{tag!r} is not a tag: use 1-64 letters, digits, '_' or '-', starting with a letter "
        "or digit"
    )


def test_a_file_is_read_again_only_when_it_changes(tmp_path: Path) -> None:
    path = write(tmp_path, "sections: {}\n")
    store = LocalOverrideStore(tmp_path)
    first = store.load("tests", "review", "exp")
    assert store.load("tests", "review", "exp") is first
    path.write_text("tools: {}\n")
    second = store.load("tests", "review", "exp")
    assert second is not first
    assert second.file is not None
    assert second.file.entries == ()


def test_two_files_for_one_tag_are_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    write(Path(), "sections: {}\n")
    write(Path(), "", suffix="toml")
    assert problems(Path()) == (
        f"{NAME}: error: This tag has two override files: {NAME} and "
        "tests/review/exp.wink-override.toml.\n"
        "  expected: one file per prompt and tag\n"
        "  hint: keep one of them and delete the other"
    )
    with pytest.raises(DiagnosticError):
        with_overrides(template(), LocalOverrideStore(Path()), "exp")


def test_a_link_out_of_the_overrides_folder_is_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "secret.yaml").write_text("token: abc\n")
    link = Path("overrides/tests/review/exp.wink-override.yaml")
    link.parent.mkdir(parents=True)
    link.symlink_to(tmp_path / "secret.yaml")
    assert problems(Path("overrides")) == (
        f"overrides/{NAME}: error: This override file is a symbolic link to a file outside "
        "the overrides folder, so it is not read.\n"
        "  expected: an override file whose real path lies inside the overrides folder\n"
        "  hint: replace the link with the file itself, or choose an overrides folder that "
        "holds what it links to (--overrides)"
    )


def test_a_pipe_is_refused_unopened(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    path = Path(NAME)
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    assert problems(Path()) == (
        f"{NAME}: error: This file cannot be read: it is a named pipe (FIFO), not a regular file.\n"
        "  expected: a regular file\n"
        "  hint: replace it with a regular file; folders, pipes, devices and sockets are never "
        "opened"
    )


def test_a_file_past_the_size_limit_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    write(Path(), "sections: {}\n" + "#" * 200 + "\n")
    assert problems(Path(), max_bytes=100) == (
        f"{NAME}:1:1: error: This file is 214 bytes long, more than the limit of 100 bytes.\n"
        "  expected: a file of at most 100 bytes\n"
        "  hint: keep only the entries that differ from the prompt, or allow more with --limit "
        "max_bytes=400"
    )


def test_a_file_that_is_not_a_mapping_is_told_what_an_override_file_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    write(Path(), "- 1\n")
    assert problems(Path()) == (
        f"{NAME}:1:1: error: This file holds a list; an override file must be a mapping of "
        "'sections' and 'tools'.\n"
        "  expected: a mapping of 'sections' and 'tools'\n"
        "   1 | - 1\n"
        "     | ^^^\n"
        "  hint: run 'wink-decl overrides seed' to write one holding every text, then edit it"
    )


def test_a_toml_file_is_worded_as_an_override_file_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    path = write(Path(), "a = [1, 2, 3, 4, 5]\n", suffix="toml")
    shown = path.as_posix()
    assert problems(Path(), max_nodes=4) == (
        f"{shown}:1:15: error: This file holds more than 4 values.\n"
        "  expected: at most 4 values\n"
        "   1 | a = [1, 2, 3, 4, 5]\n"
        "     |               ^\n"
        "  hint: keep only the entries that differ from the prompt, or allow more with --limit "
        "max_nodes=8"
    )
    path.write_text("", encoding="utf-8")
    assert problems(Path()) == (
        f"{shown}:1:1: error: This file is empty; an override file must be a mapping of "
        "'sections' and 'tools'.\n"
        "  expected: a mapping of 'sections' and 'tools'\n"
        "  hint: run 'wink-decl overrides seed' to write one holding every text, then edit it"
    )


def test_a_loop_of_links_is_reported_by_the_loader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    path = Path(NAME)
    path.parent.mkdir(parents=True)
    path.symlink_to(path.name)
    assert problems(Path()) == (
        f"{NAME}: error: This file cannot be read: too many levels of symbolic links.\n"
        "  expected: a prompt file that exists and can be read\n"
        "  hint: check the path and the file's permissions"
    )


def test_a_fingerprint_holds_each_file_and_its_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    store = LocalOverrideStore(Path())
    assert store.fingerprint("tests", "review") == b""  # no folder, no files
    write(Path(), "sections: {}\n")
    write(Path(), "tools: {}\n", tag="b", suffix="toml")

    def part(name: str, text: str) -> bytes:
        return f"{len(name)}\0{name}\0{len(text)}\0{text}".encode()

    assert store.fingerprint("tests", "review") == (
        part("tests/review/b.wink-override.toml", "tools: {}\n") + part(NAME, "sections: {}\n")
    )


def test_a_fingerprint_is_none_when_a_file_would_not_be_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Outside the folder, or past the size limit: the check says why, and is not kept."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "secret.yaml").write_text("token: abc\n")
    link = Path("overrides") / NAME
    link.parent.mkdir(parents=True)
    link.symlink_to(tmp_path / "secret.yaml")
    assert LocalOverrideStore("overrides").fingerprint("tests", "review") is None
    write(Path(), "sections: {}\n" + "#" * 200 + "\n")
    small = DEFAULT_LIMITS.with_settings(["max_bytes=100"])
    assert LocalOverrideStore(Path(), limits=small).fingerprint("tests", "review") is None
