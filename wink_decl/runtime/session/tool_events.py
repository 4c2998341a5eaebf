"""Built-in tool events: ``ToolInvoked`` and ``ToolsInjected`` (logs), ``PolicyState`` (state)."""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from wink_decl.prompt.tool_result import ToolResult

__all__ = [
    "PolicyState",
    "RecordPolicyInvocation",
    "ToolInvoked",
    "ToolsInjected",
    "policy_state",
    "reduce_policy_invocation",
]


@dataclass(slots=True, frozen=True)
class ToolInvoked:
    """One tool call, whatever its outcome; kept when a failed call rolls state back."""

    prompt_name: str
    adapter: str
    tool_name: str
    params: object
    """The parsed params dataclass, or the raw arguments when they did not parse."""
    result: ToolResult[object]
    rendered_output: str
    """Exactly the tool message the model received."""
    call_id: str
    created_at: float = field(default_factory=time.time)


@dataclass(slots=True, frozen=True)
class ToolsInjected:
    """Tools added to a running conversation after ``read_section`` revealed them."""

    tool_names: tuple[str, ...]
    section_key: str
    timestamp: float = field(default_factory=time.time)


@dataclass(slots=True, frozen=True)
class PolicyState:
    """What one policy has seen succeed in this session."""

    policy_name: str
    invoked_tools: frozenset[str] = frozenset()
    invoked_keys: frozenset[tuple[str, str]] = frozenset()


@dataclass(slots=True, frozen=True)
class RecordPolicyInvocation:
    """A policy records a successful call (``key`` for parameter-keyed policies)."""

    policy_name: str
    tool_name: str
    key: str | None = None


def reduce_policy_invocation(
    states: tuple[PolicyState, ...], event: RecordPolicyInvocation
) -> tuple[PolicyState, ...]:
    """Add the call to its policy's state; other policies' states are shared unchanged."""
    current = _find(states, event.policy_name) or PolicyState(event.policy_name)
    keys = current.invoked_keys
    if event.key is not None:
        keys = keys | {(event.tool_name, event.key)}
    updated = PolicyState(event.policy_name, current.invoked_tools | {event.tool_name}, keys)
    others = tuple(state for state in states if state.policy_name != event.policy_name)
    return (*others, updated)


def policy_state(states: Iterable[PolicyState], policy_name: str) -> PolicyState:
    """The state of ``policy_name``, empty when it has recorded nothing."""
    return _find(states, policy_name) or PolicyState(policy_name)


def _find(states: Iterable[PolicyState], policy_name: str) -> PolicyState | None:
    return next((state for state in states if state.policy_name == policy_name), None)
