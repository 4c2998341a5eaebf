"""``example.count_words``: a tool handler."""

from __future__ import annotations

from dataclasses import dataclass

from wink_decl import ToolContext, ToolResult


@dataclass(frozen=True)
class CountParams:
    """What the model sends: the text to count."""

    text: str


@dataclass(frozen=True)
class WordCount:
    """What the model gets back."""

    words: int


def count_words(params: CountParams, *, context: ToolContext) -> ToolResult[WordCount]:
    """Count the words of ``params.text``.

    A handler is a plain ``def`` taking ``(params, *, context)`` and returning a
    ``ToolResult``. Its annotations give the tool its parameter and result schemas, so a
    prompt file may leave ``params:`` out.
    """
    del context  # the files, the session and the deadline: this tool needs none of them
    count = len(params.text.split())
    return ToolResult.ok(WordCount(count), f"{count} words.")
