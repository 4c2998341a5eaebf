"""YAML 1.2's core schema without a parser: the kind of a plain scalar, and its number.

The quick reader (``_yaml_quick``) reads most prompt files with this alone, so a process
that reads only such files never imports ruamel.yaml (a few milliseconds of every
``wink-decl validate``); the composer (``_yaml_compose``) gives its tags from the same table.
"""

from __future__ import annotations

import re

__all__ = ["TAGGED_FIRST", "plain_kind", "to_float", "to_int"]

_CORE_1_2: list[tuple[str, str, str]] = [  # ruamel's YAML 1.2 implicit resolvers, in order
    ("bool", "tTfF", r"(?:true|True|TRUE|false|False|FALSE)\Z"),
    (
        "float",
        "-+0123456789.",
        r"""(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?
        |[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
        |[-+]?\.[0-9_]+(?:[eE][-+][0-9]+)?
        |[-+]?\.(?:inf|Inf|INF)
        |\.(?:nan|NaN|NAN))\Z""",
    ),
    (
        "int",
        "-+0123456789",
        r"(?:[-+]?0b[0-1_]+|[-+]?0o?[0-7_]+|[-+]?[0-9_]+|[-+]?0x[0-9a-fA-F_]+)\Z",
    ),
    ("merge", "<", r"<<\Z"),
    ("null", "~nN", r"(?:~|null|Null|NULL)\Z"),
    ("null", "", r"\Z"),
    (
        "timestamp",
        "0123456789",
        r"""(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]
        |[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?
        (?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?
        (?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)\Z""",
    ),
    ("value", "=", r"=\Z"),
]
_IMPLICIT: dict[str, list[tuple[str, re.Pattern[str]]]] = {}
for _kind, _first, _pattern in _CORE_1_2:
    for _char in _first or [""]:
        _IMPLICIT.setdefault(_char, []).append((_kind, re.compile(_pattern, re.VERBOSE)))

TAGGED_FIRST = frozenset(_IMPLICIT) - {""}
"""The first characters of a plain scalar that may resolve to a kind other than str."""


def plain_kind(value: str) -> str:
    """The YAML 1.2 core kind of a plain scalar written as ``value``: ``"str"``, ``"int"``...

    The kinds are the names of the ``tag:yaml.org,2002:`` tags: str, int, float, bool, null,
    timestamp, merge and value.
    """
    for kind, regexp in _IMPLICIT.get(value[:1], ()):
        if regexp.match(value):
            return kind
    return "str"


def to_int(text: str) -> int | str:
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


def to_float(text: str) -> float:
    """A YAML 1.2 float, including ``.inf`` and ``.nan``."""
    value = text.replace("_", "").lower()
    if value.endswith((".inf", ".nan")):
        return float(value.replace(".", ""))
    return float(value)
