"""What a prompt author is told when the file is not a mapping of keys, in either format."""

from __future__ import annotations

from typing import Literal

from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, Span

Found = Literal["empty", "list", "value"]

_SHAPE = {
    "yaml": "a mapping of keys such as 'key:', 'title:' and 'sections:'",
    "toml": "a table of keys such as 'key', 'title' and 'sections'",
}
_START = {
    "yaml": "Start the file with lines such as 'key: review' and 'title: Review'.",
    "toml": 'Start the file with lines such as key = "review" and title = "Review".',
}
_FOUND = {
    "empty": "This file is empty",
    "list": "This file holds a list",
    "value": "This file holds a single value",
}


def not_a_mapping(span: Span, found: Found, file_format: Literal["yaml", "toml"]) -> Diagnostic:
    """The document is empty, a list or a single value instead of a mapping of keys."""
    shape = _SHAPE[file_format]
    return Diagnostic(
        message=f"{_FOUND[found]}; a prompt file must be {shape}.",
        span=span,
        code=DiagnosticCode.NOT_A_MAPPING,
        expected=shape,
        hint=_START[file_format],
    )
