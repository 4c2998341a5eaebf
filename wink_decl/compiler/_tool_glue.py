"""Temporary: a tool as the file wrote it, validated into the ``ToolDoc`` ``compile_tool`` takes.

The compiler's core still walks the file's raw data. When it hands the leaf compilers the
document's typed values, the call sites pass the ``ToolDoc`` they hold and this module goes.
"""

from __future__ import annotations

from pydantic import ValidationError

from wink_decl.compiler._readable import readable_mapping
from wink_decl.schema.model import ToolDoc

__all__ = ["included_tool_doc", "tool_doc"]


def tool_doc(data: object) -> ToolDoc | None:
    """The typed tool; None when the schema refuses its fields (declared, with errors).

    Only a file the schema refused has such a tool, and its schema diagnostics say what is
    wrong; the prompt's other checks still run (``compile_loaded``). A tool that is not even a
    mapping stops them (``UnreadableData``), as it did before the compiler read the model.
    """
    try:
        return ToolDoc.model_validate(readable_mapping(data))
    except ValidationError:
        return None


def included_tool_doc(data: object) -> ToolDoc:
    """An included file's tool, typed: such a file is compiled only when the schema passed it."""
    return ToolDoc.model_validate(data)
