"""One way to name a place in a JSON-like document: the path type and how it is written."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["JSONPath", "PathSegment", "format_path"]

PathSegment = str | int
"""A mapping key or a list index."""

JSONPath = tuple[PathSegment, ...]
"""Keys and list indexes from the document root: ``("sections", 0, "title")``."""


def format_path(path: Sequence[PathSegment]) -> str:
    """The path as messages write it: ``steps[1].title``."""
    parts: list[str] = []
    for segment in path:
        if isinstance(segment, int):
            parts.append(f"[{segment}]")
        else:
            parts.append(f".{segment}" if parts else segment)
    return "".join(parts)
