"""Render-time params for a compiled prompt, with mistakes pointing at their declarations."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, cast

from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, DiagnosticError, Span
from wink_decl.errors import ToolValidationError
from wink_decl.prompt.serde import parse
from wink_decl.suggestions import did_you_mean_sentence

if TYPE_CHECKING:
    from wink_decl.compiler.compile import CompiledPrompt

__all__ = ["MISSING_HINT", "make_params", "unknown_param"]

MISSING_HINT = "pass a value for '{name}' when rendering, or give it a default"
"""What a missing param's diagnostic suggests; ``{name}`` is the param."""


def make_params(
    prompt: CompiledPrompt, values: Mapping[str, object], *, missing_hint: str = MISSING_HINT
) -> tuple[object, ...]:
    """The params to bind (none when the prompt declares none); ``DiagnosticError`` otherwise.

    ``missing_hint`` words the way to give a missing value, for callers that know it (the
    command line names its options).
    """
    kind = prompt.params_type
    declared = [] if kind is None else [f.name for f in dataclasses.fields(kind)]
    problems = [
        unknown_param(name, declared, None, prompt.source)
        for name in values
        if name not in declared
    ]
    if kind is not None:
        problems.extend(_missing(prompt, kind, values, missing_hint))
    if problems:
        raise DiagnosticError(problems)
    if kind is None:
        return ()
    try:
        built = cast("object", parse(kind, dict(values)))
    except ToolValidationError as error:
        raise DiagnosticError(
            [
                Diagnostic(
                    f"Params do not fit their declarations: {error.message}",
                    None,
                    DiagnosticCode.PARAM,
                    path=prompt.source,
                )
            ]
        ) from None
    return (built,)


def unknown_param(name: str, declared: Sequence[str], span: Span | None, path: str) -> Diagnostic:
    """A value given for ``name``, which the prompt does not declare; ``span`` where it was."""
    known = ", ".join(declared) or "none are declared"
    return Diagnostic(
        f"Unknown param '{name}'.{did_you_mean_sentence(name, declared)}",
        span,
        DiagnosticCode.UNKNOWN_PARAM,
        expected=f"one of the declared params ({known})",
        path=path,
    )


def _missing(
    prompt: CompiledPrompt, kind: type, values: Mapping[str, object], hint: str
) -> list[Diagnostic]:
    problems: list[Diagnostic] = []
    for field in dataclasses.fields(kind):
        required = (
            field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING
        )
        if required and field.name not in values:
            problems.append(
                Diagnostic(
                    f"Param '{field.name}' has no value and no default.",
                    prompt.param_spans.get(field.name),
                    DiagnosticCode.MISSING_PARAM,
                    hint=hint.format(name=field.name),
                    path=prompt.source,
                )
            )
    return problems
