"""PromptRegistry while files change: every answer is right for some version of the files.

Single-threaded first (an edit between two calls), then many threads at once: reading the
same files, compiling one changed file (once, the others wait), unrelated files (no waiting),
and reading while another thread edits, adds and deletes files.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from compiler_support import MAIN, compiled, prompt, report, rewrite, write
from concurrency import AnnouncingLock, run_threads

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


# -- one thread, files changing between calls ---------------------------------------------------


def test_get_after_a_compile_and_an_edit_of_the_key(here: Path, catalog: PluginCatalog) -> None:
    """Once raised TypeError: the index was built while compile() inside the loop reset it."""
    path = write(here, "a.wink.yaml", prompt("first"))
    registry = PromptRegistry(".", catalog=catalog)
    assert compiled(registry.compile("a.wink.yaml")).address == "prompts/first"
    rewrite(path, prompt("second"))
    assert registry.get("prompts/second").address == "prompts/second"
    assert unknown(registry, "prompts/first") == (
        ".: error: No prompt 'prompts/first' under '.'. Did you mean 'prompts/second'?"
    )
    assert registry.addresses() == {"prompts/second": Path("a.wink.yaml")}


def test_get_after_the_index_was_built_and_a_key_was_edited(
    here: Path, catalog: PluginCatalog
) -> None:
    """Once answered 'No prompt' for the new key until the file was compiled by path."""
    path = write(here, "a.wink.yaml", prompt("first"))
    registry = PromptRegistry(".", catalog=catalog)
    assert list(registry) == ["prompts/first"]
    rewrite(path, prompt("second"))
    assert registry.get("prompts/second").address == "prompts/second"
    unknown(registry, "prompts/first")


def test_files_added_renamed_and_deleted_after_the_index_was_built(
    here: Path, catalog: PluginCatalog
) -> None:
    write(here, "a.wink.yaml", prompt("a"))
    registry = PromptRegistry(".", catalog=catalog)
    assert list(registry) == ["prompts/a"]
    write(here, "b.wink.yaml", prompt("b"))
    assert registry.get("prompts/b").source == "b.wink.yaml"  # added
    (here / "a.wink.yaml").rename(here / "c.wink.yaml")
    assert registry.get("prompts/a").source == "c.wink.yaml"  # renamed
    (here / "c.wink.yaml").unlink()
    assert unknown(registry, "prompts/a") == (
        ".: error: No prompt 'prompts/a' under '.'. Did you mean 'prompts/b'?"
    )
    assert registry.addresses() == {"prompts/b": Path("b.wink.yaml")}


def test_an_address_two_files_claim_moves_to_the_second_when_the_first_gains_errors(
    here: Path, catalog: PluginCatalog
) -> None:
    first = write(here, "a.wink.yaml", prompt("same", "First"))
    write(here, "b.wink.yaml", prompt("same", "Second"))
    registry = PromptRegistry(".", catalog=catalog)
    assert text_of(registry.get("prompts/same")) == "## 1. First (task)"
    rewrite(first, prompt("same", "First", extra="    tempalte: Hi.\n"))
    assert text_of(registry.get("prompts/same")) == "## 1. Second (task)"


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

    def refuse(path: object, limits: object = None) -> tuple[bytes, tuple[int, int]]:
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


# -- many threads -----------------------------------------------------------------------------


def write_tree(here: Path) -> list[str]:
    names: list[str] = []
    for n in range(8):
        extra = f"    template: Body {n}.\n"
        names.append(str(write(here, f"group{n % 2}/p{n}.wink.yaml", prompt(f"p{n}", extra=extra))))
    write(here, "common/tone.wink.yaml", prompt("tone", "Tone"))
    write(here, "main.wink.yaml", MAIN)
    return [os.path.relpath(name, here) for name in names]


def test_threads_asking_for_unchanged_files_get_the_single_threaded_answers(
    here: Path, catalog: PluginCatalog
) -> None:
    paths = write_tree(here)
    alone = PromptRegistry(".", catalog=catalog)
    expected_addresses = alone.addresses()
    expected = {address: text_of(alone.get(address)) for address in expected_addresses}
    shared = PromptRegistry(".", catalog=catalog)  # cold: the threads compile it together

    def ask(thread: int) -> tuple[dict[str, Path], dict[str, str], list[str], list[bool]]:
        order = sorted(expected, reverse=thread % 2 == 1)
        texts = {address: text_of(shared.get(address)) for address in order}
        sources = [compiled(shared.compile(path)).source for path in paths]
        checks = [shared.check(path).ok for path in paths]
        return shared.addresses(), texts, sources, checks

    for addresses, texts, sources, checks in run_threads(ask, threads=THREADS):
        assert addresses == expected_addresses
        assert texts == expected
        assert sources == paths
        assert checks == [True] * len(paths)
    assert expected["prompts/main"] == "## 1. Tone (task)"


def test_a_changed_file_is_compiled_once_while_other_threads_wait_for_it(
    here: Path, catalog: PluginCatalog, spy: CompileSpy
) -> None:
    path = write(here, "a.wink.yaml", prompt("a", extra="    template: Old.\n"))
    registry = PromptRegistry(".", catalog=catalog)
    registry.compile("a.wink.yaml")
    rewrite(path, prompt("a", extra="    template: New.\n"))
    spy.calls.clear()

    results = run_threads(lambda _: registry.compile("a.wink.yaml"), threads=THREADS)

    assert spy.calls == ["a.wink.yaml"]
    assert all(result is results[0] for result in results)
    assert text_of(compiled(results[0])) == "## 1. Task (task)\n\nNew."


@pytest.mark.parametrize("method", ["compile", "check"])
def test_a_thread_that_waited_for_a_compile_takes_its_result(
    here: Path, catalog: PluginCatalog, spy: CompileSpy, method: str
) -> None:
    """Exactly the interleaving the per-file lock is for, made to happen every time."""
    write(here, "a.wink.yaml", prompt("a", extra="    template: Body.\n"))
    registry = PromptRegistry(".", catalog=catalog, cache_dir=here / ".cache")
    lock = AnnouncingLock()
    registry._locks["a.wink.yaml"] = lock  # pyright: ignore[reportArgumentType, reportPrivateUsage]

    def hold(path: str) -> None:  # hold the compile until the other thread waits for the lock
        assert lock.waiting.acquire(timeout=20), "the other thread never waited for the lock"

    spy.during = hold
    ask = getattr(registry, method)

    first, second = run_threads(lambda _: ask("a.wink.yaml"), threads=2)

    assert spy.calls == ["a.wink.yaml"]
    assert first == second
    assert first.ok


def test_unrelated_files_do_not_wait_for_each_other(
    here: Path, catalog: PluginCatalog, spy: CompileSpy
) -> None:
    """One file's compile waits until another file's compile is done: a global lock would hang."""
    write(here, "slow.wink.yaml", prompt("slow"))
    write(here, "quick.wink.yaml", prompt("quick"))
    registry = PromptRegistry(".", catalog=catalog)
    quick_done = threading.Event()

    def wait_for_quick(path: str) -> None:
        if path == "slow.wink.yaml":
            assert quick_done.wait(timeout=20), "the other file waited for this one"

    spy.during = wait_for_quick

    def body(thread: int) -> str:
        if thread == 0:
            return compiled(registry.compile("slow.wink.yaml")).address
        address = compiled(registry.compile("quick.wink.yaml")).address
        quick_done.set()
        return address

    assert run_threads(body, threads=2, timeout=20) == ["prompts/slow", "prompts/quick"]


# -- many threads while files change ----------------------------------------------------------

VERSIONS = 12
FILES = 3


def version_text(file: int, version: int) -> str:
    return prompt(f"p{file}-v{version}", extra=f"    template: File {file} version {version}.\n")


def tone_text(version: int) -> str:
    return prompt("tone", f"Tone {version}")


def put(path: Path, text: str, version: int) -> None:
    """Replace the file whole, as editors that save atomically do; each version a second on."""
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.utime(temporary, ns=(0, (1_000_000 + version) * 1_000_000_000))
    temporary.replace(path)


class Versions:
    """Every answer any version of the files allows, worked out single-threaded."""

    def __init__(self, folder: Path, catalog: PluginCatalog) -> None:
        folder.mkdir(parents=True)
        self.folder = folder
        self.texts: dict[str, set[str]] = {}
        self.paths: dict[str, Path] = {}
        for version in range(VERSIONS):
            for file in range(FILES):
                path = folder / f"p{file}.wink.yaml"
                put(path, version_text(file, version), version)
                self.add(compiled(compile_file(path, root=folder, catalog=catalog)))
            put(folder / "extra.wink.yaml", prompt(f"extra-{version}"), version)
            self.add(compiled(compile_file(folder / "extra.wink.yaml", root=folder)))
            write(folder, "common/tone.wink.yaml", tone_text(version))
            write(folder, "main.wink.yaml", MAIN)
            self.add(compiled(compile_file(folder / "main.wink.yaml", root=folder)))
            self.add(compiled(compile_file(folder / "common/tone.wink.yaml", root=folder)))

    def add(self, prompt: CompiledPrompt) -> None:
        self.texts.setdefault(prompt.address, set()).add(text_of(prompt))
        self.paths[prompt.address] = Path(prompt.source).relative_to(self.folder)

    def check_prompt(self, prompt: CompiledPrompt) -> None:
        """The prompt is one that some version of its file compiles to, rendered exactly."""
        assert text_of(prompt) in self.texts[prompt.address], prompt.address


def get_if_there(registry: PromptRegistry, address: str) -> CompiledPrompt | None:
    """The prompt, or None when the registry says no file has that address (nothing else)."""
    try:
        return registry.get(address)
    except DiagnosticError as error:
        codes = [d.code for d in error.diagnostics]
    assert codes == ["unknown-prompt"]
    return None


class Editing:
    """One thread edits, adds and deletes files, version by version; the others read.

    The editor waits for every reader to go round the files once per version, so the reads
    overlap every edit; the readers stop after the round in which they see the last one.
    """

    def __init__(self, here: Path, registry: PromptRegistry, versions: Versions) -> None:
        self.here = here
        self.registry = registry
        self.versions = versions
        self.readers = THREADS - 1
        self.rounds = [0] * self.readers
        self.progress = threading.Condition()
        self.current = 0

    def run(self, thread: int) -> int:
        return self.read(thread) if thread < self.readers else self.edit_all()

    def read(self, thread: int) -> int:
        answers = 0
        while True:
            version = self.current
            for file in range(FILES):
                self.read_file(file, version)
                answers += 1
            self.versions.check_prompt(compiled(self.registry.compile("main.wink.yaml")))
            for address, path in self.registry.addresses().items():
                assert self.versions.paths[address] == path
            with self.progress:
                self.rounds[thread] += 1
                self.progress.notify_all()
            if version == VERSIONS:
                return answers

    def read_file(self, file: int, version: int) -> None:
        registry, versions = self.registry, self.versions
        result = registry.compile(f"p{file}.wink.yaml")
        if result.prompt is None:  # p0 is deleted now and then
            assert (file, [d.code for d in result.diagnostics]) == (0, ["unreadable"])
        else:
            versions.check_prompt(result.prompt)
        assert registry.check(f"p{file}.wink.yaml").ok or file == 0
        for near in (version - 1, version, version + 1):
            found = get_if_there(registry, f"prompts/p{file}-v{near}")
            if found is not None:
                versions.check_prompt(found)

    def edit_all(self) -> int:
        try:
            for version in range(1, VERSIONS):
                self.edit(version)
                self.current = version
                with self.progress:  # every reader goes once round the files at this version
                    target = min(self.rounds) + 1
                    done = self.progress.wait_for(
                        lambda target=target: min(self.rounds) >= target, timeout=30
                    )
                    assert done, "the readers stopped"
        finally:
            self.current = VERSIONS  # the readers stop after one more round, even on a failure
        return 0

    def edit(self, version: int) -> None:
        for file in range(FILES):
            path = self.here / f"p{file}.wink.yaml"
            if file == 0 and version % 3 == 0:
                path.unlink()
            else:
                put(path, version_text(file, version), version)
        put(self.here / "extra.wink.yaml", prompt(f"extra-{version}"), version)
        put(self.here / "common/tone.wink.yaml", tone_text(version), version)


def test_threads_reading_while_files_are_edited_added_and_deleted(
    here: Path, tmp_path: Path, catalog: PluginCatalog
) -> None:
    versions = Versions(tmp_path / "alone" / "prompts", catalog)
    for file in range(FILES):
        put(here / f"p{file}.wink.yaml", version_text(file, 0), 0)
    write(here, "common/tone.wink.yaml", tone_text(0))
    write(here, "main.wink.yaml", MAIN)
    registry = PromptRegistry(".", catalog=catalog)
    editing = Editing(here, registry, versions)

    answers = run_threads(editing.run, threads=THREADS)

    assert min(answers[: editing.readers]) >= FILES * VERSIONS
    # When the files stop changing, every answer is the last version's.
    last = VERSIONS - 1
    assert registry.addresses() == {
        "common/tone": Path("common/tone.wink.yaml"),
        "prompts/extra-11": Path("extra.wink.yaml"),
        "prompts/main": Path("main.wink.yaml"),
        "prompts/p0-v11": Path("p0.wink.yaml"),
        "prompts/p1-v11": Path("p1.wink.yaml"),
        "prompts/p2-v11": Path("p2.wink.yaml"),
    }
    for file in range(FILES):
        got = registry.get(f"prompts/p{file}-v{last}")
        assert text_of(got) == f"## 1. Task (task)\n\nFile {file} version {last}."
    assert text_of(registry.get("prompts/main")) == f"## 1. Tone {last} (task)"
    assert report(registry.compile("main.wink.yaml")) == ""
    assert report(registry.compile("p0.wink.yaml")) == ""
