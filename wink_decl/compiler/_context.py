"""What one compilation carries: the file, its spans, the catalog, and the diagnostics so far."""

from __future__ import annotations

import bisect
import functools
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from wink_decl.diagnostics import Diagnostic, DiagnosticBag, DiagnosticCode, Span

if TYPE_CHECKING:
    from wink_decl.loader import JSONPath, LoadedFile, LoadResult, SourceMap

__all__ = ["CompileContext", "folder_ns", "quotable"]


def folder_ns(root: str | os.PathLike[str], file_path: str | os.PathLike[str]) -> str:
    """The ns a file's folder names under ``root`` (lower case); ``root``'s name at the root.

    Paths are made absolute with ``absolute()``, not ``resolve()``: no file-system calls. The
    answer depends only on the folder, so it is worked out once per folder.
    """
    # os.path on strings: Path objects cost more than the rest of this lookup.
    root_text, file_text = os.fspath(root), os.fspath(file_path)
    relative = not (os.path.isabs(root_text) and os.path.isabs(file_text))  # noqa: PTH117
    folder = os.path.dirname(file_text)  # noqa: PTH120
    return _folder_ns(root_text, folder, os.getcwd() if relative else "")  # noqa: PTH109


@functools.lru_cache(maxsize=1024)
def _folder_ns(root_text: str, folder_text: str, cwd: str) -> str:
    """``cwd`` is part of the key only because relative paths depend on it."""
    del cwd
    root = Path(root_text).absolute()
    folder = Path(folder_text).absolute()
    parts = folder.relative_to(root).parts if folder.is_relative_to(root) else ()
    return "/".join(p.lower() for p in parts) or root.name.lower()


def quotable(result: LoadResult, shown: str) -> dict[str, str]:
    """The text a file's report quotes, as the loader read it.

    Never read again: the file may have changed since, or be a FIFO or a device that must
    not be read at all.
    """
    return {} if result.text is None else {shown: result.text}


def span_in(source_map: SourceMap, path: JSONPath) -> Span:
    """Where the value at ``path`` is in ``source_map`` (or the nearest thing that exists)."""
    return source_map.value_span(path) or source_map.nearest(path)


@dataclass
class CompileContext:
    """Spans and diagnostics for one file; every check reports here and carries on."""

    file: LoadedFile
    bag: DiagnosticBag = field(default_factory=DiagnosticBag)
    _line_starts: list[int] = field(default_factory=list[int])

    def span(self, path: JSONPath) -> Span:
        """Where the value at ``path`` is (or the nearest thing that exists)."""
        return span_in(self.file.source_map, path)

    def span_later(self, path: JSONPath) -> Callable[[], Span]:
        """``span(path)``, worked out when called: for what asks only after a later mistake.

        It holds the file's source map, not this context: a file that compiles cleanly
        never makes its map (``docs/compiler.md``, step 1).
        """
        return functools.partial(span_in, self.file.source_map, path)

    def key_span(self, path: JSONPath) -> Span:
        """Where the key of the entry at ``path`` is (falls back to its value)."""
        return self.file.source_map.key_span(path) or self.span(path)

    def error(
        self,
        code: DiagnosticCode,
        message: str,
        span: Span,
        *,
        expected: str | None = None,
        hint: str | None = None,
        suggestions: Sequence[str] = (),
        severity: str = "error",
    ) -> None:
        """Record one diagnostic."""
        self.bag.add(
            Diagnostic(
                message=message,
                span=span,
                code=code,
                severity="warning" if severity == "warning" else "error",
                expected=expected,
                hint=hint,
                suggestions=tuple(suggestions),
            )
        )

    def refused(self, code: DiagnosticCode, message: str, span: Span) -> None:
        """The runtime refused what the checks passed: a safety net.

        A file the schema refused is only checked, never built, so this never repeats it.
        """
        self.error(code, message, span)

    def find_in_value(self, path: JSONPath, needle: str | re.Pattern[str]) -> Span:
        """Where ``needle`` sits inside the value at ``path``, so a placeholder points at itself.

        A pattern is matched from the start of the value; its first group is what is pointed at.
        """
        start = self.span(path)
        text = self.file.text
        if not self._line_starts:
            self._line_starts = [0, *(i + 1 for i, c in enumerate(text) if c == "\n")]
        if start.line > len(self._line_starts):
            return start
        offset = self._line_starts[start.line - 1] + start.column - 1
        # Only inside the value: a '$' further down the file belongs to another value.
        last_line = min(start.end_line, len(self._line_starts))
        stop = self._line_starts[last_line - 1] + start.end_column
        if isinstance(needle, str):
            found, length = text.find(needle, offset, stop), len(needle)
        else:
            match = needle.match(text, offset, stop)
            found, length = (match.start(1), len(match.group(1))) if match else (-1, 0)
        if found < 0:
            return start
        line = bisect.bisect_right(self._line_starts, found)
        column = found - self._line_starts[line - 1] + 1
        return Span(start.path, line, column, line, column + length - 1)
