"""The numbers JSON carries everywhere: finite ones, and whole numbers that fit in 64 bits.

Each loader asks this of every number it reads, so that the compiler's check of numbers
(``compiler/_numbers.py``) walks a file again only when it holds one that does not fit.
"""

from __future__ import annotations

import math
from typing import Final, cast

__all__ = ["LARGEST", "SMALLEST", "unusable_number"]

SMALLEST: Final = -(2**63)
"""The smallest whole number a file may hold: TOML's, and most JSON readers' outside Python."""
LARGEST: Final = 2**63 - 1
"""The largest one."""


def unusable_number(value: object) -> bool:
    """True for a number JSON cannot carry (NaN, infinity) or one past 64 bits; else False."""
    kind = type(value)  # exactly int and float: a bool is not a number here
    if kind is int:
        return not SMALLEST <= cast("int", value) <= LARGEST
    return kind is float and not math.isfinite(cast("float", value))
