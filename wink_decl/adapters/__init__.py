"""Provider adapters. Each real provider sits behind an optional extra; ``scripted`` needs none.

The adapters are imported when first named (``from wink_decl.adapters import OpenAIAdapter``),
so importing this package costs nothing and never imports a provider SDK.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from wink_decl.adapters.anthropic_messages import AnthropicAdapter
    from wink_decl.adapters.claude_agent import ClaudeAgentSDKAdapter
    from wink_decl.adapters.litellm_completion import LiteLLMAdapter
    from wink_decl.adapters.openai_chat import OpenAIAdapter
    from wink_decl.adapters.scripted import ScriptedAdapter, ScriptedTurn

__all__ = [
    "AnthropicAdapter",
    "ClaudeAgentSDKAdapter",
    "LiteLLMAdapter",
    "OpenAIAdapter",
    "ScriptedAdapter",
    "ScriptedTurn",
]

_HOMES = {
    "AnthropicAdapter": "wink_decl.adapters.anthropic_messages",
    "ClaudeAgentSDKAdapter": "wink_decl.adapters.claude_agent",
    "LiteLLMAdapter": "wink_decl.adapters.litellm_completion",
    "OpenAIAdapter": "wink_decl.adapters.openai_chat",
    "ScriptedAdapter": "wink_decl.adapters.scripted",
    "ScriptedTurn": "wink_decl.adapters.scripted",
}


def __getattr__(name: str) -> object:
    """Import an adapter's module the first time the adapter is named."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'wink_decl.adapters' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
