"""The page's model: exact views of real prompt files, without a server or a browser."""

from __future__ import annotations

from pathlib import Path

import pytest

import wink_decl.inputs._request
from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, Span
from wink_decl.preview.files import PromptFolder
from wink_decl.preview.page import (
    Action,
    Field,
    PageState,
    PageStateError,
    PromptView,
    Read,
    SectionRow,
    form_fields,
    prompt_view,
    state_from_json,
)
from wink_decl.schema import ParamSpec

READ_SECTION_SCHEMA = {
    "type": "object",
    "properties": {
        "section_key": {
            "type": "string",
            "description": "Key of the section to read, as shown in its summary. Nested "
            "sections use dot notation (e.g. 'context.examples').",
        }
    },
    "required": ["section_key"],
    "additionalProperties": False,
}
READ_PLAN_SCHEMA: dict[str, object] = {
    "type": "object",
    "properties": {},
    "additionalProperties": False,
}


def view(folder: Path, name: str, *actions: Action, **values: str | bool) -> PromptView:
    served = PromptFolder(folder, folder)
    path = served.resolve(name)
    assert path is not None
    return prompt_view(served, path, PageState(values, actions))


def test_a_plain_prompt_renders_with_its_sections_and_no_tools(served: Path) -> None:
    shown = view(served, "plain.wink.toml")
    path = str(served / "plain.wink.toml")
    assert shown == PromptView(
        "plain.wink.toml",
        (),
        {path: (served / "plain.wink.toml").read_text()},
        (),
        shown.form_key,
        "## 1. Only (only)\n\nNothing to fill in.",
        (SectionRow("only", "## 1. Only (only)", 0, "full", False, 38),),
        {"openai": [], "anthropic": []},
    )
    assert shown.ok


def test_the_form_holds_each_kind_of_param_with_its_default(served: Path) -> None:
    assert view(served, "review.wink.yaml").fields == (
        Field("language", "text", "", required=True, description="The change's language."),
        Field("strict", "checkbox", False, required=False),
        Field("level", "choice", "low", required=False, choices=("low", "high")),
        Field("count", "number", "3", required=False, whole=True),
        Field("tags", "list", '["a"]', required=False),
    )


def test_the_form_keeps_the_values_the_page_sent() -> None:
    declared = {
        "on": ParamSpec.model_validate({"type": "boolean", "default": True}),
        "n": ParamSpec.model_validate({"type": "number"}),
    }
    assert form_fields(declared, {"on": False, "n": "2"}) == (
        Field("on", "checkbox", False, required=False),
        Field("n", "number", "2", required=True),
    )
    assert form_fields({}, {"n": "2"}) == ()


def test_a_missing_param_is_reported_at_its_declaration(served: Path) -> None:
    shown = view(served, "review.wink.yaml")
    path = str(served / "review.wink.yaml")
    assert (shown.text, shown.problems) == (
        None,
        (
            Diagnostic(
                "Param 'language' has no value and no default.",
                Span(path, 3, 3, 3, 10),
                DiagnosticCode.MISSING_PARAM,
                hint="fill it in on the form, or give it a default in the file",
                path=path,
            ),
        ),
    )
    assert shown.fields is not None
    assert not shown.ok


def test_a_wrong_value_is_reported_and_other_values_are_kept(served: Path) -> None:
    shown = view(served, "review.wink.yaml", language="Go", count="2.5", gone="x")
    path = str(served / "review.wink.yaml")
    assert shown.problems == (
        Diagnostic(
            "--param count=2.5: expected a whole number",
            None,
            DiagnosticCode.PARAM_VALUE,
            path=path,
        ),
    )
    assert shown.fields is not None
    assert [f.value for f in shown.fields] == ["Go", False, "low", "2.5", '["a"]']


def test_values_convert_by_type_and_empty_fields_take_the_default(served: Path) -> None:
    shown = view(
        served, "review.wink.yaml", language="<b>Go</b>", count="", strict=True, tags='["x"]'
    )
    assert shown.text == (
        "## 1. Intro (intro)\n\nReview this <b>Go</b> code.\n\n"
        "## 2. Checks (checks)\n\nRead the plan first."
    )
    assert shown.problems == ()
    assert shown.tools["openai"] == [
        {
            "type": "function",
            "function": {
                "name": "read_plan",
                "description": "Read the current plan.",
                "parameters": READ_PLAN_SCHEMA,
            },
        }
    ]


def test_a_session_override_summarizes_and_read_section_reveals_the_tools(served: Path) -> None:
    summarized = view(
        served, "review.wink.yaml", Action("show", "checks", "summary"), language="Go"
    )
    assert summarized.text == (
        "## 1. Intro (intro)\n\nReview this Go code.\n\n"
        "## 2. Checks (checks)\n\nHow to check the plan.\n\n---\n"
        '[This section is summarized. To view full content, call `read_section` with key "checks".]'
    )
    assert summarized.sections == (
        SectionRow("intro", "## 1. Intro (intro)", 0, "full", False, 41),
        SectionRow("checks", "## 2. Checks (checks)", 0, "summary", True, 141),
    )
    assert summarized.tools["anthropic"] == [
        {
            "name": "read_section",
            "description": "Read the full content of a summarized section.",
            "input_schema": READ_SECTION_SCHEMA,
        }
    ]
    opened = view(
        served,
        "review.wink.yaml",
        Action("show", "checks", "summary"),
        Action("read", "CHECKS"),
        language="Go",
    )
    assert opened.reads == (
        Read(
            "checks",
            ok=True,
            message="Content of section 'checks':",
            content="## 2. Checks (checks)\n\nRead the plan first.",
            revealed=("read_plan",),
        ),
    )
    assert [row.shown for row in opened.sections] == ["full", "full"]
    assert opened.tools["anthropic"] == [
        {
            "name": "read_plan",
            "description": "Read the current plan.",
            "input_schema": READ_PLAN_SCHEMA,
        }
    ]


def test_reading_a_section_that_is_shown_says_so(served: Path) -> None:
    summarized = Action("show", "checks", "summary")
    shown = view(served, "review.wink.yaml", summarized, Action("read", "intro"), language="Go")
    assert shown.reads == (
        Read(
            "intro",
            ok=True,
            message="Section is already expanded.",
            content="## 1. Intro (intro)\n\nReview this Go code.",
        ),
    )


def test_read_section_is_not_offered_when_nothing_is_summarized(served: Path) -> None:
    shown = view(served, "review.wink.yaml", Action("read", "checks"), language="Go")
    assert shown.reads == (
        Read("checks", ok=False, message="read_section is not offered: no section is summarized."),
    )


def test_actions_on_sections_that_are_gone_or_cannot_be_summarized_are_skipped(
    served: Path,
) -> None:
    shown = view(
        served,
        "review.wink.yaml",
        Action("show", "gone", "summary"),
        Action("show", "intro", "summary"),
        Action("show", "checks", "full"),
        language="Go",
    )
    assert [(row.key, row.shown) for row in shown.sections] == [
        ("intro", "full"),
        ("checks", "full"),
    ]
    assert shown.reads == ()


def test_a_broken_file_shows_its_diagnostics_and_no_form(served: Path) -> None:
    (served / "plain.wink.toml").write_text('key = "plain"\n[[sections]]\nkey = 3\n')
    shown = view(served, "plain.wink.toml")
    assert (shown.fields, shown.text, shown.form_key) == (None, None, "")
    path = str(served / "plain.wink.toml")
    assert shown.problems == (
        Diagnostic(
            "Section is missing 'title'.",
            Span(path, 2, 1, 2, 12),
            DiagnosticCode.MISSING_KEY,
            hint="add 'title', for example 'Task'",
        ),
        Diagnostic(
            "'key' must be text; found 3",
            Span(path, 3, 7, 3, 7),
            DiagnosticCode.TYPE,
            hint='put it in quotes: "3"',
        ),
    )


def test_a_plugin_that_cannot_bind_stops_the_render(
    served: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    problem = Diagnostic("cannot import the handler", None, DiagnosticCode.HANDLER)

    def bind_plugins(_prompt: object, *, rendering_only: bool) -> list[Diagnostic]:
        assert rendering_only
        return [problem]

    monkeypatch.setattr(wink_decl.inputs._request, "bind_plugins", bind_plugins)
    shown = view(served, "review.wink.yaml", language="Go")
    assert (shown.text, shown.problems) == (None, (problem,))


def test_a_section_hidden_inside_a_summary_has_no_size(tmp_path: Path) -> None:
    (tmp_path / "nested.wink.yaml").write_text(
        "key: nested\nsections:\n  - key: outer\n    title: Outer\n    visibility: summary\n"
        "    summary: Short.\n    template: Long.\n    children:\n"
        "      - key: inner\n        title: Inner\n        template: Deep.\n"
    )
    shown = view(tmp_path, "nested.wink.yaml")
    assert shown.text is not None
    assert shown.sections == (
        SectionRow("outer", "## 1. Outer (outer)", 0, "summary", True, len(shown.text)),
        SectionRow("outer.inner", "### 1.1. Inner (outer.inner)", 1, "not shown", False, 0),
    )


@pytest.mark.parametrize(
    ("body", "state"),
    [
        ({}, PageState()),
        (
            {"values": {"a": "x", "b": True}, "actions": [["read", "k"], ["show", "k", "full"]]},
            PageState({"a": "x", "b": True}, (Action("read", "k"), Action("show", "k", "full"))),
        ),
    ],
    ids=["empty", "full"],
)
def test_the_page_state_is_read_from_json(body: object, state: PageState) -> None:
    assert state_from_json(body) == state


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ([], "the body must be a JSON object"),
        ({"values": {"a": 1}}, "values must map names to text or true/false"),
        ({"values": []}, "values must map names to text or true/false"),
        ({"actions": {}}, "actions must be a list"),
        (
            {"actions": [["show", "k", "hidden"]]},
            'an action must be ["show", KEY, "full" or "summary"] or ["read", KEY], not '
            '["show", "k", "hidden"]',
        ),
        (
            {"actions": ["read"]},
            'an action must be ["show", KEY, "full" or "summary"] or ["read", KEY], not "read"',
        ),
    ],
    ids=["not-object", "value-type", "values-list", "actions-object", "visibility", "not-list"],
)
def test_a_wrong_page_state_is_refused_with_what_is_wrong(body: object, message: str) -> None:
    with pytest.raises(PageStateError) as raised:
        state_from_json(body)
    assert str(raised.value) == message


def test_reading_a_disabled_section_fails_as_it_would_for_the_model(tmp_path: Path) -> None:
    (tmp_path / "off.wink.yaml").write_text(
        "key: off\nsections:\n  - key: shown\n    title: Shown\n    visibility: summary\n"
        "    summary: Short.\n    template: Long.\n"
        "  - key: gone\n    title: Gone\n    enabled: false\n    template: Never.\n"
    )
    assert view(tmp_path, "off.wink.yaml", Action("read", "gone")).reads == (
        Read(
            "gone",
            ok=False,
            message="Unknown section key: 'gone'",
        ),
    )
