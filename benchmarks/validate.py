"""Checking many files: ``wink-decl validate`` on one core against check-jsonschema's schema pass.

1,000 distinct small valid prompt files are written to a temporary folder, one in ten TOML,
each with a schema line as the bundled ``prompts/`` have. Two fresh processes check them all:
``wink-decl validate DIR -j 1`` (syntax, the schema, references, tools, params, includes and
installed plugins) and ``check-jsonschema --schemafile schema/wink-decl.schema.json FILES...``
(the schema only, the check docs/editors.md offers without wink-decl). Each figure is the CPU
time (user and system) of the process, what it costs on one core: wall-clock time on a shared
machine also counts the time other processes held the core. Rounds alternate the two; each
figure is the best of the rounds, and the ratio is check-jsonschema's time over ours. Target
(issue 14): at least 5x; figures in README.md "Speed".

Both read bytecode as installed packages do (see ``benchmarks/startup.py``): a first, untimed
run of each writes it under one temporary ``PYTHONPYCACHEPREFIX``. check-jsonschema reads only
the local schema file; its cache and config folders are moved into the temporary folder.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also when run by path, not as a script

from _fixtures import (  # after the path is set
    SCHEMA_REFERENCE,
    best_of_rounds,
    child_cpu_seconds,
    child_environment,
    review_yaml,
    write_numbered,
)

REPO = Path(__file__).resolve().parent.parent
SCHEMA = REPO / "schema" / "wink-decl.schema.json"
TARGET = 5.0

TOML_PROMPT = """\
#:schema {schema}
key = "release-{i}"
name = "Release {i}"
description = "Ships version {i}."

[params.version]
type = "string"
description = "The version to release."

[[sections]]
key = "task"
title = "Task"
template = "Release version ${{version}}, build {i}."

[[sections]]
key = "notes"
title = "Notes"
visibility = "summary"
summary = "Release notes are available."
template = "Note {i}: write what changed."
"""


def write_prompts(folder: Path, count: int) -> list[Path]:
    """``count`` distinct valid prompt files in ``folder``, every tenth one TOML."""
    (folder.parent / "schema").mkdir(exist_ok=True)
    (folder.parent / "schema" / SCHEMA.name).write_bytes(SCHEMA.read_bytes())
    return write_numbered(folder, count, _prompt)


def _prompt(i: int) -> tuple[str, str]:
    if i % 10 == 9:
        return f"release-{i}.wink.toml", TOML_PROMPT.format(i=i, schema=SCHEMA_REFERENCE)
    return f"review-{i}.wink.yaml", review_yaml(i, described=True)


def commands(folder: Path, paths: list[Path]) -> tuple[list[str], list[str]]:
    """The two command lines: wink-decl on the folder, check-jsonschema on every file."""
    ours = [sys.executable, "-m", "wink_decl", "validate", str(folder), "--root", str(folder)]
    checker = Path(sys.executable).parent / "check-jsonschema"
    peer = [str(checker), "--schemafile", str(SCHEMA), *map(str, paths)]
    return [*ours, "-j", "1"], peer


def run_once(command: list[str], env: dict[str, str], cwd: Path) -> float:
    """CPU seconds one fresh process takes; a command that fails stops the benchmark."""
    return child_cpu_seconds(command, env, cwd, name=command[0])


def main(argv: list[str] | None = None) -> int:
    """Print the best time of each checker and check-jsonschema's time over ours."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, default=1_000, help="prompt files to check")
    parser.add_argument("--rounds", type=int, default=5, help="runs of each checker")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        folder = work / "prompts"
        folder.mkdir()
        paths = write_prompts(folder, args.files)
        env = child_environment(str(work / "pycache"))
        env |= {"NO_COLOR": "1", "XDG_CACHE_HOME": temporary, "XDG_CONFIG_HOME": temporary}
        sides = [partial(run_once, command, env, work) for command in commands(folder, paths)]
        best = best_of_rounds(sides, args.rounds, warm_up=True)  # warming up writes bytecode
    print(f"{args.files} prompt files, one process each, best of {args.rounds} rounds")
    print(f"  wink-decl validate -j 1           {best[0]:7.3f} s")
    print(f"  check-jsonschema (schema only)    {best[1]:7.3f} s")
    print(f"  ratio {best[1] / best[0]:.2f}x (check-jsonschema / wink-decl, target {TARGET:g}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
