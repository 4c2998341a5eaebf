"""What every ``wink-decl`` command provides, and the console it writes to."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO


@dataclass(frozen=True)
class Console:
    """Where a command writes: results to ``out``, diagnostics and progress to ``err``."""

    out: TextIO
    err: TextIO
    verbose: bool = False
    """``-v``: a diagnostic caused by an exception in plugin code is followed by its traceback."""

    @property
    def interactive(self) -> bool:
        """True when ``err`` is a terminal, so progress bars make sense."""
        isatty = getattr(self.err, "isatty", None)
        return bool(isatty and isatty())


@dataclass(frozen=True)
class Command:
    """One sub-command: its name, help, examples, argument set-up and what it runs.

    ``run`` returns the exit status: 0 success, 1 invalid input (diagnostics were written),
    2 usage error. It never prints a traceback; the frame handles unexpected exceptions.
    """

    name: str
    summary: str
    """One line, shown in ``wink-decl --help``."""
    description: str
    """A paragraph, shown in ``wink-decl NAME --help`` above the options."""
    examples: tuple[str, ...]
    """Whole command lines, shown under ``examples:`` in ``wink-decl NAME --help``."""
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace, Console], int]
