"""A compiled params class makes its ``Field`` objects on first read, and is the same class.

``class_for_params`` leaves ``__dataclass_fields__`` to a descriptor that makes the fields
when something reads them; these tests hold the lazily made class to the eagerly made one
(``make_dataclass_for``'s way) in everything a caller can observe.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import typing
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
from compiler_support import compile_in, compiled, field_facts
from concurrency import run_threads
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

from wink_decl.compiler import _params_dataclass
from wink_decl.compiler._params_dataclass import (
    _model_key,  # pyright: ignore[reportPrivateUsage]
    class_for_params,
    exact_key,
    make_dataclass_for,
    spec_from_model,
)
from wink_decl.schema.model import ParamSpec

DECLARED: dict[str, Mapping[str, object]] = {
    "topic": {"type": "string", "description": "What it is about."},
    "audience": {"type": "string", "default": "engineers"},
    "words": {"type": "integer", "default": 5},
    "ratio": {"type": "number", "default": -0.0},
    "strict": {"type": "boolean", "default": False},
    "level": {"type": "string", "enum": ["low", "high"], "default": "low"},
    "weights": {"type": "array", "items": {"type": "number"}, "default": [1, 2.5]},
    "tags": {"type": "array", "items": {"type": "string"}},
}
VALUES: dict[str, object] = {"topic": "caching", "tags": ("a", "b")}


def _specs(declared: Mapping[str, Mapping[str, object]]) -> dict[str, ParamSpec]:
    return {name: ParamSpec.model_validate(spec) for name, spec in declared.items()}


def _lazy_and_eager(
    monkeypatch: pytest.MonkeyPatch, declared: Mapping[str, Mapping[str, object]]
) -> tuple[Any, Any]:
    """The class ``class_for_params`` makes and the one ``make_dataclass_for`` makes."""
    params = _specs(declared)
    monkeypatch.setattr(_params_dataclass, "_made", {})
    lazy = class_for_params("Params", params)
    monkeypatch.setattr(_params_dataclass, "_made", {})
    eager = make_dataclass_for(
        "Params", tuple(spec_from_model(name, spec) for name, spec in params.items())
    )
    assert lazy is not eager
    return lazy, eager


def _names(cls: type) -> list[str]:
    return list(vars(cls))


def _table(cls: type) -> Any:
    """What the class's namespace holds as its fields: the descriptor, or the dict once read."""
    return vars(cls)["__dataclass_fields__"]


def _unmade(cls: type) -> bool:
    return not isinstance(_table(cls), dict)


def _field_facts(cls_or_instance: object) -> list[tuple[object, ...]]:
    return [
        (*field_facts(field), repr(field))
        for field in dataclasses.fields(cls_or_instance)  # pyright: ignore[reportArgumentType]
    ]


def test_a_compiled_prompt_rendered_once_never_makes_its_fields(
    here: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_params_dataclass, "_made", {})
    text = (
        "key: once\nparams:\n  topic: {type: string}\nsections:\n"
        "  - {key: task, title: Task, template: 'About ${topic}.'}\n"
    )
    prompt = compiled(compile_in(here, text, name="once.wink.yaml"))
    params: Any = prompt.params_type
    rendered = prompt.template.render(params(topic="caching"))
    assert rendered.text == "## 1. Task (task)\n\nAbout caching."
    assert _unmade(params)
    assert [field.name for field in dataclasses.fields(params)] == ["topic"]
    assert not _unmade(params)


OBSERVERS: dict[str, Callable[[Any], object]] = {
    "fields-of-class": lambda cls: _field_facts(cls),
    "fields-of-instance": lambda cls: _field_facts(cls(**VALUES)),
    "is-dataclass-class": lambda cls: dataclasses.is_dataclass(cls),
    "is-dataclass": lambda cls: dataclasses.is_dataclass(cls(**VALUES)),
    "asdict": lambda cls: dataclasses.asdict(cls(**VALUES)),
    "astuple": lambda cls: dataclasses.astuple(cls(**VALUES)),
    "replace": lambda cls: repr(dataclasses.replace(cls(**VALUES), words=9)),
    "get-type-hints": lambda cls: typing.get_type_hints(cls),
    "annotations": lambda cls: cls.__annotations__,
    "namespace-names": _names,
    "fields-table-once-read": lambda cls: (list(cls.__dataclass_fields__), _table(cls).keys()),
    "names": lambda cls: (cls.__slots__, cls.__qualname__, cls.__module__),
    "dataclass-params": lambda cls: cls.__dataclass_params__,
    "bases": lambda cls: cls.__mro__[1:],
    "defaults": lambda cls: cls._wink_defaults,
    "repr": lambda cls: repr(cls(**VALUES)),
    "hash": lambda cls: hash(cls(**VALUES)),
    "copy": lambda cls: repr(copy.copy(cls(**VALUES))),
    "deepcopy": lambda cls: repr(copy.deepcopy(cls(**VALUES))),
    "pydantic-validate": lambda cls: repr(
        TypeAdapter(cls).validate_python({"topic": "x", "tags": ["t"]})
    ),
    "pydantic-schema": lambda cls: TypeAdapter(cls).json_schema(),
}
"""What a caller may observe of a params class, by name."""


@pytest.mark.parametrize("observed", list(OBSERVERS))
def test_the_lazily_made_class_is_the_eagerly_made_one(
    monkeypatch: pytest.MonkeyPatch, observed: str
) -> None:
    lazy, eager = _lazy_and_eager(monkeypatch, DECLARED)
    assert _unmade(lazy)
    observe = OBSERVERS[observed]
    assert observe(lazy) == observe(eager)


@pytest.mark.parametrize("what", ["class", "instance"])
def test_pickling_fails_alike(monkeypatch: pytest.MonkeyPatch, what: str) -> None:
    lazy, eager = _lazy_and_eager(monkeypatch, DECLARED)
    failures: list[str] = []
    for cls in (lazy, eager):
        with pytest.raises(pickle.PicklingError) as raised:
            pickle.dumps(cls if what == "class" else cls(**VALUES))
        failures.append(str(raised.value))
    assert failures[0] == failures[1]


def test_every_reader_gets_the_same_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    lazy, _ = _lazy_and_eager(monkeypatch, DECLARED)
    descriptor = _table(lazy)
    made = run_threads(lambda _: dataclasses.fields(lazy), threads=16)
    assert all(fields == made[0] for fields in made)
    assert all(a is b for fields in made for a, b in zip(fields, made[0], strict=True))
    kept = _table(lazy)
    assert descriptor.__get__(None, lazy) is kept  # a reader that waited gets the kept dict
    assert lazy.__dataclass_fields__ is kept


def test_a_subclass_reads_the_fields_of_its_base(monkeypatch: pytest.MonkeyPatch) -> None:
    lazy, eager = _lazy_and_eager(monkeypatch, DECLARED)
    sub: Any = type("Sub", (lazy,), {"__slots__": ()})
    assert _field_facts(sub) == _field_facts(eager)
    assert not _unmade(lazy)


def test_a_keyword_name_is_refused_when_the_class_is_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_params_dataclass, "_made", {})
    spec = ParamSpec.model_validate({"type": "string"})
    with pytest.raises(
        ValueError, match=r"^'class' cannot be a field name: it is a Python keyword\.$"
    ):
        class_for_params("Params", {"class": spec})


_DECLARATIONS = st.dictionaries(
    st.sampled_from(["a", "b", "topic", "n"]),
    st.one_of(
        st.fixed_dictionaries(
            {"type": st.just("string")},
            optional={"default": st.text(max_size=3), "description": st.text(max_size=5)},
        ),
        st.fixed_dictionaries(
            {"type": st.just("integer")}, optional={"default": st.integers(-3, 3)}
        ),
        st.fixed_dictionaries(
            {"type": st.just("number")},
            optional={"default": st.floats(allow_nan=False, allow_infinity=False)},
        ),
        st.fixed_dictionaries({"type": st.just("boolean")}, optional={"default": st.booleans()}),
        st.fixed_dictionaries(
            {"type": st.just("string"), "enum": st.just(["x", "y"])},
            optional={"default": st.sampled_from(["x", "y"])},
        ),
        st.fixed_dictionaries(
            {"type": st.just("array"), "items": st.just({"type": "integer"})},
            optional={"default": st.lists(st.integers(0, 2), max_size=2)},
        ),
    ),
    min_size=1,
    max_size=4,
)


@settings(max_examples=60, deadline=None)  # a busy 2-core CI machine is not what this measures
@given(declared=_DECLARATIONS)
def test_lazily_made_fields_equal_eagerly_made_ones(
    declared: Mapping[str, Mapping[str, object]],
) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        lazy, eager = _lazy_and_eager(monkeypatch, declared)
        assert lazy.__annotations__ == eager.__annotations__
        assert lazy._wink_defaults == eager._wink_defaults
        assert _field_facts(lazy) == _field_facts(eager)


@settings(max_examples=60, deadline=None)  # a busy 2-core CI machine is not what this measures
@given(declared=_DECLARATIONS)
def test_the_key_of_a_model_is_the_key_of_its_field_spec(
    declared: Mapping[str, Mapping[str, object]],
) -> None:
    for name, spec in _specs(declared).items():
        assert _model_key(name, spec) == exact_key(spec_from_model(name, spec))
