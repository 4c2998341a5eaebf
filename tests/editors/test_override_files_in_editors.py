"""Editors check override files against their own schema, as they check prompt files:
yaml-language-server over LSP for YAML, tombi for TOML, both offline with the schema line."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from editor_support import REPO, TIMEOUT, quiet_env, tool
from lsp_client import LspClient
from override_support import template

from wink_decl.cli._writers._comments import schema_line
from wink_decl.cli._writers._toml_writer import to_toml
from wink_decl.cli._writers._yaml_writer import to_yaml
from wink_decl.overrides import seed_data

SCHEMA = REPO / "schema" / "wink-decl-override.schema.json"
SERVER = REPO / "tests" / "editors" / "node_modules" / ".bin" / "yaml-language-server"
SHORT = "sha256:abc"
YAML_MISTAKES = {
    "short-hash": (r"hash: sha256:[0-9a-f]{64}", f"hash: {SHORT}"),
    "bad-visibility": (r"text: summary\n", "text: ful\n"),
    "unknown-key": (r"    template:\n", "    templat:\n"),
}


def seeded(file_format: str, reference: str) -> str:
    data = seed_data(template())
    body = to_yaml(data) if file_format == "yaml" else to_toml(data)
    return schema_line(reference, file_format) + body  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


def _no_server() -> bool:
    return shutil.which("node") is None or not SERVER.exists()


@pytest.fixture(scope="module")
def server() -> Iterator[LspClient]:
    settings = {
        "yaml": {
            "validate": True,
            "hover": True,
            "completion": True,
            "format": {"enable": False},
            "schemaStore": {"enable": False},
            "kubernetesCRDStore": {"enable": False},
            "schemas": {},
        },
        "http": {"proxy": "", "proxyStrictSSL": True},
        "[yaml]": {},
        "editor": {"tabSize": 2, "detectIndentation": False},
    }
    client = LspClient([str(SERVER), "--stdio"], settings=settings, timeout=TIMEOUT)
    try:
        client.initialize(REPO)
        yield client
    finally:
        client.close()


def messages(diagnostics: list[dict[str, Any]]) -> list[tuple[int, int, str]]:
    return [
        (item["range"]["start"]["line"], item["range"]["start"]["character"], item["message"])
        for item in diagnostics
    ]


@pytest.mark.skipif(_no_server(), reason="yaml-language-server is not installed (npm ci)")
def test_yaml_language_server_accepts_a_seeded_file_and_points_at_each_mistake(
    server: LspClient, tmp_path: Path
) -> None:
    text = seeded("yaml", SCHEMA.as_uri())
    clean = tmp_path / "exp.wink-override.yaml"
    clean.write_text(text)
    assert server.diagnostics(server.open_document(clean, "yaml")) == []
    found: dict[str, list[tuple[int, int, str]]] = {}
    for name, (old, new) in YAML_MISTAKES.items():
        path = tmp_path / f"{name}.wink-override.yaml"
        path.write_text(re.sub(old, new, text, count=1))
        found[name] = messages(server.diagnostics(server.open_document(path, "yaml")))
    assert found == {
        "short-hash": [(4, 12, "Write sha256: and all 64 lower-case hex digits.")],
        "bad-visibility": [
            (18, 12, 'Value is not accepted. Valid values: "full", "summary".'),
        ],
        "unknown-key": [(3, 4, "Property templat is not allowed.")],
    }


def lint(path: Path, cwd: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [tool("tombi"), "lint", "--offline", str(path)],
        cwd=cwd,
        env=quiet_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )


def test_tombi_lints_a_seeded_file_clean_and_reports_a_mistake_at_its_line(
    tmp_path: Path,
) -> None:
    text = seeded("toml", str(SCHEMA))
    (tmp_path / "exp.wink-override.toml").write_text(text)
    clean = lint(Path("exp.wink-override.toml"), tmp_path, tmp_path)
    assert (clean.returncode, clean.stderr) == (0, "1 file linted successfully\n")
    broken = re.sub(r'hash = "sha256:[0-9a-f]{64}"', f'hash = "{SHORT}"', text, count=1)
    broken = broken.replace('text = "summary"', 'text = "ful"', 1)
    (tmp_path / "broken.wink-override.toml").write_text(broken)
    result = lint(Path("broken.wink-override.toml"), tmp_path, tmp_path)
    assert (result.returncode, result.stderr) == (
        1,
        '  Error: "sha256:abc" does not match the pattern `^sha256:[0-9a-f]{64}$`\n'
        "    at broken.wink-override.toml:3:8\n"
        '  Error: the value must be one of ["full", "summary"], but found "ful"\n'
        "    at broken.wink-override.toml:20:8\n"
        "1 file failed to be linted\n",
    )
