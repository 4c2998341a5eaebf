"""A prompt file with the real wink-decl-files tools and read_before_write, run call by call.

The handlers come from the installed package through its entry points (the test setup
installs ``plugins/wink-decl-files``); the files live in an ``InMemoryFilesystem`` or in a
``HostFilesystem`` over a temporary folder.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from compiler_support import compiled, report, write

from wink_decl import (
    Filesystem,
    HostFilesystem,
    InMemoryFilesystem,
    Prompt,
    ProviderToolCall,
    SectionVisibility,
    Session,
    ToolExecutor,
)
from wink_decl.compiler import CompiledPrompt, bind_plugins, compile_file

PROMPT = """\
key: fix
sections:
  - key: task
    title: Task
    template: Fix the bug in calc.py.
    tools: [read_file, edit_file]
    policies:
      - read_before_write: {}
tools:
  read_file:
    description: Read one file of the workspace.
    handler: files.read_file
  edit_file:
    description: Replace one exact, unique piece of text in a file.
    handler: files.edit_file
"""

RENAMED = """\
key: fix
sections:
  - key: task
    title: Task
    template: Fix the bug in calc.py.
    tools: [open, patch]
    policies:
      - read_before_write: {read_tools: [], write_tools: []}
tools:
  open:
    description: Read one file of the workspace.
    handler: files.read_file
    reads: path
  patch:
    description: Replace one exact, unique piece of text in a file.
    handler: files.edit_file
    writes: path
"""
"""The same tools under other names: they are watched because they declare reads/writes."""

CALC = "def add(a, b):\n    return a - b\n"


def compile_prompt(folder: Path, text: str) -> CompiledPrompt:
    write(folder, "fix.wink.yaml", text)
    result = compile_file(folder / "fix.wink.yaml", root=folder)
    assert report(result) == ""
    prompt = compiled(result)
    assert bind_plugins(prompt) == []
    return prompt


def runner(prompt: CompiledPrompt, filesystem: Filesystem) -> ToolExecutor:
    bound = Prompt(prompt.template, resources=[filesystem])
    session = Session()
    return ToolExecutor(prompt=bound, rendered=bound.render(session=session), session=session)


def run(executor: ToolExecutor, name: str, **arguments: Any) -> str:
    outcome = executor.execute(ProviderToolCall("call", name, json.dumps(arguments)))
    return ("ok: " if outcome.success else "refused: ") + outcome.message.content


@pytest.mark.parametrize(
    ("text", "read", "edit"),
    [(PROMPT, "read_file", "edit_file"), (RENAMED, "open", "patch")],
    ids=["default-names", "declared"],
)
@pytest.mark.parametrize("kind", ["memory", "host"])
def test_an_edit_is_refused_before_the_file_is_read_and_made_after(
    tmp_path: Path, text: str, read: str, edit: str, kind: str
) -> None:
    prompt = compile_prompt(tmp_path / "prompts", text)
    if kind == "memory":
        filesystem: Filesystem = InMemoryFilesystem({"calc.py": CALC})
    else:
        workspace = tmp_path / "workspace"
        workspace.mkdir()
        (workspace / "calc.py").write_text(CALC, encoding="utf-8")
        filesystem = HostFilesystem(workspace)
    executor = runner(prompt, filesystem)
    fix = {"path": "calc.py", "old_text": "return a - b", "new_text": "return a + b"}

    assert run(executor, edit, **fix) == (
        "refused: File 'calc.py' must be read before overwriting."
    )
    assert filesystem.read_text("calc.py") == CALC
    assert run(executor, read, path="./calc.py") == (
        'ok: Read \'calc.py\' (32 characters).\n\n{"path": "calc.py", "text": '
        '"def add(a, b):\\n    return a - b\\n"}'
    )
    assert run(executor, edit, **fix) == (
        "ok: Edited 'calc.py' at line 2: 1 line replaced by 1 line.\n\n"
        '{"path": "calc.py", "line": 2, "old_lines": 1, "new_lines": 1}'
    )
    assert filesystem.read_text("calc.py") == "def add(a, b):\n    return a + b\n"
    if kind == "host":
        assert (tmp_path / "workspace" / "calc.py").read_text(encoding="utf-8") == (
            "def add(a, b):\n    return a + b\n"
        )


def test_a_refused_edit_of_a_read_file_leaves_it_as_it_was(tmp_path: Path) -> None:
    prompt = compile_prompt(tmp_path / "prompts", PROMPT)
    filesystem = InMemoryFilesystem({"calc.py": CALC + CALC})
    executor = runner(prompt, filesystem)
    assert run(executor, "read_file", path="calc.py").startswith("ok: Read 'calc.py'")
    assert run(executor, "edit_file", path="calc.py", old_text="a - b", new_text="a + b") == (
        "refused: old_text occurs 2 times in 'calc.py' (on lines 2 and 4): include more of "
        "the surrounding text in old_text, so that it occurs exactly once."
    )
    assert filesystem.read_text("calc.py") == CALC + CALC


def test_a_new_file_needs_no_read_but_edit_file_cannot_create_one(tmp_path: Path) -> None:
    prompt = compile_prompt(tmp_path / "prompts", PROMPT)
    executor = runner(prompt, InMemoryFilesystem())
    assert run(executor, "edit_file", path="new.py", old_text="a", new_text="b") == (
        "refused: File 'new.py' does not exist."
    )


REPO = Path(__file__).resolve().parents[2]


def test_the_bundled_release_prompt_adds_a_line_to_its_notes_with_edit_file() -> None:
    prompts = REPO / "prompts"
    result = compile_file(prompts / "release" / "pipeline.wink.toml", root=prompts)
    assert report(result) == ""
    prompt = compiled(result)
    filesystem = InMemoryFilesystem({"NOTES.md": "1.3.0: faster builds.\n1.2.0: first release.\n"})
    bound = Prompt(prompt.template, resources=[filesystem])
    params = prompt.params_type(version="1.4.0")  # pyright: ignore[reportOptionalCall]
    session = Session()
    rendered = bound.bind(params).render(
        session=session, visibility_overrides={("notes",): SectionVisibility.FULL}
    )
    assert [tool.name for tool in rendered.tools][-3:] == ["read_file", "edit_file", "write_file"]
    executor = ToolExecutor(prompt=bound, rendered=rendered, session=session)
    line = {"path": "NOTES.md", "old_text": "1.3.0: faster builds.\n"}
    line["new_text"] = "1.4.0: edit_file.\n" + line["old_text"]
    assert run(executor, "edit_file", **line) == (
        "refused: File 'NOTES.md' must be read before overwriting."
    )
    assert run(executor, "read_file", path="NOTES.md").startswith("ok: Read 'NOTES.md'")
    assert run(executor, "edit_file", **line) == (
        "ok: Edited 'NOTES.md' at line 1: 1 line replaced by 2 lines.\n\n"
        '{"path": "NOTES.md", "line": 1, "old_lines": 1, "new_lines": 2}'
    )
    assert filesystem.read_text("NOTES.md") == (
        "1.4.0: edit_file.\n1.3.0: faster builds.\n1.2.0: first release.\n"
    )
