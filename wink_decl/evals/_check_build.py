"""An eval file's ``assert`` entries made into checks, and what the schema cannot check in them.

Each regular expression compiles (and is not longer than ``LONGEST_PATTERN``), each
``json_schema`` is a valid JSON Schema, each ``plugin`` names an installed evaluator (found in
the packages' metadata: nothing is imported), each judge's model names a provider wink-decl
knows and its prompt file exists, and each tool a check expects a call of is one the prompt offers.
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection
from typing import TYPE_CHECKING, Final, TypedDict

from wink_decl.compiler import PROMPT_SUFFIXES
from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, Span, clip
from wink_decl.evals._checks import (
    AllOf,
    AnyOf,
    Check,
    FieldCheck,
    JsonSchemaCheck,
    JudgeCheck,
    LimitCheck,
    PluginCheck,
    RegexCheck,
    TextCheck,
    ToolCalledCheck,
    ToolCallsCheck,
    ToolsSucceededCheck,
)
from wink_decl.evals._labels import label_of
from wink_decl.evals._models import model_problem
from wink_decl.plugins import EVALUATORS, PluginCatalog, PluginProblem
from wink_decl.schema.eval_model import (
    AllCheckDoc,
    AnyCheckDoc,
    CheckItem,
    ContainsCheckDoc,
    EqualsCheckDoc,
    FieldCheckDoc,
    IContainsCheckDoc,
    JsonSchemaCheckDoc,
    JudgeCheckDoc,
    MaxLatencyCheckDoc,
    MaxTokensCheckDoc,
    MaxTurnsCheckDoc,
    PluginCheckDoc,
    RegexCheckDoc,
    StartsWithCheckDoc,
    ToolCalledCheckDoc,
    ToolCallsCheckDoc,
    ToolNotCalledCheckDoc,
    ToolsSucceededCheckDoc,
)
from wink_decl.suggestions import did_you_mean

if TYPE_CHECKING:
    from wink_decl.evals._places import Place

__all__ = ["LONGEST_PATTERN", "CheckBuilder"]


class _Common(TypedDict):
    """What every check has, as its file writes it."""

    weight: float
    negate: bool
    label: str


LONGEST_PATTERN: Final = 1_000
"""Characters of a regular expression at most: compiling one costs time in its length."""


class CheckBuilder:
    """Makes checks of the checks a file writes, and collects what is wrong with them.

    ``folder`` is the eval file's folder (a judge's prompt file is relative to it); ``tools``
    the tools the prompt offers, or None when the prompt is not known (nothing is said then).
    """

    def __init__(
        self, catalog: PluginCatalog, folder: str, tools: Collection[str] | None = None
    ) -> None:
        self.catalog = catalog
        self.folder = folder
        self.tools = tools
        self.problems: list[Diagnostic] = []

    def checks(self, items: tuple[CheckItem, ...], place: Place) -> tuple[Check, ...]:
        """The checks of an ``assert`` list written at ``place``."""
        return tuple(self.check(item, place.within(index)) for index, item in enumerate(items))

    def check(self, item: CheckItem, place: Place) -> Check:  # noqa: C901, PLR0911, PLR0912  # a case per kind
        """One check, written at ``place`` (the mapping with its one key)."""
        common = _Common(weight=item.weight, negate=item.negate, label=label_of(item))
        match item:
            case EqualsCheckDoc():
                return TextCheck(kind="equals", value=item.equals, **common)
            case ContainsCheckDoc():
                return TextCheck(kind="contains", value=item.contains, **common)
            case IContainsCheckDoc():
                return TextCheck(kind="icontains", value=item.icontains, **common)
            case StartsWithCheckDoc():
                return TextCheck(kind="starts_with", value=item.starts_with, **common)
            case MaxTokensCheckDoc():
                return LimitCheck(kind="max_tokens", limit=float(item.max_tokens), **common)
            case MaxTurnsCheckDoc():
                return LimitCheck(kind="max_turns", limit=float(item.max_turns), **common)
            case MaxLatencyCheckDoc():
                return LimitCheck(kind="max_latency_ms", limit=float(item.max_latency_ms), **common)
            case AllCheckDoc():
                return self._all(item, place, common)
            case AnyCheckDoc():
                return self._any(item, place, common)
            case RegexCheckDoc():
                return self._regex(item, place, common)
            case JsonSchemaCheckDoc():
                return self._json_schema(item, place, common)
            case FieldCheckDoc():
                return self._field(item, place, common)
            case ToolCalledCheckDoc():
                return self._tool_called(item, place, common)
            case ToolNotCalledCheckDoc():
                return self._tool_not_called(item, place, common)
            case ToolCallsCheckDoc():
                return self._tool_calls(item, place, common)
            case ToolsSucceededCheckDoc():
                return self._tools_succeeded(item, place, common)
            case JudgeCheckDoc():
                return self._judge(item, place, common)
            case PluginCheckDoc():
                return self._plugin(item, place, common)
        raise AssertionError("unreachable: every kind of check is matched")

    def _all(self, item: AllCheckDoc, place: Place, common: _Common) -> Check:
        return AllOf(checks=self.checks(item.all_, place.within("all")), **common)

    def _any(self, item: AnyCheckDoc, place: Place, common: _Common) -> Check:
        return AnyOf(checks=self.checks(item.any_, place.within("any")), **common)

    def _regex(self, item: RegexCheckDoc, place: Place, common: _Common) -> Check:
        self._compiles(item.regex, place.value(("regex",)))
        return RegexCheck(pattern=item.regex, **common)

    def _json_schema(self, item: JsonSchemaCheckDoc, place: Place, common: _Common) -> Check:
        self._valid_schema(item.json_schema, place)
        return JsonSchemaCheck(schema=item.json_schema, **common)

    def _field(self, item: FieldCheckDoc, place: Place, common: _Common) -> Check:
        del place
        spec = item.field
        if "equals" in spec.model_fields_set:
            return FieldCheck(path=spec.path, op="equals", value=spec.equals, **common)
        return FieldCheck(path=spec.path, op="contains", value=spec.contains, **common)

    def _tool_called(self, item: ToolCalledCheckDoc, place: Place, common: _Common) -> Check:
        self._offered(item.tool_called, place.value(("tool_called",)))
        return ToolCalledCheck(name=item.tool_called, called=True, **common)

    def _tool_not_called(self, item: ToolNotCalledCheckDoc, place: Place, common: _Common) -> Check:
        del place  # a tool the prompt does not offer is never called: nothing to say
        return ToolCalledCheck(name=item.tool_not_called, called=False, **common)

    def _tool_calls(self, item: ToolCallsCheckDoc, place: Place, common: _Common) -> Check:
        spec = item.tool_calls
        self._offered(spec.name, place.value(("tool_calls", "name")))
        return ToolCallsCheck(name=spec.name, min=spec.min, max=spec.max, **common)

    def _tools_succeeded(
        self, item: ToolsSucceededCheckDoc, place: Place, common: _Common
    ) -> Check:
        del place
        # ``false``: a call failed, which is "every call succeeded" negated.
        negate = item.negate if item.tools_succeeded else not item.negate
        return ToolsSucceededCheck(weight=item.weight, negate=negate, label=common["label"])

    def _judge(self, item: JudgeCheckDoc, place: Place, common: _Common) -> Check:
        spec = item.judge
        if spec.model is not None:
            self._add(model_problem(spec.model, place.value(("judge", "model"))))
        prompt = None
        if spec.prompt is not None:
            prompt = self._judge_prompt(spec.prompt, place.value(("judge", "prompt")))
        return JudgeCheck(rubric=spec.rubric, model=spec.model, prompt=prompt, **common)

    def _plugin(self, item: PluginCheckDoc, place: Place, common: _Common) -> Check:
        spec = item.plugin
        found = self.catalog.resolve(EVALUATORS, spec.name)
        if isinstance(found, PluginProblem):
            self._add(found.to_diagnostic(place.value(("plugin", "name"))))
        return PluginCheck(name=spec.name, args=spec.args, **common)

    def _add(self, problem: Diagnostic | None) -> None:
        if problem is not None:
            self.problems.append(problem)

    def _compiles(self, pattern: str, span: Span) -> None:
        if len(pattern) > LONGEST_PATTERN:
            self._add(
                Diagnostic(
                    f"This regular expression is {len(pattern):,} characters long, more than "
                    f"the limit of {LONGEST_PATTERN:,}.",
                    span,
                    DiagnosticCode.REGEX,
                    hint="match a shorter pattern, or check the text with a plugin evaluator",
                )
            )
            return
        try:
            re.compile(pattern)
        except re.error as error:
            where = "" if error.pos is None else f" at position {error.pos + 1}"
            self._add(
                Diagnostic(
                    f"This regular expression does not compile: {error.msg}{where}.",
                    span,
                    DiagnosticCode.REGEX,
                    expected="a Python regular expression (the re module)",
                    hint="in YAML, write it in single quotes so backslashes stay as written"
                    if span.path.lower().endswith((".yaml", ".yml"))
                    else None,
                )
            )

    def _valid_schema(self, schema: dict[str, object], place: Place) -> None:
        # Imported here: only a file with a json_schema check needs it.
        from jsonschema import Draft202012Validator  # noqa: PLC0415
        from jsonschema.exceptions import SchemaError  # noqa: PLC0415

        try:
            Draft202012Validator.check_schema(schema)
        except SchemaError as error:
            inner = tuple(error.path)
            self._add(
                Diagnostic(
                    f"This is not a valid JSON Schema: {clip(error.message, 200)}",
                    place.value(("json_schema", *inner)),
                    DiagnosticCode.JSON_SCHEMA,
                    expected="a JSON Schema (draft 2020-12), such as {type: object}",
                )
            )

    def _offered(self, name: str, span: Span) -> None:
        if self.tools is None or name in self.tools:
            return
        offered = sorted(self.tools)
        self._add(
            Diagnostic(
                f"The prompt offers no tool '{name}', so the model cannot call it.",
                span,
                DiagnosticCode.UNKNOWN_TOOL,
                severity="warning",
                expected="one of " + ", ".join(offered) if offered else "the prompt offers none",
                hint=did_you_mean(name, offered),
            )
        )

    def _judge_prompt(self, written: str, span: Span) -> str | None:
        """The judge's prompt file: a prompt file inside the eval file's folder, links resolved."""
        path = os.path.normpath(os.path.join(self.folder, written))  # noqa: PTH118
        folder = os.path.realpath(self.folder or os.curdir)
        inside = os.path.realpath(path).startswith(folder.rstrip(os.sep) + os.sep)
        if path.lower().endswith(PROMPT_SUFFIXES) and inside and os.path.isfile(path):  # noqa: PTH113
            return path
        self._add(
            Diagnostic(
                f"The judge's prompt file '{clip(written)}' is not a prompt file in this eval "
                "file's folder.",
                span,
                DiagnosticCode.UNKNOWN_PROMPT,
                expected="a path, relative to the eval file and inside its folder, of a file "
                "ending in .wink.yaml, .wink.yml or .wink.toml",
            )
        )
        return None
