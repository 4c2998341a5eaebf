"""Lexical path normalisation shared by every ``Filesystem``."""

from __future__ import annotations

from wink_decl.runtime.filesystem._errors import FilesystemError, PathOutsideRootError

__all__ = ["ROOT", "normalise_path", "parent_of"]

ROOT = "."
"""The normalised name of the filesystem root."""


def normalise_path(path: str) -> str:
    """``path`` as a canonical relative POSIX path, without touching any storage.

    ``'a/./b/../c.txt'`` becomes ``'a/c.txt'`` and the root is ``'.'``. Backslashes
    are ordinary characters here; the host filesystem refuses them separately.
    """
    if not path:
        raise FilesystemError("Path must not be empty.", path=path)
    if path.startswith("/"):
        raise PathOutsideRootError(
            f"Path '{path}' must be relative to the filesystem root.", path=path
        )
    if "\0" in path:
        raise FilesystemError(f"Path {path!r} must not contain a NUL character.", path=path)
    parts: list[str] = []
    for part in path.split("/"):
        if part in {"", "."}:
            continue
        if part != "..":
            parts.append(part)
        elif parts:
            parts.pop()
        else:
            raise PathOutsideRootError(f"Path '{path}' is outside the filesystem root.", path=path)
    return "/".join(parts) or ROOT


def parent_of(key: str) -> str:
    """The normalised folder that holds the normalised path ``key`` (the root's is itself)."""
    head, _, _ = key.rpartition("/")
    return head or ROOT
