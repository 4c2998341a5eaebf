"""A case's params against the prompt's declarations: known names, fitting values, none missing.

The values of a case are its ``defaults.params`` with its own on top. Values written as JSON
data (the eval file, a JSONL or YAML dataset) must fit their param's type; values written as
text (a CSV cell) are converted as ``--param`` converts them.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING

from wink_decl.compiler import unknown_param
from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, Span, clip
from wink_decl.schema import param_from_text, param_misfit
from wink_decl.suggestions import did_you_mean

if TYPE_CHECKING:
    from wink_decl.evals._places import Place
    from wink_decl.schema import ParamSpec

__all__ = ["ParamChecker"]


class ParamChecker:
    """Checks values against the params a prompt declares, and collects what is wrong."""

    def __init__(self, declared: Mapping[str, ParamSpec], source: str) -> None:
        self.declared = declared
        self.source = source
        """The prompt file, named by a diagnostic that has no span of its own."""
        self.problems: list[Diagnostic] = []

    def values(self, given: Mapping[str, object], place: Place) -> dict[str, object]:
        """The values that fit, of ``given`` (the ``params`` mapping written at ``place``)."""
        fitting: dict[str, object] = {}
        for name, value in given.items():
            spec = self._spec(name, place)
            if spec is None:
                continue
            expected = param_misfit(spec, value)
            if expected is None:
                fitting[name] = value
                continue
            shown = clip(json.dumps(value, ensure_ascii=False))
            self.problems.append(
                Diagnostic(
                    f"Param '{name}' must be {expected}, not {shown}.",
                    place.value(("params", name)),
                    DiagnosticCode.PARAM_VALUE,
                    hint=_enum_hint(spec, value),
                )
            )
        return fitting

    def texts(self, given: Mapping[str, str], place: Place) -> dict[str, object]:
        """The values of ``given`` (texts, such as CSV cells), converted by their types.

        An empty text gives no value; its name must still be a declared param.
        """
        converted: dict[str, object] = {}
        for name, text in given.items():
            spec = self._spec(name, place)
            if spec is None or not text:
                continue
            value, expected = param_from_text(spec, text)
            if expected is None:
                converted[name] = value
                continue
            self.problems.append(
                Diagnostic(
                    f"Param '{name}' must be {expected}, not {clip(json.dumps(text))}.",
                    place.value(("params", name)),
                    DiagnosticCode.PARAM_VALUE,
                    hint=_enum_hint(spec, text),
                )
            )
        return converted

    def missing(self, given: Collection[str], case_id: str, span: Span) -> None:
        """Report each required param (no default) not among the names ``given`` a value."""
        for name, spec in self.declared.items():
            if spec.default is None and name not in given:
                self.problems.append(
                    Diagnostic(
                        f"Case '{case_id}' has no value for param '{name}', which has no default.",
                        span,
                        DiagnosticCode.MISSING_PARAM,
                        hint=f"add '{name}' to the case's params, or to defaults: params:",
                    )
                )

    def _spec(self, name: str, place: Place) -> ParamSpec | None:
        spec = self.declared.get(name)
        if spec is None:
            span = place.key(("params", name))
            self.problems.append(unknown_param(name, list(self.declared), span, self.source))
        return spec


def _enum_hint(spec: ParamSpec, value: object) -> str | None:
    if spec.enum is None or not isinstance(value, str):
        return None
    return did_you_mean(value, [str(v) for v in spec.enum])
