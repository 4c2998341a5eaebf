"""The errors a ``Filesystem`` raises: each names the path as the caller gave it."""

from __future__ import annotations

from wink_decl.errors import WinkDeclError

__all__ = ["FileNotFoundInFilesystemError", "FilesystemError", "PathOutsideRootError"]


class FilesystemError(WinkDeclError):
    """A filesystem operation was refused or failed; ``message`` is ``str(error)``."""

    def __init__(self, message: str, *, path: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.path = path


class PathOutsideRootError(FilesystemError, ValueError):
    """The path is absolute, climbs out with ``..`` or resolves through a symlink outside."""


class FileNotFoundInFilesystemError(FilesystemError, LookupError):
    """The file or folder the operation needs does not exist."""
