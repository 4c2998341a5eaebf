"""``example.long_text``: a predicate for ``enabled:`` and ``summary_when:``."""

from __future__ import annotations

from typing import Any


def long_text(params: Any, *, session: Any) -> bool:
    """True when the prompt's ``text`` param is longer than 200 characters.

    A predicate is a plain ``def`` taking ``(params, *, session)``: the prompt's params
    (a dataclass, or None when it declares none) and the session. It must not raise: an
    exception fails the render, and wink-decl reports it against this package.
    """
    del session  # what the session holds, for a predicate that asks
    return len(getattr(params, "text", "") or "") > 200  # noqa: PLR2004  # the example's threshold
