"""The loader: YAML or TOML prompt files -> plain data and a span for every key and value.

Every mistake in a file comes back as a :class:`~wink_decl.diagnostics.Diagnostic` with its
place in the file; nothing in the text can raise. Other kinds of file read alike (override
files, params files) are worded by their :class:`FileKind`.
"""

from wink_decl.loader._encoding import decode, quotable_text
from wink_decl.loader._source_map import JSONPath, SourceMap
from wink_decl.loader.api import (
    LoadedFile,
    LoadResult,
    detect_format,
    load_file,
    load_text,
    read_bytes,
    read_problem,
    read_stamped,
)
from wink_decl.loader.file_kinds import PROMPT_FILE, FileKind, Holds
from wink_decl.loader.limit_diagnostics import Limits
from wink_decl.loader.regular_files import FileTooLargeError, NotAFileError

__all__ = [
    "PROMPT_FILE",
    "FileKind",
    "FileTooLargeError",
    "Holds",
    "JSONPath",
    "Limits",
    "LoadResult",
    "LoadedFile",
    "NotAFileError",
    "SourceMap",
    "decode",
    "detect_format",
    "load_file",
    "load_text",
    "quotable_text",
    "read_bytes",
    "read_problem",
    "read_stamped",
]
