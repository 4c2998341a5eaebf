"""plugins/wink-decl-example, the package docs/plugins.md walks through, installed by pip.

A copy of the package is installed with ``pip --target`` (no dependencies: wink-decl is the
one under test); each command runs in a fresh interpreter that finds it through
``PYTHONPATH``: ``wink-decl plugins`` lists its three entry points, the example prompt
validates (its plugins imported), renders and gives its tools, and the package's own tests
pass.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from concurrency import MIB, run_python
from plugin_support import PLUGINS, pip_install_into

EXAMPLE = PLUGINS / "wink-decl-example"
CLI = "import sys\nfrom wink_decl.cli import main\nsys.exit(main(sys.argv[1:]))\n"
PYTEST = "import sys, pytest\nsys.exit(pytest.main(sys.argv[1:]))\n"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the folder pip installed into, a copy of the package's sources)."""
    root = tmp_path_factory.mktemp("example")
    source = root / "wink-decl-example"
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("*.egg-info", "__pycache__"))
    target = root / "site"
    pip_install_into(source, target)
    return target, source


def child(installed: tuple[Path, Path], script: str, *argv: str) -> tuple[int, str, str]:
    target, source = installed
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(target), *sys.path])}
    done = run_python(script, args=argv, timeout=120, memory=1024 * MIB, cwd=source, env=env)
    return done.returncode, done.stdout, done.stderr


def test_plugins_lists_the_example_with_its_distribution(installed: tuple[Path, Path]) -> None:
    status, out, err = child(installed, CLI, "plugins")
    rows = [line.split() for line in out.splitlines() if "wink-decl-example" in line]
    assert (status, err) == (0, "")
    assert rows == [
        [
            "example.count_words",
            "wink-decl-example",
            "1.0.0",
            "wink_decl_example.handlers:count_words",
        ],
        [
            "example.max_length",
            "wink-decl-example",
            "1.0.0",
            "wink_decl_example.policies:max_length",
        ],
        [
            "example.long_text",
            "wink-decl-example",
            "1.0.0",
            "wink_decl_example.predicates:long_text",
        ],
    ]


def test_the_example_prompt_validates_renders_and_gives_its_tools(
    installed: tuple[Path, Path],
) -> None:
    prompt = "prompts/count.wink.yaml"
    assert child(installed, CLI, "validate", "--import-plugins", prompt) == (
        0,
        "",
        "1 file checked: 1 valid, 0 invalid\n",
    )
    assert child(installed, CLI, "render", prompt, "--param", "text=one two") == (
        0,
        "## 1. Task (task)\n"
        "\n"
        "Count the words of the text below with count_words, and answer with the number.\n"
        "\n"
        "one two\n"
        "\n"
        "tools:\n"
        "  count_words  Count the words of a text.\n",
        "",
    )
    # No --param: text fills the template only, and the section it decides offers no tools.
    assert child(installed, CLI, "tools", prompt) == (
        0,
        '{\n  "count_words": {\n    "type": "object",\n    "properties": {\n'
        '      "text": {\n        "type": "string"\n      }\n    },\n'
        '    "required": [\n      "text"\n    ],\n    "additionalProperties": false\n'
        "  }\n}\n",
        "",
    )


def test_the_example_passes_its_own_tests(installed: tuple[Path, Path]) -> None:
    status, out, err = child(installed, PYTEST, "-q", "-p", "no:cacheprovider", "tests")
    assert status == 0, out + err
    assert out.splitlines()[-1].startswith("4 passed")
