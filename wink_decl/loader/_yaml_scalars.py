"""The numbers, true/false and null of YAML 1.2's core schema, from a scalar's text.

Both the plain read (``_yaml_plain``) and the full walk (``_yaml_walk``) read scalars this
way; it lives below both so that neither imports the other for it.
"""

from __future__ import annotations

from wink_decl.loader import _yaml_compose as tags
from wink_decl.loader._yaml_core import to_float, to_int

__all__ = ["core_value"]

# Tags are compared by identity: an explicit ``!!int`` is another Tag object, equal to INT.
_INT, _FLOAT, _BOOL = tags.INT, tags.FLOAT, tags.BOOL
_TRUE = frozenset(("true", "True", "TRUE"))


def core_value(tag: object, text: str) -> object:
    """A number, true/false or null as YAML 1.2 reads ``text`` for ``tag`` (INT to NULL)."""
    if tag is _INT:
        return to_int(text)
    if tag is _FLOAT:
        return to_float(text)
    if tag is _BOOL:
        return text in _TRUE
    return None
