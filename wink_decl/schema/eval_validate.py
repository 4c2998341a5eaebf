"""Validate a loaded eval file (or one case of a dataset), every error worded for authors."""

from __future__ import annotations

from pydantic import ValidationError

from wink_decl.diagnostics import Diagnostic
from wink_decl.schema.eval_model import DatasetCaseDoc, EvalDocument
from wink_decl.schema.validate import SpanLookup, diagnostics_from

__all__ = ["validate_dataset_case", "validate_eval_document"]


def validate_eval_document(
    data: object, spans: SpanLookup
) -> tuple[EvalDocument | None, list[Diagnostic]]:
    """The eval document, or None and every problem found, sorted by position."""
    try:
        return EvalDocument.model_validate(data), []
    except ValidationError as error:
        return None, diagnostics_from(error, spans, EvalDocument)


def validate_dataset_case(
    data: object, spans: SpanLookup
) -> tuple[DatasetCaseDoc | None, list[Diagnostic]]:
    """One case of a dataset file, or None and every problem found in it, sorted."""
    try:
        return DatasetCaseDoc.model_validate(data), []
    except ValidationError as error:
        return None, diagnostics_from(error, spans, DatasetCaseDoc)
