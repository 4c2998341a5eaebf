"""check-jsonschema with the eval schema: it accepts what wink-decl accepts, refuses the rest.

Each file is checked by both, YAML and TOML alike: the published schema and the model agree
on which eval files are well formed (what only validate checks, such as a prompt that exists,
is left out: the examples name none that are wrong).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from editor_support import REPO, TIMEOUT, quiet_env, tool

from wink_decl.loader import load_file
from wink_decl.schema.eval_validate import validate_eval_document

EVAL_SCHEMA = REPO / "schema" / "wink-decl-eval.schema.json"
BUNDLED = REPO / "evals" / "code-review.wink-eval.yaml"
TOML = """\
prompt = "../prompts/agents/code-review.wink.yaml"
models = ["openai:gpt-4.1-mini", {model = "openai:qwen3:8b", base_url = "http://127.0.0.1:1/v1"}]
threshold = 0.5

[experiments.bigger]
model = "openai:gpt-4.1"

[[cases]]
id = "one"
params = {language = "Go", change = "x"}

[[cases.assert]]
contains = "a"
weight = 2

[[cases.assert]]
tool_calls = {name = "read_file", max = 3}
"""
YAML_MISTAKES = {
    "unknown-key": ("threshold: 0.6", "treshold: 0.6"),
    "two-check-keys": ("- icontains: range(len(items))", "- {icontains: x, regex: x}"),
    "misspelled-check": ("- icontains: return", "- icontians: return"),
    "bad-weight": (
        "- contains: IndexError\n        weight: 2",
        "- contains: IndexError\n        weight: -2",
    ),
    "model-pattern": ("- openai:gpt-4.1-mini", "- gpt-4.1-mini"),
    "baseline": ("  bigger:", "  baseline:"),
    "threshold": ("threshold: 0.6", "threshold: 60"),
}
TOML_MISTAKES = {
    "unknown-key": ("threshold = 0.5", "treshold = 0.5"),
    "misspelled-common-key": ("weight = 2", "wieght = 2"),
    "tool-calls-bounds": ('{name = "read_file", max = 3}', '{name = "read_file"}'),
    "empty-experiment": ('model = "openai:gpt-4.1"', ""),
}


def ours(path: Path) -> str:
    """``valid`` or ``invalid`` by wink-decl's loader and eval model."""
    loaded = load_file(path)
    assert loaded.file is not None, loaded.diagnostics
    document, _ = validate_eval_document(loaded.file.data, loaded.file.source_map)
    return "valid" if document is not None else "invalid"


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("evals")
    written = [folder / "bundled.wink-eval.yaml", folder / "plain.wink-eval.toml"]
    written[0].write_text(BUNDLED.read_text())
    written[1].write_text(TOML)
    for mistakes, source, suffix in (
        (YAML_MISTAKES, BUNDLED.read_text(), "yaml"),
        (TOML_MISTAKES, TOML, "toml"),
    ):
        for name, (old, new) in mistakes.items():
            assert source.count(old) == 1, old
            path = folder / f"{name}.wink-eval.{suffix}"
            path.write_text(source.replace(old, new))
            written.append(path)
    return written


def test_check_jsonschema_and_wink_decl_agree_on_eval_files(files: list[Path]) -> None:
    folder = files[0].parent
    done = subprocess.run(
        [
            tool("check-jsonschema"),
            "--schemafile",
            str(EVAL_SCHEMA),
            "--output-format",
            "json",
            *(path.name for path in files),
        ],
        cwd=folder,
        env=quiet_env(folder),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    report = json.loads(done.stdout)
    assert report["parse_errors"] == []
    failed = {error["filename"] for error in report["errors"]}
    theirs = {path.name: "invalid" if path.name in failed else "valid" for path in files}
    assert theirs == {path.name: ours(path) for path in files}
    assert [name for name, verdict in theirs.items() if verdict == "valid"] == [
        "bundled.wink-eval.yaml",
        "plain.wink-eval.toml",
    ]
    assert done.returncode == 1
