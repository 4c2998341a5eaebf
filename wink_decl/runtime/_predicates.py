"""Adapt ``enabled`` / ``visibility`` callables to one calling convention, checked once."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from wink_decl.errors import PromptValidationError

__all__ = ["Predicate", "adapt_predicate"]

_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


@dataclass(slots=True, frozen=True)
class Predicate:
    """A user callable and which of ``params`` and ``session`` it takes."""

    function: Callable[..., Any]
    takes_params: bool
    takes_session: bool

    def __call__(self, params: object, session: object) -> Any:
        """Call the user function with exactly the arguments it declared."""
        if self.takes_params:
            if self.takes_session:
                return self.function(params, session=session)
            return self.function(params)
        if self.takes_session:
            return self.function(session=session)
        return self.function()


def adapt_predicate(
    function: Callable[..., Any], *, what: str, key: str, has_params: bool
) -> Predicate:
    """Check ``function`` takes (), (params), (*, session) or (params, *, session)."""
    expected = "(), (params), (*, session) or (params, *, session)"
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError) as error:
        raise PromptValidationError(
            f"The {what} callable of section '{key}' has no inspectable signature: {error}.",
            section_path=(key,),
        ) from None
    positional = [p for p in signature.parameters.values() if p.kind in _POSITIONAL]
    keyword = [p.name for p in signature.parameters.values() if p.kind is p.KEYWORD_ONLY]
    others = [
        p for p in signature.parameters.values() if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]
    if len(positional) > 1 or keyword not in ([], ["session"]) or others:
        raise PromptValidationError(
            f"The {what} callable of section '{key}' must take {expected}; it takes {signature}.",
            section_path=(key,),
        )
    takes_params = bool(positional)
    if takes_params and not has_params:
        raise PromptValidationError(
            f"The {what} callable of section '{key}' takes params, but the section declares no "
            "params type: write MarkdownSection[YourParams](...).",
            section_path=(key,),
        )
    return Predicate(function, takes_params=takes_params, takes_session=bool(keyword))
