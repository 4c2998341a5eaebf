"""The package's loggers: all under ``wink_decl``, which prints nothing unless configured."""

from __future__ import annotations

import logging

__all__ = ["PACKAGE_LOGGER", "package_logger"]

PACKAGE_LOGGER = logging.getLogger("wink_decl")
"""The parent of every logger of the package: where an application attaches its handler."""
# A library leaves its output to the application (docs/runtime.md, "Logging"): without a
# handler here, Python's last resort would print every warning, traceback included, on stderr.
PACKAGE_LOGGER.addHandler(logging.NullHandler())


def package_logger(name: str) -> logging.Logger:
    """The logger ``wink_decl.<name>``, under the package's logger and its ``NullHandler``."""
    return PACKAGE_LOGGER.getChild(name)
