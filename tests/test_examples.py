"""The README's main command, the runnable examples and the benchmark's prompt shape."""

from __future__ import annotations

import importlib.util
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from golden import updating_golden
from openai_replies import reply
from provider_server import ProviderServer

from wink_decl.compiler import compile_file, make_params

ROOT = Path(__file__).resolve().parent.parent

EXPECTED_EXAMPLE_OUTPUT = """\
## 1. Task (task)

Review the Python change below.

def f(): pass

## 2. Reference (reference)

Style rules for Python are available.

---
[This section is summarized. Call `read_section` with key "reference" to view full content \
including subsections: naming, layout.]

tools: read_section

read_section -> Content of section 'reference':
## 2. Reference (reference)

Cite rules by id; look each one up before citing it.

### 2.1. Naming (reference.naming)

Use snake_case.

### 2.2. Layout (reference.layout)

Keep functions short.

after expansion, tools: lookup_rule
OpenAI format of the first tool: {'type': 'function', 'function': {'name': 'lookup_rule', \
'description': 'Look up one style rule by id.', 'parameters': {'type': 'object', 'properties': \
{'rule_id': {'type': 'string', 'description': 'Rule id such as E501.'}}, 'required': \
['rule_id'], 'additionalProperties': False}}}
"""


def _load(relative: str) -> ModuleType:
    path = ROOT / relative
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


def test_progressive_disclosure_example_prints_exactly_what_the_model_sees() -> None:
    completed = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "progressive_disclosure.py")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert completed.stderr == ""
    assert completed.stdout == EXPECTED_EXAMPLE_OUTPUT


def test_benchmark_prompt_has_the_issue_shape() -> None:
    bench = _load("benchmarks/render.py")
    template = bench.build_template(12)
    nodes = template.nodes
    assert [node.section.key for node in nodes] == [f"s{i}" for i in range(12)]
    assert [node.depth for node in nodes] == [0, 1, 2] * 4
    summarized = [node.index for node in nodes if node.base_visibility.value == "summary"]
    assert summarized == [1, 3, 5, 7, 9, 11]
    with_tools = [node.index for node in nodes if node.tools]
    assert with_tools == [0, 3, 6, 9]


def test_benchmark_fragments_rebuild_the_rendered_text() -> None:
    bench = _load("benchmarks/render.py")
    text = "## 1. A (a)\n\nBody for wink.\n\n## 2. B (b)"
    assert bench.fragments(text, "wink") == [
        "## 1. A (a)",
        "\n\n",
        "Body for ",
        "wink",
        ".",
        "\n\n",
        "## 2. B (b)",
    ]


def main_job_commands() -> str:
    """The README's first command without its install step, run with this interpreter."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    line = next(line for line in lines if line.endswith("# main job"))
    steps = line.removesuffix("# main job").strip().split(" && ")
    assert steps[0].startswith("python3 -m pip install ")
    return " && ".join(steps[1:]).replace("python3 ", f"{shlex.quote(sys.executable)} ")


_SUMMARY_ROW = re.compile(
    r"(?m)^(\S+ +\S+ +[\d.]+ +\d+ +\d+ +\d+ +[\d.]+ +)(\d+)( +)(\d+)( +\d+ +\d+)$"
)
"""A row of the eval table: its p50 and p95 latencies (groups 2 and 4) vary from run to run."""


def _latencies_masked(text: str) -> str:
    """``text`` with the eval table's latencies as ``~``, each column keeping its width."""

    def mask(row: re.Match[str]) -> str:
        p50, gap, p95 = row.group(2), row.group(3), row.group(4)
        return f"{row.group(1)}{'~'.rjust(len(p50))}{gap}{'~'.rjust(len(p95))}{row.group(5)}"

    return _SUMMARY_ROW.sub(mask, text)


def test_the_readme_main_job_validates_and_renders_the_bundled_prompts() -> None:
    completed = subprocess.run(
        ["bash", "-c", main_job_commands()],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    golden = ROOT / "tests" / "golden" / "main_job.txt"
    output = _latencies_masked(
        f"exit {completed.returncode}\n--- stderr\n{completed.stderr}--- stdout\n{completed.stdout}"
    )
    if updating_golden():
        golden.write_text(output, encoding="utf-8")
    assert output == golden.read_text(encoding="utf-8")


def test_the_adapter_benchmark_times_each_adapter_and_its_sdk_call() -> None:
    completed = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "adapters.py"),
            "--number=3",
            "--repeat=1",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    results = json.loads(completed.stdout)
    assert [result["name"] for result in results] == ["openai", "anthropic", "litellm"]
    for result in results:
        assert result["adapter_us"] > 0
        assert result["sdk_us"] > 0
        assert result["ratio"] == result["adapter_us"] / result["sdk_us"]


def test_the_readme_python_run_works_against_a_local_server(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("```python\n", readme.index("From Python, the same run")) + 10
    code = readme[start : readme.index("```", start)]
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("OPENAI_API_KEY", "local")
    with ProviderServer([reply("Use a + b.", usage=(12, 4))]) as server:
        exec(code.replace("http://127.0.0.1:11434/v1", f"{server.url}/v1"), {})  # noqa: S102  # the README's own code
    assert capsys.readouterr().out == "Use a + b. TokenUsage(input_tokens=12, output_tokens=4)\n"
    assert server.requests[0].json["model"] == "qwen3:8b"


def readme_block_after(marker: str) -> str:
    """The first Python block of the README after ``marker``."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("```python\n", readme.index(marker)) + len("```python\n")
    return readme[start : readme.index("```", start)]


def test_the_readme_load_example_renders_and_runs_against_a_local_server(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code = readme_block_after("From Python, `wink_decl.load`")
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("OPENAI_API_KEY", "local")
    with ProviderServer([reply("Use a + b.", usage=(12, 4))]) as server:
        exec(code.replace("http://127.0.0.1:11434/v1", f"{server.url}/v1"), {})  # noqa: S102  # the README's own code
    compiled = compile_file("prompts/agents/code-review.wink.yaml", root="prompts").prompt
    assert compiled is not None
    change = {"language": "Python", "change": "def add(a, b): return a - b"}
    rendered = compiled.template.render(*make_params(compiled, change)).text
    assert capsys.readouterr().out == f"{rendered}\nUse a + b.\n"
    assert [request.json["model"] for request in server.requests] == ["qwen3:8b"]
