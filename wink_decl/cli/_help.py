"""How ``--help`` is laid out: the same text on every Python, whatever argparse's release does."""

from __future__ import annotations

import argparse
import shutil
from collections.abc import Iterable, Sequence

__all__ = ["HelpFormatter", "help_width"]

_MAX_WIDTH = 100


def help_width() -> int:
    """The terminal's width, at most 100 columns."""
    return min(shutil.get_terminal_size().columns, _MAX_WIDTH)


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Help at most 100 columns wide, descriptions and examples laid out as written.

    argparse's layout changes between Python releases: 3.13 writes ``-j, --jobs N`` where
    3.11 and 3.12 write ``-j N, --jobs N``, and 3.11 and 3.12 may wrap a usage line between
    ``--to`` and its value. The two pieces that differ are laid out here, once: an option is
    shown with its value after each spelling, and usage wraps only between whole options.
    """

    def __init__(self, prog: str) -> None:
        """Lay out ``prog``'s help for the current terminal."""
        super().__init__(prog, max_help_position=26, width=help_width() - 2)

    def _format_action_invocation(self, action: argparse.Action) -> str:
        if not action.option_strings or action.nargs == 0:
            return super()._format_action_invocation(action)
        value = self._format_args(action, self._get_default_metavar_for_optional(action))
        return ", ".join(f"{option} {value}" for option in action.option_strings)

    def _format_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[argparse._MutuallyExclusiveGroup],  # pyright: ignore[reportPrivateUsage]  # typeshed's type
        prefix: str | None,
    ) -> str:
        groups = list(groups)
        if usage is not None or groups:  # a usage written by hand; or groups, laid out by argparse
            return super()._format_usage(usage, actions, groups, prefix)
        prefix = "usage: " if prefix is None else prefix
        shown = [action for action in actions if action.help != argparse.SUPPRESS]
        options = [self._usage_part(action) for action in shown if action.option_strings]
        positionals = [self._usage_part(action) for action in shown if not action.option_strings]
        return f"{prefix}{self._wrap_usage(prefix, options, positionals)}\n\n"

    def _usage_part(self, action: argparse.Action) -> str:
        """How one argument reads in the usage line: ``[--format {text,json}]``, ``FILE``."""
        if not action.option_strings:
            return self._format_args(action, self._get_default_metavar_for_positional(action))
        part = action.option_strings[0]
        if action.nargs != 0:
            value = self._format_args(action, self._get_default_metavar_for_optional(action))
            part = f"{part} {value}"
        return part if action.required else f"[{part}]"

    def _wrap_usage(self, prefix: str, options: list[str], positionals: list[str]) -> str:
        """One line when it fits; else options, then positionals, each wrapped as argparse does.

        Beside the program's name while that leaves a quarter of the width; below it otherwise.
        """
        width = self._width - self._current_indent
        line = " ".join([self._prog, *options, *positionals])
        if len(prefix) + len(line) <= width:
            return line
        if len(prefix) + len(self._prog) <= 0.75 * width:
            indent = " " * (len(prefix) + len(self._prog) + 1)
            lines = _lines([self._prog, *options], indent, width, first=len(prefix))
            return "\n".join(lines + _lines(positionals, indent, width))
        indent = " " * len(prefix)
        lines = _lines([*options, *positionals], indent, width)
        if len(lines) > 1:
            lines = _lines(options, indent, width) + _lines(positionals, indent, width)
        return "\n".join([self._prog, *lines])


def _lines(parts: Sequence[str], indent: str, width: int, first: int | None = None) -> list[str]:
    """``parts`` filled into lines of ``width``, each indented by ``indent``.

    The first line starts ``first`` columns in, after text already written, and carries no
    indent of its own.
    """
    lines: list[list[str]] = [[]]
    used = (len(indent) if first is None else first) - 1
    for part in parts:
        if used + 1 + len(part) > width and lines[-1]:
            lines.append([])
            used = len(indent) - 1
        lines[-1].append(part)
        used += len(part) + 1
    texts = [indent + " ".join(line) for line in lines if line]
    if first is not None:
        texts[0] = texts[0].removeprefix(indent)
    return texts
