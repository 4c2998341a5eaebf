"""Replaying recorded replies: a suite run from a response cache alone, with no model at all.

``wink-decl eval --replay DIR`` answers every request from the replies kept in ``DIR`` (a
response cache: ``--out``'s ``cache`` folder of an earlier run); a request with no recorded
reply is the case's error. No provider SDK, address or key is needed: a suite's checks can
be run again, offline and exactly, on the answers a model once gave.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from wink_decl.errors import EvaluationPhase, PromptEvaluationError
from wink_decl.runtime.adapter import ProviderAdapter

if TYPE_CHECKING:
    from wink_decl.evals._suite_types import ModelSpec
    from wink_decl.runtime.provider import ProviderReply, ProviderRequest

__all__ = ["NoRecordedReply", "replaying"]


class NoRecordedReply(ProviderAdapter):
    """Stands for a model when replaying: every request it is asked is one not recorded."""

    def __init__(self, model: ModelSpec) -> None:
        """Stand for ``model`` (named in the error)."""
        self.name = model.name
        self._model = model

    def complete(self, request: ProviderRequest) -> ProviderReply:
        """Refuse: the replies given have none for this request."""
        del request
        raise PromptEvaluationError(
            f"No recorded reply of {self._model.name} for this request: the prompt, the "
            "case or the conversation differs from the recorded run; record it again by "
            "running without --replay.",
            phase=EvaluationPhase.PROVIDER,
        )


def replaying(model: ModelSpec) -> ProviderAdapter:
    """The adapter a replayed run asks what its recording lacks (an adapter factory)."""
    return NoRecordedReply(model)
