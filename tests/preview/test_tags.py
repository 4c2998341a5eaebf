"""Tags on the page: a prompt's override files listed, applied, stale or broken."""

from __future__ import annotations

from pathlib import Path

import compiler_plugins
import pytest
from plugin_support import MemoryDistribution
from starlette.testclient import TestClient

from wink_decl.compiler import compile as compile_module
from wink_decl.diagnostics import render_text
from wink_decl.overrides import text_hash
from wink_decl.plugins import PREDICATES, PluginCatalog
from wink_decl.preview.app import create_app, watched_paths
from wink_decl.preview.files import PromptFolder
from wink_decl.preview.guard import site
from wink_decl.preview.html import tag_picker, view_json
from wink_decl.preview.page import (
    PageState,
    PageStateError,
    PromptView,
    prompt_view,
    state_from_json,
)

INTRO = "Review this ${language} code."
SHORT = f"""\
sections:
  intro:
    template: {{hash: "{text_hash(INTRO)}", text: "Check this ${{language}} code."}}
tools:
  read_plan:
    description: {{hash: "{text_hash("Read the current plan.")}", text: Read the plan.}}
"""
TERSE = f"""\
[sections.intro.template]
hash = "{text_hash("Some older text.")}"
text = "Skim this code."
"""
STALE = (
    "overrides/prompts/review/terse.wink-override.toml:2:8: {severity}: The override of "
    "sections.intro.template was written for another text: the base text has changed since, so "
    "the base text is used.\n"
    f"  expected: hash: {text_hash(INTRO)}\n"
    f'   2 | hash = "{text_hash("Some older text.")}"\n'
    f"     |        {'^' * 73}\n"
    "  hint: compare the override with the new base text, then re-pin it: wink-decl "
    "overrides repin FILE --tag TAG shows each stale entry's base text and, with "
    "--all or --entry, writes the new hashes and keeps your texts"
)
BROKEN = (
    "overrides/prompts/review/short.wink-override.yaml:2:12: error: This list is missing a ',' "
    "between items or its closing ']'.\n"
    "  expected: ',' or ']'\n"
    "   2 |   intro: [1\n"
    "     |            ^\n"
    "  hint: the list opens with '[' on line 2; separate its items with commas and close it "
    "with ']'"
)
BASE_TEXT = (
    "## 1. Intro (intro)\n\nReview this Go code.\n\n## 2. Checks (checks)\n\nRead the plan first."
)


def overrides(served: Path) -> Path:
    """The review prompt's override folder (``overrides`` beside the prompt root)."""
    folder = served.parent / "overrides" / "prompts" / "review"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def tagged(served: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Tag ``short`` (current entries) in YAML, tag ``terse`` (a stale entry) in TOML.

    The current folder is the one above: override files are named relative to it.
    """
    monkeypatch.chdir(served.parent)
    folder = overrides(served)
    (folder / "short.wink-override.yaml").write_text(SHORT)
    (folder / "terse.wink-override.toml").write_text(TERSE)
    return served


def view(served: Path, tag: str | None, *, strict: bool = False) -> PromptView:
    folder = PromptFolder(served, served, strict=strict)
    state = PageState({"language": "Go"}, tag=tag)
    return prompt_view(folder, served / "review.wink.yaml", state)


def report(shown: PromptView) -> str:
    return render_text(shown.problems, shown.sources)


def test_a_prompt_without_override_files_has_no_tags_and_no_picker(served: Path) -> None:
    shown = view(served, "short")
    assert (shown.tags, shown.tag, shown.text) == ((), None, BASE_TEXT)
    assert report(shown) == (
        f"{served / 'review.wink.yaml'}: warning: Prompt 'prompts/review' has no override file "
        "for tag 'short', so it is used as written.\n"
        "  expected: one of its tags: it has none\n"
        "  hint: check the tag, or write its file: wink-decl overrides seed "
        f"{served / 'review.wink.yaml'} --tag short"
    )
    assert "tags" not in view_json(shown)


def test_the_tags_are_listed_with_no_tag_chosen(tagged: Path) -> None:
    shown = view(tagged, None)
    assert (shown.tags, shown.tag, shown.text, shown.problems) == (
        ("short", "terse"),
        None,
        BASE_TEXT,
        (),
    )
    assert view_json(shown)["tags"] == (
        '<label for="tag">Tag</label> <select id="tag" name="tag">'
        '<option value="" selected>no tag</option><option value="short">short</option>'
        '<option value="terse">terse</option></select>'
    )


def test_the_picker_escapes_and_marks_the_chosen_tag() -> None:
    assert tag_picker(["a"], "a") == (
        '<label for="tag">Tag</label> <select id="tag" name="tag">'
        '<option value="">no tag</option><option value="a" selected>a</option></select>'
    )


def test_a_tag_replaces_section_text_and_tool_descriptions(tagged: Path) -> None:
    shown = view(tagged, "short")
    assert (shown.tag, shown.problems, shown.text) == (
        "short",
        (),
        "## 1. Intro (intro)\n\nCheck this Go code.\n\n## 2. Checks (checks)\n\n"
        "Read the plan first.",
    )
    assert [tool["description"] for tool in shown.tools["anthropic"]] == ["Read the plan."]


def gone(served: Path, severity: str) -> str:
    """What the page says of tag ``gone`` (its file deleted while the page showed it)."""
    return (
        f"{served / 'review.wink.yaml'}: {severity}: Prompt 'prompts/review' has no override "
        "file for tag 'gone', so it is used as written.\n"
        "  expected: one of its tags: short, terse\n"
        "  hint: check the tag, or write its file: wink-decl overrides seed "
        f"{served / 'review.wink.yaml'} --tag gone"
    )


def test_a_tag_without_a_file_is_no_tag_and_a_warning_as_on_the_command_line(
    tagged: Path,
) -> None:
    shown = view(tagged, "gone")
    assert (shown.tag, shown.text, report(shown)) == (None, BASE_TEXT, gone(tagged, "warning"))
    strict = view(tagged, "gone", strict=True)
    assert (strict.tag, strict.text, report(strict)) == (None, None, gone(tagged, "error"))


def test_a_misspelt_tag_names_the_nearest(tagged: Path) -> None:
    shown = view(tagged, "shrot")
    assert (shown.tag, shown.text) == (None, BASE_TEXT)
    assert report(shown) == (
        f"{tagged / 'review.wink.yaml'}: warning: Prompt 'prompts/review' has no override file "
        "for tag 'shrot', so it is used as written.\n"
        "  expected: one of its tags: short, terse\n"
        "  hint: did you mean 'short'?"
    )


def test_a_stale_entry_is_a_warning_and_keeps_the_base_text(tagged: Path) -> None:
    shown = view(tagged, "terse")
    assert (shown.tag, shown.text) == ("terse", BASE_TEXT)
    assert report(shown) == STALE.format(severity="warning")


def test_with_strict_a_stale_entry_stops_the_render(tagged: Path) -> None:
    shown = view(tagged, "terse", strict=True)
    assert (shown.tag, shown.text, shown.tags) == ("terse", None, ("short", "terse"))
    assert report(shown) == STALE.format(severity="error")


def test_a_broken_override_file_shows_its_diagnostics_instead_of_the_prompt(
    tagged: Path,
) -> None:
    (overrides(tagged) / "short.wink-override.yaml").write_text("sections:\n  intro: [1\n")
    shown = view(tagged, "short")
    assert (shown.tag, shown.text, shown.fields is not None) == ("short", None, True)
    assert report(shown) == BROKEN


PROMPT = """\
key: flaky
sections:
  - {key: main, title: Main, template: Hello., enabled: {predicate: flaky.raises}}
"""


def test_a_raising_predicate_is_shown_as_the_plugins_fault(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    points = {PREDICATES: {"flaky.raises": "compiler_plugins:raising"}}
    catalog = PluginCatalog(distributions=[MemoryDistribution("flaky-plugins", "2.0", points)])
    monkeypatch.setattr(compile_module, "default_catalog", lambda: catalog)
    path = tmp_path / "flaky.wink.yaml"
    path.write_text(PROMPT)
    compiler_plugins.failures[:] = [KeyError("weather")]
    folder = PromptFolder(tmp_path, tmp_path)
    shown = prompt_view(folder, path, PageState())
    assert (shown.ok, shown.fields, shown.tags) == (False, (), ())
    assert report(shown) == (
        f"{path}:3:69: error: Predicate 'flaky.raises' (entry point in "
        "wink_decl.predicates, from flaky-plugins 2.0, value 'compiler_plugins:raising') raised "
        "KeyError: 'weather'.\n"
        "  expected: a function (params, *, session) that returns true or false without raising\n"
        "   3 |   - {key: main, title: Main, template: Hello., "
        "enabled: {predicate: flaky.raises}}\n"
        "     |                                                                     ^^^^^^^^^^^^\n"
        "  hint: the fault is in the plugin's distribution (flaky-plugins), not in this file: fix "
        "or upgrade it, or name another predicate"
    )
    assert view_json(shown)["prompt"] is None


@pytest.mark.parametrize(
    ("body", "tag"), [({}, None), ({"tag": None}, None), ({"tag": "short"}, "short")]
)
def test_the_page_sends_its_tag(body: dict[str, object], tag: str | None) -> None:
    assert state_from_json(body) == PageState(tag=tag)


@pytest.mark.parametrize(
    ("tag", "error"),
    [
        (3, "tag must be text or null, not 3"),
        (
            "../x",
            "tag: '../x' is not a tag: use 1-64 letters, digits, '_' or '-', starting with a "
            "letter or digit",
        ),
    ],
)
def test_a_wrong_tag_is_refused(tag: object, error: str) -> None:
    with pytest.raises(PageStateError) as raised:
        state_from_json({"tag": tag})
    assert str(raised.value) == error


def test_the_app_renders_the_chosen_tag(tagged: Path) -> None:
    where = site("127.0.0.1", "127.0.0.1", 8000)
    app = create_app(PromptFolder(tagged, tagged), where)
    client = TestClient(app, base_url=where.url.rstrip("/"))
    body = {"values": {"language": "Go"}, "tag": "short"}
    answer = client.post("/api/prompt", params={"file": "review.wink.yaml"}, json=body)
    assert (answer.status_code, answer.json()) == (200, view_json(view(tagged, "short")))
    assert "Check this Go code." in str(answer.json()["prompt"])


def test_the_overrides_folder_iswatched_paths_once_it_exists(
    served: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(served.parent)  # the sibling of prompts/ is the default inside this folder
    folder = PromptFolder(served, served)
    assert watched_paths(folder) == {served.resolve()}
    overrides(served)
    assert watched_paths(folder) == {served.resolve(), (served.parent / "overrides").resolve()}


def test_an_overrides_folder_given_is_the_one_used(tmp_path: Path) -> None:
    given = PromptFolder(tmp_path / "prompts", tmp_path / "prompts", overrides=tmp_path / "v")
    assert (given.overrides_root, given.override_store().root) == (tmp_path / "v", tmp_path / "v")
