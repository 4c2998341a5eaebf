"""``ProviderAdapter``: the seam between the evaluation loop and one model provider."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, Self

from wink_decl.runtime.loop import InnerLoop, InnerLoopConfig, PromptResponse, turn_guard

if TYPE_CHECKING:
    from wink_decl.prompt.template import Prompt
    from wink_decl.runtime.budget import Budget, BudgetTracker
    from wink_decl.runtime.deadline import Deadline
    from wink_decl.runtime.provider import ProviderReply, ProviderRequest
    from wink_decl.runtime.session import SessionProtocol

__all__ = ["PromptResponse", "ProviderAdapter"]


class ProviderAdapter(ABC):
    """Talks to one provider. Subclasses implement ``complete``; the loop does the rest.

    A provider SDK adapter only translates ``ProviderRequest`` into its API call and the
    answer back into ``ProviderReply``: tool execution, policies, disclosure and restarts
    stay in the shared loop.
    """

    name: str = "adapter"
    thread_safe: bool = False
    """True when one adapter may serve evaluations on several threads at once (its SDK
    client is thread-safe and it keeps no state between calls): a runner then shares it."""

    @property
    def supports_dynamic_tools(self) -> bool:
        """True when the provider accepts a different tool list on every request."""
        return False

    @property
    def secrets(self) -> tuple[str, ...]:
        """The credentials this adapter holds (API keys, tokens); none here.

        The loop redacts them from every failed tool call's message (what the model reads and
        the session records): a handler that raises with its key in the message cannot hand
        the key to the model. An adapter that holds a credential returns it.
        """
        return ()

    @abstractmethod
    def complete(self, request: ProviderRequest) -> ProviderReply:
        """One model turn."""

    def close(self) -> None:  # noqa: B027  # a hook: most adapters hold nothing to release
        """Release what the adapter holds open (an SDK client's connections); idempotent.

        An adapter may be used for many evaluations; close it when done, or use it as a
        context manager. This base holds nothing.
        """

    def __enter__(self) -> Self:
        """Use the adapter in a ``with`` block that closes it."""
        return self

    def __exit__(self, *exc_info: object) -> None:
        """Close the adapter."""
        self.close()

    def evaluate(
        self,
        prompt: Prompt[Any],
        *,
        session: SessionProtocol,
        deadline: Deadline | None = None,
        budget: Budget | BudgetTracker | None = None,
    ) -> PromptResponse:
        """Run the inner loop until the model answers without calling tools.

        A conversation takes at most ``DEFAULT_MAX_TURNS`` model turns, or the budget's
        ``max_turns`` when that is more.
        """
        config = InnerLoopConfig(
            supports_dynamic_tools=self.supports_dynamic_tools, max_turns=turn_guard(budget)
        )
        loop = InnerLoop(
            adapter=self,
            prompt=prompt,
            session=session,
            config=config,
            deadline=deadline,
            budget=budget,
        )
        return loop.run()
