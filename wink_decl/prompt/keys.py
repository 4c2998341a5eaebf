"""Key rules for sections, prompts and namespaces: checking keys and deriving them from titles."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from wink_decl.errors import PromptValidationError

__all__ = [
    "KEY_PATTERN",
    "dotted",
    "key_from_title",
    "normalise_key",
    "normalise_ns",
]

KEY_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
_KEY_RULE = "1-64 lowercase letters, digits, '_' or '-', starting with a letter or digit"
_TITLE_JUNK = re.compile(r"[^a-z0-9_-]+")
_CHECKED_LIMIT = 1024
"""Namespaces kept once checked: every file of a folder has its folder's. (Not keys: each
prompt file has its own, and keeping a new one costs more than checking it.)"""


def dotted(path: Iterable[str]) -> str:
    """The dotted form of a section path, as models and authors see it."""
    return ".".join(path)


def normalise_key(key: str, *, what: str = "Section key") -> str:
    """Lower-case ``key`` and check it against the key rule."""
    if not isinstance(key, str):  # pyright: ignore[reportUnnecessaryIsInstance]  # callers are untyped too
        raise PromptValidationError(f"{what} must be a string, got {type(key).__name__}.")
    lowered = key.lower()
    if "." in lowered:
        raise PromptValidationError(
            f"{what} '{key}' contains '.', which separates section paths; use '-' or '_'.",
            section_path=(lowered,),
        )
    if not KEY_PATTERN.fullmatch(lowered):
        raise PromptValidationError(
            f"{what} '{key}' is invalid: use {_KEY_RULE}.",
            section_path=(lowered,),
        )
    return lowered


def key_from_title(title: str) -> str:
    """Derive a key from a title: "Project Context" becomes "project-context"."""
    slug = _TITLE_JUNK.sub("-", title.lower()).strip("-_")[:64].rstrip("-_")
    if not slug:
        raise PromptValidationError(
            f"Section title '{title}' gives no usable key: pass key= explicitly."
        )
    return normalise_key(slug)


def normalise_ns(ns: str) -> str:
    """Lower-case a namespace and check every '/'-separated segment against the key rule."""
    if not isinstance(ns, str) or not ns:  # pyright: ignore[reportUnnecessaryIsInstance]
        raise PromptValidationError("Prompt ns must be a non-empty string such as 'agents/review'.")
    return _checked_ns(ns)


@lru_cache(maxsize=_CHECKED_LIMIT)
def _checked_ns(ns: str) -> str:
    """``normalise_ns`` for a non-empty string (a refusal is raised every time)."""
    segments = ns.lower().split("/")
    for segment in segments:
        if not KEY_PATTERN.fullmatch(segment):
            raise PromptValidationError(
                f"Prompt ns '{ns}' has an invalid segment '{segment}': "
                f"each segment needs {_KEY_RULE}."
            )
    return "/".join(segments)
