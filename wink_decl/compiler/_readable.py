"""Where the checks of a file the schema refused stop: a part they need that is unreadable."""

from __future__ import annotations

from typing import TypeVar

from wink_decl.errors import WinkDeclError
from wink_decl.schema.readable import UNREADABLE, Unreadable

__all__ = ["UnreadableData", "readable"]

_T = TypeVar("_T")


class UnreadableData(WinkDeclError):  # noqa: N818  # a signal to stop, not an error anyone sees
    """A part the checks need did not validate, so checking stops here.

    Only a file the schema refused gets this far: its schema diagnostics say what is wrong,
    and the reference mistakes found before this point are still reported
    (``compile_loaded``; docs/compiler.md). It never leaves the compiler.
    """


def readable(part: _T | Unreadable) -> _T:
    """``part`` of a document, which the checks after it need: they stop when it is unreadable."""
    if part is UNREADABLE:
        raise UnreadableData
    return part  # pyright: ignore[reportReturnType]  # narrowed: not UNREADABLE
