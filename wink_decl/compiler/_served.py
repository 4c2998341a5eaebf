"""Files a registry never serves by address: another file under its root has that address.

The registry's rule (docs/runtime.md) in one place, for ``validate`` and every front end that
lists prompts by address. Light on purpose: validate imports it, not the registry.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from wink_decl.compiler._prompt_files import listing_order
from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic

__all__ = ["unserved_files"]


def unserved_files(found: Iterable[tuple[str, str]], root: str | Path) -> list[Diagnostic]:
    """A warning for each file the registry at ``root`` never serves: another has its address.

    ``found`` holds files under ``root`` that compile, each with its address. Of the files
    with one address, a registry serves the first in sorted order (``addresses``, ``get``),
    whichever order they come in here; each other one is reachable only by its path. Linear:
    only files that share an address are placed in that order.
    """
    by_address: dict[str, list[str]] = {}
    for path, address in found:
        by_address.setdefault(address, []).append(path)
    unserved: list[Diagnostic] = []
    real_root = os.path.realpath(root)
    for address, paths in by_address.items():
        if len(paths) > 1:
            served = min(paths, key=lambda path: _listed_as(path, real_root))
            unserved.extend(_unserved(path, address, served) for path in paths if path != served)
    return unserved


def _listed_as(path: str, real_root: str) -> list[str]:
    """Where a listing of the root puts ``path``: by its name under the root (not a link's)."""
    folder, name = os.path.split(path)
    real = os.path.join(os.path.realpath(folder or os.curdir), name)  # noqa: PTH118
    return listing_order(os.path.relpath(real, real_root))


def _unserved(path: str, address: str, served: str) -> Diagnostic:
    return Diagnostic(
        f"Prompt '{address}' is served from '{served}', which has the same address; this file "
        "is reached only by its path.",
        None,
        DiagnosticCode.DUPLICATE_ADDRESS,
        severity="warning",
        hint="give this file a key: (or ns:) of its own, or delete the one of the two not in use",
        path=path,
    )
