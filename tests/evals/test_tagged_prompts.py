"""A suite's prompt by tag, sent to another process as what it is made of and compiled there."""
# pyright: reportPrivateUsage=false

from __future__ import annotations

import hashlib
import pickle
from pathlib import Path

import pytest

from wink_decl.diagnostics import DiagnosticError
from wink_decl.errors import PromptEvaluationError
from wink_decl.evals._tagged_prompts import TaggedPrompts
from wink_decl.limits import Limits

GREET = """\
key: greet
params:
  name:
    type: string
sections:
  - key: task
    title: Task
    template: Say hello to ${name}.
"""


def _override(text: str) -> str:
    digest = "sha256:" + hashlib.sha256(b"Say hello to ${name}.").hexdigest()
    return f"sections:\n  task:\n    template:\n      hash: {digest}\n      text: {text}\n"


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with ``prompts/greet.wink.yaml``, and the override of its tag ``loud``."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "prompts").mkdir()
    (tmp_path / "prompts" / "greet.wink.yaml").write_text(GREET)
    folder = tmp_path / "overrides" / "prompts" / "greet"  # the root's ns is its folder's name
    folder.mkdir(parents=True)
    (folder / "loud.wink-override.yaml").write_text(_override("Say hello to ${name}. Shout."))
    return tmp_path


def _task(prompts: TaggedPrompts, tag: str | None) -> str:
    return prompts[tag].template.sections[0].template


def test_each_tag_is_compiled_once_on_first_use(here: Path) -> None:
    del here
    prompts = TaggedPrompts("prompts/greet.wink.yaml", root="prompts", tags=("loud",))
    assert (list(prompts), len(prompts)) == ([None, "loud"], 2)
    assert (_task(prompts, None), _task(prompts, "loud")) == (
        "Say hello to ${name}.",
        "Say hello to ${name}. Shout.",
    )
    assert prompts[None] is prompts[None]
    with pytest.raises(KeyError):
        prompts["quiet"]


def test_pickled_it_is_what_it_is_made_of_and_compiles_again(here: Path) -> None:
    del here
    limits = Limits(max_sections=50)
    prompts = TaggedPrompts(
        "prompts/greet.wink.yaml", root="prompts", overrides="overrides", limits=limits
    )
    copy = pickle.loads(pickle.dumps(prompts))  # noqa: S301  # our own bytes
    assert (copy.path, copy.root, copy.overrides, copy.tags, copy.limits) == (
        "prompts/greet.wink.yaml",
        "prompts",
        "overrides",
        (),
        limits,
    )
    assert copy._compiled is None  # nothing compiled is sent
    assert copy[None] is not prompts[None]
    assert copy[None].content_hash == prompts[None].content_hash


def test_files_that_changed_since_the_driver_compiled_them_are_refused(here: Path) -> None:
    sent = pickle.dumps(TaggedPrompts("prompts/greet.wink.yaml", root="prompts"))
    (here / "prompts" / "greet.wink.yaml").write_text(GREET.replace("hello", "goodbye"))
    with pytest.raises(PromptEvaluationError) as raised:
        pickle.loads(sent)[None]  # noqa: S301  # our own bytes
    assert raised.value.message == (
        "The prompt files here differ from those the suite was started with "
        "(prompts/greet.wink.yaml under prompts): give every machine the same files "
        "(docs/evals.md, 'Running on a Ray cluster')."
    )


def test_a_file_that_does_not_compile_raises_its_diagnostics(here: Path) -> None:
    (here / "prompts" / "greet.wink.yaml").write_text("key: greet\nsections: 3\n")
    with pytest.raises(DiagnosticError) as raised:
        TaggedPrompts("prompts/greet.wink.yaml", root="prompts")[None]
    assert str(raised.value) == (
        "prompts/greet.wink.yaml:2:11: error: 'sections' must be a list; found 3\n"
        "   2 | sections: 3\n"
        "     |           ^"
    )


def test_a_handler_that_does_not_fit_raises_its_diagnostics(here: Path) -> None:
    (here / "prompts" / "greet.wink.yaml").write_text(
        "key: greet\nsections:\n  - key: task\n    title: Task\n    template: Plan.\n"
        "    tools: [plan]\ntools:\n  plan:\n    description: Plan.\n"
        "    handler: planning.setup_plan\n    params:\n      nonsense: {type: integer}\n"
    )
    with pytest.raises(DiagnosticError) as raised:
        TaggedPrompts("prompts/greet.wink.yaml", root="prompts")[None]
    assert str(raised.value) == (
        "prompts/greet.wink.yaml:10:14: error: Tool 'plan' cannot use handler "
        "'planning.setup_plan': Field 'nonsense' is declared in the prompt file but SetupPlan "
        "has no such field. Field 'objective' is required by SetupPlan but the prompt file does "
        "not declare it.\n"
        "  10 |     handler: planning.setup_plan\n"
        "     |              ^^^^^^^^^^^^^^^^^^^\n"
        "  hint: check that the plugin's version matches this prompt, or name another entry "
        "point"
    )


def test_a_tag_whose_overrides_cannot_apply_raises_their_diagnostics(here: Path) -> None:
    loud = here / "overrides" / "prompts" / "greet" / "loud.wink-override.yaml"
    loud.write_text(_override("Say hello to ${nobody}."))
    with pytest.raises(DiagnosticError) as raised:
        TaggedPrompts("prompts/greet.wink.yaml", root="prompts", tags=("loud",))[None]
    assert str(raised.value) == (
        "overrides/prompts/greet/loud.wink-override.yaml:5:13: error: The text of "
        "sections.task.template cannot be used: Placeholder 'nobody' in the template of section "
        "'task' is not a field of Params.\n"
        "  expected: a text the prompt file could hold in its place\n"
        "   5 |       text: Say hello to ${nobody}.\n"
        "     |             ^^^^^^^^^^^^^^^^^^^^^^^\n"
        "  hint: correct the text; the base text is used until then"
    )
