"""Generated params classes are shared only by identical declarations, from any thread."""

from __future__ import annotations

import dataclasses
import math
import time
from pathlib import Path
from typing import Any

import pytest
from compiler_support import compile_in, compiled, declared_spec, field_facts
from concurrency import run_threads

from wink_decl.compiler import _params_dataclass, make_params
from wink_decl.compiler._params_dataclass import (
    FieldSpec,
    class_for_params,
    exact_key,
    make_dataclass_for,
)
from wink_decl.plugins import PluginCatalog
from wink_decl.schema.model import ParamSpec

NUMBER = """\
key: {key}
params:
  ratio: {{type: number, default: {default}}}
sections:
  - key: task
    title: Task
    template: The ratio is ${{ratio}}.
"""


@pytest.mark.parametrize(
    ("first", "second", "texts"),
    [
        ("1", "1.0", ("1", "1.0")),
        ("0.0", "-0.0", ("0.0", "-0.0")),
        ("2.50", "2.5", ("2.5", "2.5")),  # the same float, written two ways: one class
    ],
    ids=["int-and-float", "zero-signs", "same-float"],
)
def test_prompts_differing_only_in_a_default_value_type_render_their_own(
    here: Path, catalog: PluginCatalog, first: str, second: str, texts: tuple[str, str]
) -> None:
    a = compiled(compile_in(here, NUMBER.format(key="a", default=first), name="a.wink.yaml"))
    b = compiled(compile_in(here, NUMBER.format(key="b", default=second), name="b.wink.yaml"))
    rendered = [p.template.render(*make_params(p, {})).text for p in (a, b)]
    assert rendered == [f"## 1. Task (task)\n\nThe ratio is {text}." for text in texts]
    assert (a.params_type is b.params_type) == (texts[0] == texts[1])


def test_prompts_differing_only_in_an_array_default_render_their_own(
    here: Path, catalog: PluginCatalog
) -> None:
    text = """\
key: {key}
params:
  weights: {{type: array, items: {{type: number}}, default: {default}}}
sections:
  - key: task
    title: Task
    template: Weights ${{weights}}.
"""
    a = compiled(compile_in(here, text.format(key="a", default="[1, 2]"), name="a.wink.yaml"))
    b = compiled(compile_in(here, text.format(key="b", default="[1.0, 2]"), name="b.wink.yaml"))
    assert [p.template.render(*make_params(p, {})).text for p in (a, b)] == [
        "## 1. Task (task)\n\nWeights (1, 2).",
        "## 1. Task (task)\n\nWeights (1.0, 2).",
    ]


def spec(**changes: Any) -> FieldSpec:
    return dataclasses.replace(FieldSpec(name="x", type="number"), **changes)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        (spec(has_default=True, default=1), spec(has_default=True, default=1.0)),
        (spec(has_default=True, default=0.0), spec(has_default=True, default=-0.0)),
        (spec(has_default=True, default=True), spec(has_default=True, default=1)),
        (spec(has_default=True, default=(1, 2)), spec(has_default=True, default=(1.0, 2))),
        (spec(has_default=True, default=((1,),)), spec(has_default=True, default=((True,),))),
        (spec(enum=(1, 2)), spec(enum=(True, 2))),
        (spec(enum=(0.0,)), spec(enum=(-0.0,))),
        (spec(has_default=True, default="1"), spec(has_default=True, default=1)),
        (spec(has_default=False), spec(has_default=True, default=None)),
    ],
    ids=[
        "int-float",
        "zero-signs",
        "bool-int",
        "array",
        "nested",
        "enum-bool",
        "enum-zero",
        "str-int",
        "no-default-or-null",
    ],
)
def test_declarations_equal_in_python_but_not_identical_get_their_own_class(
    one: FieldSpec, other: FieldSpec
) -> None:
    assert exact_key(one) != exact_key(other)
    made = make_dataclass_for("Params", (one,))
    assert make_dataclass_for("Params", (other,)) is not made
    assert make_dataclass_for("Params", (one,)) is made


@pytest.mark.parametrize(
    "value",
    [1, 1.5, -0.0, True, None, "text", (1, 2.0, (False,)), math.inf, math.nan],
    ids=repr,
)
def test_identical_declarations_share_one_class(value: object) -> None:
    first = (spec(has_default=True, default=value, description="A ratio."),)
    again = (spec(has_default=True, default=value, description="A ratio."),)
    assert make_dataclass_for("Params", first) is make_dataclass_for("Params", again)


def test_a_declaration_read_from_a_file_keeps_the_type_it_was_written_with() -> None:
    integer = declared_spec("x", {"type": "number", "default": 1})
    number = declared_spec("x", {"type": "number", "default": 1.0})
    assert integer == number  # Python's equality: why the sharing key cannot be ==
    assert exact_key(integer) != exact_key(number)


def test_the_oldest_class_is_forgotten_when_the_cache_is_full(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_params_dataclass, "_made", {})
    monkeypatch.setattr(_params_dataclass, "_MADE_LIMIT", 2)
    first = make_dataclass_for("First", (spec(),))
    second = make_dataclass_for("Second", (spec(),))
    assert make_dataclass_for("First", (spec(),)) is first  # a hit adds nothing
    third = make_dataclass_for("Third", (spec(),))
    assert list(_params_dataclass._made.values()) == [second, third]  # pyright: ignore[reportPrivateUsage]
    assert make_dataclass_for("Second", (spec(),)) is second
    assert make_dataclass_for("First", (spec(),)) is not first  # made again


def test_threads_making_identical_declarations_at_once_get_one_class(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_params_dataclass, "_made", {})
    make = dataclasses.make_dataclass

    def slow_make(*args: Any, **kwargs: Any) -> type:
        time.sleep(0.01)  # widens the window in which other threads miss too
        return make(*args, **kwargs)

    monkeypatch.setattr(dataclasses, "make_dataclass", slow_make)
    specs = (spec(has_default=True, default=2.5),)
    made = run_threads(lambda _: make_dataclass_for("Params", specs), threads=16)
    assert len(set(made)) == 1
    assert made[0] is make_dataclass_for("Params", specs)


ONE_STEP = {
    "topic": {"type": "string", "description": "What it is about."},
    "audience": {"type": "string", "default": "engineers"},
    "words": {"type": "integer", "default": 5},
    "ratio": {"type": "number", "default": -0.0},
    "strict": {"type": "boolean", "default": False},
    "level": {"type": "string", "enum": ["low", "high"], "default": "low"},
    "weights": {"type": "array", "items": {"type": "number"}, "default": [1, 2.5]},
    "tags": {"type": "array", "items": {"type": "string"}},
}


def test_params_made_in_one_step_share_the_class_made_from_field_specs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_params_dataclass, "_made", {})
    params = {name: ParamSpec.model_validate(spec) for name, spec in ONE_STEP.items()}
    slow = make_dataclass_for("Params", tuple(declared_spec(n, d) for n, d in ONE_STEP.items()))
    assert class_for_params("Params", params) is slow  # one key: the class made above
    monkeypatch.setattr(_params_dataclass, "_made", {})
    fast: Any = class_for_params("Params", params)  # made in one step this time
    assert fast is not slow
    assert (
        make_dataclass_for("Params", tuple(declared_spec(n, d) for n, d in ONE_STEP.items()))
        is fast
    )
    assert [field_facts(f) for f in dataclasses.fields(fast)] == [
        field_facts(f) for f in dataclasses.fields(slow)
    ]
    assert fast.__annotations__ == slow.__annotations__
    assert fast(topic="x", tags=("a",)) == fast(topic="x", tags=("a",))
    assert repr(fast(topic="x", tags=())) == repr(slow(topic="x", tags=()))


def test_no_params_make_no_class() -> None:
    assert class_for_params("Params", {}) is None
