"""``output:``: a prompt file declares the shape of its final answer, like its params."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from compiler_support import compile_in, compiled, report

from wink_decl import Prompt, Session
from wink_decl.adapters.scripted import ScriptedAdapter, ScriptedTurn
from wink_decl.plugins import PluginCatalog
from wink_decl.runtime.loop import MainLoop

VERDICT = """\
key: review
output:
  approved: {type: boolean, description: Whether the change may be merged.}
  reason: {type: string, default: ""}
  labels: {type: array, items: {type: string}, default: []}
sections:
  - key: task
    title: Task
    template: Review the change.
"""

VERDICT_TOML = """\
key = "review"

[output.approved]
type = "boolean"
description = "Whether the change may be merged."

[output.reason]
type = "string"
default = ""

[output.labels]
type = "array"
items = { type = "string" }
default = []

[[sections]]
key = "task"
title = "Task"
template = "Review the change."
"""

SCHEMA: dict[str, object] = {
    "type": "object",
    "properties": {
        "approved": {"type": "boolean", "description": "Whether the change may be merged."},
        "reason": {"type": "string", "default": ""},
        "labels": {"type": "array", "items": {"type": "string"}, "default": []},
    },
    "required": ["approved"],
    "additionalProperties": False,
}


def test_a_declared_output_becomes_the_templates_output_type(
    here: Path, catalog: PluginCatalog
) -> None:
    prompt = compiled(compile_in(here, VERDICT, catalog=catalog))
    output_type = prompt.template.output_type
    assert output_type is not None
    assert [(f.name, f.type) for f in dataclasses.fields(output_type)] == [
        ("approved", bool),
        ("reason", str),
        ("labels", tuple[str, ...]),
    ]
    assert prompt.artifact["output"] == SCHEMA


def test_toml_declares_it_the_same_way(here: Path, catalog: PluginCatalog) -> None:
    yaml = compiled(compile_in(here, VERDICT, catalog=catalog))
    toml = compiled(compile_in(here, VERDICT_TOML, name="prompt.wink.toml", catalog=catalog))
    assert toml.template.output_type is yaml.template.output_type


def test_without_output_the_answer_is_free_text(here: Path, catalog: PluginCatalog) -> None:
    free_text = "key: review\nsections:\n  - {key: task, title: Task, template: Review.}\n"
    prompt = compiled(compile_in(here, free_text, catalog=catalog))
    assert prompt.template.output_type is None
    assert "output" not in prompt.artifact


def test_the_answer_is_parsed_into_it(here: Path, catalog: PluginCatalog) -> None:
    prompt = compiled(compile_in(here, VERDICT, catalog=catalog))
    adapter = ScriptedAdapter([ScriptedTurn.answer('{"approved": true, "labels": ["small"]}')])
    response = MainLoop(adapter=adapter).execute(Prompt(prompt.template), session=Session())
    output_type = prompt.template.output_type
    assert output_type is not None
    assert response.output == output_type(approved=True, labels=("small",))
    assert adapter.requests[0].output is not None
    assert dict(adapter.requests[0].output.schema) == SCHEMA


def test_a_bad_output_declaration_is_reported_where_it_is(
    here: Path, catalog: PluginCatalog
) -> None:
    text = VERDICT.replace("{type: boolean,", "{type: bool,")
    assert report(compile_in(here, text, catalog=catalog)) == (
        "prompt.wink.yaml:3:20: error: 'type' must be one of string, integer, number, boolean, "
        "array; found 'bool'\n"
        "   3 |   approved: {type: bool, description: Whether the change may be merged.}\n"
        "     |                    ^^^^\n"
        "  hint: did you mean 'boolean'?"
    )
