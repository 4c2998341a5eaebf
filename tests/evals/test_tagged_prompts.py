"""A suite's prompt by tag, sent to another process as what it is made of and prepared there."""
# pyright: reportPrivateUsage=false

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from greet_prompt import GREET, loud_override, write_greet

from wink_decl.diagnostics import DiagnosticError
from wink_decl.errors import PromptEvaluationError
from wink_decl.evals._tagged_prompts import TaggedPrompts
from wink_decl.limits import Limits


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with ``prompts/greet.wink.yaml``, and the override of its tag ``loud``."""
    monkeypatch.chdir(tmp_path)
    write_greet(tmp_path)
    return tmp_path


def _task(prompts: TaggedPrompts, tag: str | None) -> str:
    return prompts[tag].template.sections[0].template


def _prompts(tags: tuple[str | None, ...] = (None,), **options: object) -> TaggedPrompts:
    return TaggedPrompts(
        "prompts/greet.wink.yaml",
        root="prompts",
        overrides="overrides",
        tags=tags,
        **options,  # type: ignore[arg-type]
    )


def test_each_tag_is_prepared_once_on_first_use(here: Path) -> None:
    del here
    prompts = _prompts((None, "loud"))
    assert (list(prompts), len(prompts), prompts._prepared) == ([None, "loud"], 2, None)
    assert (_task(prompts, None), _task(prompts, "loud")) == (
        "Say hello to ${name}.",
        "Say hello to ${name}. Shout.",
    )
    assert prompts[None] is prompts[None]
    with pytest.raises(KeyError):
        prompts["quiet"]


def test_pickled_it_is_what_it_is_made_of_and_prepares_again(here: Path) -> None:
    del here
    limits = Limits(max_sections=50)
    prompts = _prompts((None, "loud"), limits=limits)
    copy = pickle.loads(pickle.dumps(prompts))  # noqa: S301  # our own bytes
    assert (copy.file, copy.root, copy.overrides, copy.tags, copy.limits) == (
        "prompts/greet.wink.yaml",
        "prompts",
        "overrides",
        (None, "loud"),
        limits,
    )
    assert (copy._prepared, list(copy._expected or ())) == (
        None,
        [None, "loud"],
    )  # nothing compiled
    assert copy[None] is not prompts[None]
    assert (_task(copy, "loud"), copy.digests()) == (
        "Say hello to ${name}. Shout.",
        prompts.digests(),
    )


@pytest.mark.parametrize("edited", ["prompt", "override"])
def test_files_that_changed_since_the_driver_prepared_them_are_refused(
    here: Path, edited: str
) -> None:
    sent = pickle.dumps(_prompts((None, "loud")))
    if edited == "prompt":
        (here / "prompts" / "greet.wink.yaml").write_text(GREET + "description: Greets.\n")
    else:
        loud = here / "overrides" / "prompts" / "greet" / "loud.wink-override.yaml"
        loud.write_text(loud_override("Say hello to ${name}. Whisper."))
    with pytest.raises(PromptEvaluationError) as raised:
        pickle.loads(sent)[None]  # noqa: S301  # our own bytes
    assert raised.value.message == (
        "The prompt files here differ from those the suite was started with "
        "(prompts/greet.wink.yaml under prompts, overrides in overrides): give every machine "
        "the same files (docs/evals.md, 'Running on a Ray cluster')."
    )


def test_a_file_that_does_not_compile_raises_its_diagnostics(here: Path) -> None:
    (here / "prompts" / "greet.wink.yaml").write_text("key: greet\nsections: 3\n")
    with pytest.raises(DiagnosticError) as raised:
        _prompts()[None]
    assert str(raised.value) == (
        "prompts/greet.wink.yaml:2:11: error: 'sections' must be a list; found 3\n"
        "   2 | sections: 3\n"
        "     |           ^"
    )


def test_a_tag_whose_overrides_cannot_apply_raises_their_diagnostics(here: Path) -> None:
    loud = here / "overrides" / "prompts" / "greet" / "loud.wink-override.yaml"
    loud.write_text(loud_override("Say hello to ${nobody}."))
    with pytest.raises(DiagnosticError) as raised:
        _prompts((None, "loud"))[None]
    assert str(raised.value) == (
        "overrides/prompts/greet/loud.wink-override.yaml:5:13: error: The text of "
        "sections.task.template cannot be used: Placeholder 'nobody' in the template of section "
        "'task' is not a field of Params.\n"
        "  expected: a text the prompt file could hold in its place\n"
        "   5 |       text: Say hello to ${nobody}.\n"
        "     |             ^^^^^^^^^^^^^^^^^^^^^^^\n"
        "  hint: correct the text; the base text is used until then"
    )
