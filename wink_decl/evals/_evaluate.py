"""``evaluate`` one check of a case, and ``score_case``: whether a case passed, and its score.

Each check becomes the evaluator of its kind (the public functions of ``wink_decl.evals``),
negated when it says so (docs/evals.md, "Checks").
"""

from __future__ import annotations

from collections.abc import Sequence

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
from wink_decl.evals._combinators import all_of, any_of, negate, weighted_mean
from wink_decl.evals._eval_types import Evaluator, Outcome, Sample, Score
from wink_decl.evals._judge import Judge, no_judge
from wink_decl.evals._judge import judge as judged
from wink_decl.evals._plugin_evaluators import PluginEvaluators, plugin
from wink_decl.evals._session_checks import (
    max_latency_ms,
    max_tokens,
    max_turns,
    tool_called,
    tool_calls,
    tool_not_called,
    tools_succeeded,
)
from wink_decl.evals._structured_checks import field_contains, field_equals, json_schema
from wink_decl.evals._text_checks import contains, equals, icontains, regex, starts_with

__all__ = ["evaluate", "evaluator_of", "score_case"]

_TEXT = {"equals": equals, "contains": contains, "icontains": icontains, "starts_with": starts_with}
_LIMITS = {"max_tokens": max_tokens, "max_turns": max_turns, "max_latency_ms": max_latency_ms}


def evaluate(
    check: Check,
    outcome: Outcome,
    sample: Sample,
    *,
    judge: Judge | None = None,
    plugins: PluginEvaluators | None = None,
) -> Score:
    """How ``outcome`` (a run of ``sample``) fares against ``check``, negation applied.

    ``judge`` rates the answers of ``judge`` checks (without one they fail, saying so);
    ``plugins`` finds the evaluators of ``plugin`` checks (default: the installed ones).
    Nothing a judge or a plugin does raises here: it fails the check, with why.
    """
    return evaluator_of(check, judge=judge, plugins=plugins)(outcome, sample)


def score_case(
    checks: Sequence[Check],
    outcome: Outcome,
    sample: Sample,
    *,
    judge: Judge | None = None,
    plugins: PluginEvaluators | None = None,
) -> tuple[bool, float, tuple[tuple[str, Score], ...]]:
    """Whether the case passed, its score, and each check's label and score.

    The case passes when every check passes; its score is the mean of the checks' values,
    each weighted by its ``weight``. A case with no checks passes with score 1.0.
    """
    scores = tuple(
        (_label(check), evaluate(check, outcome, sample, judge=judge, plugins=plugins))
        for check in checks
    )
    passed = all(score.passed for _, score in scores)
    value = weighted_mean([score.value for _, score in scores], [check.weight for check in checks])
    return passed, value, scores


def evaluator_of(
    check: Check, *, judge: Judge | None = None, plugins: PluginEvaluators | None = None
) -> Evaluator:
    """The evaluator ``check`` becomes: its kind's, negated when the check says so."""
    evaluator = _evaluator(check, judge, plugins)
    return negate(evaluator) if check.negate else evaluator


def _evaluator(check: Check, judge: Judge | None, plugins: PluginEvaluators | None) -> Evaluator:  # noqa: C901, PLR0911, PLR0912  # a case per kind
    match check:
        case TextCheck():
            return _TEXT[check.kind](check.value)
        case RegexCheck():
            return regex(check.pattern)
        case JsonSchemaCheck():
            return json_schema(check.schema)
        case FieldCheck():
            field = field_equals if check.op == "equals" else field_contains
            return field(check.path, check.value)
        case ToolCalledCheck():
            return (tool_called if check.called else tool_not_called)(check.name)
        case ToolCallsCheck():
            return tool_calls(check.name, min=check.min, max=check.max)
        case ToolsSucceededCheck():
            return tools_succeeded()
        case LimitCheck():
            return _LIMITS[check.kind](check.limit)
        case JudgeCheck():
            if judge is None:
                return no_judge()
            return judged(check.rubric, by=judge, model=check.model, prompt=check.prompt)
        case PluginCheck():
            return plugin(check.name, check.args, plugins=plugins)
        case AllOf():
            parts = [evaluator_of(part, judge=judge, plugins=plugins) for part in check.checks]
            return all_of(*parts, weights=[part.weight for part in check.checks])
        case AnyOf():
            return any_of(
                *(evaluator_of(part, judge=judge, plugins=plugins) for part in check.checks)
            )
    raise AssertionError("unreachable: every kind of check is matched")


def _label(check: Check) -> str:
    """The check as the eval file writes it, else the key of its kind (a check made in code)."""
    if check.label:
        return check.label
    if isinstance(check, TextCheck | LimitCheck):
        return check.kind
    if isinstance(check, ToolCalledCheck) and not check.called:
        return "tool_not_called"
    return _KEYS[type(check)]


_KEYS: dict[type, str] = {
    RegexCheck: "regex",
    JsonSchemaCheck: "json_schema",
    FieldCheck: "field",
    ToolCalledCheck: "tool_called",
    ToolCallsCheck: "tool_calls",
    ToolsSucceededCheck: "tools_succeeded",
    JudgeCheck: "judge",
    PluginCheck: "plugin",
    AllOf: "all",
    AnyOf: "any",
}
"""The eval file's key of each kind of check that has one key."""
