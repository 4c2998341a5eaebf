"""The numbers, true/false and null of YAML 1.2's core schema, from a scalar's text.

Both the plain read (``_yaml_plain``) and the full walk (``_yaml_walk``) read scalars this
way; it lives below both so that neither imports the other for it.
"""

from __future__ import annotations

from wink_decl.loader import _yaml_compose as tags

__all__ = ["core_value"]

# Tags are compared by identity: an explicit ``!!int`` is another Tag object, equal to INT.
_INT, _FLOAT, _BOOL = tags.INT, tags.FLOAT, tags.BOOL
_TRUE = frozenset(("true", "True", "TRUE"))


def core_value(tag: object, text: str) -> object:
    """A number, true/false or null as YAML 1.2 reads ``text`` for ``tag`` (INT to NULL)."""
    if tag is _INT:
        return _to_int(text)
    if tag is _FLOAT:
        return _to_float(text)
    if tag is _BOOL:
        return text in _TRUE
    return None


def _to_int(text: str) -> int | str:
    """A YAML 1.2 integer (``0x``, ``0o``, ``0b``, underscores); odd leftovers stay text."""
    digits = text.replace("_", "")
    sign = -1 if digits.startswith("-") else 1
    digits = digits.lstrip("+-")
    try:
        for prefix, base in (("0x", 16), ("0o", 8), ("0b", 2)):
            if digits.startswith(prefix):
                return sign * int(digits[2:], base)
        return sign * int(digits)
    except ValueError:
        return text


def _to_float(text: str) -> float:
    """A YAML 1.2 float, including ``.inf`` and ``.nan``."""
    value = text.replace("_", "").lower()
    if value.endswith((".inf", ".nan")):
        return float(value.replace(".", ""))
    return float(value)
