"""yaml-language-server, spoken to over LSP, validates, completes and documents prompt files."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from editor_support import (
    BUNDLED_YAML,
    PROMPTS,
    REPO,
    SCHEMA,
    TIMEOUT,
    YAML_MISTAKES,
    replace_once,
    without_schema_line,
)
from lsp_client import LspClient

from wink_decl.cli import main

SERVER = REPO / "tests" / "editors" / "node_modules" / ".bin" / "yaml-language-server"
SCHEMA_JSON: dict[str, Any] = json.loads(SCHEMA.read_text(encoding="utf-8"))
SECTION_PROPERTIES: dict[str, Any] = SCHEMA_JSON["$defs"]["SectionDoc"]["properties"]
INCLUDE_PROPERTIES: dict[str, Any] = SCHEMA_JSON["$defs"]["IncludeDoc"]["properties"]
TOOL_PROPERTIES: dict[str, Any] = SCHEMA_JSON["$defs"]["ToolDoc"]["properties"]


def _skip_reason() -> str | None:
    if shutil.which("node") is None:
        return "node is not on PATH; yaml-language-server needs Node.js 20"
    if not SERVER.exists():
        return f"{SERVER.relative_to(REPO)} is missing; run: npm ci --prefix tests/editors"
    return None


pytestmark = pytest.mark.skipif(_skip_reason() is not None, reason=str(_skip_reason()))


def settings(schemas: Mapping[str, str] | None = None) -> dict[str, Any]:
    """What VS Code would answer to ``workspace/configuration``, with no network stores."""
    return {
        "yaml": {
            "validate": True,
            "hover": True,
            "completion": True,
            "format": {"enable": False},
            "schemaStore": {"enable": False},
            "kubernetesCRDStore": {"enable": False},
            "schemas": dict(schemas or {}),
        },
        "http": {"proxy": "", "proxyStrictSSL": True},
        "[yaml]": {},
        "editor": {"tabSize": 2, "detectIndentation": False},
    }


def start(schemas: Mapping[str, str] | None = None) -> LspClient:
    client = LspClient([str(SERVER), "--stdio"], settings=settings(schemas), timeout=TIMEOUT)
    try:
        client.initialize(REPO)
    except BaseException:
        client.close()
        raise
    return client


@pytest.fixture(scope="module")
def server() -> Iterator[LspClient]:
    """One server for the module: each test opens documents under URIs of its own."""
    with start() as client:
        yield client


def found(diagnostics: list[dict[str, Any]]) -> list[tuple[tuple[int, int, int, int], str, str]]:
    """Each diagnostic as (start line, start column, end line, end column), message, source."""
    assert all(item["severity"] == 1 for item in diagnostics), diagnostics
    return [
        (
            (
                item["range"]["start"]["line"],
                item["range"]["start"]["character"],
                item["range"]["end"]["line"],
                item["range"]["end"]["character"],
            ),
            item["message"],
            item["source"],
        )
        for item in diagnostics
    ]


# -- diagnostics --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path", BUNDLED_YAML, ids=[str(p.relative_to(PROMPTS)) for p in BUNDLED_YAML]
)
def test_bundled_prompt_has_no_diagnostics(server: LspClient, path: Path) -> None:
    uri = server.open_document(path, "yaml")
    assert server.diagnostics(uri) == []


def test_the_relative_schema_line_is_followed(server: LspClient) -> None:
    # Zero diagnostics would also come from a schema that was never found: a mistaken document
    # beside the bundled ones (never written to disk) shows the relative line really resolves.
    mistake = YAML_MISTAKES["misspelled-key"]
    text = mistake.text("../../schema/wink-decl.schema.json")
    uri = server.open_document(PROMPTS / "agents" / "probe.wink.yaml", "yaml", text)
    assert found(server.diagnostics(uri)) == [
        ((32, 4, 32, 12), "Property tempalte is not allowed.", "yaml-schema: Section")
    ]


BROKEN = {
    "misspelled-key": [
        ((32, 4, 32, 12), "Property tempalte is not allowed.", "yaml-schema: Section"),
    ],
    "bad-visibility": [
        (
            (37, 16, 37, 19),
            'Value is not accepted. Valid values: "full", "summary".',
            "yaml-schema: Section",
        ),
    ],
    "wrong-type": [
        ((31, 11, 31, 12), 'Incorrect type. Expected "string".', "yaml-schema: Section"),
    ],
    # One report: the rules per type are if/then, and a misspelled type matches no `if` (with
    # one oneOf branch per type, the server also said 'Value must be "string" | ...').
    "bad-param-type": [
        (
            (12, 10, 12, 16),
            'Value is not accepted. Valid values: "string", "integer", "number", "boolean", '
            '"array".',
            "yaml-schema: Param",
        ),
    ],
    # The range is the first character of the section's mapping (its `key`).
    "missing-required": [
        ((30, 4, 30, 5), 'Missing property "title".', "yaml-schema: Section"),
    ],
    # The schema says "if visibility is not full, then summary is required" (if/then): with
    # anyOf instead, the server blamed the visibility value ('Value must be "full".').
    "summary-missing": [
        ((35, 4, 35, 5), 'Missing property "summary".', "yaml-schema: Section"),
    ],
}


@pytest.mark.parametrize("reference", ["path", "uri"])
@pytest.mark.parametrize("mistake_id", list(BROKEN))
def test_a_broken_copy_is_reported_where_the_mistake_is(
    server: LspClient, tmp_path: Path, mistake_id: str, reference: str
) -> None:
    schema_reference = str(SCHEMA) if reference == "path" else SCHEMA.as_uri()
    path = YAML_MISTAKES[mistake_id].write(tmp_path, schema_reference)
    uri = server.open_document(path, "yaml")
    assert found(server.diagnostics(uri)) == BROKEN[mistake_id]


PARAM_BODY = (
    "key: review\nparams:\n  strict:\n    type: boolean\n    default: {default}\n"
    "sections:\n  - key: task\n    title: Task\n"
)


def test_a_default_of_another_type_than_its_param_is_reported_at_the_default(
    server: LspClient, tmp_path: Path
) -> None:
    text = f"# yaml-language-server: $schema={SCHEMA}\n{PARAM_BODY.format(default=3)}"
    uri = server.open_document(tmp_path / "default.wink.yaml", "yaml", text)
    assert found(server.diagnostics(uri)) == [
        ((5, 13, 5, 14), 'Incorrect type. Expected "boolean".', "yaml-schema: Param"),
    ]


def test_the_yaml_schemas_setting_associates_the_schema_by_file_name(tmp_path: Path) -> None:
    text = without_schema_line(YAML_MISTAKES["misspelled-key"].text("unused"))
    prompt, other = tmp_path / "review.wink.yaml", tmp_path / "review.yaml"
    prompt.write_text(text, encoding="utf-8")
    other.write_text(text, encoding="utf-8")
    # The key is relative, as in docs/editors.md: the server resolves it from the workspace root.
    with start({"./schema/wink-decl.schema.json": "*.wink.yaml"}) as client:
        prompt_uri = client.open_document(prompt, "yaml")
        assert found(client.diagnostics(prompt_uri)) == [
            ((32, 4, 32, 12), "Property tempalte is not allowed.", "yaml-schema: Section")
        ]
        other_uri = client.open_document(other, "yaml")
        assert client.diagnostics(other_uri) == []  # the glob does not match a plain .yaml


# -- completion and hover -----------------------------------------------------------------------


def open_text(server: LspClient, path: Path, body: str) -> str:
    """Open ``body`` under ``path`` with an absolute schema line; wait for it to be checked."""
    text = f"# yaml-language-server: $schema={SCHEMA}\n{body}"
    uri = server.open_document(path, "yaml", text)
    server.diagnostics(uri)
    return uri


def completion(server: LspClient, uri: str, line: int, character: int) -> list[dict[str, Any]]:
    result: dict[str, Any] = server.request(
        "textDocument/completion", LspClient.position(line, character, uri)
    )
    items: list[dict[str, Any]] = result["items"]
    return items


def docs(item: dict[str, Any]) -> str | None:
    documentation: dict[str, str] | None = item.get("documentation")
    if documentation is None:
        return None
    assert documentation["kind"] == "markdown"
    return documentation["value"]


def test_completion_in_a_section_offers_the_keys_it_lacks(
    server: LspClient, tmp_path: Path
) -> None:
    body = "key: review\nsections:\n  - key: task\n    title: Task\n    \n"
    uri = open_text(server, tmp_path / "keys.wink.yaml", body)
    items = completion(server, uri, 5, 4)
    assert [item["label"] for item in items] == [
        "template",
        "summary",
        "summary_suffix",
        "visibility",
        "enabled",
        "tools",
        "policies",
        "accepts_overrides",
        "children",
    ]
    assert set(SECTION_PROPERTIES) - {item["label"] for item in items} == {"key", "title"}
    for item in items:
        assert docs(item) == SECTION_PROPERTIES[item["label"]]["markdownDescription"]


TOOL_BODY = """\
key: review
sections: [{title: Task, tools: [patch]}]
tools:
  patch:
    description: Replace one exact, unique piece of text in a file.
    handler: files.edit_file
    {last}
"""


def test_completion_in_a_tool_offers_reads_and_writes_with_their_docs(
    server: LspClient, tmp_path: Path
) -> None:
    uri = open_text(server, tmp_path / "tool.wink.yaml", TOOL_BODY.replace("{last}", ""))
    items = completion(server, uri, 7, 4)
    assert [item["label"] for item in items] == [
        "params",
        "result",
        "reads",
        "writes",
        "examples",
        "accepts_overrides",
    ]
    for item in items:
        assert docs(item) == TOOL_PROPERTIES[item["label"]]["markdownDescription"]


def test_hover_on_writes_shows_its_markdown_description(server: LspClient, tmp_path: Path) -> None:
    uri = open_text(
        server, tmp_path / "writes.wink.yaml", TOOL_BODY.replace("{last}", "writes: path")
    )
    hover: dict[str, Any] = server.request("textDocument/hover", LspClient.position(7, 6, uri))
    writes = TOOL_PROPERTIES["writes"]
    assert hover["contents"]["value"] == (
        "#### Tool\n\n"
        f"{writes['markdownDescription']}\n\n"
        f"Example:\n\n```yaml\n{writes['examples'][0]}\n```\n\n"
        f"Source: [wink-decl.schema.json]({SCHEMA.as_uri()})"
    )
    assert writes["markdownDescription"].startswith(
        "The param that holds the path of a file this tool creates or changes."
    )


def test_a_writes_that_is_not_a_param_name_is_underlined(server: LspClient, tmp_path: Path) -> None:
    uri = open_text(server, tmp_path / "bad.wink.yaml", TOOL_BODY.replace("{last}", "writes: Path"))
    assert found(server.diagnostics(uri)) == [
        (
            (7, 12, 7, 16),
            "Not a valid param name: use 1-64 lowercase letters, digits or '_', starting with a "
            "letter.",
            "yaml-schema: Tool",
        )
    ]


def test_completion_on_a_new_list_item_offers_sections_and_includes(
    server: LspClient, tmp_path: Path
) -> None:
    uri = open_text(server, tmp_path / "item.wink.yaml", "key: review\nsections:\n  - \n")
    items = completion(server, uri, 3, 4)
    labels = [item["label"] for item in items]
    # "Section" and "Include" are whole-object snippets named by each definition's title.
    assert sorted(labels) == sorted(
        [*SECTION_PROPERTIES, *INCLUDE_PROPERTIES, "Section", "Include"]
    )
    include = next(item for item in items if item["label"] == "include")
    assert docs(include) == INCLUDE_PROPERTIES["include"]["markdownDescription"]


def test_completion_of_visibility_offers_each_value_with_its_docs(
    server: LspClient, tmp_path: Path
) -> None:
    body = "key: review\nsections:\n  - key: task\n    title: Task\n    visibility: \n"
    uri = open_text(server, tmp_path / "visibility.wink.yaml", body)
    items = completion(server, uri, 5, 16)
    enum_schema = SECTION_PROPERTIES["visibility"]["oneOf"][0]
    assert enum_schema["enum"] == ["full", "summary"]
    full, summary, example = items
    assert (full["label"], docs(full)) == ("full", enum_schema["markdownEnumDescriptions"][0])
    assert full["detail"] == "Default value"
    assert (summary["label"], docs(summary)) == (
        "summary",
        enum_schema["markdownEnumDescriptions"][1],
    )
    # yaml-language-server 1.25 turns the mapping in `examples` into an item that it labels
    # with JavaScript's String(object); it still inserts the right snippet.
    assert example["label"] == "[object Object]"
    assert example["insertText"] == "\n  ${1:summary_when}:\n    ${2:param}: ${3:brief}\n"


def test_completion_of_a_boolean_params_default_offers_true_and_false(
    server: LspClient, tmp_path: Path
) -> None:
    uri = open_text(server, tmp_path / "flag.wink.yaml", PARAM_BODY.format(default=""))
    labels = [item["label"] for item in completion(server, uri, 5, 13)]
    # true and false from the rule for boolean params; "low" and [] are the examples that
    # document `default` for every type.
    assert sorted(labels) == ["[]", "false", "low", "true"]


def test_hover_on_a_key_shows_its_markdown_description(server: LspClient) -> None:
    path = PROMPTS / "agents" / "code-review.wink.yaml"
    uri = server.open_document(path, "yaml")
    server.diagnostics(uri)
    assert path.read_text(encoding="utf-8").splitlines()[22] == "    template: |"
    hover: dict[str, Any] = server.request("textDocument/hover", LspClient.position(22, 6, uri))
    template = SECTION_PROPERTIES["template"]
    assert hover["contents"]["kind"] == "markdown"
    assert hover["contents"]["value"] == (
        "#### Section\n\n"
        f"{template['markdownDescription']}\n\n"
        f"Example:\n\n```yaml\n{template['examples'][0]}\n```\n\n"
        f"Source: [wink-decl.schema.json]({SCHEMA.as_uri()})"
    )
    assert hover["range"] == {
        "start": {"line": 22, "character": 4},
        "end": {"line": 22, "character": 12},
    }


def test_the_schema_line_of_a_new_file_outside_the_repository_is_followed(
    server: LspClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # tmp_path is outside this repository: no schema copy above it, so `new` writes one.
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    assert main(["new", "tea", "--output", "prompts"]) == 0
    path = tmp_path / "prompts" / "tea.wink.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.splitlines()[0] == "# yaml-language-server: $schema=wink-decl.schema.json"
    assert server.diagnostics(server.open_document(path, "yaml")) == []
    broken = tmp_path / "prompts" / "broken.wink.yaml"
    broken.write_text(replace_once(text, "    title: Task\n", "    tittle: Task\n"))
    assert found(server.diagnostics(server.open_document(broken, "yaml"))) == [
        ((24, 4, 24, 5), 'Missing property "title".', "yaml-schema: Section"),
        ((25, 4, 25, 10), "Property tittle is not allowed.", "yaml-schema: Section"),
    ]


# -- eval files -----------------------------------------------------------------------------------

EVAL_FILE = REPO / "evals" / "code-review.wink-eval.yaml"


def test_the_bundled_eval_file_has_no_diagnostics(server: LspClient) -> None:
    uri = server.open_document(EVAL_FILE, "yaml")
    assert server.diagnostics(uri) == []


def test_a_broken_eval_file_is_reported_where_the_mistake_is(server: LspClient) -> None:
    text = replace_once(EVAL_FILE.read_text(encoding="utf-8"), "threshold:", "treshold:")
    text = replace_once(text, "- icontains: return", "- icontians: return")
    uri = server.open_document(REPO / "evals" / "probe.wink-eval.yaml", "yaml", text)
    # A misspelled check key matches no alternative of the check union: the server blames the
    # first one (equals), as it does for sections; validate names the key and its nearest.
    assert found(server.diagnostics(uri)) == [
        ((26, 8, 26, 9), 'Missing property "equals".', "yaml-schema: Equals check"),
        ((26, 8, 26, 17), "Property icontians is not allowed.", "yaml-schema: Equals check"),
        ((54, 0, 54, 8), "Property treshold is not allowed.", "yaml-schema: wink-decl eval"),
    ]


def test_the_yaml_schemas_setting_associates_both_schemas_by_file_name(tmp_path: Path) -> None:
    text = replace_once(EVAL_FILE.read_text(encoding="utf-8"), "threshold:", "treshold:")
    eval_file = tmp_path / "review.wink-eval.yaml"
    eval_file.write_text(without_schema_line(text), encoding="utf-8")
    schemas = {  # the setting docs/editors.md shows for eval files
        "./schema/wink-decl.schema.json": "*.wink.yaml",
        "./schema/wink-decl-eval.schema.json": "*.wink-eval.yaml",
    }
    with start(schemas) as client:
        uri = client.open_document(eval_file, "yaml")
        assert found(client.diagnostics(uri)) == [
            ((54, 0, 54, 8), "Property treshold is not allowed.", "yaml-schema: wink-decl eval")
        ]
