"""plugins/wink-decl-example, the package docs/plugins.md walks through, installed by pip.

A copy of the package is installed with ``pip --target`` (no dependencies: wink-decl is the
one under test); each command runs in a fresh interpreter that finds it through
``PYTHONPATH``: ``wink-decl plugins`` lists its four entry points, the example prompt
validates (its plugins imported), renders and gives its tools, a ``plugin`` check scores with
its evaluator, and the package's own tests pass.
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
EVALUATE = """\
from wink_decl.evals import Outcome, PluginCheck, Sample, evaluate

check = PluginCheck(name="example.max_words", args={"limit": 3})
case = Sample("short")
for text in ("one two three", "one two three four", "a b c d e f"):
    print(evaluate(check, Outcome(text=text), case))
print(evaluate(PluginCheck(name="example.max_word"), Outcome(text=""), case))
print(evaluate(PluginCheck(name="example.max_words", args={"limt": 3}), Outcome(text=""), case))
"""


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
        [
            "example.max_words",
            "wink-decl-example",
            "1.0.0",
            "wink_decl_example.evaluators:max_words",
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


def test_a_plugin_check_scores_with_the_example_evaluator(installed: tuple[Path, Path]) -> None:
    label = (
        "'example.max_words' (wink-decl-example 1.0.0, value "
        "'wink_decl_example.evaluators:max_words')"
    )
    assert child(installed, EVALUATE) == (
        0,
        "Score(value=1.0, passed=True, reason='3 words (at most 3)')\n"
        "Score(value=0.75, passed=False, reason='4 words; at most 3')\n"
        "Score(value=0.5, passed=False, reason='6 words; at most 3')\n"
        "Score(value=0.0, passed=False, reason=\"No evaluator named 'example.max_word' is "
        "installed. Did you mean 'example.max_words'? Run 'wink-decl plugins' to list what is "
        'installed.")\n'
        f"Score(value=0.0, passed=False, reason=\"Evaluator {label} has no arg 'limt'; it takes "
        "limit. Did you mean 'limit'?\")\n",
        "",
    )


def test_the_example_passes_its_own_tests(installed: tuple[Path, Path]) -> None:
    status, out, err = child(installed, PYTEST, "-q", "-p", "no:cacheprovider", "tests")
    assert status == 0, out + err
    assert out.splitlines()[-1].startswith("5 passed")
