"""The catalog reads package metadata on its first look-up, not when it is made.

Checking a file that names no plugin never pays for reading every installed distribution.
"""

from __future__ import annotations

import json
import subprocess
import sys

from plugin_support import MemoryDistribution

from wink_decl.plugins import HANDLERS, PluginCatalog


class CountingDistribution(MemoryDistribution):
    """A distribution that counts how often its entry points are read."""

    reads = 0

    def read_text(self, filename: str) -> str | None:
        if filename == "entry_points.txt":
            CountingDistribution.reads += 1
        return super().read_text(filename)


def test_metadata_is_read_on_the_first_look_up_and_only_then() -> None:
    CountingDistribution.reads = 0
    plugin = CountingDistribution("plug-a", "1.0", {HANDLERS: {"a.run": "plug_a:run"}})
    catalog = PluginCatalog(distributions=[plugin])
    assert CountingDistribution.reads == 0
    assert catalog.names(HANDLERS) == ("a.run",)
    assert catalog.entries(HANDLERS, "a.run")[0].reference == "a.run@plug-a"
    assert CountingDistribution.reads == 1


SCAN = """
import json, sys
from wink_decl.plugins import PluginCatalog
catalog = PluginCatalog()
before = "importlib.metadata" in sys.modules
names = catalog.names("wink_decl.handlers")
print(json.dumps([before, "importlib.metadata" in sys.modules, "planning.read_plan" in names]))
"""


def test_the_installed_catalog_imports_importlib_metadata_when_first_asked() -> None:
    completed = subprocess.run(  # our own interpreter, fixed arguments
        [sys.executable, "-c", SCAN], capture_output=True, text=True, check=True
    )
    assert json.loads(completed.stdout) == [False, True, True]
