"""Usage errors: a wrong command line, reported as one short message and exit status 2."""

from __future__ import annotations

from wink_decl.errors import WinkDeclError

__all__ = ["UsageError"]


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
