"""A mapping worked out when it is first read: spans a file that loads cleanly never needs."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class LazyTable(Mapping[K, V], Generic[K, V]):
    """The mapping ``make`` returns, asked for on every read (``make`` keeps what it made).

    With ``find``, one key is looked up by ``find`` (raising ``KeyError`` when missing), and
    ``make`` runs only to list them all: a lookup can cost far less than the whole table.
    """

    __slots__ = ("_find", "_make")

    def __init__(
        self, make: Callable[[], Mapping[K, V]], find: Callable[[K], V] | None = None
    ) -> None:
        self._make = make
        self._find = find

    def __getitem__(self, key: K) -> V:
        if self._find is not None:
            return self._find(key)
        return self._make()[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._make())

    def __len__(self) -> int:
        return len(self._make())
