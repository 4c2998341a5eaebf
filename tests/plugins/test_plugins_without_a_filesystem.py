"""Every bundled plugin handler, on a prompt without a Filesystem resource: an error result.

``ToolContext.filesystem`` is None then; each handler says so instead of failing with an
AttributeError. The handlers are loaded through the catalog from each package's pyproject.
"""

from __future__ import annotations

import importlib
import sys
import tomllib
from collections.abc import Iterator
from typing import Any, cast

import pytest
from plugin_support import PLUGINS, MemoryDistribution

from wink_decl import Prompt, PromptTemplate, Session, ToolContext, ToolHandler, ToolResult
from wink_decl.plugins import HANDLERS, PluginCatalog, PluginEntry, handler_params_type

FILE_TOOLS = (
    "No filesystem is attached to this prompt: the file tools need a Filesystem resource "
    "(such as HostFilesystem) in the prompt's resources."
)
RELEASE_STEPS = (
    "No filesystem is attached to this prompt: the release steps need a Filesystem resource "
    "(such as HostFilesystem) in the prompt's resources."
)
PACKAGES = {
    # folder under plugins/: (the folder its modules are imported from, their top-level name)
    "wink-decl-files": ("src", "wink_decl_files"),
    "wink-decl-files-fork": ("src", "wink_decl_files_fork"),
    "wink-decl-release": (".", "wink_decl_release"),
}


def catalog_of(folder: str, monkeypatch: pytest.MonkeyPatch) -> PluginCatalog:
    """The package's own registrations, importable from its source folder."""
    source, _ = PACKAGES[folder]
    monkeypatch.setattr(sys, "path", [str(PLUGINS / folder / source), *sys.path])
    importlib.invalidate_caches()
    groups = {HANDLERS: registered(folder)}
    return PluginCatalog(distributions=[MemoryDistribution(folder, "0", groups)])


@pytest.fixture(autouse=True)
def forget_the_plugin_modules() -> Iterator[None]:
    """Each test imports from the folder it names, not from a copy another test imported."""
    yield
    tops = {top for _, top in PACKAGES.values()}
    for name in [name for name in sys.modules if name.partition(".")[0] in tops]:
        del sys.modules[name]


CASES: list[tuple[str, str, dict[str, str], str]] = [
    ("wink-decl-files", "files.read_file", {"path": "a.txt"}, FILE_TOOLS),
    ("wink-decl-files", "files.write_file", {"path": "a.txt", "text": "x"}, FILE_TOOLS),
    (
        "wink-decl-files",
        "files.edit_file",
        {"path": "a.txt", "old_text": "x", "new_text": "y"},
        FILE_TOOLS,
    ),
    ("wink-decl-files", "files.list_dir", {}, FILE_TOOLS),
    ("wink-decl-files-fork", "files.read_file", {"path": "a.txt"}, FILE_TOOLS),
    ("wink-decl-release", "release.lint", {}, RELEASE_STEPS),
    ("wink-decl-release", "release.test", {}, RELEASE_STEPS),
    ("wink-decl-release", "release.build", {"version": "1.0"}, RELEASE_STEPS),
    ("wink-decl-release", "release.deploy", {"version": "1.0"}, RELEASE_STEPS),
]
"""(package folder, entry point, arguments, the error): every handler the packages register."""


def registered(folder: str) -> dict[str, str]:
    project: dict[str, Any] = tomllib.loads(
        (PLUGINS / folder / "pyproject.toml").read_text(encoding="utf-8")
    )["project"]
    return project["entry-points"][HANDLERS]


@pytest.mark.parametrize(
    ("folder", "name", "arguments", "message"),
    CASES,
    ids=[f"{folder.removeprefix('wink-decl-')}-{name}" for folder, name, _, _ in CASES],
)
def test_a_handler_without_a_filesystem_returns_an_error(
    folder: str,
    name: str,
    arguments: dict[str, str],
    message: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    catalog = catalog_of(folder, monkeypatch)
    entry = catalog.resolve(HANDLERS, name)
    assert isinstance(entry, PluginEntry)
    handler = cast("ToolHandler[Any, Any]", catalog.load(entry))
    params_type = handler_params_type(handler)
    assert params_type is not None
    prompt: Prompt[Any] = Prompt(PromptTemplate(ns="tests", key="bare"))  # no resources
    context = ToolContext(prompt=prompt, rendered_prompt=None, adapter=None, session=Session())
    assert context.filesystem is None
    result: ToolResult[Any] = handler(params_type(**arguments), context=context)
    assert (result.success, result.message, result.value) == (False, message, None)


def test_the_cases_cover_every_registered_handler() -> None:
    assert sorted((folder, name) for folder, name, _, _ in CASES) == sorted(
        (folder, name) for folder in PACKAGES for name in registered(folder)
    )
