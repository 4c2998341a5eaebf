"""``PluginCatalog.refresh``: a long-running process sees plugins installed or removed since."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from concurrency import run_threads
from plugin_support import MemoryDistribution, install_fresh_plugin, moved_on

from wink_decl.compiler import CompileResult, PromptRegistry
from wink_decl.compiler import registry as registry_module
from wink_decl.diagnostics import render_text
from wink_decl.plugins import HANDLERS, PluginCatalog, PluginEntry, PluginProblem

NEW = PluginEntry(HANDLERS, "fresh.lookup", "fresh_plugin:lookup", "fresh-plugin", "1.0")
UNKNOWN = PluginProblem(
    code="unknown-plugin",
    message="No handler named 'fresh.lookup' is installed.",
    hint="Run 'wink-decl plugins' to list what is installed.",
)


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty folder on ``sys.path``, where the test installs; its module forgotten after."""
    folder = tmp_path / "site"
    folder.mkdir()
    monkeypatch.syspath_prepend(folder)  # pyright: ignore[reportUnknownMemberType]
    yield folder
    sys.modules.pop("fresh_plugin", None)


def test_a_plugin_installed_after_the_first_read_is_seen_after_refresh(site: Path) -> None:
    catalog = PluginCatalog()
    assert catalog.resolve(HANDLERS, "fresh.lookup") == UNKNOWN
    assert (catalog.refresh(), catalog.generation) == (False, 0)  # nothing installed since
    install_fresh_plugin(site)
    assert catalog.resolve(HANDLERS, "fresh.lookup") == UNKNOWN  # read once, kept
    assert (catalog.refresh(), catalog.generation) == (True, 1)
    entry = catalog.resolve(HANDLERS, "fresh.lookup")
    assert entry == NEW
    assert callable(catalog.load(NEW))
    assert (catalog.refresh(), catalog.generation) == (False, 1)


def test_a_plugin_removed_is_gone_after_refresh_and_what_stays_stays_loaded(
    site: Path,
) -> None:
    install_fresh_plugin(site)
    catalog = PluginCatalog()
    planning = catalog.entries(HANDLERS, "planning.read_plan")[0]
    read_plan = catalog.load(planning)
    assert callable(catalog.load(NEW))
    shutil.rmtree(site / "fresh_plugin-1.0.dist-info")
    moved_on(site)
    assert (catalog.refresh(), catalog.generation) == (True, 1)
    assert catalog.resolve(HANDLERS, "fresh.lookup") == UNKNOWN
    assert catalog._loaded == {planning: read_plan}  # pyright: ignore[reportPrivateUsage]


def test_a_change_that_adds_no_plugin_leaves_the_catalog_as_it_was(site: Path) -> None:
    catalog = PluginCatalog()
    fingerprint = catalog.fingerprint()
    (site / "unrelated.txt").write_text("not a distribution\n", encoding="utf-8")
    moved_on(site)
    assert (catalog.refresh(), catalog.generation) == (False, 0)
    assert catalog.fingerprint() == fingerprint


def test_a_catalog_never_read_has_nothing_to_refresh() -> None:
    catalog = PluginCatalog()
    assert (catalog.refresh(), catalog.generation) == (False, 0)
    assert "planning.read_plan" in catalog.names(HANDLERS)


def test_threads_refreshing_and_resolving_at_once_see_one_plugin_set_or_the_next(
    site: Path,
) -> None:
    catalog = PluginCatalog()
    assert catalog.resolve(HANDLERS, "fresh.lookup") == UNKNOWN
    install_fresh_plugin(site)

    def body(thread: int) -> object:
        if thread % 2:
            return catalog.refresh()
        return catalog.resolve(HANDLERS, "fresh.lookup")

    seen = run_threads(body, threads=16)
    refreshed = seen[1::2]
    assert (refreshed.count(True), refreshed.count(False)) == (1, 7)  # one thread read again
    assert all(found in (UNKNOWN, NEW) for found in seen[::2])
    assert (catalog.resolve(HANDLERS, "fresh.lookup"), catalog.generation) == (NEW, 1)


class UpgradableDistribution(MemoryDistribution):
    """A distribution in memory that can be upgraded in place."""

    def upgrade(self, version: str, points: dict[str, str]) -> None:
        super().__init__("plug-a", version, {HANDLERS: points})


def test_a_catalog_of_given_distributions_reads_them_again() -> None:
    plugin = UpgradableDistribution("plug-a", "1.0", {HANDLERS: {"a.run": "plug_a:run"}})
    catalog = PluginCatalog(distributions=[plugin])
    assert catalog.names(HANDLERS) == ("a.run",)
    assert catalog.refresh() is False
    plugin.upgrade("1.1", {"a.run": "plug_a:run", "a.stop": "plug_a:stop"})
    assert catalog.refresh() is True
    assert catalog.names(HANDLERS) == ("a.run", "a.stop")
    assert catalog.entries(HANDLERS, "a.run")[0].version == "1.1"


# -- a registry compiling with the catalog ---------------------------------------------------

TOOL_PROMPT = """\
key: a
sections:
  - key: task
    title: Task
    template: Look it up.
    tools: [lookup]
tools:
  lookup:
    description: Look something up.
    handler: fresh.lookup
"""
NOT_INSTALLED = """\
a.wink.yaml:10:14: error: No handler named 'fresh.lookup' is installed.
  10 |     handler: fresh.lookup
     |              ^^^^^^^^^^^^
  hint: run 'wink-decl plugins' to list what is installed"""


def report(result: CompileResult) -> str:
    return render_text(result.diagnostics, result.sources)


@pytest.fixture
def prompts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A prompt folder, made the working directory, holding one prompt naming the handler."""
    folder = tmp_path / "prompts"
    folder.mkdir()
    (folder / "a.wink.yaml").write_text(TOOL_PROMPT, encoding="utf-8")
    monkeypatch.chdir(folder)
    return folder


@pytest.mark.parametrize("cache", [False, True], ids=["in memory", "on disk too"])
def test_a_registry_compiles_again_once_its_catalog_finds_a_plugin_installed(
    site: Path, prompts: Path, *, cache: bool
) -> None:
    catalog = PluginCatalog()
    registry = PromptRegistry(
        ".", catalog=catalog, cache_dir=prompts.parent / "cache" if cache else None
    )
    assert report(registry.compile("a.wink.yaml")) == NOT_INSTALLED
    install_fresh_plugin(site)
    assert report(registry.compile("a.wink.yaml")) == NOT_INSTALLED  # until a refresh
    assert catalog.refresh()
    assert registry.compile("a.wink.yaml").ok
    assert registry.check("a.wink.yaml").ok
    assert registry.get("prompts/a").address == "prompts/a"


def test_a_compile_during_which_the_plugins_changed_is_not_kept_on_disk(
    site: Path, prompts: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    catalog = PluginCatalog()
    cache = prompts.parent / "cache"
    real = registry_module.compile_file

    def installing_meanwhile(path: str, **options: object) -> CompileResult:
        result = real(path, **options)  # pyright: ignore[reportArgumentType]
        install_fresh_plugin(site)
        assert catalog.refresh()
        return result

    monkeypatch.setattr(registry_module, "compile_file", installing_meanwhile)
    assert report(PromptRegistry(".", catalog=catalog, cache_dir=cache).compile("a.wink.yaml")) == (
        NOT_INSTALLED
    )
    monkeypatch.setattr(registry_module, "compile_file", real)
    # Stored under the new plugins, it would be read back as what they give:
    assert PromptRegistry(".", catalog=catalog, cache_dir=cache).check("a.wink.yaml").ok
