"""wink-decl-files: ``read_file``, ``write_file`` and ``list_dir`` tools for wink-decl prompts.

Installing the package is all the wiring there is: its entry points (group
``wink_decl.handlers``) name ``files.read_file``, ``files.write_file`` and ``files.list_dir``.
"""

from wink_decl_files.handlers import (
    ListDirParams,
    ListDirResult,
    ReadFileParams,
    ReadFileResult,
    WriteFileParams,
    WriteFileResult,
    list_dir,
    read_file,
    write_file,
)

__all__ = [
    "ListDirParams",
    "ListDirResult",
    "ReadFileParams",
    "ReadFileResult",
    "WriteFileParams",
    "WriteFileResult",
    "list_dir",
    "read_file",
    "write_file",
]
