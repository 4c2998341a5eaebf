"""A prompt file is read only when its real path lies inside its prompt root."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wink_decl.compiler import CompileResult, Confinement, compile_file, outside_root
from wink_decl.compiler._confined import (
    PROMPT_CONFINEMENT,
    _confined_by_paths,  # pyright: ignore[reportPrivateUsage]
    _named_in,  # pyright: ignore[reportPrivateUsage]
    _no_link_below,  # pyright: ignore[reportPrivateUsage]
    _under,  # pyright: ignore[reportPrivateUsage]
    confined,
)

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


def test_the_refusal_names_the_kind_of_file_it_is_given(tmp_path: Path) -> None:
    """Each kind of file held to a folder words its refusal through ``outside_root``."""
    (tmp_path / "secret.yaml").write_text("token: s3cr3t\n")
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.yaml").symlink_to(tmp_path / "secret.yaml")
    words = Confinement("This note", "a note", "the notes folder", "Copy the note in.")
    linked = str(tmp_path / "notes" / "a.yaml")
    problem = outside_root(linked, str(tmp_path / "notes"), "a.yaml", words)
    assert problem is not None
    assert (problem.path, problem.code, problem.span, problem.message, problem.expected) == (
        "a.yaml",
        "outside-root",
        None,
        "This note is a symbolic link to a file outside the notes folder, so it is not read.",
        "a note whose real path lies inside the notes folder",
    )
    assert problem.hint == "copy the note in"  # as every hint is shown
    default = outside_root(linked, str(tmp_path / "notes"), "a.yaml")
    assert default == outside_root(linked, str(tmp_path / "notes"), "a.yaml", PROMPT_CONFINEMENT)


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


def _refused(result: CompileResult) -> list[tuple[str, str]]:
    return [(d.code, d.message) for d in result.diagnostics]


OUTSIDE = [
    (
        "outside-root",
        "This file is a symbolic link to a file outside the prompt root, so it is not read.",
    )
]


def test_a_linked_folder_below_the_root_that_leads_out_is_refused(tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "a.wink.yaml").write_text(PROMPT)
    (tmp_path / "root").mkdir()
    (tmp_path / "root" / "sub").symlink_to(tmp_path / "elsewhere")
    result = compile_file(tmp_path / "root" / "sub" / "a.wink.yaml", root=tmp_path / "root")
    assert _refused(result) == OUTSIDE


def test_a_name_that_climbs_out_of_a_link_is_refused(tmp_path: Path) -> None:
    # root/x/../a.wink.yaml reads as root/a.wink.yaml but opens elsewhere/a.wink.yaml
    (tmp_path / "elsewhere" / "inner").mkdir(parents=True)
    (tmp_path / "elsewhere" / "a.wink.yaml").write_text(PROMPT)
    (tmp_path / "root").mkdir()
    (tmp_path / "root" / "x").symlink_to(tmp_path / "elsewhere" / "inner")
    named = f"{tmp_path}/root/x/../a.wink.yaml"
    assert _refused(compile_file(named, root=tmp_path / "root")) == OUTSIDE


def test_no_link_below_looks_only_below_the_root(tmp_path: Path) -> None:
    (tmp_path / "root" / "sub").mkdir(parents=True)
    (tmp_path / "root" / "sub" / "a.wink.yaml").write_text(PROMPT)
    (tmp_path / "root" / "link").symlink_to(tmp_path / "root" / "sub")
    (tmp_path / "linked").symlink_to(tmp_path / "root")
    root = str(tmp_path / "root")

    def check(file: str, given_root: str = root) -> bool:
        found = _no_link_below(file, given_root, os.path.abspath(given_root))  # noqa: PTH100
        return found is not None

    assert [
        check(f"{root}/sub/a.wink.yaml"),
        check(f"{tmp_path}/linked/sub/a.wink.yaml", f"{tmp_path}/linked"),
        check(f"{root}/link/a.wink.yaml"),
        check(f"{root}/sub/missing.wink.yaml"),
        check(f"{root}/sub/../sub/a.wink.yaml"),
        check(f"{root}/sub/a.wink.yaml", f"{root}/sub/.."),
        check(root),
        check(f"{tmp_path}/other.wink.yaml"),
    ] == [True, True, False, False, False, False, False, False]
    found = _no_link_below(f"{root}/sub/a.wink.yaml", root, root)  # the file's own lstat
    assert found == os.lstat(f"{root}/sub/a.wink.yaml")


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


def test_a_file_looked_at_already_is_judged_as_the_check_would_judge_it(tmp_path: Path) -> None:
    """Given the file's lstat (its root's search took it), ``confined`` answers as it does
    looking itself: for a file below the root, deeper down, linked inside and linked out."""
    (tmp_path / "secret.wink.yaml").write_text("token: s3cr3t\n")
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    (root / "a.wink.yaml").write_text(PROMPT)
    (root / "sub" / "b.wink.yaml").write_text(PROMPT)
    (root / "in.wink.yaml").symlink_to(root / "a.wink.yaml")
    (root / "out.wink.yaml").symlink_to(tmp_path / "secret.wink.yaml")
    (root / "sub" / "out.wink.yaml").symlink_to(tmp_path / "secret.wink.yaml")
    names = ["a.wink.yaml", "sub/b.wink.yaml", "in.wink.yaml", "out.wink.yaml", "sub/out.wink.yaml"]
    answers = [
        (
            confined(str(root / name), str(root), name, state=os.lstat(root / name)),
            confined(str(root / name), str(root), name),
        )
        for name in names
    ]
    assert [given == taken for given, taken in answers] == [True] * len(names)
    assert [given.refusal is None for given, _ in answers] == [True, True, True, False, False]
    assert [given.state is not None for given, _ in answers] == [True, True, False, False, False]


def test_a_file_looked_at_already_below_its_root_is_not_looked_at_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.wink.yaml").write_text(PROMPT)
    state = os.lstat(tmp_path / "sub" / "b.wink.yaml")
    looked: list[str] = []
    real_lstat = os.lstat

    def lstat(name: str) -> os.stat_result:
        looked.append(name)
        return real_lstat(name)

    monkeypatch.setattr(os, "lstat", lstat)
    file = str(tmp_path / "sub" / "b.wink.yaml")
    assert confined(file, str(tmp_path / "sub"), "b.wink.yaml", state=state) == (None, state)
    assert looked == []
    assert confined(file, str(tmp_path), "b.wink.yaml", state=state) == (None, state)
    assert looked == [str(tmp_path / "sub")]  # the level between: not looked at before


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Files below a root, deeper down, linked inside and out, and a linked folder."""
    top = tmp_path_factory.mktemp("confined")
    (top / "secret.wink.yaml").write_text("token: s3cr3t\n")
    (top / "root" / "sub").mkdir(parents=True)
    (top / "root" / "a.wink.yaml").write_text(PROMPT)
    (top / "root" / "sub" / "b.wink.yaml").write_text(PROMPT)
    (top / "root" / "in.wink.yaml").symlink_to(top / "root" / "a.wink.yaml")
    (top / "root" / "out.wink.yaml").symlink_to(top / "secret.wink.yaml")
    (top / "root" / "sub" / "out.wink.yaml").symlink_to(top / "secret.wink.yaml")
    (top / "root" / "up").symlink_to(top)
    (top / "linked").symlink_to(top / "root")
    return top


_PARTS = st.sampled_from(
    [
        *("root", "sub", "linked", "up", ".", "..", ""),
        *("a.wink.yaml", "b.wink.yaml", "in.wink.yaml", "out.wink.yaml", "secret.wink.yaml"),
    ]
)


@settings(max_examples=300, deadline=None)  # a busy 2-core CI machine is not what this measures
@given(root=st.lists(_PARTS, max_size=3), name=st.lists(_PARTS, min_size=1, max_size=3))
def test_a_file_named_in_its_root_is_judged_as_the_paths_judge_it(
    tree: Path, root: list[str], name: list[str]
) -> None:
    """The answer without absolute paths (``_named_in``) is the one they give, for any names."""
    folder = os.path.join(tree, *root)  # noqa: PTH118
    for file in (os.path.join(folder, *name), os.path.join(tree, *name)):  # noqa: PTH118
        try:
            state = os.lstat(file)
        except OSError:
            continue
        for given_root in (folder, file.rpartition(os.sep)[0]):
            fast = confined(file, given_root, "a.wink.yaml", state=state)
            slow = _confined_by_paths(file, given_root, "a.wink.yaml", PROMPT_CONFINEMENT, state)
            assert fast == slow


def test_names_in_their_root_are_these() -> None:
    assert [
        _named_in("root/a.yaml", "root"),
        _named_in("/root/a.yaml", "/root"),
        _named_in("root//a.yaml", "root"),
        _named_in("root/..", "root"),
        _named_in("root/.", "root"),
        _named_in("root/", "root"),
        _named_in("up/../a.yaml", "up/.."),
        _named_in("/a.yaml", "/"),
        _named_in("root/sub/a.yaml", "root"),
    ] == [True, True, False, False, False, False, False, False, False]
