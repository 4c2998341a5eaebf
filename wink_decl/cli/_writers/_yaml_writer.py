"""Plain prompt data as readable YAML: block style, ``|`` for multi-line text, file order kept."""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from typing import cast

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import DoubleQuotedScalarString, LiteralScalarString

__all__ = ["to_yaml"]

_FLOW_WIDTH = 80  # a list of plain values is written [a, b] when that line stays this short
_FLOW_SAFE = re.compile(r"[\w.-]+(?: [\w.-]+)*\Z")
"""Items a flow list ``[a, b]`` shows as written: ruamel quotes others in ways libyaml may not
read (``[:0]``), so a list with any other item is written one item per line."""
_UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]")
"""Characters written raw only at a risk: controls, and what a YAML 1.1 reader takes as a line
break (NEL, LS, PS). ruamel may write them into a plain, quoted or block string regardless."""
_TAB_INDENT = re.compile(r"^ *\t", re.MULTILINE)  # in a | block, the loader takes it for indenting
_NO_FOLDING = 1 << 16  # long lines stay whole: a folded description reads worse than a long one


def to_yaml(data: Mapping[str, object]) -> str:
    """``data`` as YAML text in the layout of the bundled prompts (lists indented under keys)."""
    yaml = YAML(typ="rt", pure=True)
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.width = _NO_FOLDING
    yaml.allow_unicode = True
    out = io.StringIO()
    yaml.dump(_node(data, 0), out)  # pyright: ignore[reportUnknownMemberType]
    return out.getvalue()


def _node(value: object, indent: int) -> object:
    """``value`` as ruamel's round-trip types, carrying the style each part is written in."""
    if isinstance(value, str):
        if _UNSAFE.search(value) or ("\n" in value and _TAB_INDENT.search(value)):
            return DoubleQuotedScalarString(value)  # the one style that escapes every character
        return LiteralScalarString(value) if "\n" in value else value
    if isinstance(value, Mapping):
        mapping = CommentedMap()
        for key, item in cast("Mapping[str, object]", value).items():
            mapping[_node(key, indent) if _UNSAFE.search(key) else key] = _node(item, indent + 2)
        return mapping
    if isinstance(value, list):
        items = cast("list[object]", value)
        sequence = CommentedSeq(_node(item, indent + 4) for item in items)
        simple = all(_FLOW_SAFE.match(str(item)) for item in items)
        if simple and indent + len(repr(items)) <= _FLOW_WIDTH:
            sequence.fa.set_flow_style()  # pyright: ignore[reportUnknownMemberType]
        return sequence
    return value
