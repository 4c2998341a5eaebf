"""A prompt's declared output: the shape asked of the model, and its answer parsed into it."""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import cast

from wink_decl.errors import ToolValidationError
from wink_decl.prompt.serde import parse
from wink_decl.prompt.tool_schema import params_json_schema
from wink_decl.runtime.json_errors import same_on_every_python
from wink_decl.runtime.provider import OutputFormat

__all__ = ["OUTPUT_NAME", "output_format", "parse_output"]

OUTPUT_NAME = "final_answer"
"""What providers call the output shape (and the tool an adapter may force to get it)."""


def output_format(output_type: type, taken: Collection[str] = ()) -> OutputFormat:
    """The provider-facing form of an output dataclass, named apart from the ``taken`` tools.

    An adapter may offer the shape as a tool the model must call, so its name must not be one
    of the prompt's own tools: ``final_answer``, else ``final_answer_2``, and so on.
    """
    name, number = OUTPUT_NAME, 1
    while name in taken:
        number += 1
        name = f"{OUTPUT_NAME}_{number}"
    return OutputFormat(name, params_json_schema(output_type))


def parse_output(output_type: type, text: str) -> tuple[object, str | None]:
    """The answer as an ``output_type`` instance, or None and what is wrong with it."""
    try:
        data = json.loads(_strip_fence(text))
    except json.JSONDecodeError as raised:
        return None, f"it is not JSON ({same_on_every_python(raised)})."
    try:
        output = cast("object", parse(output_type, data, extra="forbid"))
    except ToolValidationError as error:
        return None, str(error)
    return output, None


def _strip_fence(text: str) -> str:
    """Models often wrap JSON in a Markdown code fence; the fence is not part of the answer."""
    stripped = text.strip()
    if stripped.startswith("```") and stripped.endswith("```") and "\n" in stripped:
        body = stripped[stripped.index("\n") + 1 : -3]
        return body.strip()
    return stripped
