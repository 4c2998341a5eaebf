"""Did-you-mean: the names close to a misspelt one, found fast, the same way everywhere."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Final

__all__ = ["CUTOFF", "close_matches", "did_you_mean", "did_you_mean_sentence"]

CUTOFF: Final = 0.6
"""How alike two names must be (``difflib``'s ratio) to suggest one for the other."""


def close_matches(
    word: object, candidates: Iterable[str], *, most: int = 3, alphabetical_ties: bool = False
) -> tuple[str, ...]:
    """Up to ``most`` candidates close to ``word`` (a string), closest first; none otherwise.

    The answer of ``difflib.get_close_matches``, ties and all (of two equally close, the later
    in alphabetical order first), or with ``alphabetical_ties`` the earlier first, as a list
    of names in a hint reads best. ``difflib`` costs tens of microseconds a candidate: a file
    of 40,000 unknown keys took seconds. A word that shares too few characters with every
    candidate to reach the cutoff is answered first, in C; the answer is the same.
    """
    if not isinstance(word, str):
        return ()
    choices = tuple(candidates)
    deleting, shortest = _alphabet(choices)
    shared = len(word) - len(word.translate(deleting))
    if 2 * shared < CUTOFF * (len(word) + shortest):
        return ()
    scored = _scored(word, choices)
    if alphabetical_ties:
        ranked = sorted(scored, key=lambda pair: (-pair[0], pair[1]))[:most]
    else:
        import heapq  # noqa: PLC0415  # a suggestion is searched for only after a mistake

        ranked = heapq.nlargest(most, scored)  # as difflib.get_close_matches ranks them
    return tuple(choice for _, choice in ranked)


def _scored(word: str, choices: tuple[str, ...]) -> list[tuple[float, str]]:
    """Each choice at least ``CUTOFF`` alike, with its ratio, as ``difflib`` finds them."""
    import difflib  # noqa: PLC0415  # only a mistake pays for it

    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(word)
    scored: list[tuple[float, str]] = []
    for choice in choices:
        matcher.set_seq1(choice)
        # The quick ratios are upper bounds of the ratio: difflib checks them first too.
        if (
            matcher.real_quick_ratio() >= CUTOFF
            and matcher.quick_ratio() >= CUTOFF
            and matcher.ratio() >= CUTOFF
        ):
            scored.append((matcher.ratio(), choice))
    return scored


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    """A ``did you mean 'x'?`` hint for the closest candidate, or None when none is close."""
    found = close_matches(word, candidates, most=1)
    return f"did you mean '{found[0]}'?" if found else None


def did_you_mean_sentence(word: str, candidates: Iterable[str]) -> str:
    """A `` Did you mean 'x'?`` sentence to end a message with, or "" when none is close."""
    found = close_matches(word, candidates, most=1)
    return f" Did you mean '{found[0]}'?" if found else ""


@functools.lru_cache(maxsize=256)
def _alphabet(candidates: tuple[str, ...]) -> tuple[dict[int, None], int]:
    """A ``str.translate`` table deleting the characters of ``candidates``; the shortest's length.

    ``difflib``'s ratio is 2M / (both lengths), and M, the characters matched, is at most the
    characters of the word that some candidate has. The length is 0 when there are none.
    """
    return dict.fromkeys(ord(char) for word in candidates for char in word), min(
        map(len, candidates), default=0
    )
