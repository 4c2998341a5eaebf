"""One prompt file from the command line: its root, its compilation, and reporting problems."""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Mapping

from wink_decl.cli._command import Console
from wink_decl.cli._usage import UsageError
from wink_decl.compiler import CompileResult, compile_file
from wink_decl.diagnostics import Diagnostic, render_text
from wink_decl.limits import DEFAULT_LIMITS, Limits, LimitSettingError
from wink_decl.suggestions import did_you_mean

__all__ = ["add_file_options", "add_limit_option", "compile_prompt", "limits_from", "report"]


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
    """Every diagnostic, sorted, with its lines quoted, on stderr (nothing when there are none)."""
    text = render_text(diagnostics, sources)
    if text:
        console.err.write(text + "\n")


def compile_prompt(args: argparse.Namespace, console: Console) -> CompileResult:
    """Compile ``args.file`` under its root, its diagnostics (warnings too) written."""
    # Here, not above: validate shares this module's options and never prepares a prompt.
    from wink_decl.inputs import PromptRequest, locate  # noqa: PLC0415

    location = locate(PromptRequest(args.file, root=args.root, limits=limits_from(args)))
    path = location.file
    result = compile_file(path, root=location.root, display_path=str(path), limits=location.limits)
    report(console, result.diagnostics, result.sources)
    return result
