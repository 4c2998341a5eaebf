"""The ``wink-decl`` frame: the commands, argument parsing, dispatch and exit statuses."""

from __future__ import annotations

import argparse
import atexit
import dataclasses
import gc
import os
import shlex
import sys
import textwrap
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, cast

from wink_decl.cli._command import Console
from wink_decl.cli._commands import COMMANDS
from wink_decl.cli._help import HelpFormatter, help_width
from wink_decl.cli._usage import UsageError, render_usage
from wink_decl.errors import InputError, WinkDeclError
from wink_decl.suggestions import did_you_mean
from wink_decl.version import __version__

__all__ = ["COMMANDS", "main", "run"]

_DESCRIPTION = "Check, render, compile and run prompt files written in YAML or TOML."
_EPILOG = """\
examples:
  wink-decl validate prompts/
  wink-decl render prompts/agents/code-review.wink.yaml --param language=Python --param change=...
  wink-decl run prompts/agents/code-review.wink.yaml --model openai:gpt-4.1-mini --param ...
  wink-decl new code-review
  wink-decl validate --help

exit status:
  0    success
  1    invalid input: a file or a value has errors, reported with its line
  2    usage error: an unknown command or option, a missing file
  3    internal error: a bug in wink-decl or a plugin; run again with -v for the traceback
  130  interrupted
  141  the output's reader stopped early (as with | head); nothing more is written

The prompt root (--root) defaults to the 'root' setting under [tool.wink-decl] in the nearest
pyproject.toml: includes resolve against it, and a prompt's default ns is its folder below it.

Plugin code (handlers, predicates, policies) is imported by render, tools, preview, mcp, compile
and run, and by validate --import-plugins; validate and plugins read package metadata only."""


class _Shown(WinkDeclError):  # noqa: N818  # not an error: help or version text to print, then exit 0
    """Raised by ``--help`` and ``--version`` so the frame prints ``text`` and exits 0."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


class _Parser(argparse.ArgumentParser):
    """argparse that raises ``UsageError`` instead of printing a usage dump and exiting."""

    def __init__(self, *args: Any, command: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.command = command
        """The sub-command this parser reads ("" for the top level)."""

    def error(self, message: str) -> NoReturn:
        """Every argparse complaint becomes one short usage error."""
        raise UsageError(message, command=self.command)

    def _check_value(self, action: argparse.Action, value: object) -> None:
        """Unknown commands and choices, named with what is allowed and the closest match."""
        choices = action.choices
        if choices is None or value in choices:
            return
        names = [str(choice) for choice in choices]
        hint = did_you_mean(str(value), names)
        if action.dest == "command":
            raise UsageError(f"unknown command '{value}'", hint=hint, command="")
        option = "/".join(action.option_strings)
        raise UsageError(
            f"{option}: '{value}' is not one of {', '.join(names)}",
            hint=hint,
            command=self.command,
        )

    def option_names(self) -> list[str]:
        """Every option string this parser accepts."""
        return list(self._option_string_actions)

    def pair_options(self) -> set[str]:
        """The options whose value is one ``NAME=VALUE`` word (``--param``, ``--limit``).

        Those of its sub-commands too (``overrides diff``): argparse hands their leftovers up.
        """
        found = {
            option
            for option, action in self._option_string_actions.items()
            if action.metavar == _PAIR
        }
        for action in self._actions:
            choices: object = action.choices
            if isinstance(choices, dict):  # sub-commands: their parsers by name, all of this class
                for parser in cast("dict[str, _Parser]", choices).values():
                    found |= parser.pair_options()
        return found


class _PrintAction(argparse.Action):
    """``--help`` and ``--version``: act at once, even when other arguments are missing."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str) -> None:  # noqa: A002  # argparse's keyword
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,  # noqa: ARG002  # argparse's call signature
        values: object,  # noqa: ARG002  # same
        option_string: str | None = None,  # noqa: ARG002  # same
    ) -> None:
        if self.dest == "version":
            # The package's own constant, which pyproject.toml reads as the distribution's
            # version: importlib.metadata would cost more than the rest of --version.
            raise _Shown(f"wink-decl {__version__}\n")
        raise _Shown(parser.format_help())


def _build(chosen: str | None) -> tuple[_Parser, dict[str, _Parser]]:
    """The parsers; only the ``chosen`` command's options are added (its code is imported).

    A command line that names a command needs that command's parser alone; one that names
    none, or an unknown one, gets them all, so the error lists them and finds the closest.
    """
    named = chosen in _COMMAND_NAMES
    listing = "\n".join(f"  {c.name:<10} {c.summary}" for c in COMMANDS)
    top = _Parser(
        prog="wink-decl",
        usage="wink-decl [-h] [--version] [-v] COMMAND [ARGS]",
        description=f"{_DESCRIPTION}\n\ncommands:\n{listing}",
        epilog=_EPILOG,
        formatter_class=HelpFormatter,
        add_help=False,
        allow_abbrev=False,
    )
    top.add_argument("-h", "--help", action=_PrintAction, help="show this help and exit")
    top.add_argument("--version", action=_PrintAction, help="show the version and exit")
    top.add_argument("-v", "--verbose", action="store_true", help=_VERBOSE)
    sub = top.add_subparsers(dest="command", help=argparse.SUPPRESS, parser_class=_Parser)
    parsers: dict[str, _Parser] = {}
    for command in COMMANDS:
        if named and command.name != chosen:
            continue
        # Only the chosen command's help can be shown: the others' texts are left unwrapped.
        description = _fill(command.description) if command.name == chosen else None
        parser: _Parser = sub.add_parser(
            command.name,
            command=command.name,
            prog=f"wink-decl {command.name}",
            description=description,
            epilog="examples:\n" + "\n".join(f"  {line}" for line in command.examples),
            formatter_class=HelpFormatter,
            add_help=False,
            allow_abbrev=False,
        )
        parser.add_argument("-h", "--help", action=_PrintAction, help="show this help and exit")
        # SUPPRESS: -v given before the command must survive the sub-parser's defaults.
        parser.add_argument(
            "-v", "--verbose", action="store_true", default=argparse.SUPPRESS, help=_VERBOSE
        )
        if command.name == chosen:
            command.configure(parser)
        parsers[command.name] = parser
    return top, parsers


_PAIR = "NAME=VALUE"
"""The metavar of every option whose value is a name and a value joined by '='."""
_VERBOSE = "show the traceback when wink-decl or a plugin fails unexpectedly"
_COMMAND_NAMES = frozenset(command.name for command in COMMANDS)


def _fill(text: str) -> str:
    """Each paragraph wrapped to the help width; indented blocks kept as written."""
    return "\n\n".join(
        block if block.startswith(" ") else textwrap.fill(block, help_width() - 2)
        for block in text.split("\n\n")
    )


def _chosen(words: Sequence[str]) -> str | None:
    """The command a command line names: its first word that is not an option.

    The top level's options take no value, so nothing else can stand before the command.
    """
    return next((word for word in words if not word.startswith("-")), None)


def _parse(argv: Sequence[str]) -> argparse.Namespace:
    words = list(argv)
    top, parsers = _build(_chosen(words))
    args, extras = top.parse_known_args(words)
    name: str | None = args.command
    if extras:
        first = extras[0]
        # argparse hands every leftover to the command; one written before it is the top's.
        if name is not None and words.index(first) < words.index(name):
            name = None
        parser = top if name is None else parsers[name]
        if first.startswith("-") and first != "-":
            option = first.split("=", 1)[0]
            raise UsageError(
                f"unknown option '{option}'",
                hint=did_you_mean(option, parser.option_names()),
                command=name or "",
            )
        raise UsageError(
            f"unexpected argument '{first}'",
            hint=_pair_hint(parser, words, first),
            command=name or "",
        )
    if name is None:
        names = ", ".join(c.name for c in COMMANDS)
        raise UsageError("no command given", hint=f"choose one of {names}", command="")
    return args


def _pair_hint(parser: _Parser, words: list[str], extra: str) -> str | None:
    """The fix when ``extra`` is the VALUE of ``--param NAME VALUE``, written without '='."""
    at = words.index(extra)
    option, name = words[at - 2 : at] if at >= 2 else ("", "")  # noqa: PLR2004  # option, name
    if option not in parser.pair_options() or "=" in name:
        return None
    return f"write {option} {shlex.quote(f'{name}={extra}')}: the name and the value in one word"


EXIT_BROKEN_PIPE = 141
"""128 + SIGPIPE: what shells report for a tool whose reader went away (``| head``)."""


def run(argv: Sequence[str], console: Console, *, loaded: Callable[[], None] | None = None) -> int:
    """Run one command line; the exit status (0, 1, 2, 3, 130 or 141), never an exception.

    ``loaded`` is called once the command's code is imported, before it runs.
    """
    try:
        status = _dispatch(argv, console, loaded)
        # Flushed here, so a reader that went away is noticed now rather than at exit.
        console.out.flush()
        console.err.flush()
    except BrokenPipeError:
        return EXIT_BROKEN_PIPE
    return status


def _dispatch(argv: Sequence[str], console: Console, loaded: Callable[[], None] | None) -> int:
    verbose = False
    try:
        args = _parse(argv)
        if loaded is not None:
            loaded()
        verbose = bool(args.verbose)
        command = next(c for c in COMMANDS if c.name == args.command)
        return command.run(args, dataclasses.replace(console, verbose=verbose))
    except _Shown as shown:
        console.out.write(shown.text)
        return 0
    except UsageError as error:
        console.err.write(error.render())
        return 2
    except InputError as error:  # a file or folder the command was given cannot be used
        console.err.write(render_usage(error))
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        raise  # not a bug: the reader of the output stopped early
    except Exception as error:  # noqa: BLE001  # the last line of defence: report, never crash
        from wink_decl.cli._secrets import redact_environment_secrets  # noqa: PLC0415  # rare

        # Redacted: a provider SDK's exception may quote the credentials it was given.
        if verbose:
            import traceback  # noqa: PLC0415  # only a failure pays for it

            console.err.write(
                redact_environment_secrets("".join(traceback.format_exception(error)))
            )
        else:
            console.err.write(
                redact_environment_secrets(
                    f"wink-decl: internal error: {type(error).__name__}: {error}\n"
                )
                + "  hint: run again with -v to see the traceback, and report it\n"
            )
        return 3


def main(argv: Sequence[str] | None = None) -> int:
    """The ``wink-decl`` console script: run ``argv`` (default: the process's arguments)."""
    if argv is not None:  # called from Python code, whose process and collector go on
        status = run(argv, Console(sys.stdout, sys.stderr))
    else:
        gc.disable()  # until the command's code is loaded: see _collect_from_now_on
        try:
            status = run(sys.argv[1:], Console(sys.stdout, sys.stderr), loaded=_collect_from_now_on)
        finally:
            gc.enable()  # also when the command line was refused before anything loaded
    if status == EXIT_BROKEN_PIPE:
        _discard_unwritten_output()
    if argv is None:  # the process's own command: it ends now
        # Python's last garbage collection, as it exits, walks every object still alive (the
        # imported modules, pydantic's schemas): about 20 ms, a tenth of checking 1,000 files.
        # Frozen objects are skipped; the process ends with the memory released all the same.
        atexit.register(gc.freeze)
    return status


def _collect_from_now_on() -> None:
    """Collect garbage again, leaving out every object made while the command's code loaded.

    Loading makes hundreds of thousands of objects that live as long as the process (modules,
    classes, pydantic's schemas): collecting while they are made frees nothing and cost a
    tenth of ``validate``'s start-up (measured); frozen, no later collection scans them.
    """
    gc.freeze()
    gc.enable()


def _discard_unwritten_output() -> None:
    """Point the process's stdout and stderr at the null device.

    What is still buffered for the reader that went away would fail again when Python
    flushes at exit, print "Exception ignored" and turn the status into 120.
    """
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        for stream in (sys.stdout, sys.stderr):
            try:
                os.dup2(devnull, stream.fileno())
            except (OSError, ValueError):  # a stream without a descriptor: nothing to flush
                continue
    finally:
        os.close(devnull)
