"""Overrides: tagged variants of a prompt's texts, each pinned to the text it replaces.

docs/overrides.md describes the files, the store and how a tag is applied.

Each name below is imported from its module on first use: a command that only looks for the
overrides folder pays for no more than that.
"""

from wink_decl._exports import exports_on_first_use

TYPE_CHECKING = False
"""True for type checkers only (they read the imports below)."""

if TYPE_CHECKING:
    from wink_decl.overrides._apply import Applied, apply_overrides
    from wink_decl.overrides._file import Entry, OverrideFile
    from wink_decl.overrides._hashing import text_hash
    from wink_decl.overrides._repin import StaleEntry, repinned_text, stale_entries
    from wink_decl.overrides._seed import seed_data
    from wink_decl.overrides.checks import override_problems
    from wink_decl.overrides.folder import default_overrides_root
    from wink_decl.overrides.store import (
        LocalOverrideStore,
        OverrideLoad,
        OverrideStore,
        check_tag,
    )
    from wink_decl.overrides.tagged import Tagged, apply_tag, with_overrides

__all__ = [
    "Applied",
    "Entry",
    "LocalOverrideStore",
    "OverrideFile",
    "OverrideLoad",
    "OverrideStore",
    "StaleEntry",
    "Tagged",
    "apply_overrides",
    "apply_tag",
    "check_tag",
    "default_overrides_root",
    "override_problems",
    "repinned_text",
    "seed_data",
    "stale_entries",
    "text_hash",
    "with_overrides",
]

_HOMES: dict[str, str] = {
    "Applied": "wink_decl.overrides._apply",
    "Entry": "wink_decl.overrides._file",
    "LocalOverrideStore": "wink_decl.overrides.store",
    "OverrideFile": "wink_decl.overrides._file",
    "OverrideLoad": "wink_decl.overrides.store",
    "OverrideStore": "wink_decl.overrides.store",
    "StaleEntry": "wink_decl.overrides._repin",
    "Tagged": "wink_decl.overrides.tagged",
    "apply_overrides": "wink_decl.overrides._apply",
    "apply_tag": "wink_decl.overrides.tagged",
    "check_tag": "wink_decl.overrides.store",
    "default_overrides_root": "wink_decl.overrides.folder",
    "override_problems": "wink_decl.overrides.checks",
    "repinned_text": "wink_decl.overrides._repin",
    "seed_data": "wink_decl.overrides._seed",
    "stale_entries": "wink_decl.overrides._repin",
    "text_hash": "wink_decl.overrides._hashing",
    "with_overrides": "wink_decl.overrides.tagged",
}
"""Each exported name and the module it is imported from on first use."""

__getattr__, __dir__ = exports_on_first_use(__name__, _HOMES)
