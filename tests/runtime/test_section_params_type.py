"""A section's params type given as ``params_type=``: as ``Section[Params]`` binds it, no class."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wink_decl import MarkdownSection, PromptTemplate, PromptValidationError, Section
from wink_decl.compiler import compile_file


@dataclass(frozen=True)
class _Params:
    language: str = "Python"
    strict: bool = False


@dataclass(frozen=True)
class _Other:
    language: str = "Go"


def _state(section: Section[Any]) -> dict[str, object]:
    """Everything a section holds: its slots (``prompt/section.py``) and its instance dict."""
    slots = {name: getattr(section, name) for name in Section.__slots__ if name != "__weakref__"}
    return {**slots, **vars(section)}


def _outcome(build: Any, **arguments: Any) -> object:
    """The section's state and render, or the whole text of its refusal."""
    try:
        section = build(**arguments)
    except PromptValidationError as error:
        return str(error)
    template: PromptTemplate[None] = PromptTemplate(ns="t", key="t", sections=[section])
    return _state(section), template.render(_Params(language="Rust")).text


def test_a_section_given_its_params_type_carries_it_and_no_class_is_made() -> None:
    section = MarkdownSection(title="T", template="About ${language}.", params_type=_Params)
    assert type(section) is MarkdownSection
    assert section.params_type is _Params
    assert MarkdownSection.params_type is None
    assert Section[_Params].params_type is _Params
    assert MarkdownSection[_Params].params_type is _Params
    assert MarkdownSection[_Params](title="T").params_type is _Params
    assert MarkdownSection(title="T").params_type is None


def test_a_params_type_the_class_binds_may_be_given_again() -> None:
    section = MarkdownSection[_Params](title="T", template="${language}", params_type=_Params)
    assert type(section) is MarkdownSection[_Params]
    assert section.params_type is _Params


def test_a_params_type_other_than_the_one_the_class_binds_is_refused() -> None:
    other: Any = _Other  # what a checker refuses: code without types may still write it
    with pytest.raises(PromptValidationError) as refused:
        MarkdownSection[_Params](title="T", params_type=other)
    assert str(refused.value) == (
        "Section 't' declares params type _Params in MarkdownSection[_Params] but "
        "params_type=_Other: give one."
    )
    assert refused.value.section_path == ("t",)


def test_a_params_type_given_must_be_a_dataclass() -> None:
    with pytest.raises(PromptValidationError) as refused:
        MarkdownSection(title="T", params_type=dict)  # pyright: ignore[reportUnknownArgumentType]
    assert str(refused.value) == "Section 't' params type must be a dataclass, got <class 'dict'>."


def test_a_section_overridden_or_copied_keeps_its_params_type() -> None:
    section = MarkdownSection(title="T", template="About ${language}.", params_type=_Params)
    clone = section.overridden(template="Only ${language}.")
    assert clone.params_type is _Params
    assert copy.copy(section).params_type is _Params
    template: PromptTemplate[None] = PromptTemplate(ns="t", key="t", sections=[clone])
    assert template.render(_Params(language="Rust")).text == "## 1. T (t)\n\nOnly Rust."


def test_a_compiled_section_is_a_plain_markdown_section_carrying_the_params_class(
    tmp_path: Path,
) -> None:
    source = tmp_path / "brief.wink.toml"
    source.write_text(
        'key = "brief"\n[params.topic]\ntype = "string"\n'
        '[[sections]]\nkey = "task"\ntitle = "Task"\ntemplate = "About ${topic}."\n'
    )
    prompt = compile_file(source).prompt
    assert prompt is not None
    (section,) = prompt.template.sections
    assert type(section) is MarkdownSection
    assert section.params_type is prompt.params_type is not None


_TEXT = st.lists(
    st.sampled_from(["$", "{", "}", " ", "\n", "a", "language", "strict"]), max_size=12
).map("".join)


@settings(deadline=None, max_examples=200)  # a busy 2-core CI machine is not what this measures
@given(template=_TEXT, summary=st.none() | _TEXT, default=st.booleans())
def test_a_params_type_given_builds_what_the_bound_class_builds(
    template: str, summary: str | None, default: bool
) -> None:
    arguments: dict[str, Any] = {
        "title": "T",
        "template": template,
        "summary": summary,
        "default_params": _Params(language="Zig") if default else None,
    }
    assert _outcome(MarkdownSection, params_type=_Params, **arguments) == _outcome(
        MarkdownSection[_Params], **arguments
    )
