"""What ``wink-decl run`` shows of the package's log: a line a warning, the traceback with -v."""

from __future__ import annotations

import logging
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from wink_decl._loggers import PACKAGE_LOGGER, package_logger
from wink_decl.adapters.adapter_support import redact

__all__ = ["showing_warnings"]

_TOOL_CALLS = package_logger("executor").name
"""Its warnings are tool calls that failed; on a terminal the progress shows each already."""


@contextmanager
def showing_warnings(
    stream: TextIO, *, verbose: bool, progress: bool, secrets: tuple[str, ...]
) -> Iterator[None]:
    """Within the block, the package's warnings go to ``stream``, redacted of ``secrets``.

    Each is one line (``wink-decl: warning: ...``) and, with ``verbose``, the traceback of the
    exception it carries. With ``progress`` (a terminal following the run) and without
    ``verbose``, failed tool calls are left to the progress line that says the same.
    """
    handler = _Lines(stream, verbose=verbose, secrets=secrets)
    if progress and not verbose:
        handler.addFilter(lambda record: record.name != _TOOL_CALLS)
    PACKAGE_LOGGER.addHandler(handler)
    try:
        yield
    finally:
        PACKAGE_LOGGER.removeHandler(handler)


class _Lines(logging.Handler):
    def __init__(self, stream: TextIO, *, verbose: bool, secrets: tuple[str, ...]) -> None:
        super().__init__(logging.WARNING)
        self._stream = stream
        self._verbose = verbose
        self._secrets = secrets

    def emit(self, record: logging.LogRecord) -> None:
        """Write the record; a failure to write (the reader went away) is the command's."""
        text = "wink-decl: warning: " + " ".join(record.getMessage().split()) + "\n"
        error = record.exc_info[1] if record.exc_info else None
        if self._verbose and error is not None:
            text += "".join(traceback.format_exception(error))
        self._stream.write(redact(text, self._secrets))
        self._stream.flush()
