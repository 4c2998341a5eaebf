"""The hash an override entry records of the base text it replaces: ``sha256:<64 hex digits>``."""

from __future__ import annotations

import hashlib
import re
from typing import Final

__all__ = ["HASH_PATTERN", "text_hash"]

HASH_PATTERN: Final = re.compile(r"sha256:[0-9a-f]{64}")
"""A whole hash: a short prefix would let an edited text pass as the one it replaced."""


def text_hash(text: str) -> str:
    """``sha256:`` and the hex digest of ``text`` in UTF-8."""
    return "sha256:" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
