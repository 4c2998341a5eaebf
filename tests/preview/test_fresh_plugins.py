"""A plugin installed while the preview runs is seen by the next request, without a restart."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from plugin_support import install_fresh_plugin

from wink_decl.compiler import default_catalog
from wink_decl.preview.files import PromptFolder
from wink_decl.preview.page import PageState, prompt_view

FRESH = """\
key: fresh
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


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder on ``sys.path`` to install into; the default catalog read afresh around it."""
    folder = tmp_path / "site"
    folder.mkdir()
    monkeypatch.syspath_prepend(folder)  # pyright: ignore[reportUnknownMemberType]
    default_catalog.cache_clear()
    yield folder
    default_catalog.cache_clear()  # later tests must not see the plugin
    sys.modules.pop("fresh_plugin", None)


def test_the_file_list_sees_a_plugin_installed_since_the_last_listing(
    served: Path, site: Path
) -> None:
    (served / "fresh.wink.yaml").write_text(FRESH, encoding="utf-8")
    folder = PromptFolder(served, served)
    problems = {entry.name: [d.message for d in entry.problems] for entry in folder.listing()}
    assert problems["fresh.wink.yaml"] == ["No handler named 'fresh.lookup' is installed."]
    install_fresh_plugin(site)
    problems = {entry.name: [d.message for d in entry.problems] for entry in folder.listing()}
    assert problems["fresh.wink.yaml"] == []


def test_the_page_renders_with_a_plugin_installed_since_the_last_render(
    served: Path, site: Path
) -> None:
    path = served / "fresh.wink.yaml"
    path.write_text(FRESH, encoding="utf-8")
    folder = PromptFolder(served, served)
    before = prompt_view(folder, path, PageState({}, ()))
    assert ([d.message for d in before.problems], before.text) == (
        ["No handler named 'fresh.lookup' is installed."],
        None,
    )
    install_fresh_plugin(site)
    after = prompt_view(folder, path, PageState({}, ()))
    assert (after.problems, after.text) == ((), "## 1. Task (task)\n\nLook it up.")
    assert [tool["name"] for tool in after.tools["anthropic"]] == ["lookup"]
