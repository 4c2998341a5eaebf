"""``wink_decl.load`` and ``wink_decl.validate``: from prompt files to the runtime, in Python."""

from __future__ import annotations

from pathlib import Path

import pytest

import wink_decl
from wink_decl import Diagnostic, DiagnosticError, PromptTemplate
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
