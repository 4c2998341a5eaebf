"""The on-disk cache: JSON entries keyed by content, plugins and version; never trusted blindly."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cache_entries import CompileCounter, body_of, entries, header_of
from compiler_support import MAIN, make_catalog, prompt, rewrite, write

from wink_decl.compiler import CachedResult, PromptRegistry, artifact_json
from wink_decl.compiler import _disk_cache as disk_cache_module
from wink_decl.compiler._disk_cache import DiskCache
from wink_decl.compiler._stamp import IncludeState
from wink_decl.diagnostics import render_text
from wink_decl.limits import Limits
from wink_decl.plugins import PluginCatalog

BROKEN = "key: broken\nsections:\n  - key: task\n    title: Task\n    tempalte: Hi.\n"


@pytest.fixture
def counter(monkeypatch: pytest.MonkeyPatch) -> CompileCounter:
    return CompileCounter(monkeypatch)


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    return tmp_path / "cache"


def fresh(cache: Path, catalog: PluginCatalog | None = None) -> PromptRegistry:
    """A registry as a new process would make it: nothing in memory, the same folder on disk."""
    return PromptRegistry(".", catalog=catalog or make_catalog(), cache_dir=cache)


def same(a: CachedResult, b: CachedResult) -> bool:
    return (a.diagnostics, dict(a.sources), a.artifact) == (
        b.diagnostics,
        dict(b.sources),
        b.artifact,
    )


def test_a_second_process_checks_an_unchanged_file_without_compiling(
    here: Path, cache: Path, counter: CompileCounter
) -> None:
    write(here, "agents/review.wink.yaml", prompt("review", extra="    template: Review.\n"))
    first = fresh(cache).check("agents/review.wink.yaml")
    assert counter.calls == ["agents/review.wink.yaml"]
    second = fresh(cache).check("agents/review.wink.yaml")
    assert counter.calls == ["agents/review.wink.yaml"]
    assert first.ok
    assert second.ok
    assert same(first, second)
    assert second.artifact is not None
    assert artifact_json(second.artifact) == artifact_json(
        fresh(cache).get("agents/review").artifact
    )


def test_a_file_with_errors_is_reported_from_the_cache_exactly_as_compiled(
    here: Path, cache: Path, counter: CompileCounter
) -> None:
    write(here, "broken.wink.yaml", BROKEN)
    first = fresh(cache).check("broken.wink.yaml")
    second = fresh(cache).check("broken.wink.yaml")
    assert counter.calls == ["broken.wink.yaml"]
    assert not second.ok
    assert same(first, second)
    assert render_text(second.diagnostics, second.sources) == (
        "broken.wink.yaml:5:5: error: Unknown key 'tempalte' in section.\n"
        "  expected: one of key, title, template, summary, summary_suffix, visibility, "
        "enabled, tools, policies, accepts_overrides, children\n"
        "   5 |     tempalte: Hi.\n"
        "     |     ^^^^^^^^\n"
        "  hint: did you mean 'template'?"
    )


def test_an_edit_misses_and_the_new_result_is_stored_beside_the_old(
    here: Path, cache: Path, counter: CompileCounter
) -> None:
    path = write(here, "review.wink.yaml", prompt("review"))
    assert fresh(cache).check("review.wink.yaml").ok
    rewrite(path, BROKEN)
    assert not fresh(cache).check("review.wink.yaml").ok
    assert not fresh(cache).check("review.wink.yaml").ok
    assert counter.calls == ["review.wink.yaml"] * 2
    assert len(entries(cache)) == 2


def test_an_edit_to_an_included_file_misses(
    here: Path, cache: Path, counter: CompileCounter
) -> None:
    write(here, "main.wink.yaml", MAIN)
    tone = write(here, "common/tone.wink.yaml", prompt("tone"))
    assert fresh(cache).check("main.wink.yaml").ok
    assert fresh(cache).check("main.wink.yaml").ok
    assert counter.calls == ["main.wink.yaml"]
    rewrite(tone, prompt("tone", title="Voice"))
    result = fresh(cache).check("main.wink.yaml")
    assert counter.calls == ["main.wink.yaml"] * 2
    assert result.artifact is not None
    assert [s["title"] for s in result.artifact["sections"]] == ["Voice"]


def test_a_missing_include_that_appears_later_misses(
    here: Path, cache: Path, counter: CompileCounter
) -> None:
    write(here, "main.wink.yaml", MAIN)
    assert not fresh(cache).check("main.wink.yaml").ok
    write(here, "common/tone.wink.yaml", prompt("tone"))
    assert fresh(cache).check("main.wink.yaml").ok
    assert counter.calls == ["main.wink.yaml"] * 2


def test_a_missing_include_still_missing_hits(
    here: Path, cache: Path, counter: CompileCounter
) -> None:
    write(here, "main.wink.yaml", MAIN)
    first = fresh(cache).check("main.wink.yaml")
    second = fresh(cache).check("main.wink.yaml")
    assert counter.calls == ["main.wink.yaml"]
    assert not second.ok
    assert same(first, second)


def test_other_plugins_or_another_version_miss(
    here: Path, cache: Path, counter: CompileCounter, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(here, "review.wink.yaml", prompt("review"))
    fresh(cache).check("review.wink.yaml")
    fresh(cache, PluginCatalog(entry_points=[])).check("review.wink.yaml")
    assert counter.calls == ["review.wink.yaml"] * 2
    monkeypatch.setattr("wink_decl.compiler._disk_cache.__version__", "99.0")
    fresh(cache).check("review.wink.yaml")
    assert counter.calls == ["review.wink.yaml"] * 3
    assert len(entries(cache)) == 3


def test_entries_are_json_data_in_a_tagged_ignored_folder(here: Path, cache: Path) -> None:
    write(here, "review.wink.yaml", prompt("review"))
    fresh(cache).check("review.wink.yaml")
    (entry,) = entries(cache)
    assert re.fullmatch(r"wink-decl\.cache/2 [0-9a-f]{64}", header_of(entry))
    data = body_of(entry)
    assert sorted(data) == ["artifact", "diagnostics", "includes", "sources", "wink_decl"]
    assert data["sources"] == {"review.wink.yaml": prompt("review")}
    assert (cache / ".gitignore").read_text(encoding="utf-8") == (
        "# Written by wink-decl: a cache, safe to delete.\n*\n"
    )
    assert (
        (cache / "CACHEDIR.TAG")
        .read_text(encoding="utf-8")
        .startswith("Signature: 8a477f597d28d172789f06886806bc55\n")
    )
    assert sorted(p.name for p in cache.iterdir()) == sorted(
        [".gitignore", "CACHEDIR.TAG", entry.name]
    )


@pytest.mark.parametrize(
    "damage",
    ["{not json", "[]", '{"format": "wink-decl.cache/0"}', '{"format": "wink-decl.cache/1"}'],
    ids=["not-json", "not-an-object", "other-format", "incomplete"],
)
def test_a_damaged_entry_is_a_miss_and_is_replaced(
    here: Path, cache: Path, counter: CompileCounter, damage: str
) -> None:
    write(here, "review.wink.yaml", prompt("review"))
    good = fresh(cache).check("review.wink.yaml")
    (entry,) = entries(cache)
    stored = entry.read_bytes()
    entry.write_text(damage, encoding="utf-8")
    assert same(fresh(cache).check("review.wink.yaml"), good)
    assert counter.calls == ["review.wink.yaml"] * 2
    assert entry.read_bytes() == stored


def test_a_cache_folder_that_cannot_be_written_costs_speed_not_correctness(
    here: Path, tmp_path: Path, counter: CompileCounter
) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder should be", encoding="utf-8")
    write(here, "review.wink.yaml", prompt("review"))
    assert fresh(blocked / "cache").check("review.wink.yaml").ok
    assert fresh(blocked / "cache").check("review.wink.yaml").ok
    assert counter.calls == ["review.wink.yaml"] * 2


def test_checking_uses_memory_first_and_a_vanished_file_is_compiled_to_its_diagnostic(
    here: Path, cache: Path, counter: CompileCounter
) -> None:
    path = write(here, "review.wink.yaml", prompt("review"))
    registry = fresh(cache)
    registry.compile("review.wink.yaml")
    assert registry.check("review.wink.yaml").ok
    assert counter.calls == ["review.wink.yaml"]
    path.unlink()
    gone = registry.check("review.wink.yaml")
    assert [d.code for d in gone.diagnostics] == ["unreadable"]


def test_without_a_cache_folder_nothing_is_written(here: Path, tmp_path: Path) -> None:
    write(here, "review.wink.yaml", prompt("review"))
    registry = PromptRegistry(".", catalog=make_catalog())
    assert registry.check("review.wink.yaml").ok
    assert sorted(p.name for p in tmp_path.iterdir()) == ["prompts"]


def test_a_result_whose_include_was_there_but_unreadable_is_not_stored(
    here: Path, cache: Path, counter: CompileCounter
) -> None:
    """A folder, a FIFO or a file without permission all read as 'no digest': a later look
    could not tell which one the compile saw, so the result is compiled every time."""
    write(here, "main.wink.yaml", MAIN)
    (here / "common" / "tone.wink.yaml").mkdir(parents=True)
    first = fresh(cache).check("main.wink.yaml")
    assert [d.code for d in first.diagnostics] == ["include-missing"]
    assert same(fresh(cache).check("main.wink.yaml"), first)
    assert counter.calls == ["main.wink.yaml"] * 2
    assert entries(cache) == []


def disk_cache(tmp_path: Path, root: Path | None = None, **limits: int) -> DiskCache:
    return DiskCache(tmp_path / "cache", "plugins", root or tmp_path, Limits(**limits))


NOTHING = CachedResult((), {}, {"sections": []})


def put(
    disk: DiskCache,
    includes: list[tuple[Path, IncludeState]],
    sources: dict[str, str] | None = None,
) -> None:
    artifact = NOTHING.artifact
    disk.put("k", diagnostics=(), sources=sources or {}, artifact=artifact, includes=includes)


@pytest.mark.parametrize(
    ("includes", "sources"),
    [
        ([(Path("/a"), IncludeState((1, 1), None))], None),
        ([(Path("/a"), IncludeState(None, None))] * 3, None),
        ([], {"a.wink.yaml": "\ud800"}),
        ([], {"a.wink.yaml": "x" * 2000}),
    ],
    ids=["include-there-but-unreadable", "too-many-includes", "lone-surrogate", "too-large"],
)
def test_an_entry_no_process_could_use_is_not_written(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    includes: list[tuple[Path, IncludeState]],
    sources: dict[str, str] | None,
) -> None:
    monkeypatch.setattr(disk_cache_module, "MAX_ENTRY_BYTES", 1000)
    disk = disk_cache(tmp_path, max_include_files=2)
    put(disk, includes, sources)
    assert not (tmp_path / "cache").exists()
    put(disk, [])
    assert disk.get("k") == NOTHING


def test_includes_of_a_root_that_cannot_be_resolved_never_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def loop(self: Path, strict: bool = False) -> Path:  # as Python 3.11 and 3.12 do
        raise RuntimeError(f"Symlink loop from '{self}'")

    disk = disk_cache(tmp_path)
    put(disk, [(tmp_path / "x.wink.yaml", IncludeState(None, None))])
    with monkeypatch.context() as patch:
        patch.setattr(Path, "resolve", loop)
        assert disk.get("k") is None
    put(disk, [])
    assert disk.get("k") == NOTHING
