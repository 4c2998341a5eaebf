"""The frame: help, version, usage errors with did-you-mean, internal errors, entry points."""

from __future__ import annotations

import atexit
import dataclasses
import gc
import io
import os
import runpy
import subprocess
import sys
import traceback
from collections.abc import Callable
from pathlib import Path

import pytest

from wink_decl.cli import _app, main
from wink_decl.cli._command import Command

Run = Callable[..., tuple[int, str, str]]

TOP_HELP = """\
usage: wink-decl [-h] [--version] [-v] COMMAND [ARGS]

Check, render, compile and run prompt files written in YAML or TOML.

commands:
  validate   Check prompt files and folders, reporting every problem with its line.
  render     Render a prompt file as a model receives it: the text, then the tools.
  run        Run a prompt file against a model, executing the tools it calls, to an answer.
  eval       Run an eval file's cases under its experiments and models, and report.
  tools      Print the tools a rendered prompt offers, as JSON Schema or provider JSON.
  preview    Serve a local page that shows prompt files as a model receives them, live.
  mcp        Serve prompt files, and a prompt's tools, to MCP clients over stdio or HTTP.
  compile    Compile a prompt file to its JSON artifact, importing and checking its plugins.
  schema     Print the JSON Schema of prompt files, or write it to a file.
  plugins    PLUGINS
  new        NEW
  convert    CONVERT
  import     IMPORT
  overrides  OVERRIDES

options:
  -h, --help     show this help and exit
  --version      show the version and exit
  -v, --verbose  show the traceback when wink-decl or a plugin fails unexpectedly

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
and run, and by validate --import-plugins; validate and plugins read package metadata only.
"""

SCHEMA_HELP = """\
usage: wink-decl schema [-h] [-v] [--output FILE]

Print the JSON Schema (draft 2020-12) that prompt files follow, as shipped in this version of
wink-decl. Editors that read JSON Schema use it to complete and check prompt files while you type.

options:
  -h, --help     show this help and exit
  -v, --verbose  show the traceback when wink-decl or a plugin fails unexpectedly
  --output FILE  write the schema to FILE (replaced atomically; its folder must exist) instead of
                 printing it

examples:
  wink-decl schema --output schema/wink-decl.schema.json
  wink-decl schema | less
"""

VALIDATE_HELP = """\
usage: wink-decl validate [-h] [-v] [--root DIR] [--limit NAME=VALUE] [--overrides DIR] [--strict]
                          [--format {text,json}] [-j N] [--import-plugins] [--cache-dir DIR]
                          PATH [PATH ...]

Load and check prompt files: syntax, the schema, references between sections, tools, params and
includes, and that every handler, predicate and policy is installed. Plugins are looked up in
package metadata only: no plugin code is imported. What needs a plugin's code is checked by
compile, render, tools and run, or here with --import-plugins: signatures and, for a tool that
leaves its params to its handler, those params and its reads:, writes: and examples. Every problem
of every file is reported, sorted by file and line; where an overrides folder exists, each valid
prompt's override files are checked too (stale, unknown and refused entries). Eval files found
beside them are checked too: their prompt, models, params, checks and dataset (docs/evals.md).
Exit status: 0 every file is valid (warnings allowed), 1 a file has errors, 2 usage error.

positional arguments:
  PATH                  a prompt or eval file, or a folder searched for .wink.yaml, .wink.yml,
                        .wink.toml and .wink-eval.yaml, .wink-eval.yml, .wink-eval.toml files
                        (hidden folders are skipped)

options:
  -h, --help            show this help and exit
  -v, --verbose         show the traceback when wink-decl or a plugin fails unexpectedly
  --root DIR            the prompt root: includes resolve against it and the default ns is the
                        file's folder below it (default: [tool.wink-decl] root in the nearest
                        pyproject.toml, else the file's folder)
  --limit NAME=VALUE    change a bound on the work prompt files may cause, such as
                        max_bytes=5000000 (repeatable; docs/security.md lists every limit and its
                        default)
  --overrides DIR       the overrides folder, holding NS/PROMPT-KEY/TAG.wink-override.yaml (or
                        .toml) (default: [tool.wink-decl] overrides in the nearest pyproject.toml
                        unless --root is given, else 'overrides' beside the prompt root)
  --strict              count a stale override (one whose base text has changed) as an error, not
                        a warning
  --format {text,json}  text: diagnostics with the lines quoted, then a summary, on stderr; json:
                        one array of diagnostic objects on stdout (default: text)
  -j N, --jobs N        worker processes (default: one per CPU from 64 files on, else 1)
  --import-plugins      also import every handler, predicate and policy the files name and check
                        each against its use, as compile does (installed plugin code runs, chosen
                        by the files; with --cache-dir every file is still compiled)
  --cache-dir DIR       keep each file's result in DIR (JSON, created if missing): a file, its
                        includes, wink-decl and the installed plugins all unchanged, it is not
                        checked again

examples:
  wink-decl validate prompts/
  wink-decl validate prompts/ evals/
  wink-decl validate prompts/agents/code-review.wink.yaml --format json
  wink-decl validate prompts/ --cache-dir .wink-decl-cache
  wink-decl validate prompts/ --import-plugins
"""


def top_help() -> str:
    """The top-level help, with the summaries of the commands other modules own."""
    others = {c.name: c.summary for c in _app.COMMANDS}
    return (
        TOP_HELP.replace("PLUGINS", others["plugins"])
        .replace("NEW", others["new"])
        .replace("CONVERT", others["convert"])
        .replace("IMPORT", others["import"])
        .replace("OVERRIDES", others["overrides"])
    )


def test_commands_are_listed_in_order() -> None:
    names = [command.name for command in _app.COMMANDS]
    assert names == [
        "validate",
        "render",
        "run",
        "eval",
        "tools",
        "preview",
        "mcp",
        "compile",
        "schema",
        "plugins",
        "new",
        "convert",
        "import",
        "overrides",
    ]


def test_every_command_has_an_example() -> None:
    assert all(command.examples for command in _app.COMMANDS)


@pytest.mark.parametrize(
    "argv", [["--help"], ["-h"], ["-v", "--help"]], ids=["long", "short", "verbose"]
)
def test_top_level_help(cli: Run, argv: list[str]) -> None:
    assert cli(*argv) == (0, top_help(), "")


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["schema", "--help"], SCHEMA_HELP),
        (["validate", "-h"], VALIDATE_HELP),
        (["validate", "--format", "json", "--help", "missing/path"], VALIDATE_HELP),
    ],
    ids=["schema", "validate", "before-other-errors"],
)
def test_command_help(cli: Run, argv: list[str], expected: str) -> None:
    assert cli(*argv) == (0, expected, "")


def test_version(cli: Run) -> None:
    assert cli("--version") == (0, "wink-decl 0.1.0\n", "")


HELP_LIST = "  run 'wink-decl --help' for the list of commands\n"


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ["valdate"],
            "wink-decl: error: unknown command 'valdate'\n"
            "  hint: did you mean 'validate'?\n" + HELP_LIST,
        ),
        (["frobnicate"], "wink-decl: error: unknown command 'frobnicate'\n" + HELP_LIST),
        (
            [],
            "wink-decl: error: no command given\n"
            "  hint: choose one of validate, render, run, eval, tools, preview, mcp, compile, "
            "schema, plugins, new, convert, import, overrides\n" + HELP_LIST,
        ),
        (["-v"], None),
        (
            ["--verbos", "schema"],
            "wink-decl: error: unknown option '--verbos'\n"
            "  hint: did you mean '--verbose'?\n" + HELP_LIST,
        ),
        (
            ["validate", "--fromat", "json", "prompts"],
            "wink-decl: error: unknown option '--fromat'\n"
            "  hint: did you mean '--format'?\n"
            "  run 'wink-decl validate --help' for its options\n",
        ),
        (
            ["validate", "--fromat=json", "prompts"],
            "wink-decl: error: unknown option '--fromat'\n"
            "  hint: did you mean '--format'?\n"
            "  run 'wink-decl validate --help' for its options\n",
        ),
        (
            ["schema", "--zzz"],
            "wink-decl: error: unknown option '--zzz'\n"
            "  run 'wink-decl schema --help' for its options\n",
        ),
        (
            ["validate", "--format", "yml", "prompts"],
            "wink-decl: error: --format: 'yml' is not one of text, json\n"
            "  run 'wink-decl validate --help' for its options\n",
        ),
        (
            ["tools", "x.wink.yaml", "--format", "opneai"],
            "wink-decl: error: --format: 'opneai' is not one of json-schema, openai, anthropic\n"
            "  hint: did you mean 'openai'?\n"
            "  run 'wink-decl tools --help' for its options\n",
        ),
        (
            ["schema", "extra"],
            "wink-decl: error: unexpected argument 'extra'\n"
            "  run 'wink-decl schema --help' for its options\n",
        ),
        (
            ["schema", "-"],
            "wink-decl: error: unexpected argument '-'\n"
            "  run 'wink-decl schema --help' for its options\n",
        ),
        (
            ["validate"],
            "wink-decl: error: the following arguments are required: PATH\n"
            "  run 'wink-decl validate --help' for its options\n",
        ),
        (
            ["render", "x.wink.yaml", "--param"],
            "wink-decl: error: argument --param: expected one argument\n"
            "  run 'wink-decl render --help' for its options\n",
        ),
    ],
    ids=[
        "unknown-command",
        "unknown-command-no-match",
        "no-command",
        "only-verbose",
        "unknown-top-option",
        "unknown-option",
        "unknown-option-with-value",
        "unknown-option-no-match",
        "bad-choice",
        "bad-choice-close",
        "extra-argument",
        "extra-dash",
        "missing-argument",
        "missing-value",
    ],
)
def test_usage_errors(cli: Run, argv: list[str], expected: str | None) -> None:
    if expected is None:  # the same as no command at all
        expected = cli()[2]
    assert cli(*argv) == (2, "", expected)


def failing(error: BaseException, seen: list[BaseException]) -> Callable[..., int]:
    def run(*_: object) -> int:
        seen.append(error)
        raise error

    return run


def replace_schema_run(monkeypatch: pytest.MonkeyPatch, run: Callable[..., int]) -> None:
    commands = tuple(
        dataclasses.replace(c, run=run) if c.name == "schema" else c for c in _app.COMMANDS
    )
    monkeypatch.setattr(_app, "COMMANDS", commands)


def test_internal_error_is_one_line_and_a_hint(cli: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    replace_schema_run(monkeypatch, failing(RuntimeError("the disk is on fire"), []))
    assert cli("schema") == (
        3,
        "",
        "wink-decl: internal error: RuntimeError: the disk is on fire\n"
        "  hint: run again with -v to see the traceback, and report it\n",
    )


@pytest.mark.parametrize(
    "argv", [["-v", "schema"], ["schema", "--verbose"]], ids=["before", "after"]
)
def test_verbose_shows_the_traceback(
    cli: Run, monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> None:
    seen: list[BaseException] = []
    replace_schema_run(monkeypatch, failing(RuntimeError("the disk is on fire"), seen))
    code, out, err = cli(*argv)
    assert (code, out, err) == (3, "", "".join(traceback.format_exception(seen[0])))


def test_interrupt_exits_130_quietly(cli: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    replace_schema_run(monkeypatch, failing(KeyboardInterrupt(), []))
    assert cli("schema") == (130, "", "")


@pytest.mark.parametrize(
    "argv",
    [["schema"], ["validate", "--format", "json", "prompts"], ["--help"]],
    ids=["schema", "validate-json", "help"],
)
def test_a_reader_that_stops_early_ends_the_command_quietly(project: Path, argv: list[str]) -> None:
    del project  # the cwd, with the bundled prompts
    # A real pipe whose reader has gone: every write fails with EPIPE, as under `| head`.
    reader, writer = os.pipe()
    os.close(reader)
    try:
        completed = subprocess.run(
            [sys.executable, "-m", "wink_decl", *argv],
            stdout=writer,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    finally:
        os.close(writer)
    assert (completed.returncode, completed.stderr) == (141, "")


class _GoneReader(io.StringIO):
    """Standard output whose reader went away (a StringIO has no descriptor)."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_after_a_broken_pipe_what_is_still_buffered_goes_nowhere(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with (tmp_path / "stderr.txt").open("w", encoding="utf-8") as stderr:
        monkeypatch.setattr(sys, "stdout", _GoneReader())
        monkeypatch.setattr(sys, "stderr", stderr)
        assert main(["schema"]) == _app.EXIT_BROKEN_PIPE
        # The stream's descriptor now leads to the null device, so a flush at exit succeeds.
        stderr.write("left in the buffer")
    assert (tmp_path / "stderr.txt").read_text(encoding="utf-8") == ""


def test_main_reads_the_process_arguments(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["wink-decl", "--version"])
    assert main() == 0
    assert capsys.readouterr().out == "wink-decl 0.1.0\n"


def test_only_the_process_command_freezes_what_is_left_for_the_collection_at_exit(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    registered: list[Callable[[], None]] = []
    monkeypatch.setattr(atexit, "register", registered.append)
    monkeypatch.setattr(sys, "argv", ["wink-decl", "--version"])
    assert main(["--version"]) == 0  # called in a process that goes on: nothing at its exit
    assert registered == []
    assert main() == 0
    assert registered == [gc.freeze]
    assert capsys.readouterr().out == "wink-decl 0.1.0\n" * 2


@pytest.fixture
def collector_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What ``main`` asks of the garbage collector, in order (the collector itself untouched)."""
    calls: list[str] = []
    at_exit: list[Callable[[], None]] = []
    monkeypatch.setattr(atexit, "register", at_exit.append)  # the pytest process goes on
    for name in ("disable", "enable", "freeze"):
        monkeypatch.setattr(gc, name, lambda name=name: calls.append(name))
    return calls


def test_the_process_command_collects_nothing_while_its_code_loads(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    collector_calls: list[str],
) -> None:
    prompt = tmp_path / "a.wink.yaml"
    prompt.write_text("key: a\nsections:\n  - title: A\n    template: Hello.\n")
    monkeypatch.setattr(
        sys, "argv", ["wink-decl", "validate", str(prompt), "--root", str(tmp_path)]
    )
    assert main() == 0
    assert collector_calls == ["disable", "freeze", "enable", "enable"]
    assert capsys.readouterr().err == "1 file checked: 1 valid, 0 invalid\n"


def test_a_process_command_line_answered_while_parsing_turns_the_collector_back_on(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], collector_calls: list[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["wink-decl", "--version"])
    assert main() == 0
    assert collector_calls == ["disable", "enable"]
    assert capsys.readouterr().out == "wink-decl 0.1.0\n"


def test_a_command_called_from_python_leaves_the_collector_alone(
    capsys: pytest.CaptureFixture[str], collector_calls: list[str]
) -> None:
    assert main(["--version"]) == 0
    assert collector_calls == []
    assert capsys.readouterr().out == "wink-decl 0.1.0\n"


def test_python_dash_m(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["wink_decl", "--version"])
    with pytest.raises(SystemExit) as exit_info:
        runpy.run_module("wink_decl", run_name="__main__")
    assert exit_info.value.code == 0
    assert capsys.readouterr().out == "wink-decl 0.1.0\n"


def test_installed_console_script(project: Path) -> None:
    script = Path(sys.executable).with_name("wink-decl")
    completed = subprocess.run(
        [str(script), "validate", "prompts"], capture_output=True, text=True, check=False
    )
    assert (completed.returncode, completed.stdout, completed.stderr) == (
        0,
        "",
        "4 files checked: 4 valid, 0 invalid\n",
    )


def test_commands_satisfy_the_contract() -> None:
    assert all(isinstance(command, Command) for command in _app.COMMANDS)
