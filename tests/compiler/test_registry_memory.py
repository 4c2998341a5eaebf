"""PromptRegistry keeps in memory what the files that exist need, and forgets the files gone."""

from __future__ import annotations

import gc
from pathlib import Path

from compiler_support import compiled, prompt, write

from wink_decl.compiler import PromptRegistry
from wink_decl.plugins import PluginCatalog


def kept(registry: PromptRegistry) -> dict[str, list[str]]:
    """The files each of the registry's per-file tables holds, sorted."""
    gc.collect()  # a lock nobody holds is gone at once in CPython; this makes it certain
    tables = {
        "cache": registry._cache,  # pyright: ignore[reportPrivateUsage]
        "claims": registry._claims,  # pyright: ignore[reportPrivateUsage]
        "locks": registry._locks,  # pyright: ignore[reportPrivateUsage]
        "index": {str(path): None for path in registry._index.values()},  # pyright: ignore[reportPrivateUsage]
    }
    return {name: sorted(table) for name, table in tables.items()}


def test_a_file_asked_for_after_it_was_deleted_is_forgotten(
    here: Path, catalog: PluginCatalog
) -> None:
    path = write(here, "a.wink.yaml", prompt("a"))
    registry = PromptRegistry(".", catalog=catalog)
    assert registry.compile("a.wink.yaml").ok
    assert kept(registry)["cache"] == ["a.wink.yaml"]
    path.unlink()
    assert [d.code for d in registry.compile("a.wink.yaml").diagnostics] == ["unreadable"]
    assert kept(registry) == {"cache": [], "claims": [], "locks": [], "index": []}


def test_a_scan_forgets_the_files_deleted_since_and_keeps_those_outside_the_listing(
    here: Path, catalog: PluginCatalog
) -> None:
    for name in ("a", "b", "c"):
        write(here, f"tree/{name}.wink.yaml", prompt(name))
    write(here, "elsewhere/d.wink.yaml", prompt("d"))
    (here / "tree/folder.wink.yaml").mkdir()
    registry = PromptRegistry("tree", catalog=catalog)
    assert list(registry) == ["tree/a", "tree/b", "tree/c"]
    assert registry.compile("elsewhere/d.wink.yaml").ok
    assert not registry.compile("tree/folder.wink.yaml").ok  # exists, though not a file
    (here / "tree/a.wink.yaml").unlink()
    (here / "tree/b.wink.yaml").rename(here / "tree/e.wink.yaml")

    assert list(registry) == ["tree/b", "tree/c"]

    assert kept(registry) == {
        "cache": [
            "elsewhere/d.wink.yaml",
            "tree/c.wink.yaml",
            "tree/e.wink.yaml",
            "tree/folder.wink.yaml",
        ],
        "claims": [],
        "locks": [],
        "index": ["tree/c.wink.yaml", "tree/e.wink.yaml"],
    }


def test_files_that_come_and_go_for_ever_keep_the_registry_the_same_size(
    here: Path, catalog: PluginCatalog
) -> None:
    """Each round adds a prompt with a new name and address and deletes the one before:
    before, every table grew by one entry a round."""
    registry = PromptRegistry(".", catalog=catalog)
    write(here, "p0.wink.yaml", prompt("p0"))
    for n in range(1, 200):
        write(here, f"p{n}.wink.yaml", prompt(f"p{n}"))
        (here / f"p{n - 1}.wink.yaml").unlink()
        assert compiled(registry.compile(f"p{n}.wink.yaml")).address == f"prompts/p{n}"
        assert registry.get(f"prompts/p{n}").address == f"prompts/p{n}"
    assert kept(registry) == {
        "cache": ["p199.wink.yaml"],
        "claims": ["p199.wink.yaml"],
        "locks": [],
        "index": ["p199.wink.yaml"],
    }


def test_a_file_read_only_for_its_address_is_forgotten_once_deleted(
    here: Path, catalog: PluginCatalog
) -> None:
    write(here, "a.wink.yaml", prompt("a"))
    write(here, "b.wink.yaml", prompt("b"))
    registry = PromptRegistry(".", catalog=catalog)
    assert registry.get("prompts/b").address == "prompts/b"  # reads a's address, no more
    assert kept(registry)["claims"] == ["a.wink.yaml", "b.wink.yaml"]
    assert kept(registry)["cache"] == ["b.wink.yaml"]
    (here / "a.wink.yaml").unlink()
    write(here, "c.wink.yaml", prompt("c"))
    assert registry.get("prompts/c").address == "prompts/c"
    assert kept(registry) == {
        "cache": ["b.wink.yaml", "c.wink.yaml"],
        "claims": ["b.wink.yaml", "c.wink.yaml"],
        "locks": [],
        "index": ["b.wink.yaml", "c.wink.yaml"],
    }
