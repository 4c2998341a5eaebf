"""A noun that agrees with its count, for every message that prints one ("1 tool", "2 tools")."""

from __future__ import annotations

__all__ = ["noun_for"]


def noun_for(number: float, noun: str) -> str:
    """``noun`` as it goes after ``number``: as given for exactly 1, else with an ``s``.

    The nouns counted in messages are all regular; the caller formats the number itself.
    """
    return noun if number == 1 else f"{noun}s"
