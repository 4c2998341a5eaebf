"""The problems of writing a file, worded for people."""

from __future__ import annotations

from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic

__all__ = ["already_exists", "not_written"]


def already_exists(shown: str) -> Diagnostic:
    """The refusal to overwrite ``shown`` without ``--force``."""
    return Diagnostic(
        message="This file already exists; it was left unchanged.",
        span=None,
        code=DiagnosticCode.FILE_EXISTS,
        hint="Pass --force to overwrite it, or choose another name.",
        path=shown,
    )


def not_written(shown: str, error: OSError) -> Diagnostic:
    """Writing ``shown`` failed with ``error``."""
    reason = error.strerror or type(error).__name__
    return Diagnostic(
        message=f"This file cannot be written: {reason[:1].lower()}{reason[1:]}.",
        span=None,
        code=DiagnosticCode.UNWRITABLE,
        hint="Check that you may write to the folder, and that it is a folder.",
        path=shown,
    )
