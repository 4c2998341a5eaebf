"""Usage errors: a wrong command line, reported as one short message and exit status 2."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from wink_decl.errors import WinkDeclError

__all__ = ["UsageError", "closest", "did_you_mean"]


class UsageError(WinkDeclError):
    """A command line that cannot be run: an unknown name, a missing file, a bad value.

    ``command`` is set for mistakes in the arguments themselves, so the report can point at
    that command's ``--help`` (an empty string means the top level).
    """

    def __init__(
        self, message: str, *, hint: str | None = None, command: str | None = None
    ) -> None:
        """Keep the parts; the frame renders them."""
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.command = command

    def render(self) -> str:
        """``wink-decl: error: ...`` then the hint and where to find help, one per line."""
        lines = [f"wink-decl: error: {self.message}"]
        if self.hint:
            lines.append(f"  hint: {self.hint}")
        if self.command == "":
            lines.append("  run 'wink-decl --help' for the list of commands")
        elif self.command is not None:
            lines.append(f"  run 'wink-decl {self.command} --help' for its options")
        return "\n".join(lines) + "\n"


def closest(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate closest to ``word``, or None when none is close."""
    matches = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return matches[0] if matches else None


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    """A ``did you mean 'x'?`` hint for the closest candidate, or None when none is close."""
    match = closest(word, candidates)
    return None if match is None else f"did you mean '{match}'?"
