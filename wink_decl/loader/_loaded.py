"""What one format's loader gives back to ``load_text``."""

from __future__ import annotations

from typing import NamedTuple

from wink_decl.diagnostics import Diagnostic
from wink_decl.loader._source_map import SourceMap


class Loaded(NamedTuple):
    """The data and its source map (None when anything is wrong), and every problem found."""

    data: object
    source_map: SourceMap | None
    diagnostics: list[Diagnostic]
    has_numbers: bool = True
    """False when the loader met every value and none was a number (most prompt files): the
    compiler's check of numbers then has nothing to look at."""
    bad_numbers: bool = True
    """False when the loader met every value and each number was one JSON carries within 64
    bits (``unusable_number``): the compiler's check of numbers then finds nothing."""
