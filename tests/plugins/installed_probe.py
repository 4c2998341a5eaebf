"""Run inside a fresh venv holding wink-decl, wink-decl-files and wink-decl-files-fork.

Prints one JSON object describing what the real entry-point machinery found and did; the
test ``test_installed_plugins.py`` compares it whole.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path
from typing import Any, cast

import wink_decl
from wink_decl import InMemoryFilesystem, Prompt, PromptTemplate, Session, ToolContext, ToolHandler
from wink_decl.plugins import (
    HANDLERS,
    PluginCatalog,
    PluginEntry,
    PluginProblem,
    check_handler,
    handler_params_type,
    handler_result_type,
)


def outcome(found: PluginEntry | PluginProblem) -> dict[str, Any]:
    """The entry or problem as JSON, tagged with which it is."""
    return {"kind": type(found).__name__, **dataclasses.asdict(found)}


def call(handler: ToolHandler[Any, Any], path: str) -> dict[str, Any]:
    """Call ``handler`` on one file of an in-memory filesystem through a real ToolContext."""
    filesystem = InMemoryFilesystem({"notes.txt": "one\ntwo\n"})
    prompt: Prompt[Any] = Prompt(PromptTemplate(ns="probe", key="files"), resources=[filesystem])
    context = ToolContext(prompt=prompt, rendered_prompt=None, adapter=None, session=Session())
    params_type = handler_params_type(handler)
    assert params_type is not None
    result = handler(params_type(path=path), context=context)
    return {"success": result.success, "message": result.message, "value": result.render()}


def main() -> None:
    """Build the catalog from the installed environment and exercise it."""
    catalog = PluginCatalog()
    chosen = catalog.resolve(HANDLERS, "files.read_file@wink-decl-files")
    fork = catalog.resolve(HANDLERS, "files.read_file@wink_decl_files_fork")
    assert isinstance(chosen, PluginEntry)
    assert isinstance(fork, PluginEntry)
    handler = cast("ToolHandler[Any, Any]", catalog.load(chosen))
    fork_handler = cast("ToolHandler[Any, Any]", catalog.load(fork))
    result_type = handler_result_type(handler)
    report = {
        "wink_decl_in_venv": Path(wink_decl.__file__).is_relative_to(sys.prefix),
        "handlers": list(catalog.names(HANDLERS)),
        "conflicts": {
            name: [entry.reference for entry in entries]
            for name, entries in catalog.conflicts(HANDLERS).items()
        },
        "ambiguous": outcome(catalog.resolve(HANDLERS, "files.read_file")),
        "chosen": outcome(chosen),
        "fork": outcome(fork),
        "loaded_once": catalog.load(chosen) is handler,
        "check": check_handler(handler, name="read_file", entry=chosen),
        "result_type": result_type.__qualname__ if result_type else None,
        "read": call(handler, "docs/../notes.txt"),
        "missing": call(handler, "missing.txt"),
        "fork_read": call(fork_handler, "notes.txt"),
    }
    sys.stdout.write(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
