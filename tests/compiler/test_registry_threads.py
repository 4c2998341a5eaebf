"""PromptRegistry while files change: every answer is right for some version of the files.

Single-threaded first (an edit between two calls), then many threads at once: reading the
same files, compiling one changed file (once, the others wait), unrelated files (no waiting),
and reading while another thread edits, adds and deletes files.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from compiler_support import MAIN, compiled, prompt, rewrite, write

from wink_decl.compiler import CompiledPrompt, CompileResult, PromptRegistry, compile_file
from wink_decl.compiler import registry as registry_module
from wink_decl.diagnostics import DiagnosticError
from wink_decl.plugins import PluginCatalog

THREADS = 16


def text_of(prompt: CompiledPrompt) -> str:
    """The whole rendered text (the prompts here take no params)."""
    return prompt.template.render().text


def unknown(registry: PromptRegistry, address: str) -> str:
    with pytest.raises(DiagnosticError) as info:
        registry.get(address)
    assert [d.code for d in info.value.diagnostics] == ["unknown-prompt"]
    return str(info.value)


class CompileSpy:
    """Wraps the registry's ``compile_file``: counts calls, and can run code inside one."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[str] = []
        self.during: Callable[[str], None] | None = None
        """Called inside each compile, after the real one read its files."""
        real = registry_module.compile_file

        def spy(path: str, **options: Any) -> CompileResult:
            self.calls.append(path)
            result = real(path, **options)
            if self.during is not None:
                self.during(path)
            return result

        monkeypatch.setattr(registry_module, "compile_file", spy)


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> CompileSpy:
    return CompileSpy(monkeypatch)


# -- an edit while a file is being compiled --------------------------------------------------


def test_an_edit_to_an_include_during_its_compile_is_not_missed(
    here: Path, catalog: PluginCatalog, spy: CompileSpy
) -> None:
    """The include was once stamped after the compile: an edit in between was never seen."""
    tone = write(here, "common/tone.wink.yaml", prompt("tone", "Tone"))
    write(here, "main.wink.yaml", MAIN)
    registry = PromptRegistry(".", catalog=catalog)

    def edit_the_include(path: str) -> None:
        spy.during = None
        rewrite(tone, prompt("tone", "Voice"))  # lands after the compile read the old text

    spy.during = edit_the_include
    assert text_of(compiled(registry.compile("main.wink.yaml"))) == "## 1. Tone (task)"
    assert text_of(compiled(registry.compile("main.wink.yaml"))) == "## 1. Voice (task)"
    assert spy.calls == ["main.wink.yaml", "main.wink.yaml"]


def test_an_include_that_cannot_be_read_after_it_was_found_is_reported(
    here: Path, catalog: PluginCatalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between is_file() and the read, the include went away: the loader says so."""
    write(here, "common/tone.wink.yaml", prompt("tone", "Tone"))
    write(here, "main.wink.yaml", MAIN)

    def refuse(path: object) -> tuple[bytes, tuple[int, int]]:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("wink_decl.compiler._includes.read_stamped", refuse)
    result = compile_file("main.wink.yaml", root=".", catalog=catalog)
    state = result.include_states[here / "common/tone.wink.yaml"]
    assert state.digest is None
    assert state.stamp is not None  # taken before the read
    assert result.ok  # the loader read it after all


def test_a_file_that_cannot_be_read_is_stamped_before_it_is_compiled(
    here: Path, catalog: PluginCatalog, spy: CompileSpy
) -> None:
    """A folder that became a file during the compile is compiled again next time."""
    folder = here / "x.wink.yaml"
    folder.mkdir()
    registry = PromptRegistry(".", catalog=catalog)

    def replace_by_a_file(path: str) -> None:
        spy.during = None
        folder.rmdir()
        write(here, "x.wink.yaml", prompt("x"))

    spy.during = replace_by_a_file
    assert [d.code for d in registry.compile("x.wink.yaml").diagnostics] == ["unreadable"]
    assert compiled(registry.compile("x.wink.yaml")).address == "prompts/x"
