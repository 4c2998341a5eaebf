"""wink-decl-files: ``read_file``, ``write_file``, ``edit_file`` and ``list_dir`` tools.

Installing the package is all the wiring there is: its entry points (group
``wink_decl.handlers``) name ``files.read_file``, ``files.write_file``, ``files.edit_file`` and
``files.list_dir``.
"""

from wink_decl_files.handlers import (
    NO_FILESYSTEM,
    EditFileParams,
    EditFileResult,
    ListDirParams,
    ListDirResult,
    ReadFileParams,
    ReadFileResult,
    WriteFileParams,
    WriteFileResult,
    edit_file,
    list_dir,
    read_file,
    write_file,
)

__all__ = [
    "NO_FILESYSTEM",
    "EditFileParams",
    "EditFileResult",
    "ListDirParams",
    "ListDirResult",
    "ReadFileParams",
    "ReadFileResult",
    "WriteFileParams",
    "WriteFileResult",
    "edit_file",
    "list_dir",
    "read_file",
    "write_file",
]
