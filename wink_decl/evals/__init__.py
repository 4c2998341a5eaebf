"""Evaluating prompts on datasets: samples, checks, suites, runs and reports (docs/evals.md).

Each name below is imported from its module on first use.
"""

from wink_decl._exports import exports_on_first_use

TYPE_CHECKING = False
"""True for type checkers only (they read the imports below)."""

if TYPE_CHECKING:
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
    from wink_decl.evals._eval_report import Comparison, EvalReport, Summary
    from wink_decl.evals._eval_types import (
        PASSING_RATINGS,
        RATING_VALUES,
        CaseResult,
        Evaluator,
        Outcome,
        Rating,
        Sample,
        Score,
        ToolCall,
    )
    from wink_decl.evals._json_report import render_json
    from wink_decl.evals._junit import render_junit
    from wink_decl.evals._table import render_table

__all__ = [
    "PASSING_RATINGS",
    "RATING_VALUES",
    "AllOf",
    "AnyOf",
    "CaseResult",
    "Check",
    "Comparison",
    "EvalReport",
    "Evaluator",
    "FieldCheck",
    "JsonSchemaCheck",
    "JudgeCheck",
    "LimitCheck",
    "Outcome",
    "PluginCheck",
    "Rating",
    "RegexCheck",
    "Sample",
    "Score",
    "Summary",
    "TextCheck",
    "ToolCall",
    "ToolCalledCheck",
    "ToolCallsCheck",
    "ToolsSucceededCheck",
    "render_json",
    "render_junit",
    "render_table",
]

_HOMES: dict[str, str] = {
    **dict.fromkeys(
        (
            "AllOf",
            "AnyOf",
            "Check",
            "FieldCheck",
            "JsonSchemaCheck",
            "JudgeCheck",
            "LimitCheck",
            "PluginCheck",
            "RegexCheck",
            "TextCheck",
            "ToolCalledCheck",
            "ToolCallsCheck",
            "ToolsSucceededCheck",
        ),
        "wink_decl.evals._checks",
    ),
    **dict.fromkeys(
        (
            "PASSING_RATINGS",
            "RATING_VALUES",
            "CaseResult",
            "Evaluator",
            "Outcome",
            "Rating",
            "Sample",
            "Score",
            "ToolCall",
        ),
        "wink_decl.evals._eval_types",
    ),
    "Comparison": "wink_decl.evals._eval_report",
    "EvalReport": "wink_decl.evals._eval_report",
    "Summary": "wink_decl.evals._eval_report",
    "render_json": "wink_decl.evals._json_report",
    "render_junit": "wink_decl.evals._junit",
    "render_table": "wink_decl.evals._table",
}
"""Each exported name and the module it is imported from on first use."""

__getattr__, __dir__ = exports_on_first_use(__name__, _HOMES)
