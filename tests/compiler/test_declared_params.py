"""Classes made for declared params behave as ``make_dataclass(frozen=True, kw_only=True)``'s.

They are made with ``type()`` on ``DeclaredParams`` (docs/performance: a dataclass costs
about 0.3 ms to make); every behaviour the runtime and authors see is compared with a real
dataclass declared the same way.
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import typing
from typing import Any

import pytest
from compiler_support import declared_spec

from wink_decl.compiler._params_dataclass import make_dataclass_for

DECLARED = {
    "level": {"type": "string", "default": "low"},
    "name": {"type": "string", "description": "Who."},
    "count": {"type": "integer"},
    "tags": {"type": "array", "items": {"type": "integer"}},
}


def made() -> Any:
    return make_dataclass_for("Params", tuple(declared_spec(n, d) for n, d in DECLARED.items()))


def real() -> Any:
    fields: list[Any] = [
        ("level", str, dataclasses.field(default="low")),
        ("name", str, dataclasses.field(metadata={"description": "Who."})),
        ("count", int),
        ("tags", tuple[int, ...]),
    ]
    return dataclasses.make_dataclass("Params", fields, frozen=True, kw_only=True)


def outcome(kind: Any, *args: object, **kwargs: object) -> str:
    """What calling ``kind`` gives: the instance's repr, or the error's type and words."""
    try:
        return repr(kind(*args, **kwargs))
    except TypeError as error:
        return f"TypeError: {error}"


CALLS: list[tuple[tuple[object, ...], dict[str, object]]] = [
    ((), {"name": "Ada", "count": 1, "tags": (1,)}),
    ((), {"level": "high", "name": "Ada", "count": 1, "tags": ()}),
    ((), {"name": "Ada", "count": 1}),
    ((), {"name": "Ada"}),
    ((), {}),
    ((), {"name": "Ada", "count": 1, "tags": (), "colour": "red"}),
    (("Ada",), {"count": 1}),
    (("Ada", 1), {}),
    (("Ada",), {"count": 1, "tags": ()}),
]


@pytest.mark.parametrize(
    ("args", "kwargs"),
    CALLS,
    ids=[
        "required",
        "all",
        "one-missing",
        "two-missing",
        "three-missing",
        "unknown",
        "positional",
        "positional-only",
        "positional-and-two",
    ],
)
def test_calls_answer_as_a_dataclass_does(args: tuple[object, ...], kwargs: dict[str, Any]) -> None:
    assert outcome(made(), *args, **kwargs) == outcome(real(), *args, **kwargs)


def test_the_answers_are_these() -> None:
    assert [outcome(made(), *args, **kwargs) for args, kwargs in CALLS] == [
        "Params(level='low', name='Ada', count=1, tags=(1,))",
        "Params(level='high', name='Ada', count=1, tags=())",
        "TypeError: Params.__init__() missing 1 required keyword-only argument: 'tags'",
        "TypeError: Params.__init__() missing 2 required keyword-only arguments: 'count' and "
        "'tags'",
        "TypeError: Params.__init__() missing 3 required keyword-only arguments: 'name', "
        "'count', and 'tags'",
        "TypeError: Params.__init__() got an unexpected keyword argument 'colour'",
        "TypeError: Params.__init__() takes 1 positional argument but 2 positional arguments "
        "(and 1 keyword-only argument) were given",
        "TypeError: Params.__init__() takes 1 positional argument but 3 were given",
        "TypeError: Params.__init__() takes 1 positional argument but 2 positional arguments "
        "(and 2 keyword-only arguments) were given",
    ]


def test_fields_type_hints_and_parameters_are_a_dataclass_s() -> None:
    ours, theirs = made(), real()
    assert dataclasses.is_dataclass(made())
    shown = [
        (f.name, f.type, f.default, f.default_factory, f.init, f.repr, f.hash, f.compare)
        for f in dataclasses.fields(ours)
    ]
    assert shown == [
        (f.name, f.type, f.default, f.default_factory, f.init, f.repr, f.hash, f.compare)
        for f in dataclasses.fields(theirs)
    ]
    assert [(f.kw_only, dict(f.metadata)) for f in dataclasses.fields(ours)] == [
        (True, {}),
        (True, {"description": "Who."}),
        (True, {}),
        (True, {}),
    ]
    assert typing.get_type_hints(ours) == typing.get_type_hints(theirs)
    params: list[object] = [vars(kind)["__dataclass_params__"] for kind in (ours, theirs)]
    assert repr(params[0]) == repr(params[1])
    assert ours.__match_args__ == theirs.__match_args__ == ()
    assert (ours.__name__, ours.__qualname__) == ("Params", "Params")


def test_instances_compare_hash_replace_and_convert_as_a_dataclass_s() -> None:
    kind = made()
    one = kind(name="Ada", count=1, tags=(1, 2))
    assert one == kind(name="Ada", count=1, tags=(1, 2))
    assert one != kind(name="Ada", count=2, tags=(1, 2))
    assert one != real()(name="Ada", count=1, tags=(1, 2))  # another class: never equal
    assert one.__eq__(object()) is NotImplemented
    assert hash(one) == hash(("low", "Ada", 1, (1, 2)))
    assert dataclasses.replace(one, count=5) == kind(name="Ada", count=5, tags=(1, 2))
    assert dataclasses.asdict(one) == {"level": "low", "name": "Ada", "count": 1, "tags": (1, 2)}
    assert copy.copy(one) == one
    assert copy.deepcopy(one) == one


def test_instances_are_frozen() -> None:
    one = made()(name="Ada", count=1, tags=())
    with pytest.raises(dataclasses.FrozenInstanceError, match=r"^cannot assign to field 'name'$"):
        one.name = "Bob"
    with pytest.raises(dataclasses.FrozenInstanceError, match=r"^cannot delete field 'name'$"):
        del one.name
    with pytest.raises(dataclasses.FrozenInstanceError, match=r"^cannot assign to field 'x'$"):
        one.x = 1
    assert one.name == "Ada"


def test_a_class_without_fields() -> None:
    kind = make_dataclass_for("Output", ())
    assert (repr(kind()), kind() == kind(), hash(kind()), dataclasses.fields(kind)) == (
        "Output()",
        True,
        hash(()),
        (),
    )


def test_field_takes_its_arguments_in_the_order_the_made_fields_pass_them() -> None:
    """``_new_field`` calls ``dataclasses.Field`` positionally (a dict of keywords per field
    costs): a Python that adds or moves one of its parameters must fail here, not there."""
    parameters = list(inspect.signature(dataclasses.Field).parameters)
    assert parameters == [
        "default",
        "default_factory",
        "init",
        "repr",
        "hash",
        "compare",
        "metadata",
        "kw_only",
    ]
