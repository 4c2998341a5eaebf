"""Every front end prepares a prompt one way (``wink_decl.inputs``): the same answers, once."""

from __future__ import annotations

import dataclasses
import inspect
import re
from collections.abc import Callable
from pathlib import Path

import pytest

import wink_decl
from wink_decl.inputs import Prepared, PromptRequest, prepare
from wink_decl.preview.files import PromptFolder
from wink_decl.preview.page import PageState, prompt_view

Run = Callable[..., tuple[int, str, str]]

REVIEW = "prompts/agents/code-review.wink.yaml"
TASK_HASH = "sha256:7adc2d4375c03aca00c9e5dd9f368c99281f3f107883a7b6046c7e44e18365bb"
"""The hash of the code-review prompt's task template, as ``overrides seed`` writes it."""


def _override(project: Path, tag: str, body: str) -> None:
    folder = project / "overrides" / "agents" / "code-review"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{tag}.wink-override.yaml").write_text(body)


def _task_override(key: str, digest: str, text: str) -> str:
    return f"sections:\n  {key}:\n    template:\n      hash: {digest}\n      text: {text}\n"


def test_every_step_reports_at_once(cli: Run, project: Path) -> None:
    """Params, opened sections and the tag are each checked, even when another step fails."""
    _override(project, "broken", _task_override("taks", TASK_HASH, "Review it."))
    status, out, err = cli("render", REVIEW, "--tag", "broken", "--open", "nope", "--param", "x=1")
    assert (status, out) == (1, "")
    assert err == (
        f"{REVIEW}: error: --open nope: the prompt has no such section.\n"
        "  expected: a dotted section key: task, tone, workspace, style-guide, "
        "style-guide.naming, style-guide.layout, style-guide.errors\n"
        f"{REVIEW}: error: Unknown param 'x'.\n"
        "  expected: one of the declared params (language, change, strict)\n"
        f"{REVIEW}:9:3: error: Param 'language' has no value and no default.\n"
        "   9 |   language:\n"
        "     |   ^^^^^^^^\n"
        "  hint: pass --param language=VALUE or put it in --params-file, or give it a default\n"
        f"{REVIEW}:12:3: error: Param 'change' has no value and no default.\n"
        "  12 |   change:\n"
        "     |   ^^^^^^\n"
        "  hint: pass --param change=VALUE or put it in --params-file, or give it a default\n"
        "overrides/agents/code-review/broken.wink-override.yaml:2:3: error: Prompt "
        "'agents/code-review' has no section 'taks'.\n"
        "  expected: a section of the prompt, its dotted key from the top\n"
        "   2 |   taks:\n"
        "     |   ^^^^\n"
        "  hint: did you mean 'task'?\n"
    )


def test_the_page_and_the_command_render_a_tag_alike(cli: Run, project: Path) -> None:
    _override(project, "short", _task_override("task", TASK_HASH, "Review the ${language} diff."))
    status, out, err = cli(
        "render", REVIEW, "--tag", "short", "--param", "language=Go", "--param", "change=x"
    )
    assert (status, err) == (0, "")
    folder = PromptFolder(project / "prompts", project / "prompts")
    state = PageState({"language": "Go", "change": "x"}, tag="short")
    shown = prompt_view(folder, project / REVIEW, state)
    assert (shown.problems, shown.tag, shown.text) == ((), "short", out.split("\n\ntools:")[0])
    assert shown.text is not None
    assert shown.text.startswith("## 1. Task (task)\n\nReview the Go diff.\n\n## 2. Tone (tone)")


def test_load_warns_of_a_stale_entry_of_its_tag(project: Path) -> None:
    stale = "sha256:" + "0" * 64
    _override(project, "old", _task_override("task", stale, "Review it."))
    with pytest.warns(UserWarning, match="sections.task.template") as caught:
        template = wink_decl.load(REVIEW, root="prompts", tag="old")
    assert [str(w.message) for w in caught] == [
        "overrides/agents/code-review/old.wink-override.yaml:4:13: warning: The override of "
        "sections.task.template was written for another text: the base text has changed "
        "since, so the base text is used.\n"
        f"  expected: hash: {TASK_HASH}\n"
        f"   4 |       hash: {stale}\n"
        f"     |             {'^' * len(stale)}\n"
        "  hint: compare the override with the new base text, then re-pin it: wink-decl "
        "overrides repin FILE --tag TAG shows each stale entry's base text and, with "
        "--all or --entry, writes the new hashes and keeps your texts"
    ]
    assert template.key == "code-review"


def test_a_prompt_that_did_not_prepare_cannot_be_rendered(project: Path) -> None:
    (project / "prompts" / "bad.wink.yaml").write_text("key: bad\nsections: 3\n")
    broken = prepare(PromptRequest("prompts/bad.wink.yaml"))
    missing = prepare(PromptRequest(REVIEW))
    assert (broken.ok, broken.compiled, missing.ok, missing.compiled is not None) == (
        False,
        None,
        False,
        True,
    )
    with pytest.raises(
        ValueError, match=re.escape("a prompt that did not compile has no template")
    ):
        _ = broken.template
    with pytest.raises(
        ValueError, match=re.escape("a prepared prompt with errors cannot be rendered")
    ):
        missing.render()


def test_a_prepared_prompt_names_its_file_as_reports_show_it(project: Path) -> None:
    prepared = prepare(PromptRequest(f"./{REVIEW.replace('/', '//')}"))
    assert (prepared.source, prepared.location.file, prepared.location.root) == (
        REVIEW,
        Path(REVIEW),
        project / "prompts",  # the configured root
    )


def test_a_prepared_prompt_is_a_frozen_dataclass_of_its_fields(project: Path) -> None:
    """Its fields go in at once (one dict); those not given take the dataclass's defaults."""
    prepared = prepare(PromptRequest(REVIEW, params=(("diff", "x"),)))
    fields = dataclasses.fields(prepared)
    assert vars(prepared) == {f.name: getattr(prepared, f.name) for f in fields}
    assert [f.name for f in fields] == [
        "location",
        "result",
        "reports",
        "compiled",
        "prompt",
        "params",
        "visibility",
    ]
    assert prepared.prompt is prepared.compiled is not None
    bare = Prepared(prepared.location, prepared.result, prepared.reports)
    assert [f.default for f in fields[3:]] == [None, None, (), dataclasses.MISSING]
    assert [getattr(bare, f.name) for f in fields[3:]] == [None, None, (), {}]
    assert bare.visibility is not Prepared(prepared.location, prepared.result, ()).visibility
    again = dataclasses.replace(prepared, params=())
    assert (again.params, again.prompt, again.visibility) == ((), prepared.prompt, {})
    with pytest.raises(dataclasses.FrozenInstanceError, match=r"^cannot assign to field 'params'$"):
        again.params = (1,)  # pyright: ignore[reportAttributeAccessIssue]


def test_a_request_takes_its_fields_in_order_with_their_defaults() -> None:
    """Its own ``__init__`` (every field at once) is the one the dataclass would write."""
    fields = dataclasses.fields(PromptRequest)
    parameters = list(inspect.signature(PromptRequest).parameters.values())
    assert [(p.name, p.default, p.kind) for p in parameters] == [
        (f.name, inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default, p.kind)
        for f, p in zip(fields, parameters, strict=True)
    ]
    assert {p.kind for p in parameters} == {inspect.Parameter.POSITIONAL_OR_KEYWORD}
    given = PromptRequest("a.wink.yaml", "root", open=("s",), strict=True)
    assert vars(given) == {f.name: getattr(given, f.name) for f in fields}
    assert (given.root, given.open, given.strict, given.tag) == ("root", ("s",), True, None)
    assert given == dataclasses.replace(
        PromptRequest("a.wink.yaml"), root="root", open=("s",), strict=True
    )
    with pytest.raises(dataclasses.FrozenInstanceError, match=r"^cannot assign to field 'tag'$"):
        given.tag = "x"  # pyright: ignore[reportAttributeAccessIssue]
