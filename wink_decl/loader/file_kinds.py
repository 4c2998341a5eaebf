"""The kinds of file the loader reads, each with the words its diagnostics use for it.

Prompt files, override files and ``--params-file`` files are all read by the loader; what
differs is what each must hold and what to do when one is too large. The loader words every
diagnostic for the kind it is given as it makes it, so no caller rewords a diagnostic after
the fact. A kind's words live in one :class:`FileKind` value beside the code that reads it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, NamedTuple

from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, Span

__all__ = ["PROMPT_FILE", "FileKind", "Found", "Holds"]

Found = Literal["empty", "list", "value"]
"""What a file held instead of a mapping of keys."""

_FOUND: dict[Found, str] = {
    "empty": "This file is empty",
    "list": "This file holds a list",
    "value": "This file holds a single value",
}


class Holds(NamedTuple):
    """What a file of one kind must hold, in the words of one format."""

    expected: str
    """The diagnostic's ``expected``: the shape of such a file."""
    hint: str | None = None
    must: str = ""
    """How the message ends "... must <this>."; empty for "must be <expected>"."""


@dataclass(frozen=True, slots=True)
class FileKind:
    """A kind of file the loader reads, and the words its diagnostics use for that kind."""

    name: str
    """The kind with its article, as a message names it: ``a prompt file``."""
    holds: Mapping[str, Holds]
    """What the file must hold, by format (``yaml``, ``toml``; ``json`` where the kind has it)."""
    size_advice: str
    """What to do about a file larger than ``size_limit``, short of raising the limit."""
    values_advice: str
    """What to do about a file holding more than ``max_nodes`` values, likewise."""
    size_limit: str = "max_bytes"
    """The limit on the file's size, as ``--limit`` names it."""
    shape_code: DiagnosticCode = DiagnosticCode.NOT_A_MAPPING
    """The code of the diagnostic for a file that is not a mapping of keys."""
    holds_list: bool = False
    """A YAML file of this kind may hold a list instead (a dataset of cases does)."""

    def not_a_mapping(self, span: Span, found: Found, file_format: str) -> Diagnostic:
        """The file (in ``file_format``) is empty, a list or a single value, not a mapping."""
        holds = self.holds[file_format]
        must = holds.must or f"be {holds.expected}"
        return Diagnostic(
            message=f"{_FOUND[found]}; {self.name} must {must}.",
            span=span,
            code=self.shape_code,
            expected=holds.expected,
            hint=holds.hint,
        )


_SPLIT = "Split the prompt into several smaller files"

PROMPT_FILE = FileKind(
    name="a prompt file",
    holds={
        "yaml": Holds(
            "a mapping of keys such as 'key:', 'title:' and 'sections:'",
            hint="Start the file with lines such as 'key: review' and 'title: Review'.",
        ),
        "toml": Holds(
            "a table of keys such as 'key', 'title' and 'sections'",
            hint='Start the file with lines such as key = "review" and title = "Review".',
        ),
    },
    size_advice=_SPLIT,
    values_advice=_SPLIT,
)
"""What ``load_file`` and ``load_text`` read unless told otherwise."""
