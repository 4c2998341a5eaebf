"""Plugin code for the compiler tests, reached through synthetic entry points.

Entry-point values name this module (``compiler_plugins:lookup``): pytest puts
``tests/support`` on ``sys.path``, so the catalog imports it like any installed plugin.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from wink_decl import PolicyDecision, Tool, ToolContext, ToolResult

recorded: list[tuple[object, object]] = []
"""``(params, session)`` of every call to ``record`` and ``clock``; tests clear it."""


@dataclass(frozen=True)
class LookupParams:
    """What the model sends to look up a rule."""

    rule_id: str
    verbose: bool = False


@dataclass(frozen=True)
class LookupResult:
    """A rule and its text."""

    rule_id: str
    text: str


def lookup(params: LookupParams, *, context: ToolContext) -> ToolResult[LookupResult]:
    """A handler whose own dataclasses describe the tool."""
    return ToolResult.ok(LookupResult(params.rule_id, f"Rule {params.rule_id}."))


def lookup_elsewhere(params: LookupParams, *, context: ToolContext) -> ToolResult[LookupResult]:
    """The same name registered by a second distribution."""
    return ToolResult.ok(LookupResult(params.rule_id, "elsewhere"))


@dataclass(frozen=True)
class Clock:
    """What ``clock`` returns."""

    now: str


def clock(params: None, *, context: ToolContext) -> ToolResult[Clock]:
    """A handler that takes no params: its tool is offered an empty parameters object."""
    recorded.append((params, context.session))
    return ToolResult.ok(Clock("2026-11-25T18:00:00Z"), "It is 18:00 UTC.")


def untyped(params: str, *, context: ToolContext) -> ToolResult[LookupResult]:
    """Its params are not a dataclass, so the file must declare them."""
    return ToolResult.ok(LookupResult(params, "untyped"))


def refusing(params: LookupParams, *, context: ToolContext) -> ToolResult[LookupResult]:
    """A handler whose HTTP client failed and quoted the key it sent (``OPENAI_API_KEY``)."""
    raise RuntimeError(f"the rules service refused the token {os.environ['OPENAI_API_KEY']}")


def no_result(params: LookupParams, *, context: ToolContext) -> ToolResult[None]:
    """Params from a dataclass, no result type."""
    return ToolResult.ok(None, f"Looked at {params.rule_id}.")


def wrong_shape(params: LookupParams) -> ToolResult[LookupResult]:
    """No keyword-only ``context``: not a handler."""
    return ToolResult.ok(LookupResult(params.rule_id, "never"))


def always(params: object, *, session: object) -> bool:
    """A predicate that is always true."""
    return True


def never(params: object, *, session: object) -> bool:
    """A predicate that is always false."""
    return False


def record(params: object, *, session: object) -> bool:
    """A predicate that remembers what it was called with, and says true."""
    recorded.append((params, session))
    return True


@dataclass
class CallLimit:
    """A policy built from its config: each tool may succeed ``limit`` times."""

    limit: int
    calls: int = 0
    name: str = "test.call_limit"

    def check(
        self, tool: Tool[Any, Any], params: object, *, context: ToolContext
    ) -> PolicyDecision:
        """Deny once the limit is reached."""
        if self.calls >= self.limit:
            return PolicyDecision.deny(f"'{tool.name}' may succeed {self.limit} time(s).")
        return PolicyDecision.allow()

    def on_result(
        self,
        tool: Tool[Any, Any],
        params: object,
        result: ToolResult[Any],
        *,
        context: ToolContext,
    ) -> None:
        """Count a success."""
        self.calls += 1


def call_limit(*, limit: int) -> CallLimit:
    """The policy factory: the entry point's value, called with the file's config."""
    return CallLimit(limit)


NOT_CALLABLE = 42
"""Neither a predicate nor a policy factory."""


def no_session(params: object) -> bool:
    """A predicate with the wrong signature: the runtime passes ``session=``."""
    return True


class Unreadable:
    """A predicate whose signature cannot be read: its ``__signature__`` is not a Signature."""

    __signature__ = "not a signature"

    def __call__(self, params: object, *, session: object) -> bool:
        """Would say true, if it could be checked."""
        return True


UNREADABLE = Unreadable()


def no_methods(**config: object) -> object:
    """A policy factory that builds something with neither check() nor on_result()."""
    return dict(config)


failures: list[Exception] = []
"""What ``raising`` raises next (the first one is taken); tests fill it."""


def raising(params: object, *, session: object) -> bool:
    """A predicate that raises whatever the test put in ``failures``."""
    raise failures.pop(0)
