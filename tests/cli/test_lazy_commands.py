"""A command line imports what its command needs: the table alone for ``--help`` and ``--version``.

Each case runs the real command in a fresh interpreter and asks it which modules it loaded.
"""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from concurrency import run_python

from wink_decl.cli._command import Command
from wink_decl.cli._commands import COMMANDS

REPO = Path(__file__).resolve().parents[2]

LOADED = """
import json, sys
from wink_decl.cli import main
status = main(sys.argv[1:])
shown = [m for m in sys.modules if m.startswith("wink_decl") or m == "concurrent.futures.process"]
print(json.dumps({"status": status, "modules": sorted(shown)}))
"""

FRAME = [
    "wink_decl",
    "wink_decl._install_hint",
    "wink_decl._launch",
    "wink_decl.cli",
    "wink_decl.cli._app",
    "wink_decl.cli._command",
    "wink_decl.cli._commands",
    "wink_decl.cli._help",
    "wink_decl.cli._usage",
    "wink_decl.errors",
    "wink_decl.suggestions",
    "wink_decl.version",
]
"""What every command line loads: the frame, the table (whose help words its extras' install
lines with ``install_hint``) and did-you-mean for mistakes in it (its difflib only when one is
made); the redaction of failures waits for a failure."""

COMMAND_MODULES = {f"wink_decl.cli._{command.name}" for command in COMMANDS}


def loaded(*argv: str) -> tuple[int, list[str]]:
    """The exit status of ``wink-decl ARGV`` and the wink_decl modules it imported."""
    completed = subprocess.run(  # our own interpreter, fixed arguments
        [sys.executable, "-c", LOADED, *argv],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
    )
    found = json.loads(completed.stdout.splitlines()[-1])
    return found["status"], found["modules"]


@pytest.mark.parametrize(
    "argv", [["--version"], ["--help"], ["-v", "--help"]], ids=["version", "help", "verbose-help"]
)
def test_help_and_version_load_no_command(argv: list[str]) -> None:
    assert loaded(*argv) == (0, FRAME)


def test_an_unknown_command_loads_no_command() -> None:
    assert loaded("valdate", "x") == (2, FRAME)


def test_a_command_loads_its_own_module_and_no_other() -> None:
    status, modules = loaded("schema", "--help")
    assert status == 0
    assert sorted(COMMAND_MODULES.intersection(modules)) == ["wink_decl.cli._schema"]


def test_validate_of_one_file_loads_neither_workers_nor_other_commands() -> None:
    status, modules = loaded("validate", "prompts/common/safety.wink.yaml")
    assert status == 0
    assert sorted(COMMAND_MODULES.intersection(modules)) == ["wink_decl.cli._validate"]
    assert "concurrent.futures.process" not in modules
    assert "wink_decl.runtime.policies" not in modules  # the file declares no policy


def test_validate_of_one_file_loads_only_what_checking_it_needs() -> None:
    """No runtime template, artifact, registry, plugin binding or override file reading.

    The file declares no tool, policy or predicate: neither the lazy plugins nor the runtime's
    section, tool and policy classes are loaded.
    """
    status, modules = loaded("validate", "prompts/common/safety.wink.yaml")
    assert status == 0
    builders = {
        "wink_decl.compiler._artifact",
        "wink_decl.compiler._disk_cache",
        "wink_decl.compiler._lazy",
        "wink_decl.compiler._render_params",
        "wink_decl.compiler._tool_compiler",
        "wink_decl.compiler.registry",
        "wink_decl.overrides._apply",
        "wink_decl.overrides._file",
        "wink_decl.overrides.store",
        "wink_decl.overrides.tagged",
        "wink_decl.plugins._handlers",
        "wink_decl.prompt.serde",
        "wink_decl.prompt.template",
        "wink_decl.prompt.tool_result",
    }
    assert sorted(builders.intersection(modules)) == []
    explaining = {  # what finds the place of a mistake and words it: the file has none
        "wink_decl.cli._secrets",
        "wink_decl.loader._toml_errors",
        "wink_decl.loader._toml_positions",
        "wink_decl.loader._yaml_errors",
        "wink_decl.loader._yaml_spans",
        "wink_decl.loader._yaml_walk",
        "wink_decl.schema._error_location",
    }
    assert sorted(explaining.intersection(modules)) == []
    assert sorted(m for m in modules if m.startswith("wink_decl.prompt.")) == [
        "wink_decl.prompt.keys",
        "wink_decl.prompt.text_template",
        "wink_decl.prompt.visibility",
    ]


REPORT_WRITERS = {
    "wink_decl.evals._html",
    "wink_decl.evals._html_assets",
    "wink_decl.evals._html_charts",
    "wink_decl.evals._html_text",
    "wink_decl.evals._json_report",
    "wink_decl.evals._junit",
    "wink_decl.evals._table",
}
"""The modules that write an eval report in one format or another."""


@pytest.mark.parametrize(
    ("chosen", "writers"),
    [
        ("json", ["wink_decl.evals._json_report"]),
        ("junit", ["wink_decl.evals._junit"]),
        ("table", ["wink_decl.evals._table"]),
    ],
)
def test_eval_loads_the_writer_of_its_format_only(
    chosen: str, writers: list[str], tmp_path: Path
) -> None:
    """No HTML page unless --html, no other format's writer, no Ray for the local executor."""
    out = str(tmp_path / "out")
    argv = ["eval", "evals/code-review.wink-eval.yaml", "--replay", "evals/recorded"]
    status, modules = loaded(*argv, "--out", out, "--format", chosen)
    assert status == 0
    assert sorted(REPORT_WRITERS.intersection(modules)) == writers
    assert "wink_decl.evals._ray" not in modules
    assert sorted(COMMAND_MODULES.intersection(modules)) == ["wink_decl.cli._eval"]


@pytest.mark.parametrize("command", COMMANDS, ids=[c.name for c in COMMANDS])
def test_each_module_runs_the_command_the_table_describes(command: Command) -> None:
    module = importlib.import_module(f"wink_decl.cli._{command.name}")
    own: Command = module.COMMAND
    assert (own.name, own.summary, own.description, own.examples) == (
        command.name,
        command.summary,
        command.description,
        command.examples,
    )
    assert own.configure is vars(module)["_configure"]
    assert own.run is vars(module)["_run"]


TIMED = re.compile(r"  (.+?) +\d+\.\d ms +\d+\.\d\dx(?:  \(target (.+)\))?")
"""One line of the start-up benchmark: the label, the median, the ratio, and any target."""


def test_the_startup_benchmark_runs() -> None:
    script = REPO / "benchmarks" / "startup.py"
    done = run_python(script, args=["--runs", "1"], timeout=120)
    assert (done.returncode, done.stderr) == (0, "")
    lines = done.stdout.splitlines()
    assert lines[0] == "median of 1 fresh processes each, and the ratio to python -c pass"
    timed = [(line, TIMED.fullmatch(line)) for line in lines[1:]]
    assert [(m.group(1), m.group(2)) if m else line for line, m in timed] == [
        ("python -c pass", None),
        ("import wink_decl", "1.5x"),
        ("wink-decl --version", "3x"),
        ("wink-decl validate, one small file", "10x"),
        ("wink-decl validate, a file naming plugins", None),
    ]
