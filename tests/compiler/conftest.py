"""Fixtures for the compiler tests: a prompt folder to work in, and the synthetic plugins."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import compiler_plugins
import pytest
from compiler_support import make_catalog

from wink_decl.plugins import PluginCatalog


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``<tmp>/prompts``, made the working directory, so reports show short relative paths."""
    folder = tmp_path / "prompts"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


@pytest.fixture
def catalog() -> PluginCatalog:
    """A fresh catalog of the test plugins (nothing imported yet)."""
    return make_catalog()


@pytest.fixture(autouse=True)
def forget_predicate_calls() -> Iterator[None]:
    compiler_plugins.recorded.clear()
    yield
    compiler_plugins.recorded.clear()
