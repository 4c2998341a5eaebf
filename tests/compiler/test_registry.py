"""PromptRegistry: finding files, addressing prompts, and a cache that notices every change."""

from __future__ import annotations

from pathlib import Path

import pytest
from compiler_support import MAIN, compiled, prompt, report, rewrite, touch, write

from wink_decl.compiler import PromptRegistry, find_prompt_files
from wink_decl.diagnostics import DiagnosticError, render_text
from wink_decl.plugins import PluginCatalog


@pytest.fixture
def registry(here: Path, catalog: PluginCatalog) -> PromptRegistry:
    write(here, "agents/review.wink.yaml", prompt("review"))
    write(here, "agents/Plan.wink.YML", prompt("plan"))
    write(here, "release/pipeline.wink.toml", 'key = "pipeline"\n[[sections]]\ntitle = "Ship"\n')
    write(here, "broken.wink.yaml", prompt("Broken"))
    write(here, ".hidden/secret.wink.yaml", prompt("secret"))
    write(here, "agents/notes.yaml", prompt("notes"))
    write(here, "agents/README.md", "# not a prompt\n")
    return PromptRegistry(".", catalog=catalog)


def test_files_are_sorted_and_hidden_folders_skipped(registry: PromptRegistry) -> None:
    assert registry.root == Path()
    assert registry.files() == [
        Path("agents/Plan.wink.YML"),
        Path("agents/review.wink.yaml"),
        Path("broken.wink.yaml"),
        Path("release/pipeline.wink.toml"),
    ]
    assert find_prompt_files(".") == registry.files()


def test_addresses_name_every_prompt_that_compiles(registry: PromptRegistry) -> None:
    assert registry.addresses() == {
        "agents/plan": Path("agents/Plan.wink.YML"),
        "agents/review": Path("agents/review.wink.yaml"),
        "release/pipeline": Path("release/pipeline.wink.toml"),
    }
    assert list(registry) == ["agents/plan", "agents/review", "release/pipeline"]


def test_the_first_file_keeps_an_address_two_files_claim(
    here: Path, catalog: PluginCatalog
) -> None:
    write(here, "a.wink.yaml", prompt("same", "First"))
    write(here, "b.wink.yaml", "ns: prompts\n" + prompt("same", "Second"))
    registry = PromptRegistry(".", catalog=catalog)
    assert registry.addresses() == {"prompts/same": Path("a.wink.yaml")}
    assert registry.get("prompts/same").template.nodes[0].section.title == "First"


def test_get_returns_the_compiled_prompt(registry: PromptRegistry) -> None:
    review = registry.get("agents/review")
    assert review.address == "agents/review"
    assert review.source == "agents/review.wink.yaml"
    assert registry.get("agents/review") is review


def test_an_unknown_address_suggests_a_close_one(registry: PromptRegistry) -> None:
    with pytest.raises(DiagnosticError) as info:
        registry.get("agents/reveiw")
    assert str(info.value) == (
        ".: error: No prompt 'agents/reveiw' under '.'. Did you mean 'agents/review'?"
    )
    assert render_text(info.value.diagnostics) == (
        ".: error: No prompt 'agents/reveiw' under '.'. Did you mean 'agents/review'?\n"
        "  expected: agents/plan, agents/review, release/pipeline"
    )
    assert [d.code for d in info.value.diagnostics] == ["unknown-prompt"]


def test_an_empty_root_has_no_prompts(here: Path, catalog: PluginCatalog) -> None:
    registry = PromptRegistry(here / "empty", catalog=catalog)
    assert registry.files() == []
    assert list(registry) == []
    with pytest.raises(DiagnosticError) as info:
        registry.get("agents/review")
    assert render_text(info.value.diagnostics) == (
        f"{here / 'empty'}: error: No prompt 'agents/review' under '{here / 'empty'}'.\n"
        "  expected: no prompts were found"
    )


def test_a_prompt_that_gained_errors_raises_them(registry: PromptRegistry) -> None:
    assert "agents/review" in registry.addresses()
    path = Path("agents/review.wink.yaml")
    rewrite(path, prompt("review", extra="    template: Hi $who.\n"))
    with pytest.raises(DiagnosticError) as info:
        registry.get("agents/review")
    assert render_text(info.value.diagnostics, registry.compile(path).sources) == (
        "agents/review.wink.yaml:5:18: error: Placeholder '$who' is not a declared param.\n"
        "  expected: a declared param (none are declared)\n"
        "   5 |     template: Hi $who.\n"
        "     |                  ^^^^\n"
        "  hint: declare 'who' under params:"
    )
    assert registry.addresses() == {
        "agents/plan": Path("agents/Plan.wink.YML"),
        "release/pipeline": Path("release/pipeline.wink.toml"),
    }


def test_the_cache_returns_the_same_result_while_nothing_changes(
    registry: PromptRegistry,
) -> None:
    path = Path("agents/review.wink.yaml")
    first = registry.compile(path)
    assert registry.compile(path) is first
    touch(path)  # same content, new time: the content hash says nothing changed
    assert registry.compile(path) is first
    assert registry.compile(path) is first


def test_a_modified_file_is_recompiled_and_readdressed(registry: PromptRegistry) -> None:
    path = Path("agents/review.wink.yaml")
    first = registry.compile(path)
    assert "agents/review" in registry.addresses()
    rewrite(path, prompt("critique"))
    second = registry.compile(path)
    assert second is not first
    assert compiled(second).address == "agents/critique"
    assert list(registry) == ["agents/critique", "agents/plan", "release/pipeline"]


def test_a_changed_included_file_invalidates_the_including_file(
    here: Path, catalog: PluginCatalog
) -> None:
    write(here, "common/tone.wink.yaml", prompt("tone", "Tone"))
    main = Path("main.wink.yaml")
    write(here, main.name, MAIN)
    registry = PromptRegistry(".", catalog=catalog)
    first = registry.compile(main)
    assert registry.compile(main) is first
    rewrite(here / "common/tone.wink.yaml", prompt("tone", "Voice"))
    second = registry.compile(main)
    assert second is not first
    assert compiled(second).template.nodes[0].section.title == "Voice"
    assert registry.compile(main) is second


def test_a_deleted_included_file_invalidates_the_including_file(
    here: Path, catalog: PluginCatalog
) -> None:
    tone = write(here, "common/tone.wink.yaml", prompt("tone", "Tone"))
    main = Path("main.wink.yaml")
    write(here, main.name, MAIN)
    registry = PromptRegistry(".", catalog=catalog)
    assert registry.compile(main).ok
    tone.unlink()
    assert report(registry.compile(main)) == (
        "main.wink.yaml:3:14: error: Included file 'common/tone.wink.yaml' does not exist.\n"
        "   3 |   - include: common/tone.wink.yaml#task\n"
        "     |              ^^^^^^^^^^^^^^^^^^^^^^^^^^"
    )


def test_a_missing_included_file_that_appears_is_picked_up(
    here: Path, catalog: PluginCatalog
) -> None:
    main = Path("main.wink.yaml")
    write(here, main.name, MAIN)
    registry = PromptRegistry(".", catalog=catalog)
    assert not registry.compile(main).ok
    write(here, "common/tone.wink.yaml", prompt("tone", "Tone"))
    assert registry.compile(main).ok


def test_a_broken_included_file_that_is_fixed_is_picked_up(
    here: Path, catalog: PluginCatalog
) -> None:
    tone = write(here, "common/tone.wink.yaml", "key: tone\nsections: [\n")
    main = Path("main.wink.yaml")
    write(here, main.name, MAIN)
    registry = PromptRegistry(".", catalog=catalog)
    assert not registry.compile(main).ok
    rewrite(tone, prompt("tone", "Tone"))
    assert registry.compile(main).ok


def test_a_deleted_file_is_reported_as_unreadable(registry: PromptRegistry) -> None:
    path = Path("agents/review.wink.yaml")
    assert registry.compile(path).ok
    path.unlink()
    result = registry.compile(path)
    assert report(result) == (
        "agents/review.wink.yaml: error: This file cannot be read: no such file or directory.\n"
        "  expected: a prompt file that exists and can be read\n"
        "  hint: check the path and the file's permissions"
    )
    with pytest.raises(DiagnosticError):
        registry.get("agents/review")


def test_a_folder_named_like_a_prompt_is_unreadable(here: Path, catalog: PluginCatalog) -> None:
    (here / "folder.wink.yaml").mkdir()
    registry = PromptRegistry(".", catalog=catalog)
    assert registry.files() == []
    result = registry.compile("folder.wink.yaml")
    assert [d.code for d in result.diagnostics] == ["unreadable"]
    assert registry.compile("folder.wink.yaml") is result


def test_a_file_outside_the_tree_compiles_with_the_roots_name(
    here: Path, catalog: PluginCatalog
) -> None:
    write(here, "tree/a.wink.yaml", prompt("a"))
    outside = write(here, "elsewhere/b.wink.yaml", prompt("b"))
    registry = PromptRegistry("tree", catalog=catalog)
    assert compiled(registry.compile(outside)).address == "tree/b"
    assert list(registry) == ["tree/a"]


def test_a_file_deleted_while_the_scan_reads_it_is_gone_not_broken(
    registry: PromptRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = Path("agents/review.wink.yaml")
    assert registry.get("agents/review").address == "agents/review"
    listed = registry.files()
    path.unlink()
    monkeypatch.setattr(registry, "files", lambda: listed)  # listed just before it went
    with pytest.raises(DiagnosticError) as raised:
        registry.get("agents/review")
    assert [d.code for d in raised.value.diagnostics] == ["unknown-prompt"]
