"""Models an eval file names: ``provider:model`` with a provider wink-decl knows.

Only the providers' names are read (``wink_decl.adapters.providers``): no SDK is imported.
"""

from __future__ import annotations

from wink_decl.adapters.providers import PROVIDERS
from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, Span, clip
from wink_decl.evals._suite_types import ModelSpec
from wink_decl.schema.eval_model import ModelDoc
from wink_decl.suggestions import close_matches

__all__ = ["model_problem", "model_spec"]


def model_problem(name: str, span: Span) -> Diagnostic | None:
    """Why ``name`` (``provider:model``, as the schema checked) names no model, or None."""
    provider = name.partition(":")[0]
    if provider in PROVIDERS:
        return None
    known = tuple(PROVIDERS)
    suggestions = close_matches(provider, known)
    return Diagnostic(
        f"'{clip(provider)}' is not a provider wink-decl knows.",
        span,
        DiagnosticCode.MODEL,
        expected="PROVIDER:MODEL with PROVIDER one of " + ", ".join(known),
        hint=f"did you mean '{suggestions[0]}'?" if suggestions else None,
        suggestions=suggestions,
    )


def model_spec(item: str | ModelDoc) -> ModelSpec:
    """The model an eval file's ``models`` entry (or an experiment's ``model``) names."""
    if isinstance(item, str):
        provider, _, model = item.partition(":")
        return ModelSpec(provider, model)
    provider, _, model = item.model.partition(":")
    return ModelSpec(provider, model, item.base_url, item.options)
