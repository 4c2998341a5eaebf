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
    from wink_decl.evals._combinators import (
        all_of,
        any_of,
        negate,
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
    from wink_decl.evals._evaluate import (
        evaluate,
        evaluator_of,
        score_case,
    )
    from wink_decl.evals._json_report import render_json
    from wink_decl.evals._judge import (
        JUDGE_PROMPT,
        Judge,
        judge,
        make_judge,
    )
    from wink_decl.evals._junit import render_junit
    from wink_decl.evals._plugin_evaluators import (
        PluginEvaluators,
        plugin,
    )
    from wink_decl.evals._session_checks import (
        max_latency_ms,
        max_tokens,
        max_turns,
        tool_called,
        tool_calls,
        tool_not_called,
        tools_succeeded,
    )
    from wink_decl.evals._structured_checks import (
        field_contains,
        field_equals,
        json_schema,
    )
    from wink_decl.evals._suite_scorer import SuiteScorer
    from wink_decl.evals._table import render_table
    from wink_decl.evals._tagged_prompts import TaggedPrompts
    from wink_decl.evals._text_checks import (
        MAX_PATTERN_LENGTH,
        contains,
        equals,
        icontains,
        regex,
        starts_with,
    )

__all__ = [
    "JUDGE_PROMPT",
    "MAX_PATTERN_LENGTH",
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
    "Judge",
    "JudgeCheck",
    "LimitCheck",
    "Outcome",
    "PluginCheck",
    "PluginEvaluators",
    "Rating",
    "RegexCheck",
    "Sample",
    "Score",
    "SuiteScorer",
    "Summary",
    "TaggedPrompts",
    "TextCheck",
    "ToolCall",
    "ToolCalledCheck",
    "ToolCallsCheck",
    "ToolsSucceededCheck",
    "all_of",
    "any_of",
    "contains",
    "equals",
    "evaluate",
    "evaluator_of",
    "field_contains",
    "field_equals",
    "icontains",
    "json_schema",
    "judge",
    "make_judge",
    "max_latency_ms",
    "max_tokens",
    "max_turns",
    "negate",
    "plugin",
    "regex",
    "render_json",
    "render_junit",
    "render_table",
    "score_case",
    "starts_with",
    "tool_called",
    "tool_calls",
    "tool_not_called",
    "tools_succeeded",
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
            "all_of",
            "any_of",
            "negate",
        ),
        "wink_decl.evals._combinators",
    ),
    **dict.fromkeys(
        (
            "evaluate",
            "evaluator_of",
            "score_case",
        ),
        "wink_decl.evals._evaluate",
    ),
    **dict.fromkeys(
        (
            "JUDGE_PROMPT",
            "Judge",
            "judge",
            "make_judge",
        ),
        "wink_decl.evals._judge",
    ),
    **dict.fromkeys(
        (
            "PluginEvaluators",
            "plugin",
        ),
        "wink_decl.evals._plugin_evaluators",
    ),
    **dict.fromkeys(
        (
            "max_latency_ms",
            "max_tokens",
            "max_turns",
            "tool_called",
            "tool_calls",
            "tool_not_called",
            "tools_succeeded",
        ),
        "wink_decl.evals._session_checks",
    ),
    **dict.fromkeys(
        (
            "field_contains",
            "field_equals",
            "json_schema",
        ),
        "wink_decl.evals._structured_checks",
    ),
    **dict.fromkeys(
        (
            "MAX_PATTERN_LENGTH",
            "contains",
            "equals",
            "icontains",
            "regex",
            "starts_with",
        ),
        "wink_decl.evals._text_checks",
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
    "SuiteScorer": "wink_decl.evals._suite_scorer",
    "TaggedPrompts": "wink_decl.evals._tagged_prompts",
}
"""Each exported name and the module it is imported from on first use."""

__getattr__, __dir__ = exports_on_first_use(__name__, _HOMES)
