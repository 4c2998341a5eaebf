"""Each parser is imported by the first file that needs it: most ``validate`` runs need none.

A plain file is read by the quick readers alone; its spans (asked for by a mistake, or by a
plugin that does not bind) compose it then. Each case runs ``wink-decl validate`` in a fresh
interpreter, in a folder with no ``pyproject.toml`` above it, and asks which parsers it loaded.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from concurrency import run_python

LOADED = """
import json, sys
from wink_decl.cli import main
status = main(sys.argv[1:])
parsers = ("ruamel.yaml", "tomli", "wink_decl.loader._yaml_compose", "wink_decl.loader._toml_scan")
print(json.dumps({"status": status, "parsers": [m for m in parsers if m in sys.modules]}))
"""

PLAIN_YAML = """\
key: plain
params:
  topic: {type: string}
tools:
  add_step:
    handler: planning.add_step
    description: Add a step to the plan.
sections:
  - key: task
    title: Task
    template: Write about ${topic}.
    tools: [add_step]
  - include: shared.wink.yaml#tone
"""
SHARED_YAML = """\
key: shared
sections:
  - key: tone
    title: Tone
    template: Be brief.
"""
PLAIN_TOML = """\
key = "plain"

[params.topic]
type = "string"

[[sections]]
key = "task"
title = "Task"
template = "Write about ${topic}."
"""
ALIASED_YAML = """\
key: aliased
sections:
  - &task
    key: task
    title: Task
    template: Be brief.
"""
FLOAT_TOML = PLAIN_TOML.replace('type = "string"', 'type = "number"\ndefault = 0.5')
MISTAKEN_YAML = PLAIN_YAML.replace("handler: planning.add_step", "handler: planning.add_stepp")

FILES = {
    "plain.wink.yaml": PLAIN_YAML,
    "shared.wink.yaml": SHARED_YAML,
    "plain.wink.toml": PLAIN_TOML,
    "aliased.wink.yaml": ALIASED_YAML,
    "float.wink.toml": FLOAT_TOML,
    "mistaken.wink.yaml": MISTAKEN_YAML,
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    made = tmp_path_factory.mktemp("on-demand")
    for name, text in FILES.items():
        (made / name).write_text(text, encoding="utf-8")
    return made


def parsers_loaded(folder: Path, *files: str) -> tuple[int, list[str]]:
    """The exit status of ``wink-decl validate FILES`` and the parsers it imported."""
    completed = run_python(LOADED, args=["validate", "--root", ".", *files], cwd=folder)
    assert completed.returncode == 0, completed.stderr
    found = json.loads(completed.stdout.splitlines()[-1])
    return found["status"], found["parsers"]


CASES: list[tuple[list[str], tuple[int, list[str]]]] = [
    # A handler that binds and an include that is found ask for no span.
    (["plain.wink.yaml"], (0, [])),
    (["plain.wink.toml"], (0, [])),
    (["plain.wink.yaml", "plain.wink.toml"], (0, [])),
    (["aliased.wink.yaml"], (0, ["ruamel.yaml", "wink_decl.loader._yaml_compose"])),
    (["float.wink.toml"], (0, ["tomli", "wink_decl.loader._toml_scan"])),
    # The mistake's place is asked of the quickly read file: it is composed then.
    (["mistaken.wink.yaml"], (1, ["ruamel.yaml", "wink_decl.loader._yaml_compose"])),
]


@pytest.mark.parametrize(
    ("files", "expected"),
    CASES,
    ids=["yaml", "toml", "both", "yaml-alias", "toml-float", "yaml-mistake"],
)
def test_a_parser_is_imported_only_for_a_file_that_needs_it(
    folder: Path, files: list[str], expected: tuple[int, list[str]]
) -> None:
    assert parsers_loaded(folder, *files) == expected
