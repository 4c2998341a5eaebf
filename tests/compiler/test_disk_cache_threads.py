"""The on-disk cache shared by threads and processes: no torn entry, no entry for a wrong file."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from cache_entries import body_of
from compiler_support import MAIN, make_catalog, prompt, rewrite, write
from concurrency import run_python, run_threads

from wink_decl.compiler import CachedResult, CompileResult, PromptRegistry
from wink_decl.compiler import registry as registry_module
from wink_decl.diagnostics import render_text

BROKEN = "key: broken\nsections:\n  - key: task\n    title: Task\n    tempalte: Hi.\n"


def write_files(here: Path) -> list[str]:
    names = [f"p{n}.wink.yaml" for n in range(6)]
    for n, name in enumerate(names):
        write(here, name, prompt(f"p{n}", extra=f"    template: Body {n}.\n"))
    write(here, "broken.wink.yaml", BROKEN)
    write(here, "common/tone.wink.yaml", prompt("tone", "Tone"))
    write(here, "main.wink.yaml", MAIN)
    return [*names, "broken.wink.yaml", "main.wink.yaml", "common/tone.wink.yaml"]


def shown(result: CachedResult) -> tuple[bool, str, str]:
    """All a report shows, exactly: the verdict, the diagnostics quoted, the artifact."""
    artifact = json.dumps(result.artifact, sort_keys=True)
    return result.ok, render_text(result.diagnostics, result.sources), artifact


def test_threads_filling_one_cache_folder_at_once(here: Path, tmp_path: Path) -> None:
    names = write_files(here)
    cache = tmp_path / "cache"
    alone = PromptRegistry(".", catalog=make_catalog())
    expected = [shown(alone.check(name)) for name in names]

    def check_all(thread: int) -> list[tuple[bool, str, str]]:
        # One registry per thread, like one per process: every thread misses and writes.
        registry = PromptRegistry(".", catalog=make_catalog(), cache_dir=cache)
        order = names if thread % 2 == 0 else names[::-1]
        found = {name: shown(registry.check(name)) for name in order}
        return [found[name] for name in names]

    for answers in run_threads(check_all, threads=16):
        assert answers == expected
    entries = sorted(p.name for p in cache.iterdir())
    assert [name for name in entries if not name.endswith(".json")] == [
        ".gitignore",
        "CACHEDIR.TAG",
    ]  # no temporary file left behind
    assert len(entries) == len(names) + 2
    for entry in cache.glob("*.json"):
        body_of(entry)  # every entry whole
    later = PromptRegistry(".", catalog=make_catalog(), cache_dir=cache)
    assert [shown(later.check(name)) for name in names] == expected


CHECK_SCRIPT = """\
import json, sys
from compiler_support import make_catalog
from wink_decl.compiler import PromptRegistry
from wink_decl.diagnostics import render_text

registry = PromptRegistry(".", catalog=make_catalog(), cache_dir=sys.argv[1])
answers = []
for name in sys.argv[2:]:
    result = registry.check(name)
    answers.append([result.ok, render_text(result.diagnostics, result.sources),
                    json.dumps(result.artifact, sort_keys=True)])
print(json.dumps(answers))
"""


def test_processes_filling_one_cache_folder_at_once(here: Path, tmp_path: Path) -> None:
    names = write_files(here)
    cache = tmp_path / "cache"
    alone = PromptRegistry(".", catalog=make_catalog())
    expected = [list(shown(alone.check(name))) for name in names]
    support = Path(__file__).resolve().parents[1] / "support"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(support), *sys.path])}

    def run(process: int) -> Any:
        order = names if process % 2 == 0 else names[::-1]
        done = run_python(CHECK_SCRIPT, args=[str(cache), *order], cwd=here, env=env)
        assert done.returncode == 0, done.stderr
        answers = dict(zip(order, json.loads(done.stdout), strict=True))
        return [answers[name] for name in names]

    for answers in run_threads(run, threads=4, switch_interval=None, timeout=120):
        assert answers == expected
    later = PromptRegistry(".", catalog=make_catalog(), cache_dir=cache)
    assert [list(shown(later.check(name))) for name in names] == expected
    assert sorted(p.name for p in cache.iterdir() if not p.name.endswith(".json")) == [
        ".gitignore",
        "CACHEDIR.TAG",
    ]


def test_an_include_edited_during_the_compile_leaves_no_wrong_entry(
    here: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The entry once took the include's digest after the compile: the new file's, the old
    result. Every later process then reported the old include as current."""
    tone = write(here, "common/tone.wink.yaml", prompt("tone", "Tone"))
    write(here, "main.wink.yaml", MAIN)
    cache = tmp_path / "cache"
    real = registry_module.compile_file

    def compile_then_edit(path: Any, **options: Any) -> CompileResult:
        result = real(path, **options)
        rewrite(tone, prompt("tone", "Voice"))  # lands after the compile read the old text
        return result

    monkeypatch.setattr(registry_module, "compile_file", compile_then_edit)
    first = PromptRegistry(".", catalog=make_catalog(), cache_dir=cache).check("main.wink.yaml")
    assert first.artifact is not None
    assert first.artifact["sections"][0]["title"] == "Tone"
    monkeypatch.setattr(registry_module, "compile_file", real)
    later = PromptRegistry(".", catalog=make_catalog(), cache_dir=cache).check("main.wink.yaml")
    assert later.artifact is not None
    assert later.artifact["sections"][0]["title"] == "Voice"
