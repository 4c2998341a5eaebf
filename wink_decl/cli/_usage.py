"""Usage errors: a wrong command line, reported as one short message and exit status 2."""

from __future__ import annotations

from wink_decl.errors import InputError

__all__ = ["UsageError", "render_usage"]


class UsageError(InputError):
    """A command line that cannot be run: an unknown name, a missing file, a bad value.

    ``command`` is set for mistakes in the arguments themselves, so the report can point at
    that command's ``--help`` (an empty string means the top level).
    """

    def __init__(
        self, message: str, *, hint: str | None = None, command: str | None = None
    ) -> None:
        """Keep the parts; the frame renders them."""
        super().__init__(message, hint=hint)
        self.command = command

    def render(self) -> str:
        """``wink-decl: error: ...`` then the hint and where to find help, one per line."""
        return render_usage(self, self.command)


def render_usage(error: InputError, command: str | None = None) -> str:
    """``wink-decl: error: ...``, the hint, then where to find help (``command``), one per line.

    A front end's ``InputError`` (a missing file, a folder that is not one) reads as any other
    mistake in the command line.
    """
    lines = [f"wink-decl: error: {error.message}"]
    if error.hint:
        lines.append(f"  hint: {error.hint}")
    if command == "":
        lines.append("  run 'wink-decl --help' for the list of commands")
    elif command is not None:
        lines.append(f"  run 'wink-decl {command} --help' for its options")
    return "\n".join(lines) + "\n"
