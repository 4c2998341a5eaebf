"""Adapt ``enabled`` / ``visibility`` callables to one calling convention, checked once."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from types import FunctionType

from wink_decl.errors import PromptValidationError
from wink_decl.prompt.callables import builtin_name

__all__ = ["Predicate", "adapt_predicate"]

_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
_VARIADIC = inspect.CO_VARARGS | inspect.CO_VARKEYWORDS

Shape = tuple[int, tuple[str, ...], bool]
"""How many positional parameters, the keyword-only names, and whether ``*``/``**`` appear."""


@dataclass(slots=True, frozen=True)
class Predicate:
    """A user callable and which of ``params`` and ``session`` it takes."""

    function: Callable[..., object]
    takes_params: bool
    takes_session: bool

    def __call__(self, params: object, session: object) -> object:
        """Call the user function with exactly the arguments it declared."""
        if self.takes_params:
            if self.takes_session:
                return self.function(params, session=session)
            return self.function(params)
        if self.takes_session:
            return self.function(session=session)
        return self.function()


def adapt_predicate(
    function: Callable[..., object], *, what: str, key: str, has_params: bool
) -> Predicate:
    """Check ``function`` takes (), (params), (*, session) or (params, *, session)."""
    expected = "(), (params), (*, session) or (params, *, session)"
    shape = code_shape(function)
    if shape is None:
        shape = _inspected_shape(function, what, key, expected)
    positional, keyword, variadic = shape
    if positional > 1 or keyword not in ((), ("session",)) or variadic:
        raise PromptValidationError(
            f"The {what} callable of section '{key}' must take {expected}; "
            f"it takes {inspect.signature(function)}.",
            section_path=(key,),
        )
    takes_params = positional > 0
    if takes_params and not has_params:
        raise PromptValidationError(
            f"The {what} callable of section '{key}' takes params, but the section declares no "
            "params type: write MarkdownSection[YourParams](...).",
            section_path=(key,),
        )
    return Predicate(function, takes_params=takes_params, takes_session=bool(keyword))


def _inspected_shape(function: Callable[..., object], what: str, key: str, expected: str) -> Shape:
    """The shape ``inspect`` reads, for Python code; builtins are refused whatever it says.

    The messages are our own: ``inspect`` words its reasons differently on each Python.
    """
    where = f"The {what} callable of section '{key}'"
    builtin = builtin_name(function)
    if builtin is not None:
        raise PromptValidationError(
            f"{where} is the builtin '{builtin}'; wrap it in a Python function that takes "
            f"{expected}.",
            section_path=(key,),
        )
    try:
        return signature_shape(inspect.signature(function))
    except (TypeError, ValueError):
        raise PromptValidationError(
            f"{where} has no signature that can be read; it must take {expected}.",
            section_path=(key,),
        ) from None


def signature_shape(signature: inspect.Signature) -> Shape:
    """The shape of a signature, however it was found."""
    parameters = signature.parameters.values()
    positional = sum(1 for p in parameters if p.kind in _POSITIONAL)
    keyword = tuple(p.name for p in parameters if p.kind is p.KEYWORD_ONLY)
    variadic = any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in parameters)
    return positional, keyword, variadic


def code_shape(function: object) -> Shape | None:
    """The shape of a plain function read from its code, or None when ``inspect`` must decide.

    ``inspect.signature`` costs tens of microseconds and compiled prompts build a predicate
    for every conditional section. A plain function with no attributes of its own (no
    ``__wrapped__``, ``__signature__`` or ``_partialmethod`` for ``inspect`` to follow) has
    exactly the signature its code object describes.
    """
    if type(function) is not FunctionType or function.__dict__:
        return None
    code = function.__code__
    count = code.co_argcount
    keyword = code.co_varnames[count : count + code.co_kwonlyargcount]
    return count, keyword, bool(code.co_flags & _VARIADIC)
