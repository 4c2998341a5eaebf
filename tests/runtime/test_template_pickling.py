"""A template stays in the process that built it: pickling refuses it, by name (docs/runtime.md)."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from pathlib import Path

import pytest

from wink_decl.compiler import compile_file
from wink_decl.compiler.compile import CompiledPrompt

REFUSAL = "cannot pickle 'PromptTemplate' object: compile its file where it is used"


def _compiled(tmp_path: Path) -> CompiledPrompt:
    source = tmp_path / "greet.wink.yaml"
    source.write_text(
        "key: greet\n"
        "params:\n"
        "  name: {type: string}\n"
        "sections:\n"
        "  - {key: hi, title: Hi, template: 'Hello ${name}.'}\n"
    )
    prompt = compile_file(source).prompt
    assert prompt is not None
    return prompt


def _pickle_template(prompt: CompiledPrompt) -> object:
    return pickle.dumps(prompt.template)


def _pickle_prompt(prompt: CompiledPrompt) -> object:
    return pickle.dumps(prompt)


def _deepcopy_template(prompt: CompiledPrompt) -> object:
    return copy.deepcopy(prompt.template)


@pytest.mark.parametrize("send", [_pickle_template, _pickle_prompt, _deepcopy_template])
def test_a_template_is_not_sent_to_another_process(
    tmp_path: Path, send: Callable[[CompiledPrompt], object]
) -> None:
    prompt = _compiled(tmp_path)
    with pytest.raises(TypeError) as raised:
        send(prompt)
    assert str(raised.value) == REFUSAL


def test_cloudpickle_refuses_it_too(tmp_path: Path) -> None:
    cloudpickle = pytest.importorskip("ray.cloudpickle")
    prompt = _compiled(tmp_path)
    with pytest.raises(TypeError) as raised:
        cloudpickle.dumps({None: prompt})
    assert str(raised.value) == REFUSAL


def test_a_shallow_copy_renders_as_the_template(tmp_path: Path) -> None:
    template = _compiled(tmp_path).template
    (params,) = template.params_types
    copied = copy.copy(template)
    assert (type(copied), vars(copied)) == (type(template), vars(template))
    assert copied.render(params(name="Ann")).text == template.render(params(name="Ann")).text
    assert copied.render(params(name="Ann")).text == "## 1. Hi (hi)\n\nHello Ann."
