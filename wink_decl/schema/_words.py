"""Words for messages: how a found value reads to an author, lists, and did-you-mean."""

from __future__ import annotations

import difflib
import functools
from collections.abc import Iterable, Mapping, Sequence

__all__ = ["close_matches", "describe", "one_of", "quoted"]

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


_CUTOFF = 0.6


def close_matches(word: object, candidates: Iterable[str]) -> tuple[str, ...]:
    """The candidates close to ``word`` (a string), best first; none for other values.

    As ``difflib.get_close_matches``, which costs tens of microseconds a word: a file of
    40,000 unknown keys took seconds. A word that shares too few characters with every
    candidate to reach the cutoff is answered first, in C; the answer is the same.
    """
    if not isinstance(word, str):
        return ()
    choices = tuple(candidates)
    deleting, shortest = _alphabet(choices)
    shared = len(word) - len(word.translate(deleting))
    if 2 * shared < _CUTOFF * (len(word) + shortest):
        return ()
    return tuple(difflib.get_close_matches(word, choices, n=3, cutoff=_CUTOFF))


@functools.lru_cache(maxsize=256)
def _alphabet(candidates: tuple[str, ...]) -> tuple[dict[int, None], int]:
    """A ``str.translate`` table deleting the characters of ``candidates``; the shortest's length.

    ``difflib``'s ratio is 2M / (both lengths), and M, the characters matched, is at most the
    characters of the word that some candidate has. The length is 0 when there are none.
    """
    return dict.fromkeys(ord(char) for word in candidates for char in word), min(
        map(len, candidates), default=0
    )
