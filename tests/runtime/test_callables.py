"""builtin_name: callables written in C are told from Python code alike on every Python."""

from __future__ import annotations

import functools
import inspect
import operator
import types
from dataclasses import dataclass

import pytest

from wink_decl import MarkdownSection, PromptValidationError
from wink_decl.prompt.callables import builtin_name


def function(params: object) -> bool:
    return bool(params)


class CallableObject:
    def __call__(self, params: object) -> bool:
        return bool(params)

    def method(self, params: object) -> bool:
        return bool(params)


class CallableDict(dict[str, str]):
    """A Python class over a C one: its own __call__ is what runs."""

    def __call__(self, params: object) -> bool:
        return bool(params)


class Text(str):
    """A Python class whose constructor is C's: inspect, not this test, judges it."""

    __slots__ = ()


@dataclass(frozen=True)
class Flag:
    on: bool = False


def wrapper(*args: object) -> bool:
    return bool(*args)


def signed(*args: object) -> bool:
    return bool(args)


# A decorator that states its signature: inspect stops there, and so does builtin_name.
stated = functools.wraps(len)(signed)
stated.__signature__ = inspect.Signature()  # type: ignore[attr-defined]  # pyright: ignore[reportFunctionMemberAccess]


def looped(params: object) -> bool:
    return bool(params)


looped.__wrapped__ = looped  # type: ignore[attr-defined]  # pyright: ignore[reportFunctionMemberAccess]


BUILTINS: list[tuple[object, str]] = [
    (len, "len"),
    (bool, "bool"),
    (str.upper, "str.upper"),
    ("".upper, "str.upper"),
    (dict.fromkeys, "dict.fromkeys"),
    (str.__len__, "str.__len__"),
    ("".__len__, "str.__len__"),
    (operator.itemgetter("a"), "itemgetter"),
    (functools.partial(len), "len"),
    (types.MethodType(len, "bound"), "len"),
    (functools.wraps(bool)(wrapper), "bool"),
]


@pytest.mark.parametrize(
    ("callable_", "name"),
    BUILTINS,
    ids=[
        "function",
        "class",
        "method-descriptor",
        "bound-method",
        "class-method",
        "slot-wrapper",
        "method-wrapper",
        "object-of-a-c-class",
        "partial",
        "method-of-a-builtin",
        "decorated",
    ],
)
def test_builtins_are_named(callable_: object, name: str) -> None:
    assert builtin_name(callable_) == name


PYTHON_CODE: list[object] = [
    function,
    lambda: True,
    CallableObject(),
    CallableObject().method,
    CallableObject,
    CallableDict(),
    Text,
    Flag,
    functools.partial(function, 1),
    staticmethod(function),
    functools.lru_cache(function),
    stated,
    looped,
    42,
]


@pytest.mark.parametrize(
    "callable_",
    PYTHON_CODE,
    ids=[
        "function",
        "lambda",
        "callable-object",
        "bound-method",
        "class",
        "python-call-over-a-c-class",
        "python-class-over-a-c-class",
        "dataclass",
        "partial",
        "staticmethod",
        "lru-cache",
        "signature-stated-over-a-builtin",
        "wrapper-loop",
        "not-callable",
    ],
)
def test_python_code_is_not_a_builtin(callable_: object) -> None:
    assert builtin_name(callable_) is None


def test_a_wrapper_loop_is_left_to_inspect_and_refused_in_our_words() -> None:
    with pytest.raises(PromptValidationError) as info:
        MarkdownSection(title="T", key="t", enabled=looped)
    assert str(info.value) == (
        "The enabled callable of section 't' has no signature that can be read; it must take "
        "(), (params), (*, session) or (params, *, session)."
    )
