"""Words for messages: how a found value reads to an author, and lists of choices."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

__all__ = ["describe", "one_of", "quoted"]

_LONGEST = 40


def describe(value: object) -> str:
    """A found value as an author reads it: ``'ful'``, ``42``, ``true``, ``a list``."""
    if isinstance(value, str):
        text = value if len(value) <= _LONGEST else value[: _LONGEST - 3] + "..."
        return repr(text) if value else "an empty text"
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "an empty value"}[value]
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, Mapping):
        return _describe_mapping([str(key) for key in value])  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
    if isinstance(value, Sequence):
        return "a list"
    return f"{value} (a {type(value).__name__})"


def _describe_mapping(keys: list[str]) -> str:
    if not keys:
        return "an empty mapping"
    return f"a mapping with {'key' if len(keys) == 1 else 'keys'} {quoted(keys)}"


def quoted(words: Iterable[str]) -> str:
    """``'a', 'b', 'c'``."""
    return ", ".join(f"'{word}'" for word in words)


def one_of(words: Sequence[str]) -> str:
    """``one of a, b, c`` (``only a`` when there is one)."""
    return f"only {words[0]}" if len(words) == 1 else "one of " + ", ".join(words)
