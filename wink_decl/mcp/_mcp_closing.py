"""The ``async with`` protocol shared by the streams that wrap one of the SDK's."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Self

if TYPE_CHECKING:
    from types import TracebackType

__all__ = ["ClosesOnExit"]


class ClosesOnExit(ABC):
    """``async with`` gives the stream itself and closes it (``aclose``) on the way out."""

    @abstractmethod
    async def aclose(self) -> None:
        """Close the stream; a wrapper closes the stream it wraps."""

    async def __aenter__(self) -> Self:
        """Itself."""
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc_val: BaseException | None,
        exc_tb: TracebackType | None,
    ) -> None:
        """Close the stream."""
        await self.aclose()
