"""check-jsonschema, the CI-side checker, accepts the bundled prompts and agrees with wink-decl."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from editor_support import (
    BUNDLED_TOML,
    BUNDLED_YAML,
    REPO,
    SCHEMA,
    TIMEOUT,
    TOML_MISTAKES,
    YAML_MISTAKES,
    quiet_env,
    tool,
)

from wink_decl.loader import load_file
from wink_decl.schema import validate_document

CASES = REPO / "tests" / "cases"
_NOT_VALID_UNDER = re.compile(r": \{.*\} is not valid under any of the given schemas$")


def check(
    files: list[Path], cwd: Path, tmp_path: Path, *options: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [tool("check-jsonschema"), "--schemafile", str(SCHEMA), *options, *map(str, files)],
        cwd=cwd,
        env=quiet_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )


def lines_by_file(output: str) -> dict[str, list[str]]:
    """The lines that carry a JSON path, per file; the repr of a whole mapping becomes {...}."""
    found: dict[str, list[str]] = {}
    current: list[str] = []
    for raw in output.splitlines():
        line = _NOT_VALID_UNDER.sub(
            ": {...} is not valid under any of the given schemas", raw.strip()
        )
        if "::$" in line:  # a header, `<file>::<path>: <message>`; indented details follow it
            current = found.setdefault(line.partition("::")[0], [])
        if "$" in line:
            current.append(line)
    return found


def test_the_bundled_prompts_are_valid(tmp_path: Path) -> None:
    files = [path.relative_to(REPO) for path in [*BUNDLED_YAML, *BUNDLED_TOML]]
    assert len(files) == 4
    result = check(files, REPO, tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (0, "ok -- validation done\n", "")


ANY_OF = "{...} is not valid under any of the given schemas"
# Where a section has a mistake, jsonschema's "best match" blames the other branch of
# SectionItem's oneOf (IncludeDoc, which allows only `include`); the "best deep match" under
# it names the real mistake.
BROKEN = {
    "misspelled-key": {
        "yaml": [
            f"{{name}}::$.sections[2]: {ANY_OF}",
            "$.sections[2]: Additional properties are not allowed ('tempalte' was unexpected)",
        ],
        "toml": [
            f"{{name}}::$.sections[0]: {ANY_OF}",
            "$.sections[0]: Additional properties are not allowed ('tempalte' was unexpected)",
        ],
    },
    "bad-visibility": {
        "yaml": [
            f"{{name}}::$.sections[3]: {ANY_OF}",
            "$.sections[3]: Additional properties are not allowed ('children', 'key', 'summary', "
            "'template', 'title', 'visibility' were unexpected)",
            "$.sections[3].visibility: 'ful' is not one of ['full', 'summary']",
        ],
        "toml": [
            f"{{name}}::$.sections[2]: {ANY_OF}",
            "$.sections[2]: Additional properties are not allowed ('key', 'summary', 'template', "
            "'title', 'tools', 'visibility' were unexpected)",
            "$.sections[2].visibility: 'ful' is not one of ['full', 'summary']",
        ],
    },
    "wrong-type": {
        "yaml": [
            f"{{name}}::$.sections[2]: {ANY_OF}",
            "$.sections[2]: Additional properties are not allowed ('key', 'template', 'title', "
            "'tools' were unexpected)",
            "$.sections[2].title: 3 is not of type 'string'",
        ],
        "toml": [
            f"{{name}}::$.sections[0]: {ANY_OF}",
            "$.sections[0]: Additional properties are not allowed ('key', 'template', 'title' "
            "were unexpected)",
            "$.sections[0].title: 3 is not of type 'string'",
        ],
    },
    # One error each: the rules per param type are if/then, and a misspelled type matches no
    # `if` (as oneOf branches, every branch failed too: "not valid under any of ...").
    "bad-param-type": {
        "yaml": [
            "{name}::$.params.change.type: 'strnig' is not one of "
            "['string', 'integer', 'number', 'boolean', 'array']",
        ],
        "toml": [
            "{name}::$.params.component.type: 'str' is not one of "
            "['string', 'integer', 'number', 'boolean', 'array']",
        ],
    },
    "missing-required": {
        "yaml": [
            f"{{name}}::$.sections[2]: {ANY_OF}",
            "$.sections[2]: 'title' is a required property",
        ],
        "toml": [
            f"{{name}}::$.sections[0]: {ANY_OF}",
            "$.sections[0]: 'title' is a required property",
        ],
    },
}


@pytest.fixture(scope="module")
def broken_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, str]:
    """check-jsonschema run once over every broken copy (it takes ~0.7 s to start)."""
    folder = tmp_path_factory.mktemp("broken")
    files = [
        Path(mistake.write(folder, str(SCHEMA)).name)
        for mistake in [*YAML_MISTAKES.values(), *TOML_MISTAKES.values()]
    ]
    result = check(files, folder, folder)
    return result.returncode, result.stdout


def test_broken_copies_fail(broken_report: tuple[int, str]) -> None:
    status, output = broken_report
    assert status == 1
    assert output.startswith("Schema validation errors were encountered.\n")
    assert len(lines_by_file(output)) == len(YAML_MISTAKES) + len(TOML_MISTAKES)


@pytest.mark.parametrize("file_format", ["yaml", "toml"])
@pytest.mark.parametrize("mistake_id", list(BROKEN))
def test_a_broken_copy_is_reported_with_its_json_paths(
    broken_report: tuple[int, str], mistake_id: str, file_format: str
) -> None:
    name = f"{mistake_id}.wink.{file_format}"
    expected = [line.replace("{name}", name) for line in BROKEN[mistake_id][file_format]]
    assert lines_by_file(broken_report[1])[name] == expected


def our_verdict(path: Path) -> str:
    """``valid``, ``invalid`` (schema errors) or ``unreadable`` (the loader's own errors)."""
    loaded = load_file(path)
    if loaded.file is None:
        return "unreadable"
    document, _ = validate_document(loaded.file.data, loaded.file.source_map)
    return "valid" if document is not None else "invalid"


def test_check_jsonschema_and_wink_decl_agree_on_the_case_files(tmp_path: Path) -> None:
    files = sorted(path.relative_to(REPO) for path in CASES.rglob("*.wink.*"))
    result = check(files, REPO, tmp_path, "--output-format", "json")
    report: dict[str, Any] = json.loads(result.stdout)
    failed = {error["filename"] for error in report["errors"]}
    unparsed = {error["filename"] for error in report["parse_errors"]}
    theirs = {
        str(path): "unreadable"
        if str(path) in unparsed
        else "invalid"
        if str(path) in failed
        else "valid"
        for path in files
    }
    ours = {str(path): our_verdict(REPO / path) for path in files}
    assert theirs == ours
    # The cases cover all three outcomes; compile-time mistakes (unknown tool names, missing
    # params) are schema-valid, so some files under invalid/ are valid here.
    assert set(ours.values()) == {"valid", "invalid", "unreadable"}
    assert result.returncode == 1
