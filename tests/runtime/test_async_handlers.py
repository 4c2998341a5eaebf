"""An ``async def`` handler is refused where the tool is made, in words that say what to do.

The executor calls handlers synchronously, inside the deadline and the transaction of the
call (docs/runtime.md); a coroutine returned from there would run outside both.
"""

from __future__ import annotations

from typing import Any

import pytest

from wink_decl import Tool, ToolContext, ToolResult
from wink_decl.errors import PromptValidationError, WinkDeclError

ADVICE = (
    "handlers are called synchronously, inside the executor's deadline and transaction "
    "(docs/runtime.md). Define it with def, and run any coroutine it needs inside it "
    "(asyncio.run)."
)


async def fetch(params: None, *, context: ToolContext) -> ToolResult[None]:
    return ToolResult.ok(None, "fetched")


class Fetcher:
    async def __call__(self, params: None, *, context: ToolContext) -> ToolResult[None]:
        return ToolResult.ok(None, "fetched")


class Plain:
    def __call__(self, params: None, *, context: ToolContext) -> ToolResult[None]:
        return ToolResult.ok(None, "fetched")


@pytest.mark.parametrize(
    ("handler", "label"), [(fetch, "fetch"), (Fetcher(), "Fetcher")], ids=["function", "object"]
)
def test_an_async_handler_is_refused(handler: Any, label: str) -> None:
    with pytest.raises(PromptValidationError) as raised:
        Tool(name="fetch", description="Fetch.", handler=handler, params_type=type(None))
    assert isinstance(raised.value, WinkDeclError)
    assert raised.value.message == (
        f"Tool 'fetch' handler is an async function ({label}); {ADVICE}"
    )


def test_a_callable_object_with_a_plain_call_is_accepted() -> None:
    tool = Tool(name="fetch", description="Fetch.", handler=Plain(), params_type=type(None))
    assert isinstance(tool.handler, Plain)
