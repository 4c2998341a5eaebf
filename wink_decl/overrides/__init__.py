"""Overrides: tagged variants of a prompt's texts, each pinned to the text it replaces.

docs/overrides.md describes the files, the store and how a tag is applied.
"""

from wink_decl.overrides._apply import Applied, apply_overrides
from wink_decl.overrides._file import Entry, OverrideFile
from wink_decl.overrides._hashing import text_hash
from wink_decl.overrides._seed import seed_data
from wink_decl.overrides.store import (
    LocalOverrideStore,
    OverrideLoad,
    OverrideStore,
    check_tag,
    default_overrides_root,
)
from wink_decl.overrides.tagged import with_overrides

__all__ = [
    "Applied",
    "Entry",
    "LocalOverrideStore",
    "OverrideFile",
    "OverrideLoad",
    "OverrideStore",
    "apply_overrides",
    "check_tag",
    "default_overrides_root",
    "seed_data",
    "text_hash",
    "with_overrides",
]
