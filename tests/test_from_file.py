"""``wink_decl.load`` and ``wink_decl.validate``: from prompt files to the runtime, in Python."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import wink_decl
from wink_decl import Diagnostic, DiagnosticError, PromptTemplate
from wink_decl.compiler import compile_file
from wink_decl.diagnostics import Span, render_text
from wink_decl.limits import DEFAULT_LIMITS

GREET = """\
key: greet
params:
  name: {type: string}
sections:
  - key: hello
    title: Hello
    template: Hello, ${name}!
"""

BROKEN = """\
key: broken
sections:
  - key: hello
    title: Hello
    template: Hello, ${nme}!
    visibility: ful
"""

MISFIT = """\
key: misfit
sections:
  - key: work
    title: Work
    template: Read the file.
    tools: [open]
tools:
  open:
    description: Read one file of the workspace.
    handler: files.read_file
    params:
      wrong: {type: string}
"""
"""Valid to read, but its params are not those of the installed handler it names."""

SHARED = """\
key: shared
sections:
  - key: tone
    title: Tone
    template: Be brief.
"""

INCLUDER = """\
key: agent
sections:
  - include: common/shared.wink.yaml#tone
"""

BROKEN_REPORT = """\
broken.wink.yaml:5:22: error: Placeholder '${nme}' is not a declared param.
  expected: a declared param (none are declared)
   5 |     template: Hello, ${nme}!
     |                      ^^^^^^
  hint: declare 'nme' under params:
broken.wink.yaml:6:17: error: 'visibility' must be one of full, summary, or {summary_when: ...}; \
found 'ful'
   6 |     visibility: ful
     |                 ^^^
  hint: did you mean 'full'?"""

MISFIT_REPORT = """\
misfit.wink.yaml:10:14: error: Tool 'open' cannot use handler 'files.read_file': Field 'wrong' is \
declared in the prompt file but ReadFileParams has no such field. Field 'path' is required by \
ReadFileParams but the prompt file does not declare it.
  10 |     handler: files.read_file
     |              ^^^^^^^^^^^^^^^
  hint: check that the plugin's version matches this prompt, or name another entry point"""

BROKEN_DIAGNOSTICS = [
    Diagnostic(
        message="Placeholder '${nme}' is not a declared param.",
        span=Span("broken.wink.yaml", 5, 22, 5, 27),
        code="unknown-param",
        expected="a declared param (none are declared)",
        hint="declare 'nme' under params:",
    ),
    Diagnostic(
        message="'visibility' must be one of full, summary, or {summary_when: ...}; found 'ful'",
        span=Span("broken.wink.yaml", 6, 17, 6, 19),
        code="enum",
        hint="did you mean 'full'?",
        suggestions=("full",),
    ),
]

UNREADABLE_HINT = "check the path and the file's permissions"


def unreadable(path: str) -> Diagnostic:
    return Diagnostic(
        message="This file cannot be read: no such file or directory.",
        span=None,
        code="unreadable",
        expected="a prompt file that exists and can be read",
        hint=UNREADABLE_HINT,
        path=path,
    )


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder of prompt files, made the working folder so reports name them shortly."""
    for name, text in {
        "greet.wink.yaml": GREET,
        "broken.wink.yaml": BROKEN,
        "misfit.wink.yaml": MISFIT,
    }.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_load_gives_the_template_to_render(folder: Path) -> None:
    template = wink_decl.load("greet.wink.yaml")
    assert isinstance(template, PromptTemplate)
    assert template.label == f"{folder.name}/greet"
    (params_type,) = template.params_types
    assert template.render(params_type(name="Ada")).text == "## 1. Hello (hello)\n\nHello, Ada!"


def test_load_takes_a_path_object(folder: Path) -> None:
    assert wink_decl.load(folder / "greet.wink.yaml").label == f"{folder.name}/greet"


def test_load_raises_one_error_with_every_diagnostic_and_the_report(folder: Path) -> None:
    with pytest.raises(DiagnosticError) as info:
        wink_decl.load("broken.wink.yaml")
    assert list(info.value.diagnostics) == BROKEN_DIAGNOSTICS
    assert str(info.value) == BROKEN_REPORT


def test_load_imports_the_plugins_and_reports_what_does_not_fit(folder: Path) -> None:
    with pytest.raises(DiagnosticError) as info:
        wink_decl.load("misfit.wink.yaml")
    assert [(d.code, d.span) for d in info.value.diagnostics] == [
        ("handler", Span("misfit.wink.yaml", 10, 14, 10, 28))
    ]
    assert str(info.value) == MISFIT_REPORT


def test_load_of_a_missing_file_is_a_diagnostic_error(folder: Path) -> None:
    with pytest.raises(DiagnosticError) as info:
        wink_decl.load("missing.wink.yaml")
    assert list(info.value.diagnostics) == [unreadable("missing.wink.yaml")]
    assert str(info.value) == render_text([unreadable("missing.wink.yaml")])


def _recorded_looks(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Each ``os.lstat`` and ``os.stat`` from now on, and the path it looked at, in order."""
    looks: list[tuple[str, str]] = []
    real_lstat, real_stat = os.lstat, os.stat

    def lstat(name: str) -> os.stat_result:
        looks.append(("lstat", os.fspath(name)))
        return real_lstat(name)

    def stat(name: str) -> os.stat_result:
        looks.append(("stat", os.fspath(name)))
        return real_stat(name)

    monkeypatch.setattr(os, "lstat", lstat)
    monkeypatch.setattr(os, "stat", stat)
    return looks


def test_load_looks_at_the_file_once(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding its root, the root check and the read share one ``lstat``."""
    wink_decl.load("greet.wink.yaml")  # plugin metadata and the like, read once per process
    looks = _recorded_looks(monkeypatch)
    assert wink_decl.load("greet.wink.yaml").label == f"{folder.name.lower()}/greet"
    assert looks == [("lstat", "greet.wink.yaml")]


@pytest.mark.parametrize(
    "written",
    ["broken.wink.yaml", "./broken.wink.yaml", ".//broken.wink.yaml", "sub/../b.wink.yaml"],
)
def test_load_names_the_file_as_reports_show_it_however_written(folder: Path, written: str) -> None:
    (folder / "sub").mkdir()
    (folder / "b.wink.yaml").write_text(BROKEN, encoding="utf-8")
    with pytest.raises(DiagnosticError) as info:
        wink_decl.load(written)
    expected = compile_file(Path(written), display_path=str(Path(written)))
    assert list(info.value.diagnostics) == list(expected.diagnostics)
    if written.endswith("/broken.wink.yaml"):
        assert str(info.value) == BROKEN_REPORT


@pytest.fixture
def hostile(folder: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Beside the prompts: a link to a file outside their folder, a FIFO, a folder."""
    secret = tmp_path_factory.mktemp("elsewhere") / "secret.wink.yaml"
    secret.write_text("token: s3cr3t\n", encoding="utf-8")
    (folder / "out.wink.yaml").symlink_to(secret)
    (folder / "in.wink.yaml").symlink_to(folder / "greet.wink.yaml")
    os.mkfifo(folder / "fifo.wink.yaml")
    (folder / "dir.wink.yaml").mkdir()
    return folder


@pytest.mark.parametrize(
    "name", ["out.wink.yaml", "fifo.wink.yaml", "dir.wink.yaml", "missing.wink.yaml"]
)
def test_load_refuses_what_the_compile_refuses_looking_itself(hostile: Path, name: str) -> None:
    """The look ``load`` shares gives the compile's own answer (it looks again without it)."""
    with pytest.raises(DiagnosticError) as info:
        wink_decl.load(name)
    assert list(info.value.diagnostics) == list(compile_file(name, display_path=name).diagnostics)


def test_load_refuses_a_link_out_of_its_folder_unread(hostile: Path) -> None:
    refusal = Diagnostic(
        message="This file is a symbolic link to a file outside the prompt root, so it is not "
        "read.",
        span=None,
        code="outside-root",
        expected="a prompt file whose real path lies inside the prompt root",
        hint="Replace the link with the file itself, or choose a prompt root that holds what it "
        "links to (--root).",
        path="out.wink.yaml",
    )
    with pytest.raises(DiagnosticError) as info:
        wink_decl.load("out.wink.yaml")
    assert list(info.value.diagnostics) == [refusal]
    assert str(info.value) == render_text([refusal])
    assert wink_decl.load("in.wink.yaml").label == wink_decl.load("greet.wink.yaml").label


def test_load_resolves_includes_against_the_root(tmp_path: Path) -> None:
    (tmp_path / "common").mkdir()
    (tmp_path / "agents").mkdir()
    (tmp_path / "common" / "shared.wink.yaml").write_text(SHARED, encoding="utf-8")
    agent = tmp_path / "agents" / "agent.wink.yaml"
    agent.write_text(INCLUDER, encoding="utf-8")
    template = wink_decl.load(agent, root=tmp_path)
    assert template.label == "agents/agent"
    assert template.render().text == "## 1. Tone (tone)\n\nBe brief."
    with pytest.raises(DiagnosticError) as info:
        wink_decl.load(agent)  # its own folder as the root: the include is not found
    assert [d.code for d in info.value.diagnostics] == ["include-missing"]


def test_load_holds_the_file_to_the_limits(folder: Path) -> None:
    limits = DEFAULT_LIMITS.with_settings(["max_bytes=10"])
    with pytest.raises(DiagnosticError) as info:
        wink_decl.load("greet.wink.yaml", limits=limits)
    assert [d.code for d in info.value.diagnostics] == ["too-large"]


def test_validate_reports_every_file_found_sorted(folder: Path) -> None:
    assert wink_decl.validate(["."]) == BROKEN_DIAGNOSTICS


def test_validate_imports_no_plugin_code(folder: Path) -> None:
    # misfit.wink.yaml is valid until its handler is imported, which validate never does.
    assert wink_decl.validate(["misfit.wink.yaml"]) == []


def test_validate_checks_a_file_named_twice_once(folder: Path) -> None:
    found = wink_decl.validate(["broken.wink.yaml", folder / "broken.wink.yaml", "."])
    assert found == BROKEN_DIAGNOSTICS


def test_validate_reports_a_missing_path_as_unreadable(folder: Path) -> None:
    found = wink_decl.validate(["greet.wink.yaml", "nothere.wink.yaml"])
    assert found == [unreadable("nothere.wink.yaml")]


def test_validate_resolves_includes_against_the_root_given(tmp_path: Path) -> None:
    (tmp_path / "common").mkdir()
    (tmp_path / "common" / "shared.wink.yaml").write_text(SHARED, encoding="utf-8")
    (tmp_path / "agents").mkdir()
    (tmp_path / "agents" / "agent.wink.yaml").write_text(INCLUDER, encoding="utf-8")
    assert wink_decl.validate([tmp_path / "agents"], root=tmp_path) == []
    found = wink_decl.validate([tmp_path / "agents"])
    assert [d.code for d in found] == ["include-missing"]


def test_validate_holds_every_file_to_the_limits(folder: Path) -> None:
    limits = DEFAULT_LIMITS.with_settings(["max_bytes=10"])
    found = wink_decl.validate(["greet.wink.yaml"], limits=limits)
    assert [(d.code, d.file) for d in found] == [("too-large", "greet.wink.yaml")]
