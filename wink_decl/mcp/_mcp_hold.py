"""Holding the result of a call that revealed tools until the client has listed them again.

A client of the stateless protocol hears ``tools/list_changed`` on its listen stream and lists
the tools again, while it already has the call's result: the result could overtake the new
listing. It is therefore held until the answer to the client's next ``tools/list`` has been
written, or for ``seconds`` at most (a client that does not list again), so a client that
takes a listing when it comes has the revealed tools before it reads the result (docs/mcp.md,
"Sessions", says what Claude Code does with them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import anyio
import mcp_types as types

from wink_decl.mcp._mcp_closing import ClosesOnExit

if TYPE_CHECKING:
    from collections.abc import Callable

    from mcp.shared._stream_protocols import WriteStream
    from mcp.shared.message import SessionMessage

__all__ = ["HOLD_SECONDS", "AnswersNoted", "ListingHold"]

HOLD_SECONDS = 2.0
"""The longest a result waits for the listing: a client that does not list again pays this."""


class ListingHold:
    """Results waiting for the next ``tools/list`` answer; released when it is written."""

    def __init__(self, seconds: float = HOLD_SECONDS) -> None:
        """Hold each result ``seconds`` at most."""
        self.seconds = seconds
        self._waiting: set[anyio.Event] = set()
        self._listing: types.RequestId | None = None
        """The ``tools/list`` request whose answer releases the results waiting."""

    async def hold(self) -> None:
        """Wait until a ``tools/list`` that came after now has been answered, or ``seconds``."""
        released = anyio.Event()
        self._waiting.add(released)
        try:
            with anyio.move_on_after(self.seconds):
                await released.wait()
        finally:
            self._waiting.discard(released)

    def listing(self, request_id: types.RequestId | None) -> None:
        """A ``tools/list`` is being answered: once its answer is written, results go."""
        if self._waiting:
            self._listing = request_id

    def written(self, message: SessionMessage) -> None:
        """``message`` went to the client: the answer to that listing releases every result."""
        answer = message.message
        if (
            self._listing is not None
            and isinstance(answer, types.JSONRPCResponse)
            and answer.id == self._listing
        ):
            self._listing = None
            for released in self._waiting:
                released.set()


class AnswersNoted(ClosesOnExit):
    """The server's write stream, telling ``noted`` of every message once it is sent."""

    def __init__(
        self, inner: WriteStream[SessionMessage], noted: Callable[[SessionMessage], None]
    ) -> None:
        """Send on ``inner``; tell ``noted`` after."""
        self._inner = inner
        self._noted = noted

    async def send(self, item: SessionMessage, /) -> None:
        """Send ``item``, then note it: the messages of one stream go out in order."""
        await self._inner.send(item)
        self._noted(item)

    async def aclose(self) -> None:
        """Close the inner stream."""
        await self._inner.aclose()
