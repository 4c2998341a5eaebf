"""The one-of choices of the format, and the discriminators that pick an alternative.

Each discriminator returns a tag, or None when nothing fits; pydantic then raises one
``wink_union`` error naming the union, which ``validate`` words as "'x' must be one of ...".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, NamedTuple, cast

from pydantic import Discriminator

__all__ = [
    "CHECK",
    "CHECK_KEYS",
    "CONDITION",
    "MODEL",
    "POLICY",
    "SCALAR",
    "SECTION_ITEM",
    "UNIONS",
    "UNION_ERROR",
    "VALUE",
    "VISIBILITY",
    "OneOf",
]

UNION_ERROR: Final = "wink_union"


class OneOf(NamedTuple):
    """A union as authors see it: what it is, its choices in words, and its tags."""

    name: str
    noun: str
    """What one item is called when it sits in a list ("A policy must be ...")."""
    phrase: str
    """The choices in words, after "must be"."""
    choices: tuple[str, ...]
    """Keys or words an author may have meant (for did-you-mean)."""
    shapes: tuple[type, ...]
    """Python types of a value that has the right shape but the wrong choice (code ``enum``)."""
    common: tuple[str, ...] = ()
    """Keys every alternative allows beside its one key (a check's ``weight`` and ``negate``)."""

    def discriminator(self, tag: Callable[[object], str | None]) -> Discriminator:
        """A pydantic Discriminator that reports this union by name when ``tag`` gives None."""
        return Discriminator(
            tag,
            custom_error_type=UNION_ERROR,
            custom_error_message=f"not {self.phrase}",
            custom_error_context={"union": self.name},
        )


_CONDITION_KEYS = ("param", "not", "all", "any", "equals", "predicate")
_POLICY_KEYS = ("sequential", "read_before_write", "plugin")
CHECK_KEYS: Final = (
    "equals",
    "contains",
    "icontains",
    "starts_with",
    "regex",
    "json_schema",
    "field",
    "tool_called",
    "tool_not_called",
    "tool_calls",
    "tools_succeeded",
    "max_tokens",
    "max_turns",
    "max_latency_ms",
    "judge",
    "plugin",
    "all",
    "any",
)
"""The one key of each kind of check an eval file's ``assert`` lists."""
_CONDITION_KEY_SET = frozenset(_CONDITION_KEYS)
_POLICY_KEY_SET = frozenset(_POLICY_KEYS)
_CHECK_KEY_SET = frozenset(CHECK_KEYS)

CONDITION = OneOf(
    "condition",
    "condition",
    "true, false, or one of {param: ...}, {not: ...}, {all: [...]}, {any: [...]}, "
    "{equals: {param: ..., value: ...}}, {predicate: ...}",
    ("true", "false", *_CONDITION_KEYS),
    (bool, dict),
)
POLICY = OneOf("policy", "policy", "one of " + ", ".join(_POLICY_KEYS), _POLICY_KEYS, (dict,))
SECTION_ITEM = OneOf(
    "section_item",
    "section",
    "a mapping with a 'title', or an include ({include: file#section})",
    ("title", "include"),
    (dict,),
)
VISIBILITY = OneOf(
    "visibility",
    "visibility",
    "one of full, summary, or {summary_when: ...}",
    ("full", "summary", "summary_when"),
    (str, dict),
)
CHECK = OneOf(
    "check",
    "check",
    "a mapping with one of the keys " + ", ".join(CHECK_KEYS),
    CHECK_KEYS,
    (dict,),
    common=("weight", "negate"),
)
MODEL = OneOf(
    "model",
    "model",
    "PROVIDER:MODEL text, or a mapping with 'model' (and 'base_url', 'options')",
    (),
    (),
)
SCALAR = OneOf("scalar", "value", "text, a number, true or false", (), ())
VALUE = OneOf("value", "value", "text, a number, true or false, or a list of those", (), ())

UNIONS: Final[dict[str, OneOf]] = {
    union.name: union
    for union in (CONDITION, POLICY, SECTION_ITEM, VISIBILITY, SCALAR, VALUE, CHECK, MODEL)
}


def _first_known_key(value: dict[str, object], keys: frozenset[str]) -> str | None:
    """The first key of ``value`` (loaded data: every key is text) that is one of ``keys``."""
    for key in value:  # a plain loop: this runs for every condition and policy
        if key in keys:
            return key
    return None


def _model_tag(value: object) -> str | None:
    """A model instance's own tag (for documents built in Python), else None."""
    tag: str | None = getattr(value, "union_tag", None)
    return tag


def condition_tag(value: object) -> str | None:
    """``bool`` for true/false, else the condition's one key."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, dict):
        return _first_known_key(value, _CONDITION_KEY_SET)  # pyright: ignore[reportUnknownArgumentType]
    return _model_tag(value)


def policy_tag(value: object) -> str | None:
    """The policy's one key."""
    if isinstance(value, dict):
        return _first_known_key(value, _POLICY_KEY_SET)  # pyright: ignore[reportUnknownArgumentType]
    return _model_tag(value)


def check_tag(value: object) -> str | None:
    """The check's one key (its ``weight`` and ``negate`` aside)."""
    if isinstance(value, dict):
        return _first_known_key(value, _CHECK_KEY_SET)  # pyright: ignore[reportUnknownArgumentType]
    return _model_tag(value)


def model_tag(value: object) -> str | None:
    """``name`` for ``provider:model`` text, ``mapping`` for the long form."""
    if isinstance(value, str):
        return "name"
    if isinstance(value, dict):
        return "mapping"
    return _model_tag(value)


def section_item_tag(value: object) -> str | None:
    """``include`` when the mapping has that key, else ``section``."""
    if isinstance(value, dict):
        return "include" if "include" in value else "section"
    return _model_tag(value)


def visibility_tag(value: object) -> str | None:
    """``mode`` for full/summary, ``summary_when`` for the conditional form."""
    if value in ("full", "summary"):
        return "mode"
    if isinstance(value, dict) and "summary_when" in value:
        return "summary_when"
    return _model_tag(cast("object", value))  # not the dict narrowed above


_SCALAR_TAGS: Final[dict[type, str]] = {
    str: "string",
    bool: "boolean",
    int: "integer",
    float: "number",
}


def scalar_tag(value: object) -> str | None:
    """The JSON type of a scalar value (``bool`` is not an integer here)."""
    return _SCALAR_TAGS.get(type(value))


def value_tag(value: object) -> str | None:
    """The JSON type of a scalar or of a list."""
    kind = type(value)
    return "array" if kind is list or kind is tuple else _SCALAR_TAGS.get(kind)
