"""Provider adapters: their own cost per turn next to the SDK call they wrap, side by side.

For each adapter, one turn of a typical conversation (a system prompt, the opening user turn, a
tool call and its result; four tools on offer; an answer with a tool call and usage):

- **adapter**: ``adapter.complete(request)`` with the SDK's network call replaced by a function
  that returns a prepared SDK response, so only the adapter's own work is timed: building the
  SDK arguments from the provider-neutral request, and the reply from the SDK's response;
- **SDK call**: the same SDK call, with the arguments the adapter built, against an HTTP server
  on 127.0.0.1 that answers at once: what the SDK costs around a request (request building,
  HTTP on loopback, parsing, its own objects).

The claim: an adapter adds a small fraction of what the SDK itself costs per turn.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # also when run by path, not as a script

from _fixtures import per_call_us  # after the path is set
from anthropic_replies import reply as anthropic_reply
from openai_replies import reply as openai_reply
from provider_server import ProviderServer

from wink_decl.runtime.provider import (
    OPENING_MESSAGE,
    ProviderMessage,
    ProviderRequest,
    ProviderToolCall,
)

KEY = "sk-bench-0123456789"
RATIO_LIMIT = 0.5
"""With --check: an adapter's own cost per turn may be at most this fraction of the SDK call."""


def request() -> ProviderRequest:
    """One turn after a tool call: what the loop hands an adapter."""
    tools = [
        {
            "type": "function",
            "function": {
                "name": name,
                "description": f"Run {name}.",
                "parameters": {
                    "type": "object",
                    "properties": {"target": {"type": "string", "description": "Where."}},
                    "required": ["target"],
                    "additionalProperties": False,
                },
            },
        }
        for name in ("lint", "build", "test", "deploy")
    ]
    call = ProviderToolCall("call_1", "lint", '{"target": "app"}')
    messages = (
        ProviderMessage("system", "## 1. Task (task)\n\nRelease the app.\n" * 20),
        ProviderMessage("user", OPENING_MESSAGE),
        ProviderMessage("assistant", "Linting first.", (call,)),
        ProviderMessage("tool", 'lint ok\n\n{"target": "app"}', tool_call_id="call_1"),
    )
    return ProviderRequest(messages, tuple(tools), ("lint", "build", "test", "deploy"))


@dataclass(frozen=True)
class Pair:
    """The two timings of one adapter, in microseconds per turn."""

    name: str
    adapter_us: float
    sdk_us: float

    @property
    def ratio(self) -> float:
        """The adapter's own cost as a fraction of the SDK call's."""
        return self.adapter_us / self.sdk_us


def openai_pair(number: int, repeat: int) -> Pair:
    """``OpenAIAdapter`` next to ``client.chat.completions.create``."""
    from wink_decl.adapters import OpenAIAdapter  # noqa: PLC0415  # optional extra

    answer = openai_reply(tool_calls=[("call_2", "build", '{"target": "app"}')])
    with ProviderServer([answer] * (number * repeat + 10)) as server:
        adapter = OpenAIAdapter("gpt-bench", api_key=KEY, base_url=f"{server.url}/v1")
        completions: Any = adapter.client.chat.completions
        create = completions.create
        sent: dict[str, Any] = {}
        prepared: Any = create(**_arguments_via(completions, "create", adapter, request(), sent))
        completions.create = _returning(prepared)
        own = per_call_us(lambda: adapter.complete(request()), number, repeat)
        sdk = per_call_us(lambda: create(**sent), number, repeat)
        adapter.close()
    return Pair("openai", own, sdk)


def anthropic_pair(number: int, repeat: int) -> Pair:
    """``AnthropicAdapter`` next to ``client.messages.create``."""
    from wink_decl.adapters import AnthropicAdapter  # noqa: PLC0415  # optional extra

    answer = anthropic_reply(tool_uses=[("toolu_2", "build", {"target": "app"})])
    with ProviderServer([answer] * (number * repeat + 10)) as server:
        adapter = AnthropicAdapter("claude-bench", api_key=KEY, base_url=server.url)
        messages: Any = getattr(adapter, "_client").messages  # noqa: B009  # swap its network call
        create = messages.create
        sent: dict[str, Any] = {}
        prepared: Any = create(**_arguments_via(messages, "create", adapter, request(), sent))
        messages.create = _returning(prepared)
        own = per_call_us(lambda: adapter.complete(request()), number, repeat)
        sdk = per_call_us(lambda: create(**sent), number, repeat)
        adapter.close()
    return Pair("anthropic", own, sdk)


def litellm_pair(number: int, repeat: int) -> Pair:
    """``LiteLLMAdapter`` next to ``litellm.completion`` (its OpenAI route)."""
    from wink_decl.adapters import LiteLLMAdapter  # noqa: PLC0415  # optional extra

    answer = openai_reply(tool_calls=[("call_2", "build", '{"target": "app"}')])
    with ProviderServer([answer] * (number * repeat + 10)) as server:
        adapter = LiteLLMAdapter("openai/gpt-bench", api_key=KEY, base_url=f"{server.url}/v1")
        import litellm  # noqa: PLC0415  # imported by the adapter already

        module: Any = litellm
        completion = module.completion
        sent: dict[str, Any] = {}
        prepared: Any = completion(**_arguments_via(module, "completion", adapter, request(), sent))
        module.completion = _returning(prepared)
        try:
            own = per_call_us(lambda: adapter.complete(request()), number, repeat)
        finally:
            module.completion = completion
        sdk = per_call_us(lambda: completion(**sent), number, repeat)
    return Pair("litellm", own, sdk)


def _returning(value: Any) -> Callable[..., Any]:
    """A stand-in for an SDK's network call that answers ``value`` at once."""

    def answer(**arguments: Any) -> Any:
        del arguments
        return value

    return answer


def _arguments_via(
    owner: Any, attribute: str, adapter: Any, turn: ProviderRequest, sent: dict[str, Any]
) -> dict[str, Any]:
    """The keyword arguments the adapter passes to ``owner.attribute`` for ``turn``."""
    real = getattr(owner, attribute)

    def record(**arguments: Any) -> Any:
        sent.update(arguments)
        return real(**arguments)

    setattr(owner, attribute, record)
    try:
        adapter.complete(turn)
    finally:
        setattr(owner, attribute, real)
    return dict(sent)


PAIRS: dict[str, Callable[[int, int], Pair]] = {
    "openai": openai_pair,
    "anthropic": anthropic_pair,
    "litellm": litellm_pair,
}


def main(argv: list[str] | None = None) -> int:
    """Print both timings and their ratio per adapter; with --check, enforce RATIO_LIMIT."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--number", type=int, default=200, help="calls per timing run")
    parser.add_argument("--repeat", type=int, default=5, help="timing runs; the best counts")
    parser.add_argument("--only", choices=sorted(PAIRS), action="append", help="one adapter")
    parser.add_argument("--check", action="store_true", help=f"fail above {RATIO_LIMIT}x")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    pairs = [PAIRS[name](args.number, args.repeat) for name in args.only or PAIRS]
    if args.json:
        print(json.dumps([pair.__dict__ | {"ratio": pair.ratio} for pair in pairs]))
    else:
        print(f"{'adapter':>10}  {'adapter us':>10}  {'SDK call us':>11}  {'ratio':>6}")
        for pair in pairs:
            print(
                f"{pair.name:>10}  {pair.adapter_us:10.1f}  {pair.sdk_us:11.1f}  {pair.ratio:5.2f}x"
            )
    worst = max(pair.ratio for pair in pairs)
    if args.check and worst > RATIO_LIMIT:
        print(f"An adapter costs {worst:.2f}x its SDK call (limit {RATIO_LIMIT}x).")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
