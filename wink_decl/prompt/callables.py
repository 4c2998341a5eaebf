"""Tell builtins (callables written in C) from Python code, the same way on every Python."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from types import FunctionType, MethodType, WrapperDescriptorType
from typing import cast

__all__ = ["builtin_name"]

_IMMUTABLE_TYPE = 1 << 8
"""``Py_TPFLAGS_IMMUTABLETYPE``: set on every class written in C, never on one written in Python."""


def builtin_name(function: object) -> str | None:
    """The name of ``function`` when calling it runs C code; None when it runs Python code.

    ``inspect`` reads the parameters of C code from a text signature in its docstring, and
    Python releases keep adding and rewording those: ``bool`` has none before 3.13 and
    ``(object=False, /)`` from then on. Whoever checks a callable's parameters refuses builtins
    outright, so that the answer is the same on every supported Python.
    """
    target = _called(function)
    return _name(target) if _written_in_c(target) else None


def _written_in_c(target: object) -> bool:
    if isinstance(target, type):
        return bool(target.__flags__ & _IMMUTABLE_TYPE)
    if isinstance(target, FunctionType):
        return False  # called through C (the class's __call__), it runs its own Python code
    # Everything else runs its class's __call__: a slot wrapper when that class is C's, as for
    # len, str.upper and operator.itemgetter("a"); a Python function otherwise.
    call = next((vars(k)["__call__"] for k in type(target).__mro__ if "__call__" in vars(k)), None)
    return isinstance(call, WrapperDescriptorType)


def _name(target: object) -> str:
    name: object = getattr(target, "__qualname__", None)
    return name if isinstance(name, str) else type(target).__qualname__


def _called(function: object) -> object:
    """What runs when ``function`` is called, past bound methods, partials and decorators."""
    current = function
    while True:
        inner = _inner(current)
        if inner is current:
            return current
        current = inner


def _inner(function: object) -> object:
    """The callable ``function`` hands the call to, or ``function`` itself."""
    if isinstance(function, MethodType):
        return function.__func__
    if isinstance(function, functools.partial):
        return cast("functools.partial[object]", function).func
    if isinstance(function, type):
        return function  # a class's __wrapped__ (classmethod's) describes its instances
    try:
        # inspect.signature stops where __signature__ is set; so does this.
        return inspect.unwrap(
            cast("Callable[..., object]", function), stop=lambda f: hasattr(f, "__signature__")
        )
    except ValueError:  # a __wrapped__ loop: inspect cannot read it either
        return function
