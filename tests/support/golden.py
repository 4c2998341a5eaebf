"""The switch that rewrites golden files: ``WINK_UPDATE_GOLDEN=1``.

Every test that compares output with a file kept in the repository (``tests/cases``,
``tests/golden``, ``tests/cli/golden``) asks ``updating_golden()`` before comparing, so one
setting means the same to all of them.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

__all__ = ["SWITCH", "updating_golden"]

SWITCH = "WINK_UPDATE_GOLDEN"
"""The environment variable."""

_ON = frozenset({"1", "true", "yes"})
_OFF = frozenset({"", "0", "false", "no"})


def updating_golden(environ: Mapping[str, str] | None = None) -> bool:
    """True when ``WINK_UPDATE_GOLDEN`` asks for golden files to be rewritten.

    ``1``, ``true`` and ``yes`` (in any case) switch it on; unset, empty, ``0``, ``false`` and
    ``no`` leave it off. Anything else is refused rather than guessed: a mistyped value must
    neither rewrite the files nor pass for off.
    """
    value = (os.environ if environ is None else environ).get(SWITCH, "").strip().lower()
    if value in _ON:
        return True
    if value in _OFF:
        return False
    raise ValueError(f"{SWITCH}={value!r}: use 1, true or yes to rewrite golden files, else 0")
