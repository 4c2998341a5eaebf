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
    from wink_decl.evals._dataset import (
        Dataset,
    )
    from wink_decl.evals._driver import (
        JOURNAL_NAME,
    )
    from wink_decl.evals._eval_report import (
        Comparison,
        EvalReport,
        Summary,
    )
    from wink_decl.evals._eval_types import (
        BASELINE,
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
    from wink_decl.evals._html import (
        render_html,
    )
    from wink_decl.evals._json_report import (
        render_json,
    )
    from wink_decl.evals._judge import (
        JUDGE_PROMPT,
        Judge,
        judge,
        make_judge,
    )
    from wink_decl.evals._junit import (
        render_junit,
    )
    from wink_decl.evals._plugin_evaluators import (
        PluginEvaluators,
        plugin,
    )
    from wink_decl.evals._run_suite import (
        DEFAULT_TIMEOUT,
        RunOptions,
        SuiteRun,
        default_out,
        run_suite,
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
    from wink_decl.evals._suite import (
        SuiteCheck,
        check_suite,
        load_suite,
    )
    from wink_decl.evals._suite_types import (
        Experiment,
        ModelSpec,
        Suite,
        SuiteCase,
    )
    from wink_decl.evals._table import (
        render_table,
    )
    from wink_decl.evals._text_checks import (
        MAX_PATTERN_LENGTH,
        contains,
        equals,
        icontains,
        regex,
        starts_with,
    )

__all__ = [
    "BASELINE",
    "DEFAULT_TIMEOUT",
    "JOURNAL_NAME",
    "JUDGE_PROMPT",
    "MAX_PATTERN_LENGTH",
    "PASSING_RATINGS",
    "RATING_VALUES",
    "AllOf",
    "AnyOf",
    "CaseResult",
    "Check",
    "Comparison",
    "Dataset",
    "EvalReport",
    "Evaluator",
    "Experiment",
    "FieldCheck",
    "JsonSchemaCheck",
    "Judge",
    "JudgeCheck",
    "LimitCheck",
    "ModelSpec",
    "Outcome",
    "PluginCheck",
    "PluginEvaluators",
    "Rating",
    "RegexCheck",
    "RunOptions",
    "Sample",
    "Score",
    "Suite",
    "SuiteCase",
    "SuiteCheck",
    "SuiteRun",
    "Summary",
    "TextCheck",
    "ToolCall",
    "ToolCalledCheck",
    "ToolCallsCheck",
    "ToolsSucceededCheck",
    "all_of",
    "any_of",
    "check_suite",
    "contains",
    "default_out",
    "equals",
    "evaluate",
    "evaluator_of",
    "field_contains",
    "field_equals",
    "icontains",
    "json_schema",
    "judge",
    "load_suite",
    "make_judge",
    "max_latency_ms",
    "max_tokens",
    "max_turns",
    "negate",
    "plugin",
    "regex",
    "render_html",
    "render_json",
    "render_junit",
    "render_table",
    "run_suite",
    "score_case",
    "starts_with",
    "tool_called",
    "tool_calls",
    "tool_not_called",
    "tools_succeeded",
]

_HOMES: dict[str, str] = {
    "AllOf": "wink_decl.evals._checks",
    "AnyOf": "wink_decl.evals._checks",
    "BASELINE": "wink_decl.evals._eval_types",
    "CaseResult": "wink_decl.evals._eval_types",
    "Check": "wink_decl.evals._checks",
    "Comparison": "wink_decl.evals._eval_report",
    "DEFAULT_TIMEOUT": "wink_decl.evals._run_suite",
    "Dataset": "wink_decl.evals._dataset",
    "EvalReport": "wink_decl.evals._eval_report",
    "Evaluator": "wink_decl.evals._eval_types",
    "Experiment": "wink_decl.evals._suite_types",
    "FieldCheck": "wink_decl.evals._checks",
    "JOURNAL_NAME": "wink_decl.evals._driver",
    "JUDGE_PROMPT": "wink_decl.evals._judge",
    "JsonSchemaCheck": "wink_decl.evals._checks",
    "Judge": "wink_decl.evals._judge",
    "JudgeCheck": "wink_decl.evals._checks",
    "LimitCheck": "wink_decl.evals._checks",
    "MAX_PATTERN_LENGTH": "wink_decl.evals._text_checks",
    "ModelSpec": "wink_decl.evals._suite_types",
    "Outcome": "wink_decl.evals._eval_types",
    "PASSING_RATINGS": "wink_decl.evals._eval_types",
    "PluginCheck": "wink_decl.evals._checks",
    "PluginEvaluators": "wink_decl.evals._plugin_evaluators",
    "RATING_VALUES": "wink_decl.evals._eval_types",
    "Rating": "wink_decl.evals._eval_types",
    "RegexCheck": "wink_decl.evals._checks",
    "RunOptions": "wink_decl.evals._run_suite",
    "Sample": "wink_decl.evals._eval_types",
    "Score": "wink_decl.evals._eval_types",
    "Suite": "wink_decl.evals._suite_types",
    "SuiteCase": "wink_decl.evals._suite_types",
    "SuiteCheck": "wink_decl.evals._suite",
    "SuiteRun": "wink_decl.evals._run_suite",
    "Summary": "wink_decl.evals._eval_report",
    "TextCheck": "wink_decl.evals._checks",
    "ToolCall": "wink_decl.evals._eval_types",
    "ToolCalledCheck": "wink_decl.evals._checks",
    "ToolCallsCheck": "wink_decl.evals._checks",
    "ToolsSucceededCheck": "wink_decl.evals._checks",
    "all_of": "wink_decl.evals._combinators",
    "any_of": "wink_decl.evals._combinators",
    "check_suite": "wink_decl.evals._suite",
    "contains": "wink_decl.evals._text_checks",
    "default_out": "wink_decl.evals._run_suite",
    "equals": "wink_decl.evals._text_checks",
    "evaluate": "wink_decl.evals._evaluate",
    "evaluator_of": "wink_decl.evals._evaluate",
    "field_contains": "wink_decl.evals._structured_checks",
    "field_equals": "wink_decl.evals._structured_checks",
    "icontains": "wink_decl.evals._text_checks",
    "json_schema": "wink_decl.evals._structured_checks",
    "judge": "wink_decl.evals._judge",
    "load_suite": "wink_decl.evals._suite",
    "make_judge": "wink_decl.evals._judge",
    "max_latency_ms": "wink_decl.evals._session_checks",
    "max_tokens": "wink_decl.evals._session_checks",
    "max_turns": "wink_decl.evals._session_checks",
    "negate": "wink_decl.evals._combinators",
    "plugin": "wink_decl.evals._plugin_evaluators",
    "regex": "wink_decl.evals._text_checks",
    "render_html": "wink_decl.evals._html",
    "render_json": "wink_decl.evals._json_report",
    "render_junit": "wink_decl.evals._junit",
    "render_table": "wink_decl.evals._table",
    "run_suite": "wink_decl.evals._run_suite",
    "score_case": "wink_decl.evals._evaluate",
    "starts_with": "wink_decl.evals._text_checks",
    "tool_called": "wink_decl.evals._session_checks",
    "tool_calls": "wink_decl.evals._session_checks",
    "tool_not_called": "wink_decl.evals._session_checks",
    "tools_succeeded": "wink_decl.evals._session_checks",
}
"""Each exported name and the module it is imported from on first use."""

__getattr__, __dir__ = exports_on_first_use(__name__, _HOMES)
