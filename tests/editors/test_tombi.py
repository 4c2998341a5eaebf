"""tombi (TOML toolkit, from PyPI) lints prompt files against the schema offline, and completes."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from editor_support import (
    BUNDLED_TOML,
    PROMPTS,
    REPO,
    SCHEMA,
    TIMEOUT,
    TOML_MISTAKES,
    quiet_env,
    tool,
)
from lsp_client import LspClient

DEFS: dict[str, Any] = json.loads(SCHEMA.read_text(encoding="utf-8"))["$defs"]
SECTION_PROPERTIES: dict[str, Any] = DEFS["SectionDoc"]["properties"]
TOOL_PROPERTIES: dict[str, Any] = DEFS["ToolDoc"]["properties"]


def lint(path: Path, cwd: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    # --offline: the schema comes from the file's `#:schema` line, never from a catalog.
    return subprocess.run(
        [tool("tombi"), "lint", "--offline", str(path)],
        cwd=cwd,
        env=quiet_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )


@pytest.mark.parametrize(
    "path", BUNDLED_TOML, ids=[str(p.relative_to(PROMPTS)) for p in BUNDLED_TOML]
)
def test_bundled_prompt_lints_clean(path: Path, tmp_path: Path) -> None:
    result = lint(path.relative_to(REPO), REPO, tmp_path)
    # tombi writes its summary, like its diagnostics, to stderr.
    assert (result.returncode, result.stdout, result.stderr) == (
        0,
        "",
        "1 file linted successfully\n",
    )


BROKEN = {
    "misspelled-key": '"tempalte" is not allowed\n    at {path}:26:1',
    "bad-visibility": (
        'the value must be one of ["full", "summary"], but found "ful"\n    at {path}:40:14'
    ),
    "wrong-type": "expected a value of type String, but found Integer\n    at {path}:25:9",
    # One mistake, two reports: the enum on `type` and the `const` of each oneOf branch.
    # Reported once: the rules per param type are if/then, which a misspelled type leaves alone.
    "bad-param-type": (
        'the value must be one of ["string", "integer", "number", "boolean", "array"], '
        'but found "str"\n    at {path}:9:8'
    ),
    "missing-required": '"title" is required\n    at {path}:23:1',
}


@pytest.mark.parametrize("reference", ["path", "uri"])
@pytest.mark.parametrize("mistake_id", list(BROKEN))
def test_a_broken_copy_is_reported_at_file_line_column(
    tmp_path: Path, mistake_id: str, reference: str
) -> None:
    schema_reference = str(SCHEMA) if reference == "path" else SCHEMA.as_uri()
    path = TOML_MISTAKES[mistake_id].write(tmp_path, schema_reference)
    result = lint(Path(path.name), tmp_path, tmp_path)
    expected = BROKEN[mistake_id].format(path=path.name)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == f"  Error: {expected}\n1 file failed to be linted\n"


def test_the_relative_schema_line_is_followed(tmp_path: Path) -> None:
    # The bundled prompts lint clean whether or not the schema was found; the same layout with
    # a mistake in it shows that `#:schema ../../schema/...` resolves from the file's folder.
    (tmp_path / "schema").mkdir()
    shutil.copy(SCHEMA, tmp_path / "schema" / SCHEMA.name)
    folder = tmp_path / "prompts" / "release"
    folder.mkdir(parents=True)
    path = TOML_MISTAKES["misspelled-key"].write(folder, "../../schema/wink-decl.schema.json")
    result = lint(path.relative_to(tmp_path), tmp_path, tmp_path)
    assert (result.returncode, result.stderr) == (
        1,
        '  Error: "tempalte" is not allowed\n'
        "    at prompts/release/misspelled-key.wink.toml:26:1\n"
        "1 file failed to be linted\n",
    )


def test_a_tombi_toml_associates_the_schema_by_file_name(tmp_path: Path) -> None:
    # The settings route, for files without a `#:schema` line (docs/editors.md shows it).
    (tmp_path / "tombi.toml").write_text(
        f'[[schemas]]\npath = "{SCHEMA}"\ninclude = ["*.wink.toml"]\n', encoding="utf-8"
    )
    text = TOML_MISTAKES["misspelled-key"].text("unused").replace("#:schema unused", "# prompt")
    (tmp_path / "release.wink.toml").write_text(text, encoding="utf-8")
    (tmp_path / "release.toml").write_text(text, encoding="utf-8")
    matched = lint(Path("release.wink.toml"), tmp_path, tmp_path)
    assert (matched.returncode, matched.stderr) == (
        1,
        '  Error: "tempalte" is not allowed\n'
        "    at release.wink.toml:26:1\n"
        "1 file failed to be linted\n",
    )
    unmatched = lint(Path("release.toml"), tmp_path, tmp_path)
    assert (unmatched.returncode, unmatched.stderr) == (0, "1 file linted successfully\n")


def test_completion_over_lsp_offers_the_section_keys(tmp_path: Path) -> None:
    text = f'#:schema {SCHEMA}\nkey = "review"\n\n[[sections]]\nkey = "task"\ntitle = "Task"\n\n'
    path = tmp_path / "keys.wink.toml"
    command = [tool("tombi"), "lsp", "--offline"]
    with LspClient(command, settings={}, env=quiet_env(tmp_path), timeout=TIMEOUT) as client:
        client.initialize(tmp_path)
        uri = client.open_document(path, "toml", text)
        assert client.diagnostics(uri) == []
        items: list[dict[str, Any]] = client.request(
            "textDocument/completion", LspClient.position(6, 0, uri)
        )
    labels = [item["label"] for item in items]
    # The last comes from the property named inside SectionDoc's allOf/anyOf branch: tombi
    # offers it even though `title` is present.
    assert labels == [
        "template",
        "summary",
        "summary_suffix",
        "visibility",
        "enabled",
        "tools",
        "policies",
        "accepts_overrides",
        "children",
        "title",
    ]
    for item in items[:-1]:
        # tombi shows the plain `description`, then its own lines (type, default, schema link).
        documentation: dict[str, str] = item["documentation"]
        assert documentation["kind"] == "markdown"
        description: str = SECTION_PROPERTIES[item["label"]]["description"]
        assert documentation["value"].startswith(f"{description}\n\n")


def test_completion_over_lsp_offers_reads_and_writes_in_a_tool(tmp_path: Path) -> None:
    text = (
        f"#:schema {SCHEMA}\n"
        'key = "fix"\n'
        "\n"
        "[[sections]]\n"
        'title = "Task"\n'
        'tools = ["patch"]\n'
        "\n"
        "[tools.patch]\n"
        'description = "Replace one exact, unique piece of text in a file."\n'
        'handler = "files.edit_file"\n'
        "\n"
    )
    path = tmp_path / "tool.wink.toml"
    command = [tool("tombi"), "lsp", "--offline"]
    with LspClient(command, settings={}, env=quiet_env(tmp_path), timeout=TIMEOUT) as client:
        client.initialize(tmp_path)
        uri = client.open_document(path, "toml", text)
        assert client.diagnostics(uri) == []
        items: list[dict[str, Any]] = client.request(
            "textDocument/completion", LspClient.position(10, 0, uri)
        )
    labels = [item["label"] for item in items]
    assert labels == ["params", "result", "reads", "writes", "examples", "accepts_overrides"]
    for item in items:
        documentation: dict[str, str] = item["documentation"]
        description: str = TOOL_PROPERTIES[item["label"]]["description"]
        assert documentation["value"].startswith(f"{description}\n\n")
