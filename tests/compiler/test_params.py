"""make_params: render-time values checked against the declarations, with whole reports."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from compiler_support import compile_in

from wink_decl.compiler import CompiledPrompt, CompileResult, make_params
from wink_decl.diagnostics import DiagnosticError, render_text
from wink_decl.plugins import PluginCatalog

REVIEW = """\
key: review
params:
  language: {type: string}
  level: {type: string, enum: [low, high], default: low}
  tags: {type: array, items: {type: integer}, default: [1, 2]}
sections:
  - key: task
    title: Task
    template: Review the ${language} change at level ${level}.
"""


@pytest.fixture
def review(here: Path, catalog: PluginCatalog) -> CompileResult:
    return compile_in(here, REVIEW, catalog=catalog)


def prompt_of(result: CompileResult) -> CompiledPrompt:
    assert result.prompt is not None
    return result.prompt


def refusal(result: CompileResult, values: dict[str, object]) -> str:
    with pytest.raises(DiagnosticError) as info:
        make_params(prompt_of(result), values)
    return render_text(info.value.diagnostics, result.sources)


def test_values_become_the_params_dataclass_with_defaults(review: CompileResult) -> None:
    (params,) = make_params(prompt_of(review), {"language": "Python"})
    assert dataclasses.asdict(params) == {"language": "Python", "level": "low", "tags": (1, 2)}  # pyright: ignore[reportArgumentType]
    rendered = prompt_of(review).template.render(params)
    assert rendered.text == "## 1. Task (task)\n\nReview the Python change at level low."


def test_an_unknown_param_suggests_a_declared_one_and_the_missing_one_is_named(
    review: CompileResult,
) -> None:
    assert refusal(review, {"langauge": "Python"}) == (
        "prompt.wink.yaml: error: Unknown param 'langauge'. Did you mean 'language'?\n"
        "  expected: one of the declared params (language, level, tags)\n"
        "prompt.wink.yaml:3:3: error: Param 'language' has no value and no default.\n"
        "   3 |   language: {type: string}\n"
        "     |   ^^^^^^^^\n"
        "  hint: pass a value for 'language' when rendering, or give it a default"
    )


def test_the_error_message_is_the_first_diagnostics_header(review: CompileResult) -> None:
    with pytest.raises(DiagnosticError) as info:
        make_params(prompt_of(review), {"langauge": "Python"})
    assert str(info.value) == (
        "prompt.wink.yaml: error: Unknown param 'langauge'. Did you mean 'language'? (and 1 more)"
    )


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"language": 3}, "Field 'language' must be a string, got integer."),
        (
            {"language": "Go", "level": "mid"},
            'Field \'level\' must be one of "low", "high", got "mid".',
        ),
        ({"language": "Go", "tags": ["a"]}, "Field 'tags[0]' must be an integer, got string."),
    ],
    ids=["wrong-type", "not-in-enum", "wrong-item-type"],
)
def test_a_value_of_the_wrong_type_is_refused(
    review: CompileResult, values: dict[str, object], message: str
) -> None:
    assert refusal(review, values) == (
        f"prompt.wink.yaml: error: Params do not fit their declarations: {message}"
    )


def test_a_prompt_without_params_takes_none(here: Path, catalog: PluginCatalog) -> None:
    plain = compile_in(here, "key: plain\nsections:\n  - {key: a, title: A}\n", catalog=catalog)
    assert make_params(prompt_of(plain), {}) == ()
    assert refusal(plain, {"x": 1}) == (
        "prompt.wink.yaml: error: Unknown param 'x'.\n"
        "  expected: one of the declared params (none are declared)"
    )
