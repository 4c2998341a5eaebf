"""A plain file is built straight from the checked data: the same prompt, and only for it."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from compiler_support import compile_in, report

from wink_decl.compiler import artifact_json, compile_file, make_params
from wink_decl.compiler import compile as compile_module
from wink_decl.compiler._sections import plain_sections
from wink_decl.compiler.compile import CompileResult
from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.limits import DEFAULT_LIMITS
from wink_decl.plugins import PluginCatalog
from wink_decl.schema.model import SectionDoc

PLAIN = {
    "params-and-output.wink.yaml": """\
key: plain
ns: team/briefs
name: A plain prompt
params:
  topic: {type: string, description: What it is about.}
  words: {type: integer, default: 5}
  ratio: {type: number, default: 1.0}
  tone: {type: string, enum: [calm, firm], default: calm}
  tags: {type: array, items: {type: string}, default: [a, b]}
output:
  answer: {type: string}
sections:
  - key: task
    title: Task
    template: |
      Write about ${topic} in $words words ($$5 a word, ratio $ratio).
      Tone: ${tone}; tags: ${tags}.
  - title: Background Notes
    summary: Notes on ${topic}.
    visibility: summary
    template: The long notes.
  - key: hidden
    title: Hidden
    enabled: false
    accepts_overrides: false
    template: ""
""",
    "no-params.wink.toml": """\
key = "bare"

[[sections]]
key = "only"
title = "Only"
template = "Nothing to fill in: 5% off."
""",
}

NOT_PLAIN = {
    "foreign.wink.yaml": (
        "key: f\nparams:\n  topic: {type: string}\n"
        "sections:\n  - {key: a, title: A, template: 'About {{topic}}.'}\n"
    ),
    "unknown.wink.yaml": "key: u\nsections:\n  - {key: a, title: A, template: Hi $who.}\n",
    "stray.wink.yaml": "key: s\nsections:\n  - {key: a, title: A, template: Costs 5$.}\n",
    "unknown-in-summary.wink.yaml": (
        "key: us\nsections:\n"
        "  - {key: a, title: A, summary: Hi $who., visibility: summary, template: Hi.}\n"
    ),
    "twice.wink.yaml": (
        "key: t\nsections:\n  - {key: a, title: A, template: One.}\n"
        "  - {title: a, template: Two.}\n"
    ),
    "children.wink.yaml": (
        "key: c\nsections:\n  - key: a\n    title: A\n"
        "    children:\n      - {key: b, title: B, template: Inner.}\n"
    ),
    "condition.wink.yaml": (
        "key: cond\nparams:\n  strict: {type: boolean, default: false}\n"
        "sections:\n  - {key: a, title: A, template: Hi., enabled: {param: strict}}\n"
    ),
    "summary-when.wink.yaml": (
        "key: sw\nparams:\n  strict: {type: boolean, default: false}\n"
        "sections:\n  - key: a\n    title: A\n    summary: Short.\n    template: Long.\n"
        "    visibility: {summary_when: {param: strict}}\n"
    ),
    "suffix.wink.yaml": (
        "key: suf\nsections:\n  - key: a\n    title: A\n    summary: Short.\n"
        "    summary_suffix: ' (read ${section_key})'\n    visibility: summary\n"
        "    template: Long.\n"
    ),
    "policy.wink.yaml": (
        "key: pol\npolicies:\n  - sequential: {lookup: []}\nsections:\n"
        "  - {key: a, title: A, template: Hi.}\n"
    ),
}


def _facts(result: CompileResult) -> tuple[object, ...]:
    """What a compile gives, as callers see it: reports, address, artifact, params, render."""
    prompt = result.prompt
    if prompt is None:
        return (report(result), result.address, dict(result.sources), result.includes)
    kind: Any = prompt.params_type
    values = {"topic": "caching"} if kind is not None and "topic" in kind.__annotations__ else {}
    fields = [] if kind is None else [_field(f) for f in dataclasses.fields(kind)]
    return (
        report(result),
        result.address,
        prompt.address,
        dict(result.sources),
        result.includes,
        dict(result.include_states),
        artifact_json(prompt.artifact),
        sorted(prompt.tools),
        fields,
        prompt.template.render(*make_params(prompt, values)).text,
        type(prompt.template.sections[0]).__qualname__,
        dict(prompt.param_spans),
    )


def _field(field: dataclasses.Field[Any]) -> tuple[object, ...]:
    return (field.name, field.type, field.default, dict(field.metadata), field.kw_only)


def _declines(*_args: object, **_kwargs: object) -> None:
    """The plain path, declining every file: the checked build then compiles it."""


def _compile_both_ways(
    here: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str, catalog: PluginCatalog
) -> tuple[list[bool], CompileResult, CompileResult]:
    """The file compiled as it is, then with the plain path declining every file."""
    taken: list[bool] = []
    plain = compile_module._plain_prompt  # pyright: ignore[reportPrivateUsage]

    def watched(*args: Any, **kwargs: Any) -> object:
        made = plain(*args, **kwargs)
        taken.append(made is not None)
        return made

    with monkeypatch.context() as patch:
        patch.setattr(compile_module, "_plain_prompt", watched)
        fast = compile_in(here, text, name=name, catalog=catalog)
    with monkeypatch.context() as patch:
        patch.setattr(compile_module, "_plain_prompt", _declines)
        slow = compile_in(here, text, name=name, catalog=catalog)
    return taken, fast, slow


@pytest.mark.parametrize("name", sorted(PLAIN))
def test_a_plain_file_is_built_straight_and_gives_what_the_checked_build_gives(
    here: Path, monkeypatch: pytest.MonkeyPatch, catalog: PluginCatalog, name: str
) -> None:
    taken, fast, slow = _compile_both_ways(here, monkeypatch, name, PLAIN[name], catalog)
    assert taken == [True]
    assert fast.ok
    assert _facts(fast) == _facts(slow)


@pytest.mark.parametrize("name", sorted(NOT_PLAIN))
def test_any_other_file_takes_the_checked_build(
    here: Path, monkeypatch: pytest.MonkeyPatch, catalog: PluginCatalog, name: str
) -> None:
    taken, fast, slow = _compile_both_ways(here, monkeypatch, name, NOT_PLAIN[name], catalog)
    assert taken == [False]
    assert _facts(fast) == _facts(slow)


def test_a_folder_that_names_no_ns_takes_the_checked_build(
    here: Path, monkeypatch: pytest.MonkeyPatch, catalog: PluginCatalog
) -> None:
    text = "key: k\nsections:\n  - {key: a, title: A, template: Hi.}\n"
    taken, fast, slow = _compile_both_ways(
        here, monkeypatch, "Odd Folder/prompt.wink.yaml", text, catalog
    )
    assert taken == [False]
    assert _facts(fast) == _facts(slow)
    assert fast.diagnostics[0].message == (
        "The folder path 'odd folder' cannot be used as the prompt's ns."
    )


def test_more_sections_than_the_limit_take_the_checked_build(
    here: Path, monkeypatch: pytest.MonkeyPatch, catalog: PluginCatalog
) -> None:
    text = "key: k\nsections:\n  - {key: a, title: A}\n  - {key: b, title: B}\n"
    (here / "prompt.wink.yaml").write_text(text, encoding="utf-8")
    limits = dataclasses.replace(DEFAULT_LIMITS, max_sections=1)
    results = [compile_file("prompt.wink.yaml", root=".", catalog=catalog, limits=limits)]
    with monkeypatch.context() as patch:
        patch.setattr(compile_module, "_plain_prompt", _declines)
        results.append(compile_file("prompt.wink.yaml", root=".", catalog=catalog, limits=limits))
    fast, slow = results
    assert _facts(fast) == _facts(slow)
    assert [str(d.code) for d in fast.diagnostics] == [str(DiagnosticCode.TOO_MANY_SECTIONS)]


def test_a_check_only_compile_takes_the_checked_build(
    here: Path, monkeypatch: pytest.MonkeyPatch, catalog: PluginCatalog
) -> None:
    (here / "prompt.wink.yaml").write_text(PLAIN["params-and-output.wink.yaml"], encoding="utf-8")
    taken: list[object] = []

    def watched(*args: object, **_kwargs: object) -> None:
        taken.append(args)

    monkeypatch.setattr(compile_module, "_plain_prompt", watched)
    result = compile_file("prompt.wink.yaml", root=".", catalog=catalog, check_only=True)
    assert (result.prompt, result.diagnostics, result.address) == (None, (), "team/briefs/plain")
    assert taken == []


def test_a_section_the_runtime_refuses_is_left_to_the_checked_build() -> None:
    # A safety net for data the schema let through by mistake: fed past the schema on purpose.
    past_the_schema = SectionDoc.model_construct(key="a", title=" ")  # built unchecked
    assert plain_sections((past_the_schema,), {}, None, 10) is None


def _rebuilt(made: Any) -> Any:
    """``made`` made again by its class, from its fields (every one must be set)."""
    return type(made)(**{f.name: getattr(made, f.name) for f in dataclasses.fields(made)})


@pytest.mark.parametrize("name", sorted(PLAIN))
def test_results_and_prompts_set_at_once_are_what_their_classes_make(
    here: Path, monkeypatch: pytest.MonkeyPatch, catalog: PluginCatalog, name: str
) -> None:
    """Both builds fill the frozen results without their ``__init__``: every field is set,
    to what the class itself would hold, and the instances stay frozen."""
    _, fast, slow = _compile_both_ways(here, monkeypatch, name, PLAIN[name], catalog)
    for result in (fast, slow):
        prompt = result.prompt
        assert prompt is not None
        assert _rebuilt(result) == result
        assert _rebuilt(prompt) == prompt
        assert vars(result).keys() == {f.name for f in dataclasses.fields(result)}
        assert vars(prompt).keys() == {f.name for f in dataclasses.fields(prompt)}
        with pytest.raises(dataclasses.FrozenInstanceError):
            prompt.source = "elsewhere"  # pyright: ignore[reportAttributeAccessIssue]
