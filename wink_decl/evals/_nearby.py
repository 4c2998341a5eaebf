"""Did-you-mean for a file an eval file names that does not exist: its nearest sibling."""

from __future__ import annotations

import os
from pathlib import Path

from wink_decl.suggestions import close_matches

__all__ = ["nearby"]


def nearby(written: str, path: str, suffixes: tuple[str, ...]) -> str | None:
    """``did you mean 'x'?`` for the file beside ``path`` named closest to it, or None.

    ``written`` is the path as the file wrote it: the suggestion is written the same way.
    Only files whose names end in one of ``suffixes`` are suggested.
    """
    missing = Path(path)
    try:
        siblings = [p.name for p in missing.parent.iterdir() if p.name.lower().endswith(suffixes)]
    except OSError:
        return None
    found = close_matches(missing.name, siblings, most=1)
    if not found:
        return None
    return f"did you mean '{os.path.join(os.path.dirname(written), found[0])}'?"  # noqa: PTH118, PTH120  # as written
