"""The options every command taking prompt files shares (``--root``, ``--limit``), and reports."""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Iterable, Mapping

from wink_decl.cli._command import Console
from wink_decl.cli._usage import UsageError
from wink_decl.diagnostics import Diagnostic, cause_traceback, render_text, sort_diagnostics
from wink_decl.limits import DEFAULT_LIMITS, Limits, LimitSettingError
from wink_decl.suggestions import did_you_mean

__all__ = [
    "VERBOSE_HINT",
    "add_file_options",
    "add_limit_option",
    "limits_from",
    "report",
]


def add_file_options(parser: argparse.ArgumentParser) -> None:
    """The prompt file, ``--root`` and ``--limit``, shared by every command taking one prompt."""
    parser.add_argument("file", metavar="FILE", help="the prompt file (.wink.yaml or .wink.toml)")
    add_root_option(parser)
    add_limit_option(parser)


def add_limit_option(parser: argparse.ArgumentParser) -> None:
    """``--limit NAME=VALUE``: raise (or lower) one of the bounds on checking prompt files."""
    parser.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="change a bound on the work prompt files may cause, such as max_bytes=5000000 "
        "(repeatable; docs/security.md lists every limit and its default)",
    )


def limits_from(args: argparse.Namespace) -> Limits:
    """The limits ``--limit`` asks for; a setting that cannot apply is a usage error."""
    try:
        return DEFAULT_LIMITS.with_settings(list(args.limit))
    except LimitSettingError as error:
        hint = (
            did_you_mean(error.name, Limits.names()) if error.problem == "names no limit" else None
        )
        raise UsageError(
            f"--limit {error.setting}: {error.problem}",
            hint=hint or f"write it as NAME=VALUE with NAME one of {', '.join(Limits.names())}",
        ) from None


def add_root_option(parser: argparse.ArgumentParser) -> None:
    """``--root DIR``: the folder includes resolve against and the default ns starts from."""
    parser.add_argument(
        "--root",
        metavar="DIR",
        help="the prompt root: includes resolve against it and the default ns is the file's "
        "folder below it (default: [tool.wink-decl] root in the nearest pyproject.toml, "
        "else the file's folder)",
    )


def report(console: Console, diagnostics: Iterable[Diagnostic], sources: Mapping[str, str]) -> None:
    """Every diagnostic, sorted, with its lines quoted, on stderr (nothing when there are none).

    One caused by an exception in plugin code is followed by that exception's traceback under
    ``-v``; without it, its hint says how to see it. Both are redacted: plugin code may put a
    credential of the environment in what it raises.
    """
    plain: list[Diagnostic] = []
    for diagnostic in sort_diagnostics(diagnostics):
        cause = diagnostic.cause
        text = None if cause is None else cause_traceback(cause)
        if text is None:
            plain.append(diagnostic)
            continue
        _write(console, plain, sources)
        plain = []
        _write_caused(console, diagnostic, text, sources)
    _write(console, plain, sources)


def _write(console: Console, diagnostics: list[Diagnostic], sources: Mapping[str, str]) -> None:
    if diagnostics:
        console.err.write(render_text(diagnostics, sources) + "\n")


def _write_caused(
    console: Console, diagnostic: Diagnostic, traceback: str, sources: Mapping[str, str]
) -> None:
    """A diagnostic caused in plugin code, and under ``-v`` the traceback, redacted."""
    from wink_decl.cli._secrets import redact_environment_secrets  # noqa: PLC0415  # rare

    if console.verbose:
        text = render_text([diagnostic], sources) + "\n" + traceback
    else:
        hint = "; ".join(part for part in (diagnostic.hint, VERBOSE_HINT) if part)
        pointed = dataclasses.replace(diagnostic, hint=hint)
        text = render_text([pointed], sources) + "\n"
    console.err.write(redact_environment_secrets(text))


VERBOSE_HINT = "run again with -v to see the plugin's traceback"
"""The end of the hint of a diagnostic caused by an exception in plugin code, without -v."""
