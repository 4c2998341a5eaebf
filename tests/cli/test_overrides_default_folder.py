"""The default overrides folder never lies above the folder the user named (issue 24).

A prompt in a folder without a ``pyproject.toml`` (the working folder, the home folder) keeps
its overrides inside that folder; ``prompts/`` in the working folder or in a project keeps
``overrides/`` as its sibling. Seed, render --tag, diff and check agree.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from wink_decl.overrides import default_overrides_root, text_hash

Run = Callable[..., tuple[int, str, str]]

PROMPT = """key: notes
params:
  topic: {type: string}
sections:
  - key: task
    title: Task
    template: Write notes about ${topic}.
"""
SEEDED = f"""# yaml-language-server: $schema=../../wink-decl-override.schema.json
sections:
  task:
    template:
      hash: {text_hash("Write notes about ${topic}.")}
      text: Write notes about ${{topic}}.
    visibility:
      hash: {text_hash("full")}
      text: full
"""
TAGGED = "## 1. Task (task)\n\nJot down tea.\n\ntools: (none)\n"


def tree(top: Path) -> list[str]:
    """Every file under ``top``, relative, sorted."""
    return sorted(str(p.relative_to(top)) for p in top.rglob("*") if p.is_file())


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``<tmp>/home/notes.wink.yaml``, no pyproject.toml anywhere up to ``<tmp>``."""
    folder = tmp_path / "home"
    folder.mkdir()
    (folder / ".git").mkdir()  # the search for a schema copy ends here
    (folder / "notes.wink.yaml").write_text(PROMPT)
    monkeypatch.setenv("HOME", str(folder))
    return folder


def seed_edit_and_use(cli: Run, prompt: str, shown: str) -> None:
    """Seed tag ``short`` of ``prompt``, edit it, and render, diff and check it."""
    assert cli("overrides", "seed", prompt, "--tag", "short") == (
        0,
        f"Created {shown}/wink-decl-override.schema.json (the schema the first line points "
        f"at)\nCreated {shown}/home/notes/short.wink-override.yaml\n",
        "",
    )
    written = Path(shown, "home", "notes", "short.wink-override.yaml")  # ns: the folder's name
    assert written.read_text() == SEEDED
    written.write_text(SEEDED.replace("text: Write notes about", "text: Jot down"))
    assert cli("render", prompt, "--param", "topic=tea", "--tag", "short") == (0, TAGGED, "")
    assert cli("overrides", "diff", prompt, "--tag", "short", "--param", "topic=tea") == (
        0,
        f"--- {prompt}\n+++ {prompt} --tag short\n@@ -1,5 +1,5 @@\n ## 1. Task (task)\n \n"
        "-Write notes about tea.\n+Jot down tea.\n \n tools: (none)\n",
        "",
    )
    assert cli("overrides", "check", prompt) == (
        0,
        "",
        "1 override file checked (0 errors, 0 warnings)\n",
    )


def test_a_prompt_in_the_working_folder_keeps_its_overrides_inside_it(
    cli: Run, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(home)
    seed_edit_and_use(cli, "notes.wink.yaml", "overrides")
    assert tree(home.parent) == [
        "home/notes.wink.yaml",
        "home/overrides/home/notes/short.wink-override.yaml",
        "home/overrides/wink-decl-override.schema.json",
    ]


def test_a_prompt_in_the_home_folder_named_from_elsewhere_keeps_them_in_the_home_folder(
    cli: Run, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = home.parent / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    seed_edit_and_use(cli, str(home / "notes.wink.yaml"), "../home/overrides")
    assert tree(home.parent) == [
        "home/notes.wink.yaml",
        "home/overrides/home/notes/short.wink-override.yaml",
        "home/overrides/wink-decl-override.schema.json",
    ]


def test_validate_finds_them_there_too(
    cli: Run, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(home)
    folder = home / "overrides" / "home" / "notes"
    folder.mkdir(parents=True)
    entry = f"{{hash: '{text_hash('x')}', text: y}}"
    (folder / "short.wink-override.yaml").write_text(f"sections: {{tusk: {{template: {entry}}}}}\n")
    assert cli("validate", "notes.wink.yaml") == (
        1,
        "",
        "overrides/home/notes/short.wink-override.yaml:1:12: error: Prompt 'home/notes' has no "
        "section 'tusk'.\n"
        "  expected: a section of the prompt, its dotted key from the top\n"
        "   1 | sections: {tusk: {template: {hash: "
        "'sha256:2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db022587179...\n"
        "     |            ^^^^\n"
        "  hint: did you mean 'task'?\n"
        "1 file checked: 0 valid, 1 invalid (1 error, 0 warnings)\n",
    )


def test_the_sibling_stays_the_default_in_the_working_folder_or_a_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "project"
    (project / "prompts").mkdir(parents=True)
    monkeypatch.chdir(project)
    # prompts/ below the working folder: overrides/ beside it, as docs/overrides.md shows.
    assert default_overrides_root("prompts") == project / "overrides"
    # Working in prompts/ itself, without a project: never above it.
    monkeypatch.chdir(project / "prompts")
    assert default_overrides_root(".") == project / "prompts" / "overrides"
    # ... and with a project around it, the project's sibling as seen from its top.
    (project / "pyproject.toml").write_text("")
    assert default_overrides_root(".") == project / "overrides"
    # A project whose pyproject.toml is in the prompt root itself: inside it.
    monkeypatch.chdir(tmp_path)
    (project / "prompts" / "pyproject.toml").write_text("")
    other = tmp_path / "other"
    other.mkdir()
    monkeypatch.chdir(other)
    assert default_overrides_root(project / "prompts") == project / "prompts" / "overrides"
