"""The document model in Python: frozen, aliases, defaults, building it from model instances."""

# pyright: reportPrivateUsage=false

from __future__ import annotations

import ast
import datetime
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError
from schema_support import EXAMPLE, FakeSpans, load, schema_errors

import wink_decl.schema
from wink_decl.diagnostics import Span
from wink_decl.runtime.policies import ReadBeforeWritePolicy
from wink_decl.schema import (
    EqualsCondition,
    EqualsSpec,
    IncludeDoc,
    ItemSpec,
    NotCondition,
    ParamSpec,
    PluginPolicyDoc,
    PluginSpec,
    PromptDocument,
    ReadBeforeWritePolicyDoc,
    ReadBeforeWriteSpec,
    SectionDoc,
    SequentialPolicyDoc,
    SummaryWhen,
    ToolDoc,
    ToolExampleDoc,
    validate_document,
)
from wink_decl.schema._error_location import place_of
from wink_decl.schema._types import DECLARED_TOOL_NAME, ENTRY_POINT, INCLUDE, KEY, NAMESPACE
from wink_decl.schema._words import describe, one_of
from wink_decl.schema.validate import _label, _translate
from wink_decl.suggestions import close_matches

SCHEMA_PACKAGE = Path(wink_decl.schema.__file__).parent


def test_documents_are_frozen() -> None:
    document = PromptDocument.model_validate({"key": "k", "sections": [{"title": "T"}]})
    with pytest.raises(ValidationError):
        document.key = "other"  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]
    assert isinstance(document.sections, tuple)
    assert hash(document.sections[0]) == hash(document.sections[0])


def test_defaults() -> None:
    document = PromptDocument.model_validate({"key": "k", "sections": [{"title": "T"}]})
    section = document.sections[0]
    assert isinstance(section, SectionDoc)
    assert (document.ns, document.name, document.params, document.tools) == (None, None, {}, {})
    assert (section.key, section.template, section.visibility, section.enabled) == (
        None,
        "",
        "full",
        True,
    )
    assert (section.summary, section.tools, section.children, section.accepts_overrides) == (
        None,
        (),
        (),
        True,
    )
    options = ReadBeforeWriteSpec()
    assert (options.read_tools, options.write_tools, options.path_field) == (
        ("read_file",),
        ("write_file", "edit_file"),
        "path",
    )
    # The schema documents the runtime's defaults, which apply when the file leaves them out.
    runtime = ReadBeforeWritePolicy()
    assert (set(options.read_tools), set(options.write_tools), options.path_field) == (
        runtime.read_tools,
        runtime.write_tools,
        runtime.path_field,
    )
    tool = ToolDoc.model_validate({"description": "D.", "handler": "files.read_file"})
    assert (tool.params, tool.result, tool.reads, tool.writes) == ({}, None, None, None)


def test_the_example_document_in_python() -> None:
    data, _ = load(EXAMPLE)
    document = PromptDocument.model_validate(data)
    assert document.params["reviewers"].items == ItemSpec(type="string")
    assert document.params["reviewers"].default == ()
    reference = document.sections[1]
    assert isinstance(reference, SectionDoc)
    assert reference.visibility == "summary"
    details = reference.children[0]
    assert isinstance(details, SectionDoc)
    assert isinstance(details.visibility, SummaryWhen)
    assert isinstance(document.sections[2], IncludeDoc)
    tool = document.tools["lookup_rule"]
    assert tool.examples[0].input == {"rule_id": "E501"}
    assert isinstance(document.policies[0], SequentialPolicyDoc)
    assert document.policies[0].sequential == {"deploy": ("test", "build")}
    assert isinstance(document.policies[2], PluginPolicyDoc)
    assert document.policies[2].plugin.config == {"level": "info"}


def test_explicit_null_is_refused_where_absence_means_none() -> None:
    data = {"key": "k", "sections": [{"title": "T", "summary": None}]}
    _, diagnostics = validate_document(data, FakeSpans("p.yaml"))
    assert [(d.code, d.message) for d in diagnostics] == [
        ("type", "'summary' must be text; found an empty value")
    ]


def test_aliases_for_python_keywords() -> None:
    condition = NotCondition.model_validate({"not": {"any": [{"param": "a"}, True]}})
    assert condition.not_ is not True
    assert condition.model_dump() == {"not": {"any": ({"param": "a"}, True)}}
    with pytest.raises(ValidationError):
        NotCondition.model_validate({"not_": True})


def test_built_from_model_instances() -> None:
    # Documents built in Python: each union picks the alternative from the instance's type.
    document = PromptDocument(
        key="k",
        params={"level": ParamSpec(type="string", enum=("low", "high"), default="low")},
        sections=(
            SectionDoc(
                title="T",
                summary="S",
                visibility=SummaryWhen(summary_when=NotCondition.model_validate({"not": True})),
                enabled=EqualsCondition(equals=EqualsSpec(param="level", value="low")),
                children=(IncludeDoc(include="a.yaml#b"),),
            ),
        ),
        tools={
            "t": ToolDoc(
                description="D.",
                handler="h.t",
                examples=(ToolExampleDoc(description="E", input={}),),
            )
        },
        policies=(
            SequentialPolicyDoc(sequential={"t": ("u",)}),
            ReadBeforeWritePolicyDoc(read_before_write=ReadBeforeWriteSpec()),
            PluginPolicyDoc(plugin=PluginSpec(name="p.q")),
        ),
    )
    dumped = document.model_dump(mode="json", exclude_unset=True)
    assert PromptDocument.model_validate(dumped) == document
    assert schema_errors(dumped) == []


def test_instances_of_the_wrong_alternative_are_refused() -> None:
    with pytest.raises(ValidationError):
        SectionDoc(title="T", enabled=PluginSpec(name="p"))  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


def test_scalar_values_keep_their_type() -> None:
    spec = ParamSpec.model_validate({"type": "number", "enum": [1, 2.5], "default": 1})
    assert spec.enum == (1, 2.5)
    assert spec.enum is not None
    assert type(spec.enum[0]) is int
    flag = ParamSpec.model_validate({"type": "boolean", "default": True})
    assert flag.default is True


# -- pieces of the error path --------------------------------------------------------------------


def test_place_of_follows_tags_keys_and_unknown_places() -> None:
    place = place_of(PromptDocument, ("sections", 0, "section", "enabled", "not", "not"))
    assert place.path == ("sections", 0, "enabled", "not")
    assert place.steps == ("field", "index", "field", "field")
    assert place.parent is NotCondition
    key = place_of(PromptDocument, ("tools", "Bad", "[key]"))
    assert (key.path, key.on_key, key.steps) == (("tools", "Bad"), True, ("field", "key"))
    lost = place_of(PromptDocument, ("sections", 0, "bogus", "deeper"))
    assert (lost.path, lost.parent, lost.target, lost.choices) == (
        ("sections", 0, "bogus", "deeper"),
        None,
        None,
        (),
    )
    literal = place_of(PromptDocument, ("params", "x", "type"))
    assert literal.choices == ("string", "integer", "number", "boolean", "array")


def test_labels() -> None:
    assert _label(()) == "The document"
    assert _label(("sections", 2)) == "Item 3 of 'sections'"
    assert _label((0,)) == "Item 1"
    assert _label(("sections", 0, "title")) == "'title'"


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("ful", "'ful'"),
        ("", "an empty text"),
        ("x" * 50, "'" + "x" * 37 + "...'"),
        (None, "an empty value"),
        (True, "true"),
        (False, "false"),
        (3, "3"),
        (2.5, "2.5"),
        ({}, "an empty mapping"),
        ({"a": 1}, "a mapping with key 'a'"),
        ({"a": 1, "b": 2}, "a mapping with keys 'a', 'b'"),
        ([1], "a list"),
        (datetime.date(2024, 5, 1), "2024-05-01 (a date)"),
    ],
    ids=lambda value: type(value).__name__,
)
def test_describe(value: object, words: str) -> None:
    assert describe(value) == words


def test_word_helpers() -> None:
    assert one_of(["a"]) == "only a"
    assert one_of(["a", "b"]) == "one of a, b"
    assert close_matches("tempalte", ["title", "template"]) == ("template",)
    assert close_matches(3, ["three"]) == ()


@pytest.mark.parametrize(
    ("rule", "value", "suggestion"),
    [
        (KEY, "Task One", "task-one"),
        (KEY, "!!!", None),
        (KEY, "task", None),
        (NAMESPACE, "Agents/Code Review", "agents/code-review"),
        (DECLARED_TOOL_NAME, "Read_Section", None),
        (ENTRY_POINT, "Style.Lookup", "style.lookup"),
        (ENTRY_POINT, " style.lookup@Acme ", "style.lookup@Acme"),
        (INCLUDE, "/abs#x", None),
    ],
    ids=["key", "hopeless", "unchanged", "namespace", "reserved", "entry", "dist", "no-fixer"],
)
def test_suggestions(rule: object, value: str, suggestion: str | None) -> None:
    assert getattr(rule, "suggestion")(value) == suggestion  # noqa: B009  # rules of one type


def test_an_error_kind_without_words_still_reads_as_a_sentence() -> None:
    spans = FakeSpans("p.yaml", values={("key",): Span("p.yaml", 1, 6)})
    detail: dict[str, Any] = {"type": "weird", "loc": ("key",), "msg": "", "input": 5, "ctx": {}}
    [diagnostic] = _translate(detail, spans)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    assert (diagnostic.code, diagnostic.message, diagnostic.span) == (
        "schema",
        "'key' is not allowed here; found 5",
        Span("p.yaml", 1, 6),
    )


def test_schema_errors_are_sorted_by_path() -> None:
    data = {"key": "K", "sections": [{"title": 5}], "ns": "A"}
    found = schema_errors(data)
    assert [path for path, _ in found] == [("key",), ("ns",), ("sections", 0, "title")]
    assert all(isinstance(message, str) and message for _, message in found)


# -- the package ---------------------------------------------------------------------------------


def test_all_is_sorted_and_complete() -> None:
    names = wink_decl.schema.__all__
    assert names == sorted(names, key=lambda n: (not n.isupper(), not n[:1].isupper(), n))
    source = (SCHEMA_PACKAGE / "__init__.py").read_text(encoding="utf-8")
    imported = {
        alias.asname or alias.name
        for node in ast.parse(source).body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert imported == set(names)
    assert all(getattr(wink_decl.schema, name, None) is not None for name in names)


def test_the_package_imports_only_diagnostics_from_wink_decl() -> None:
    allowed = re.compile(r"^wink_decl\.(schema|diagnostics)(\.|$)")
    for path in sorted(SCHEMA_PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("wink_decl"):
                assert allowed.match(node.module or ""), f"{path.name} imports {node.module}"


def test_importing_and_validating_does_not_load_jsonschema() -> None:
    code = (
        "import sys\nfrom wink_decl.schema import validate_document\n"
        "from wink_decl.diagnostics import Span\n"
        "class S:\n    path = 'p'\n    def value_span(self, p): return None\n"
        "    def key_span(self, p): return None\n    def nearest(self, p): return Span('p', 1, 1)\n"
        "validate_document({'key': 'K'}, S())\n"
        "print('jsonschema' in sys.modules)\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert completed.stdout.split() == ["False"]
