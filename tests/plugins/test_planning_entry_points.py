"""wink-decl's own planning tools are found in the installed environment like any plugin."""

from __future__ import annotations

import importlib.metadata

import pytest

from wink_decl.plugins import (
    HANDLERS,
    PluginCatalog,
    PluginEntry,
    check_handler,
    handler_params_type,
    handler_result_type,
)
from wink_decl.runtime.planning import PLANNING_TOOLS

PLANNING = {f"planning.{tool.name.removeprefix('planning_')}": tool for tool in PLANNING_TOOLS}


@pytest.fixture(scope="module")
def installed() -> PluginCatalog:
    return PluginCatalog()


def test_the_four_planning_handlers_are_installed(installed: PluginCatalog) -> None:
    assert sorted(PLANNING) == [
        "planning.add_step",
        "planning.read_plan",
        "planning.setup_plan",
        "planning.update_step",
    ]
    assert set(PLANNING) <= set(installed.names(HANDLERS))


@pytest.mark.parametrize("name", sorted(PLANNING))
def test_each_planning_entry_point_loads_the_tools_handler(
    installed: PluginCatalog, name: str
) -> None:
    tool = PLANNING[name]
    entry = installed.resolve(HANDLERS, name)
    assert isinstance(entry, PluginEntry)
    assert (entry.distribution, entry.version) == (
        "wink-decl",
        importlib.metadata.version("wink-decl"),
    )
    assert entry.value == (
        f"wink_decl.runtime.planning.tools:{name.removeprefix('planning.').upper()}_TOOL.handler"
    )
    loaded = installed.load(entry)
    assert loaded is tool.handler
    assert check_handler(loaded, name=tool.name, entry=entry) is None
    assert (handler_params_type(loaded), handler_result_type(loaded)) == (
        tool.params_type,
        tool.result_type,
    )
