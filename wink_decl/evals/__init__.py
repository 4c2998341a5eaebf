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
    from wink_decl.evals._dataset import Dataset
    from wink_decl.evals._suite import SuiteCheck, check_suite, load_suite
    from wink_decl.evals._suite_types import BASELINE, Experiment, ModelSpec, Suite, SuiteCase
    from wink_decl.evals._types import (
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

__all__ = [
    "BASELINE",
    "PASSING_RATINGS",
    "RATING_VALUES",
    "AllOf",
    "AnyOf",
    "CaseResult",
    "Check",
    "Dataset",
    "Evaluator",
    "Experiment",
    "FieldCheck",
    "JsonSchemaCheck",
    "JudgeCheck",
    "LimitCheck",
    "ModelSpec",
    "Outcome",
    "PluginCheck",
    "Rating",
    "RegexCheck",
    "Sample",
    "Score",
    "Suite",
    "SuiteCase",
    "SuiteCheck",
    "TextCheck",
    "ToolCall",
    "ToolCalledCheck",
    "ToolCallsCheck",
    "ToolsSucceededCheck",
    "check_suite",
    "load_suite",
]

_HOMES: dict[str, str] = {
    "Dataset": "wink_decl.evals._dataset",
    **dict.fromkeys(("SuiteCheck", "check_suite", "load_suite"), "wink_decl.evals._suite"),
    **dict.fromkeys(
        ("BASELINE", "Experiment", "ModelSpec", "Suite", "SuiteCase"),
        "wink_decl.evals._suite_types",
    ),
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
        "wink_decl.evals._types",
    ),
}
"""Each exported name and the module it is imported from on first use."""

__getattr__, __dir__ = exports_on_first_use(__name__, _HOMES)
