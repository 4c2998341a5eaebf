"""The compiled artifact: its whole JSON, byte-identical on recompiling, and its content hash."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from compiler_support import compile_in, make_catalog, report, write

from wink_decl import __version__
from wink_decl.compiler import (
    ARTIFACT_FORMAT,
    CompiledPrompt,
    artifact_json,
    bind_plugins,
    compile_file,
)
from wink_decl.compiler._lazy import LazyTool
from wink_decl.plugins import PluginCatalog

STYLE = """\
ns: tests
key: style
name: Style
params:
  strict: {type: boolean, default: false}
sections:
  - key: rules
    title: Rules
    template: Follow the rules.
    summary: Rules for ${strict}.
    visibility: {summary_when: {not: {param: strict}}}
    tools: [lookup]
    policies:
      - plugin: {name: test.call_limit, config: {limit: 1}}
  - key: extra
    title: Extra
    enabled: {param: strict}
policies:
  - sequential: {lookup: []}
  - plugin: {name: test.call_limit, config: {limit: 2}}
tools:
  lookup:
    description: Look up a rule.
    handler: test.lookup
"""


def compiled(result_prompt: CompiledPrompt | None) -> CompiledPrompt:
    assert result_prompt is not None
    return result_prompt


def test_the_whole_artifact_of_a_small_prompt(here: Path, catalog: PluginCatalog) -> None:
    result = compile_in(here, STYLE, catalog=catalog)
    assert report(result) == (  # the policy is in the artifact all the same
        "prompt.wink.yaml:19:5: warning: sequential makes no tool wait for another: this "
        "policy never refuses a call.\n"
        "  19 |   - sequential: {lookup: []}\n"
        "     |     ^^^^^^^^^^\n"
        "  hint: list what each tool waits for, such as {deploy: [build, test]}, or remove "
        "the policy"
    )
    prompt = compiled(result.prompt)
    digest = "sha256:" + hashlib.sha256(STYLE.encode()).hexdigest()
    assert prompt.content_hash == digest
    assert bind_plugins(prompt) == []  # the lookup tool's types come from its handler
    assert json.loads(artifact_json(prompt.artifact)) == {
        "format": ARTIFACT_FORMAT,
        "wink_decl": __version__,
        "source": "prompt.wink.yaml",
        "content_hash": digest,
        "prompt": {"ns": "tests", "key": "style", "name": "Style"},
        "params": {"strict": {"type": "boolean", "default": False}},
        "sections": [
            {
                "number": "1",
                "path": "rules",
                "title": "Rules",
                "template": "Follow the rules.",
                "summary": "Rules for ${strict}.",
                "visibility": "conditional",
                "enabled": True,
                "tools": ["lookup"],
                "policies": ["test.call_limit"],
            },
            {
                "number": "2",
                "path": "extra",
                "title": "Extra",
                "template": "",
                "summary": None,
                "visibility": "full",
                "enabled": "conditional",
                "tools": [],
                "policies": [],
            },
        ],
        "tools": {
            "lookup": {
                "description": "Look up a rule.",
                "handler": "test.lookup",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "rule_id": {"type": "string"},
                        "verbose": {"type": "boolean", "default": False},
                    },
                    "required": ["rule_id"],
                    "additionalProperties": False,
                },
                "result": {
                    "type": "object",
                    "properties": {"rule_id": {"type": "string"}, "text": {"type": "string"}},
                    "required": ["rule_id", "text"],
                    "additionalProperties": False,
                },
                "reads": None,
                "writes": None,
                "examples": 0,
                "section": "rules",
            }
        },
        "policies": {
            "prompt": ["sequential_dependency", "test.call_limit"],
            "tools": {"lookup": ["test.call_limit", "sequential_dependency", "test.call_limit"]},
        },
    }


def test_before_binding_a_tool_typed_by_its_handler_has_null_schemas(
    here: Path, catalog: PluginCatalog
) -> None:
    # Reading the artifact imports nothing (validate --cache-dir keeps one for every file).
    prompt = compiled(compile_in(here, STYLE, catalog=catalog).prompt)
    early = prompt.artifact
    tool = prompt.tools["lookup"]
    assert isinstance(tool, LazyTool)
    assert not tool.settled
    assert early["tools"]["lookup"] == {
        "description": "Look up a rule.",
        "handler": "test.lookup",
        "parameters": None,
        "result": None,
        "reads": None,
        "writes": None,
        "examples": 0,
        "section": "rules",
    }
    assert prompt.artifact is early  # one object while unbound
    assert bind_plugins(prompt) == []
    late = prompt.artifact
    assert late["tools"]["lookup"]["parameters"]["required"] == ["rule_id"]
    assert prompt.artifact is late
    assert {k: v for k, v in late.items() if k != "tools"} == {
        k: v for k, v in early.items() if k != "tools"
    }


def test_artifact_json_is_canonical_text(here: Path, catalog: PluginCatalog) -> None:
    prompt = compiled(compile_in(here, STYLE, catalog=catalog).prompt)
    text = artifact_json(prompt.artifact)
    assert text == json.dumps(json.loads(text), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    assert text.startswith('{\n  "content_hash": "sha256:')


def test_compiling_twice_gives_byte_identical_artifacts(here: Path) -> None:
    write(here, "style.wink.yaml", STYLE)
    first = compiled(compile_file("style.wink.yaml", catalog=make_catalog()).prompt)
    second = compiled(compile_file("style.wink.yaml", catalog=make_catalog()).prompt)
    assert first is not second
    assert artifact_json(first.artifact) == artifact_json(second.artifact)


def test_the_content_hash_follows_included_files(here: Path, catalog: PluginCatalog) -> None:
    main = "key: main\nsections:\n  - include: common/tone.wink.yaml#tone\n"
    write(here, "common/tone.wink.yaml", "key: tone\nsections:\n  - {key: tone, title: Tone}\n")
    before = compiled(compile_in(here, main, catalog=catalog).prompt)
    again = compiled(compile_in(here, main, catalog=catalog).prompt)
    write(here, "common/tone.wink.yaml", "key: tone\nsections:\n  - {key: tone, title: Voice}\n")
    after = compiled(compile_in(here, main, catalog=catalog).prompt)
    assert before.content_hash == again.content_hash
    assert after.content_hash != before.content_hash
    assert before.content_hash != "sha256:" + hashlib.sha256(main.encode()).hexdigest()
    assert after.artifact["sections"][0]["title"] == "Voice"
