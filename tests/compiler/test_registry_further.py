"""``PromptRegistry.check_further``: a check beyond the compile, kept on disk beside the file's."""

from __future__ import annotations

from pathlib import Path

import pytest
from cache_entries import CompileCounter, entries
from compiler_support import make_catalog, prompt, rewrite, write

from wink_decl.compiler import CompiledPrompt, PromptRegistry
from wink_decl.diagnostics import Diagnostic

FILE = "review.wink.yaml"


@pytest.fixture
def counter(monkeypatch: pytest.MonkeyPatch) -> CompileCounter:
    return CompileCounter(monkeypatch)


class Further:
    """A check that notes each prompt it is asked about and finds one warning in it."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def __call__(self, prompt: CompiledPrompt) -> tuple[list[Diagnostic], dict[str, str]]:
        self.asked.append(prompt.address)
        found = Diagnostic(f"Looked at {prompt.address}.", None, "looked", "warning", path="x")
        return [found], {"x": "text"}


def fresh(cache: Path | None) -> PromptRegistry:
    """A registry as a new process would make it: nothing in memory."""
    return PromptRegistry(".", catalog=make_catalog(), cache_dir=cache)


def further(registry: PromptRegistry, check: Further, inputs: bytes | None = b"in") -> object:
    checked = registry.check(FILE)
    assert checked.artifact is not None
    found, sources = registry.check_further(FILE, checked.artifact["content_hash"], inputs, check)
    return [d.message for d in found], dict(sources)


ADDRESS = "prompts/review"  # the ns is the folder's name
LOOKED = ([f"Looked at {ADDRESS}."], {"x": "text"})


def test_an_answer_is_kept_per_inputs_and_used_without_compiling(
    here: Path, tmp_path: Path, counter: CompileCounter
) -> None:
    write(here, FILE, prompt("review", extra="    template: Review.\n"))
    cache = tmp_path / "cache"
    check = Further()
    assert further(fresh(cache), check) == LOOKED
    assert (check.asked, counter.calls) == ([ADDRESS], [FILE])
    assert further(fresh(cache), check) == LOOKED
    assert (check.asked, counter.calls) == ([ADDRESS], [FILE])
    assert further(fresh(cache), check, b"other") == LOOKED
    assert (check.asked, counter.calls) == ([ADDRESS, ADDRESS], [FILE, FILE])
    assert len(entries(cache)) == 3  # the file's, and one per inputs


@pytest.mark.parametrize("cache", [None, "cache"], ids=["no-cache", "unreadable-inputs"])
def test_without_a_cache_or_inputs_nothing_is_kept(
    here: Path, tmp_path: Path, cache: str | None
) -> None:
    write(here, FILE, prompt("review", extra="    template: Review.\n"))
    folder = None if cache is None else tmp_path / cache
    check = Further()
    for _ in range(2):
        assert further(fresh(folder), check, None if folder else b"in") == LOOKED
    assert check.asked == [ADDRESS, ADDRESS]
    if folder is not None:
        assert len(entries(folder)) == 1  # the file's alone


def test_a_file_changed_since_its_check_is_looked_at_as_it_is_and_not_kept(
    here: Path, tmp_path: Path
) -> None:
    path = write(here, FILE, prompt("review", extra="    template: Review.\n"))
    cache = tmp_path / "cache"
    check = Further()
    registry = fresh(cache)
    checked = registry.check(FILE)
    assert checked.artifact is not None
    content_hash = checked.artifact["content_hash"]
    rewrite(path, prompt("review", extra="    template: Review it all.\n"))
    found, _ = registry.check_further(FILE, content_hash, b"in", check)
    assert ([d.message for d in found], check.asked) == (LOOKED[0], [ADDRESS])
    assert len(entries(cache)) == 2  # the new version's own entry; no answer kept
    rewrite(path, "key: review\nsections: 3\n")
    assert registry.check_further(FILE, content_hash, b"in", check) == ((), {})
    assert check.asked == [ADDRESS]
