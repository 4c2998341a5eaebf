"""Filesystems tools reach through ``context.filesystem``: in memory, or confined on the host."""

from __future__ import annotations

from wink_decl.prompt.filesystem_protocol import Filesystem, FilesystemSnapshot
from wink_decl.runtime.filesystem._errors import (
    FileNotFoundInFilesystemError,
    FilesystemError,
    PathOutsideRootError,
)
from wink_decl.runtime.filesystem._host import HostFilesystem
from wink_decl.runtime.filesystem._memory import InMemoryFilesystem
from wink_decl.runtime.filesystem._readonly import ReadOnlyFilesystem

__all__ = [
    "FileNotFoundInFilesystemError",
    "Filesystem",
    "FilesystemError",
    "FilesystemSnapshot",
    "HostFilesystem",
    "InMemoryFilesystem",
    "PathOutsideRootError",
    "ReadOnlyFilesystem",
]
