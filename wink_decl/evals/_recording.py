"""``RecordingAdapter``: one case's view of a model, answering from the cache when it can."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from wink_decl.evals._cache import request_key
from wink_decl.runtime.adapter import ProviderAdapter

if TYPE_CHECKING:
    from wink_decl.runtime.provider import ProviderReply, ProviderRequest

__all__ = ["RecordingAdapter", "Tally", "caches_requests"]


def caches_requests(adapter: ProviderAdapter) -> bool:
    """Whether ``adapter`` runs the shared loop, so that each turn is one request to cache.

    An adapter that runs an agent of its own (the Claude Agent SDK's) sends requests the
    loop never sees: its runs cannot be answered from a cache.
    """
    return type(adapter).evaluate is ProviderAdapter.evaluate


class Tally:
    """What a run's requests came to: the new replies (for the cache) and the cache's hits.

    Shared by every adapter of one run (its model's and its judges'); one thread at a time.
    """

    def __init__(self) -> None:
        """Nothing asked yet."""
        self.recorded: list[tuple[str, ProviderReply]] = []
        self.hits = 0


class RecordingAdapter(ProviderAdapter):
    """Asks ``inner`` what ``lookup`` does not answer, and notes every new reply.

    ``model`` names the model in the keys (provider, model, address, options); the tally
    collects ``(key, reply)`` for the run's driver to keep: a case never writes the cache.
    """

    def __init__(
        self,
        inner: ProviderAdapter,
        *,
        model: Mapping[str, object],
        repeat: int,
        lookup: Callable[[str], ProviderReply | None] | None,
        tally: Tally | None = None,
    ) -> None:
        """Answer for ``inner`` in one run of one case (its ``repeat``-th).

        ``tally``: where to count hits and note new replies (default: a tally of its own).
        """
        self.inner = inner
        self.name = inner.name
        self._model = model
        self._repeat = repeat
        self._lookup = lookup
        self.tally = Tally() if tally is None else tally

    @property
    def supports_dynamic_tools(self) -> bool:
        """As the model's adapter: the requests are the ones it would be sent."""
        return self.inner.supports_dynamic_tools

    @property
    def secrets(self) -> tuple[str, ...]:
        """The model's adapter's credentials."""
        return self.inner.secrets

    def complete(self, request: ProviderRequest) -> ProviderReply:
        """The kept reply to ``request``, else the model's (noted for the cache)."""
        key = request_key(self._model, request, self._repeat)
        if self._lookup is not None:
            kept = self._lookup(key)
            if kept is not None:
                self.tally.hits += 1
                return kept
        reply = self.inner.complete(request)
        self.tally.recorded.append((key, reply))
        return reply
