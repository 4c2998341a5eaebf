"""``wink_decl.inputs.RootSearch``: the one copy of how a prompt's root is found."""

import dataclasses
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wink_decl.diagnostics import Span
from wink_decl.evals._prompt_ref import PromptSearch, find_prompt
from wink_decl.inputs import (
    Location,
    PromptRequest,
    RootChoice,
    RootSearch,
    default_folder,
    path_text,
    root_finder,
)
from wink_decl.inputs import _roots as roots_module  # pyright: ignore[reportPrivateUsage]
from wink_decl.limits import DEFAULT_LIMITS
from wink_decl.overrides import LocalOverrideStore
from wink_decl.plugins import PluginCatalog

PROMPT = "key: {key}\nsections:\n  - title: Task\n    template: Do the task.\n"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder whose pyproject.toml sets the root 'prompts', holding two prompts."""
    (tmp_path / "pyproject.toml").write_text('[tool.wink-decl]\nroot = "prompts"\n')
    (tmp_path / "prompts" / "agents").mkdir(parents=True)
    (tmp_path / "prompts" / "agents" / "review.wink.yaml").write_text(PROMPT.format(key="review"))
    (tmp_path / "loose").mkdir()
    (tmp_path / "loose" / "note.wink.yaml").write_text(PROMPT.format(key="note"))
    (tmp_path / "evals").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_root_given_wins_and_must_hold_the_file(project: Path) -> None:
    search = RootSearch("loose", "prompts")
    assert search.file_root("loose/note.wink.yaml") == RootChoice("loose")
    assert search.file_root("prompts/agents/review.wink.yaml") == RootChoice(
        "loose", "the prompt root 'loose'"
    )
    assert search.address_root() == "loose"


def test_the_configured_root_holds_its_files_and_others_keep_their_folder(project: Path) -> None:
    search = RootSearch.given(None)
    prompts = str(project / "prompts")
    assert search == RootSearch(None, prompts)
    assert search.file_root("prompts/agents/review.wink.yaml") == RootChoice(prompts)
    assert search.file_root("loose/note.wink.yaml") == RootChoice("loose")
    assert search.file_root("loose") == RootChoice("loose")
    assert search.address_root() == prompts
    assert RootSearch.given("loose") == RootSearch("loose")
    assert default_folder() == project / "prompts"


def test_a_file_chosen_by_a_file_stays_in_the_working_folder(project: Path) -> None:
    outside = project.parent / "elsewhere.wink.yaml"
    outside.write_text(PROMPT.format(key="elsewhere"))
    search = RootSearch(base="evals", confined=True)
    path = search.path("../../elsewhere.wink.yaml")
    assert path == "../elsewhere.wink.yaml"
    assert search.file_root(path) == RootChoice("..", "the working folder")
    assert RootSearch(base="evals").file_root(path) == RootChoice("..")
    assert search.path("../loose/note.wink.yaml") == "loose/note.wink.yaml"
    assert search.address_root() == "evals"


def test_an_eval_file_and_the_command_line_find_the_same_root(project: Path) -> None:
    prompts = str(project / "prompts")
    search = PromptSearch(DEFAULT_LIMITS, PluginCatalog(), configured_root=prompts)
    span = Span("evals/suite.wink-eval.yaml", 1, 9)
    for written, file, root in (
        ("../prompts/agents/review.wink.yaml", "prompts/agents/review.wink.yaml", prompts),
        ("../loose/note.wink.yaml", "loose/note.wink.yaml", "loose"),
    ):
        found = find_prompt(written, span, "evals/suite.wink-eval.yaml", search)
        assert (found.path, found.root, found.diagnostics) == (file, root, ())
        assert root_finder(None)(Path(file)) == Path(root)
    by_address = find_prompt("agents/review", span, "evals/suite.wink-eval.yaml", search)
    assert (by_address.root, by_address.diagnostics) == (prompts, ())


TEXTS = [
    "a.wink.yaml",
    "sub/a.wink.yaml",
    "/abs/sub/a.wink.yaml",
    "./a.wink.yaml",
    "sub//a.wink.yaml",
    "sub/./a.wink.yaml",
    "sub/",
    "sub/.",
    "sub/../a.wink.yaml",
    "/",
    "//sub",
    "///sub",
    ".",
    "..",
    "",
    ".hidden/a.wink.yaml",
]


@pytest.mark.parametrize("text", TEXTS)
def test_path_text_writes_a_path_as_a_path_object_does(text: str) -> None:
    """The texts it passes as written and those it gives to ``Path`` come out as ``Path``'s."""
    assert path_text(text) == str(Path(text))
    assert path_text(Path(text)) == str(Path(text))


def test_path_text_makes_no_path_of_a_text_written_plainly(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[str] = []

    def counted(text: str) -> Path:
        made.append(text)
        return Path(text)

    monkeypatch.setattr(roots_module, "Path", counted)
    assert [path_text(text) for text in ("sub/a.wink.yaml", "./a.wink.yaml")] == [
        "sub/a.wink.yaml",
        "a.wink.yaml",
    ]
    assert made == ["./a.wink.yaml"]


def _kinds_of_entry(folder: Path) -> dict[str, Path]:
    (folder / "dir").mkdir()
    (folder / "file.wink.yaml").write_text(PROMPT.format(key="file"))
    (folder / "dir-link").symlink_to(folder / "dir")
    (folder / "file-link.wink.yaml").symlink_to(folder / "file.wink.yaml")
    os.mkfifo(folder / "fifo.wink.yaml")
    return {
        "dir": folder / "dir",
        "file": folder / "file.wink.yaml",
        "dir-link": folder / "dir-link",
        "file-link": folder / "file-link.wink.yaml",
        "fifo": folder / "fifo.wink.yaml",
    }


def test_own_folder_with_the_lstat_given_finds_what_it_finds_without(tmp_path: Path) -> None:
    entries = _kinds_of_entry(tmp_path)
    found = {
        kind: RootSearch.own_folder(str(path), os.lstat(path)) for kind, path in entries.items()
    }
    assert found == {kind: RootSearch.own_folder(str(path)) for kind, path in entries.items()}
    assert found == {
        "dir": str(tmp_path / "dir"),
        "file": str(tmp_path),
        "dir-link": str(tmp_path / "dir-link"),  # a link to a folder: looked at through it
        "file-link": str(tmp_path),
        "fifo": str(tmp_path),
    }


def test_a_location_keeps_its_names_as_reports_show_them(tmp_path: Path) -> None:
    request = PromptRequest("sub/./a.wink.yaml")
    state = os.lstat(tmp_path)
    location = Location(request, "sub/./a.wink.yaml", "sub/", state=state)
    assert (location.file_name, location.root_name, location.state) == (
        "sub/a.wink.yaml",
        "sub",
        state,
    )
    assert (location.file, location.root) == (Path("sub/a.wink.yaml"), Path("sub"))
    given = Location(request, Path("sub/a.wink.yaml"), Path("sub"), tmp_path)
    assert (given.file_name, given.root_name, given.overrides, given.state) == (
        "sub/a.wink.yaml",
        "sub",
        tmp_path,
        None,
    )
    assert given == Location(request, "sub/a.wink.yaml", "sub", tmp_path)


@pytest.mark.parametrize(
    ("file", "root"),
    [("a.wink.yaml", "."), ("sub/./a.wink.yaml", "sub/"), ("/x//y/a.wink.toml", "/x//y/.")],
)
def test_a_location_of_names_shown_already_is_the_location_of_those_names(
    tmp_path: Path, file: str, root: str
) -> None:
    request = PromptRequest(file)
    state = os.lstat(tmp_path)
    store = LocalOverrideStore(tmp_path)
    made = Location(request, file, root, store=store, state=state)
    named = Location.of_names(request, path_text(file), path_text(root), store, state=state)
    assert vars(named) == vars(made)
    assert named == made


def test_a_location_is_a_frozen_dataclass_of_its_fields(tmp_path: Path) -> None:
    """Its fields go in at once (one dict): what the dataclass's own ``__init__`` would set."""
    request = PromptRequest("a.wink.yaml")
    location = Location(request, "a.wink.yaml", ".", tmp_path, state=None)
    shown = {f.name: getattr(location, f.name) for f in dataclasses.fields(location)}
    assert shown == vars(location)
    assert shown == {
        "request": request,
        "file_name": "a.wink.yaml",
        "root_name": ".",
        "overrides": tmp_path,
        "store": None,
        "state": None,
    }
    with pytest.raises(
        dataclasses.FrozenInstanceError, match=r"^cannot assign to field 'root_name'$"
    ):
        location.root_name = "elsewhere"  # pyright: ignore[reportAttributeAccessIssue]
    assert location.root == Path()
    assert vars(location)["root"] == Path()  # cached beside the fields
    assert hash(location) == hash(Location(request, "a.wink.yaml", ".", tmp_path))


NAMES = st.builds(
    "".join,
    st.lists(st.sampled_from(("a", "b.wink.yaml", ".", "..", "/", "//", "./", "/.")), max_size=6),
)
"""Names written in every way ``path_text`` rewrites, and in ways it does not."""


@settings(max_examples=300, deadline=None)
@given(NAMES)
def test_the_own_folder_of_a_name_shown_as_reports_show_it_is_shown_so_too(name: str) -> None:
    """What lets ``wink_decl.load`` take a file's folder as its prompt root unrewritten."""
    if path_text(name) == name:
        folder = RootSearch.own_folder(name)
        assert path_text(folder) == folder
