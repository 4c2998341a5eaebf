"""Names that become dataclass fields: Python's own names are refused, every other one works."""

from __future__ import annotations

import keyword
from collections.abc import Iterable, Iterator
from typing import Any

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

from wink_decl.compiler._params_dataclass import FieldSpec, make_dataclass_for
from wink_decl.diagnostics import render_text
from wink_decl.loader import load_text
from wink_decl.schema import validate_document
from wink_decl.schema._types import FIELD_NAME, PARAM_NAME, PARAM_REF
from wink_decl.schema.generate import load_published_schema

TOOL = "tools:\n  look:\n    description: Look.\n    handler: files.read_file\n"
PLACES = {
    "param": ("params:\n  {name}: {{type: string}}\n", 3, 3),
    "tool-param": (TOOL + "    params: {{{name}: {{type: string}}}}\n", 6, 14),
    "tool-result": (TOOL + "    result: {{{name}: {{type: string}}}}\n", 6, 14),
    "output": ("output:\n  {name}: {{type: string}}\n", 3, 3),
    "condition": ("", 3, 47),
}
SECTION = "sections:\n  - {{key: task, title: Task{extra}}}\n"


def document(place: str, name: str) -> str:
    declaration, _, _ = PLACES[place]
    extra = f", enabled: {{param: {name}}}" if place == "condition" else ""
    return "key: t\n" + declaration.format(name=name) + SECTION.format(extra=extra)


def report(text: str) -> str:
    loaded = load_text(text, path="p.wink.yaml", format="yaml")
    assert loaded.file is not None
    _, problems = validate_document(loaded.file.data, loaded.file.source_map)
    return render_text([p for p in problems if p.code == "pattern"], {"p.wink.yaml": text})


@pytest.mark.parametrize("place", list(PLACES))
@pytest.mark.parametrize(
    ("name", "hint"),
    [
        ("__slots__", "did you mean 'slots'?"),
        ("__init__", "did you mean 'init'?"),
        ("__dict__", "did you mean 'dict'?"),
        ("__class__", "did you mean 'class_'?"),
        ("__dataclass_fields__", "did you mean 'dataclass_fields'?"),
        ("__post_init__", "did you mean 'post_init'?"),
        ("_private", "did you mean 'private'?"),
        ("__x", "did you mean 'x'?"),
        ("_", None),
    ],
)
def test_a_name_that_python_or_dataclasses_own_is_refused_naming_it(
    place: str, name: str, hint: str | None
) -> None:
    text = document(place, name)
    _, line, column = PLACES[place]
    expected = (
        f"p.wink.yaml:{line}:{column}: error: '{name}' is not a valid param name\n"
        "  expected: 1-64 lowercase letters, digits or '_', starting with a letter\n"
        f"   {line} | {text.splitlines()[line - 1]}\n"
        f"     | {' ' * (column - 1)}{'^' * len(name)}"
    )
    if hint is not None:
        expected += f"\n  hint: {hint}"
    assert report(text) == expected


@pytest.mark.parametrize("place", list(PLACES))
@pytest.mark.parametrize("name", ["__slots__", "_private", "_"])
def test_editors_refuse_the_same_names(place: str, name: str) -> None:
    loaded = load_text(document(place, name), path="p.wink.yaml", format="yaml")
    assert loaded.file is not None
    validator = jsonschema.Draft202012Validator(load_published_schema())
    errors: list[Any] = list(validator.iter_errors(loaded.file.data))  # pyright: ignore[reportUnknownMemberType, reportArgumentType]
    assert PARAM_NAME.error_message in set(pattern_messages(errors))


def pattern_messages(errors: Iterable[Any]) -> Iterator[str]:
    """The editor message of every failed pattern, inside ``anyOf`` branches too."""
    for error in errors:
        if error.validator == "pattern":
            yield error.schema["patternErrorMessage"]
        yield from pattern_messages(error.context or [])


def test_the_three_name_rules_share_their_pattern_and_words() -> None:
    assert PARAM_NAME.error_message == (
        "Not a valid param name: use 1-64 lowercase letters, digits or '_', starting with a letter."
    )
    assert PARAM_NAME.pattern == FIELD_NAME.pattern == PARAM_REF.pattern == "^[a-z][a-z0-9_]{0,63}$"
    assert PARAM_NAME.suggestion("__class__") == "class_"
    assert PARAM_NAME.suggestion("__section_key__") == "section_key_"
    assert FIELD_NAME.suggestion("_9lives") == "lives"
    assert PARAM_REF.suggestion("_") is None


NAMES = st.from_regex(PARAM_NAME.pattern, fullmatch=True).filter(
    lambda name: not keyword.iskeyword(name) and name != "section_key"
)


@given(names=st.lists(NAMES, min_size=1, max_size=4, unique=True))
def test_every_name_the_rule_allows_makes_a_working_field(names: list[str]) -> None:
    specs = tuple(
        FieldSpec(name, "string", has_default=True, default=f"<{name}>") for name in names
    )
    made: Any = make_dataclass_for("Params", specs)
    instance = made(**{names[0]: "given"})
    assert [getattr(instance, name) for name in names] == ["given", *(f"<{n}>" for n in names[1:])]
    assert instance == made(**{names[0]: "given"})
    assert hash(instance) == hash(made(**{names[0]: "given"}))
    assert repr(instance).startswith("Params(")
