"""Param values as people write them (text, or a params file), converted and checked.

The same conversion and the same words for every front end: ``--param`` on the command line,
the preview page's form, and a params file. A value that does not fit its declaration is a
diagnostic naming what was expected; a missing or unknown param is reported by ``make_params``.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from wink_decl.compiler import make_params, unknown_param
from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, DiagnosticError
from wink_decl.errors import InputError
from wink_decl.inputs._tool_params import deciding_params, stand_in
from wink_decl.schema import param_from_text, param_misfit
from wink_decl.suggestions import did_you_mean

if TYPE_CHECKING:
    from wink_decl.compiler import CompiledPrompt
    from wink_decl.inputs._params_file import ParamsFile
    from wink_decl.schema import ParamSpec

__all__ = ["MISSING_HINT", "ParamValues", "split_param"]

MISSING_HINT = "pass --param {name}=VALUE or put it in --params-file, or give it a default"
"""How a missing param is given on the command line (other front ends pass their own)."""
_DECIDING_HINT = (
    "it decides which tools are offered (a section with tools is shown or summarized by it): "
    + MISSING_HINT
)


def split_param(text: str) -> tuple[str, str]:
    """``NAME=VALUE`` as its two parts; anything else is an ``InputError``."""
    name, equals, value = text.partition("=")
    if not equals or not name:
        raise InputError(
            f"--param '{text}' is not NAME=VALUE",
            hint="write it as --param name=value, such as --param language=Python",
        )
    return name, value


class ParamValues:
    """Param values gathered from a params file and from texts, and the problems found.

    Add the file first, then the texts: a text wins over the file's value of the same name.
    ``tools_only``: only the tools will be used, so a required param that cannot change them
    stands in with a value of its type (``deciding_params``).
    """

    def __init__(self, prompt: CompiledPrompt, *, tools_only: bool = False) -> None:
        self.prompt = prompt
        self.tools_only = tools_only
        self.declared = prompt.model.params
        self.values: dict[str, object] = {}
        self.failed: dict[str, Diagnostic] = {}
        """The wrong value of each param; a later value for the name replaces it."""
        self.problems: list[Diagnostic] = []
        self.complete = True
        """False when a params file did not load: then no param can be said to be missing."""

    def add_file(self, source: ParamsFile) -> None:
        """The values of a params file, each checked against its declaration where written."""
        self.problems.extend(source.diagnostics)
        # A file that did not load may hold any param: do not call them missing.
        self.complete = not source.diagnostics
        for name, value in source.values.items():
            spec = self.declared.get(name)
            if spec is None:
                declared = list(self.declared)
                self.problems.append(
                    unknown_param(name, declared, source.key_span(name), source.path)
                )
                continue
            expected = param_misfit(spec, value)
            if expected is None:
                self.values[name] = value
                continue
            self.failed[name] = Diagnostic(
                f"Param '{name}' must be {expected}, not {json.dumps(value)}.",
                source.value_span(name),
                DiagnosticCode.PARAM_VALUE,
                hint=_enum_hint(spec, value),
                path=source.path,
            )

    def add_text(self, name: str, text: str) -> None:
        """A value written as text, converted by the param's declared type."""
        spec = self.declared.get(name)
        if spec is None:
            self.values[name] = text  # make_params reports it, with its did-you-mean
            return
        value, expected = param_from_text(spec, text)
        self.failed.pop(name, None)  # a text wins over the params file
        if expected is None:
            self.values[name] = value
            return
        self.failed[name] = Diagnostic(
            f"--param {name}={text}: expected {expected}",
            None,
            DiagnosticCode.PARAM_VALUE,
            hint=_enum_hint(spec, text),
            path=self.prompt.source,
        )

    def params(self, missing_hint: str = MISSING_HINT) -> tuple[object, ...]:
        """The params instances, once every value is added; () when ``problems`` has any."""
        self.problems.extend(self.failed.values())
        if not self.complete:
            return ()
        # Names whose value failed still count as given: they are wrong, not missing.
        given = {**dict.fromkeys(self.failed), **self.values}
        hint = missing_hint
        deciding = (
            deciding_params(self.prompt.model, self.prompt.template.sections)
            if self.tools_only
            else None
        )
        if deciding is not None:
            given = {**self._stand_ins(deciding), **given}
            hint = _DECIDING_HINT
        try:
            return make_params(self.prompt, given, missing_hint=hint)
        except DiagnosticError as error:
            self.problems.extend(
                d for d in error.diagnostics if not (self.failed and d.code == DiagnosticCode.PARAM)
            )
            return ()

    def _stand_ins(self, deciding: frozenset[str]) -> dict[str, object]:
        """A value for each required param that cannot change the tools offered."""
        return {
            name: stand_in(spec)
            for name, spec in self.declared.items()
            if spec.default is None and name not in deciding
        }


def _enum_hint(spec: ParamSpec, value: object) -> str | None:
    if spec.enum is None or not isinstance(value, str):
        return None
    return did_you_mean(value, [str(v) for v in spec.enum])
