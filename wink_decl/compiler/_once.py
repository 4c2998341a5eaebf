"""``computed_once``: ``functools.cached_property`` that gives racing threads one value."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, Self, TypeVar, overload

__all__ = ["computed_once"]

T = TypeVar("T")
OwnerT = TypeVar("OwnerT")


class computed_once(Generic[OwnerT, T]):  # noqa: N801  # used as a decorator, like cached_property
    """Work a value out on first use and keep it in the instance; the first value kept wins.

    Python 3.12 dropped ``cached_property``'s lock (3.11's was one lock for every instance of
    the class): threads reading a new value at once each compute it and each get their own
    object. Here they may compute it twice, but ``dict.setdefault`` (one atomic step) keeps
    the first and hands that one to all. The instance needs a ``__dict__``; it may be frozen.
    """

    def __init__(self, compute: Callable[[OwnerT], T]) -> None:
        """Wrap ``compute(instance)``."""
        self._compute = compute
        self._name = compute.__name__
        self.__doc__ = compute.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        """Keep the value under the attribute's own name, so later reads skip this object."""
        self._name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> Self: ...
    @overload
    def __get__(self, instance: OwnerT, owner: type | None = None) -> T: ...
    def __get__(self, instance: OwnerT | None, owner: type | None = None) -> T | Self:
        """The kept value; computed (and kept, unless another thread was first) on first use."""
        if instance is None:
            return self
        kept: T = instance.__dict__.setdefault(self._name, self._compute(instance))
        return kept
