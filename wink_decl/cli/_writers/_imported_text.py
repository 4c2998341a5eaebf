"""An imported prompt as commented YAML or TOML: the writers' text, comments between its parts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from wink_decl.cli._writers._comments import schema_line
from wink_decl.cli._writers._toml_writer import to_toml
from wink_decl.cli._writers._yaml_writer import to_yaml
from wink_decl.importing import ImportedPrompt
from wink_decl.loader.api import Format

__all__ = ["imported_text"]


def imported_text(imported: ImportedPrompt, to: Format, schema_ref: str | None) -> str:
    """The document of ``imported`` in format ``to``, with its header and notes as comments."""
    document = imported.document or {}
    write = to_toml if to == "toml" else to_yaml
    out: list[str] = [] if schema_ref is None else [schema_line(schema_ref, to)]
    out.append(_comment(imported.header, ""))
    top = {k: v for k, v in document.items() if k not in ("params", "sections")}
    out.append(write(top))
    if "params" in document:
        out.append("\n" + write({"params": document["params"]}))
    sections = cast("list[object]", document["sections"])  # the importer writes a list
    if to == "yaml":
        out.append("\nsections:\n")
    for index, section in enumerate(sections):
        notes = imported.notes.get(index, [])
        text = write({"sections": [section]})
        if to == "yaml":
            text = text.split("\n", 1)[1]
            out.append(_comment(notes, "  "))
        else:
            out.append("\n" + _comment(notes, ""))
        out.append(text)
    return "".join(out)


def _comment(lines: Sequence[str], indent: str) -> str:
    return "".join(f"{indent}# {line}".rstrip() + "\n" for line in lines)
