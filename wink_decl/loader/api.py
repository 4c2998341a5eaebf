"""Load a prompt file: text -> plain data and a source map, or every problem with its place."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Literal

from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, sort_diagnostics
from wink_decl.loader._encoding import decode, quotable_text
from wink_decl.loader._loaded import Loaded
from wink_decl.loader._source_map import SourceMap
from wink_decl.loader.file_kinds import PROMPT_FILE, FileKind
from wink_decl.loader.limit_diagnostics import Limits, too_many_bytes
from wink_decl.loader.regular_files import FileTooLargeError, NotAFileError, read_capped

Format = Literal["yaml", "toml"]

_SUFFIXES: dict[str, Format] = {".yaml": "yaml", ".yml": "yaml", ".toml": "toml"}


@dataclass(frozen=True, slots=True, init=False)
class LoadedFile:
    """One prompt file, read: its text, its plain data and where each value was written.

    ``data`` is JSON data only: ``dict[str, ...]`` in file order, ``list``, ``str``, ``int``,
    ``float``, ``bool`` and ``None``; dates stay the text they were written as.
    """

    path: str
    text: str
    format: Format
    data: object
    source_map: SourceMap
    has_numbers: bool = True
    """False when the loader found no number in ``data`` (True: there may be some)."""
    bad_numbers: bool = True
    """False when the loader found no number that JSON cannot carry or that does not fit in
    64 bits (True: there may be one)."""

    def __init__(  # the dataclass's own fields, in order, with their defaults
        self,
        path: str,
        text: str,
        format: Format,  # noqa: A002 - the field's name
        data: object,
        source_map: SourceMap,
        has_numbers: bool = True,
        bad_numbers: bool = True,
    ) -> None:
        # Frozen: each field is set by its slot, not through ``__setattr__`` by name (every
        # file loaded makes one of these).
        _set_path(self, path)
        _set_text(self, text)
        _set_format(self, format)
        _set_data(self, data)
        _set_source_map(self, source_map)
        _set_has_numbers(self, has_numbers)
        _set_bad_numbers(self, bad_numbers)


@dataclass(frozen=True, slots=True, init=False)
class LoadResult:
    """A loaded file, or None with every problem found (sorted by line and column)."""

    file: LoadedFile | None
    diagnostics: tuple[Diagnostic, ...]
    text: str | None = None
    """The text as read, to quote lines from in a report even when the file did not load
    (bytes that are not UTF-8 replaced, a byte-order mark dropped, no more than the size
    limit); None when nothing was read. Quote from this rather than reading the file again:
    it may have changed, or be something that must not be read."""

    def __init__(  # the dataclass's own fields, in order, with their defaults
        self,
        file: LoadedFile | None,
        diagnostics: tuple[Diagnostic, ...],
        text: str | None = None,
    ) -> None:
        # As ``LoadedFile``'s: each field set by its slot.
        _set_result_file(self, file)
        _set_result_diagnostics(self, diagnostics)
        _set_result_text(self, text)


Setter = Callable[[object, object], None]


def _slot_setters(cls: type) -> tuple[Setter, ...]:
    """The setter of each of ``cls``'s dataclass fields, in order (their slots' own)."""
    return tuple(vars(cls)[field.name].__set__ for field in fields(cls))


(
    _set_path,
    _set_text,
    _set_format,
    _set_data,
    _set_source_map,
    _set_has_numbers,
    _set_bad_numbers,
) = _slot_setters(LoadedFile)
_set_result_file, _set_result_diagnostics, _set_result_text = _slot_setters(LoadResult)


def detect_format(path: str | os.PathLike[str]) -> Format | None:
    """``yaml`` for ``.yaml``/``.yml``, ``toml`` for ``.toml`` (any case, ``*.wink.*`` too)."""
    name: str = os.fspath(path)
    # Most names end in a suffix written in lower case after a letter: no split needed.
    found = _WRITTEN_PLAINLY.get(name[-5:])
    if found is not None and name[-6:-5] not in _NOT_IN_A_NAME:
        return found
    return _format_by_splitext(name)


def _format_by_splitext(name: str) -> Format | None:
    """``detect_format`` for any name: its extension as ``os.path.splitext`` finds it."""
    _, suffix = os.path.splitext(name)  # noqa: PTH122 - str or PathLike alike
    return _SUFFIXES.get(suffix.lower())


_WRITTEN_PLAINLY: dict[str, Format] = {".yaml": "yaml", ".toml": "toml"}
_NOT_IN_A_NAME = ("", ".", os.sep, os.altsep or os.sep)
"""What, just before ``.yaml``, leaves the extension to ``splitext`` (``.yaml``, ``a/.yaml``)."""


def load_text(
    source: str | bytes,
    *,
    path: str,
    format: Format,  # noqa: A002 - the public name the other layers code against
    limits: Limits = Limits(),  # noqa: B008 - a frozen value, safe to share
    kind: FileKind = PROMPT_FILE,
) -> LoadResult:
    """Read ``source`` (text, or bytes that must be UTF-8) written in ``format``.

    ``path`` is only displayed in spans; ``kind`` words the diagnostics that depend on what
    the file is for. Nothing raises for a mistake in the text: each one comes back as a
    diagnostic, and ``file`` is None when there is any.
    """
    text, diagnostics = decode(source, path=path, max_bytes=limits.max_bytes, kind=kind)
    if text is None:
        quoted = quotable_text(source, limits.max_bytes)
        return LoadResult(None, tuple(sort_diagnostics(diagnostics)), quoted)
    loaded = (_READERS.get(format) or _reader(format))(text, path, limits, kind)
    diagnostics.extend(loaded.diagnostics)
    source_map = loaded.source_map
    if diagnostics or source_map is None:
        return LoadResult(None, tuple(sort_diagnostics(diagnostics)), text)
    file = LoadedFile(
        path, text, format, loaded.data, source_map, loaded.has_numbers, loaded.bad_numbers
    )
    return LoadResult(file, (), text)


_Reader = Callable[[str, str, Limits, FileKind], Loaded]
_READERS: dict[str, _Reader] = {}
"""Each format's reader, once its first file was read."""


def _reader(format: Format) -> _Reader:  # noqa: A002 - as in load_text
    """The reader of ``format``, imported with its parser for the first file written in it.

    A process that reads only YAML never imports the TOML parser, nor the other way round.
    """
    if format == "yaml":
        from wink_decl.loader._yaml import load_yaml  # noqa: PLC0415 - see the docstring

        reader = load_yaml
    else:
        from wink_decl.loader._toml import load_toml  # noqa: PLC0415

        reader = load_toml
    _READERS[format] = reader
    return reader


def load_file(
    file: str | os.PathLike[str],
    *,
    display_path: str | None = None,
    limits: Limits = Limits(),  # noqa: B008 - a frozen value, safe to share
    content: bytes | None = None,
    kind: FileKind = PROMPT_FILE,
    state: os.stat_result | None = None,
) -> LoadResult:
    """Read the file at ``file`` (a prompt file unless ``kind`` says otherwise) as YAML or TOML.

    Its extension says which. ``display_path`` (default: ``file`` as given) is what spans and
    diagnostics show. A file that cannot be read or has another extension gives a diagnostic
    without a span; a folder, a pipe or a device is refused without being opened, and no more
    than ``limits.max_bytes`` is read. ``content`` is the file's bytes when the caller has read
    them already (to hash them); ``state`` its ``os.lstat`` when the caller took it (a check
    of the path), so that it is not taken twice.
    """
    shown = display_path if display_path is not None else os.fspath(file)
    file_format = detect_format(file)
    if file_format is None:
        return _no_span(_unknown_extension(shown))
    if content is None:
        try:
            content = read_capped(file, limits.max_bytes, state=state)[0]
        except FileTooLargeError as error:
            quoted = quotable_text(error.head, limits.max_bytes) if error.head else None
            return LoadResult(None, (read_problem(error, shown, kind=kind),), quoted)
        except OSError as error:
            return _no_span(read_problem(error, shown))
    return load_text(content, path=shown, format=file_format, limits=limits, kind=kind)


def read_bytes(
    file: str | os.PathLike[str],
    limits: Limits = Limits(),  # noqa: B008 - a frozen value, safe to share
) -> bytes:
    """The bytes of the regular file at ``file``, at most ``limits.max_bytes`` of them.

    Raises:
        OSError: the file cannot be opened or read; :class:`NotAFileError` (it is a folder, a
            pipe, a device or a socket, and was not opened) and :class:`FileTooLargeError`
            (it holds more than ``limits.max_bytes``) are kinds of it.
    """
    return read_capped(file, limits.max_bytes)[0]


def read_stamped(
    file: str | os.PathLike[str],
    limits: Limits = Limits(),  # noqa: B008 - a frozen value, safe to share
) -> tuple[bytes, tuple[int, int]]:
    """The file's bytes (as :func:`read_bytes`) and its state when opened: mtime and size.

    A cache that keeps the bytes' result under that state needs no ``stat()`` of its own: a
    change after the file was opened shows as another state next time.

    Raises:
        OSError: as :func:`read_bytes`.
    """
    content, info = read_capped(file, limits.max_bytes)
    return content, (info.st_mtime_ns, info.st_size)


def read_problem(error: OSError, path: str, *, kind: FileKind = PROMPT_FILE) -> Diagnostic:
    """What reading the file at ``path`` ran into (an ``OSError`` from :func:`read_bytes`).

    ``kind`` words the diagnostic for a file too large: the limit it went past, and what to
    do about it short of raising that limit.
    """
    if isinstance(error, FileTooLargeError):
        return too_many_bytes(path, error.size, error.limit, kind=kind)
    if isinstance(error, NotAFileError):
        return Diagnostic(
            message=f"This file cannot be read: it is {error.kind}, not a regular file.",
            span=None,
            code=DiagnosticCode.UNREADABLE,
            expected="a regular file",
            hint="Replace it with a regular file; folders, pipes, devices and sockets are "
            "never opened.",
            path=path,
        )
    return _unreadable(path, error)


def _no_span(diagnostic: Diagnostic) -> LoadResult:
    return LoadResult(None, (diagnostic,))


def _unknown_extension(path: str) -> Diagnostic:
    return Diagnostic(
        message="This file is neither YAML nor TOML: its name does not end in .yaml, .yml "
        "or .toml.",
        span=None,
        code=DiagnosticCode.UNKNOWN_EXTENSION,
        expected="a name such as review.wink.yaml or review.wink.toml",
        hint="Rename the file so that it ends in .wink.yaml or .wink.toml.",
        path=path,
    )


def _unreadable(path: str, error: OSError) -> Diagnostic:
    reason = error.strerror or type(error).__name__
    return Diagnostic(
        message=f"This file cannot be read: {reason[:1].lower()}{reason[1:]}.",
        span=None,
        code=DiagnosticCode.UNREADABLE,
        expected="a prompt file that exists and can be read",
        hint="Check the path and the file's permissions.",
        path=path,
    )
