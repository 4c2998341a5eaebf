"""A check's label: the check as the file writes it, on one line, in YAML's flow style.

``contains: a + b``, ``icontains: return, weight: 2``, ``tool_calls: {name: read_file,
min: 1}``, ``all: [{contains: a}, {contains: b}]``. Reports and the results journal name
checks by it, so it depends only on what the check says: its key, then its value, then
``weight`` and ``negate`` when the file gives them; keys inside a value come in the order
docs/evals.md lists them. A text longer than ``LONGEST_VALUE`` characters is cut, and a label
longer than ``LONGEST_LABEL``, so a report's lines stay short.
"""

from __future__ import annotations

import json
import re
from typing import Final, cast

from wink_decl.schema.eval_model import AllCheckDoc, AnyCheckDoc, CheckDoc

__all__ = ["LONGEST_LABEL", "LONGEST_VALUE", "label_of"]

LONGEST_VALUE: Final = 80
"""Characters of one text in a label; a longer one keeps its start and ``...``."""
LONGEST_LABEL: Final = 200
"""Characters of a whole label, likewise."""

_PLAIN: Final = re.compile(r"[\w./()+=<>$^?;~-][\w./()+=<>$^?;~:-]*(?: [\w./()+=<>$^?;~-]+)*")
"""Text written without quotes: words and these signs, single spaces between; a colon only
inside the first word (``openai:gpt-4.1``), never before a space or at the end."""
_LOOKS_LIKE_A_VALUE: Final = re.compile(
    r"[-+]?(?:\d|\.\d)|(?:~|null|true|false|yes|no|on|off|y|n)$", re.IGNORECASE
)
"""Text YAML would read as a number, a boolean or null: written in quotes."""


def label_of(check: CheckDoc) -> str:
    """``check`` as its file writes it, on one line (see the module's docstring)."""
    written: dict[str, object] = check.model_dump(mode="json", by_alias=True, exclude_unset=True)
    key = cast("str", check.union_tag)
    if isinstance(check, AllCheckDoc | AnyCheckDoc):
        inner = check.all_ if isinstance(check, AllCheckDoc) else check.any_
        value = "[" + ", ".join("{" + label_of(item) + "}" for item in inner) + "]"
    else:
        value = _flow(written[key])
    parts = [f"{key}: {value}"]
    parts.extend(
        f"{name}: {_flow(written[name])}" for name in ("weight", "negate") if name in written
    )
    return _cut(", ".join(parts), LONGEST_LABEL)


def _flow(value: object) -> str:
    """A JSON value in YAML's flow style."""
    if isinstance(value, str):
        return _text(value)
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        items = cast("list[object]", value)
        return "[" + ", ".join(_flow(item) for item in items) + "]"
    entries = cast("dict[str, object]", value)
    return "{" + ", ".join(f"{_text(k)}: {_flow(v)}" for k, v in entries.items()) + "}"


def _text(value: str) -> str:
    shown = _cut(value, LONGEST_VALUE)
    plain = _PLAIN.fullmatch(shown) and not shown.endswith(":") and ": " not in shown
    if plain and not _LOOKS_LIKE_A_VALUE.match(shown):
        return shown
    return json.dumps(shown, ensure_ascii=False)


def _cut(text: str, longest: int) -> str:
    return text if len(text) <= longest else text[: longest - 3] + "..."
