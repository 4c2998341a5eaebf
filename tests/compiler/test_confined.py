"""A prompt file is read only when its real path lies inside its prompt root."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from wink_decl.compiler import compile_file
from wink_decl.compiler._confined import _under  # pyright: ignore[reportPrivateUsage]

PROMPT = "key: a\nsections: [{key: s, title: S, template: x}]\n"


def test_a_link_out_of_the_files_folder_is_refused_unread(tmp_path: Path) -> None:
    (tmp_path / "secret.wink.yaml").write_text("token: s3cr3t\n")
    (tmp_path / "prompts").mkdir()
    (tmp_path / "prompts" / "a.wink.yaml").symlink_to(tmp_path / "secret.wink.yaml")
    result = compile_file(tmp_path / "prompts" / "a.wink.yaml", display_path="a.wink.yaml")
    assert (result.prompt, result.sources) == (None, {})
    (problem,) = result.diagnostics
    assert (problem.code, problem.path, problem.span, problem.message) == (
        "outside-root",
        "a.wink.yaml",
        None,
        "This file is a symbolic link to a file outside the prompt root, so it is not read.",
    )


def test_a_root_reached_through_a_link_holds_its_files(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "a.wink.yaml").write_text(PROMPT)
    (tmp_path / "linked").symlink_to(tmp_path / "real")
    assert compile_file(tmp_path / "real" / "a.wink.yaml", root=tmp_path / "linked").ok
    assert compile_file(tmp_path / "linked" / "a.wink.yaml", root=tmp_path / "real").ok


def test_a_file_in_the_working_folder_has_that_folder_as_its_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("a.wink.yaml").write_text(PROMPT)
    assert compile_file("a.wink.yaml").ok


def test_a_file_named_outside_the_root_is_the_callers_choice(tmp_path: Path) -> None:
    (tmp_path / "root").mkdir()
    (tmp_path / "elsewhere.wink.yaml").write_text(PROMPT)
    assert compile_file(tmp_path / "elsewhere.wink.yaml", root=tmp_path / "root").ok


def test_under_compares_whole_names() -> None:
    assert [_under(path, "/a/b") for path in ("/a/b", "/a/b/c", "/a/bc", "/a")] == [
        True,
        True,
        False,
        False,
    ]
    assert _under("/x", "/")


def test_an_include_that_is_a_fifo_is_refused_unopened(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "lib.wink.yaml")
    (tmp_path / "a.wink.yaml").write_text("key: a\nsections:\n  - include: lib.wink.yaml#x\n")
    result = compile_file(tmp_path / "a.wink.yaml", display_path="a.wink.yaml")
    assert [d.message for d in result.diagnostics] == [
        "Included file 'lib.wink.yaml' cannot be read: it is a named pipe (FIFO), not a "
        "regular file."
    ]
