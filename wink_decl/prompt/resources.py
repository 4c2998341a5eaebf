"""``ResourceRegistry``: the typed objects (filesystem, clients) a prompt lends its tools."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Protocol, TypeVar, cast, runtime_checkable

__all__ = ["ResourceRegistry", "Restorable"]

T = TypeVar("T")


@runtime_checkable
class Restorable(Protocol):
    """A resource whose state rolls back with the session when a tool call fails."""

    def snapshot(self) -> object:
        """An opaque token for ``restore``."""
        ...

    def restore(self, snapshot: object, /) -> None:
        """Return to the state ``snapshot`` captured."""
        ...


class ResourceRegistry:
    """Resources looked up by type; the first registered instance of a type wins lookups."""

    __slots__ = ("_items",)

    def __init__(self, resources: Iterable[object] = ()) -> None:
        """Register ``resources`` in order; two of one exact type are refused."""
        items: dict[type, object] = {}
        for resource in resources:
            kind = type(resource)
            if kind in items:
                raise ValueError(f"Two resources of type {kind.__qualname__} were given; pass one.")
            items[kind] = resource
        self._items = items

    def get(self, kind: type[T]) -> T:
        """The resource of type ``kind`` (or a subclass); ``LookupError`` names what exists."""
        found = self.get_optional(kind)
        if found is None:
            available = ", ".join(sorted(k.__qualname__ for k in self._items)) or "none"
            raise LookupError(
                f"No {kind.__qualname__} resource is registered (available: {available})."
            )
        return found

    def get_optional(self, kind: type[T]) -> T | None:
        """The resource of type ``kind`` (or a subclass), or None."""
        exact = self._items.get(kind)
        if exact is not None:
            return cast("T", exact)
        for resource in self._items.values():
            if isinstance(resource, kind):
                return resource
        return None

    def __iter__(self) -> Iterator[object]:
        """The resources in registration order."""
        return iter(self._items.values())

    def __len__(self) -> int:
        """How many resources are registered."""
        return len(self._items)
