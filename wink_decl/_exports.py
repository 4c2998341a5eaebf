"""A package's exports imported from their modules on first use (PEP 562), not with the package.

A command imports a package for one or two of its names; importing the modules behind all the
others would make every command pay for their start-up.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping

__all__ = ["exports_on_first_use"]


def exports_on_first_use(
    package: str, homes: Mapping[str, str]
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``, whose names live in ``homes``.

    ``homes`` maps each exported name to the module it is imported from; a name asked for
    once is kept in the package, so the next look-up does not come here.
    """

    def exported(name: str) -> object:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module '{package}' has no attribute '{name}'")
        value: object = getattr(importlib.import_module(home), name)
        vars(sys.modules[package])[name] = value
        return value

    def listed() -> list[str]:
        return sorted({*vars(sys.modules[package]), *homes})

    return exported, listed
