"""The ``plugin`` check: evaluators by entry point, built lazily, every failure a failed check.

Entry points are made in memory (``MemoryDistribution``) and name ``evaluator_plugins``, a
module of ``tests/support`` the catalog imports like any installed plugin; the example
package, installed by pip, is run in ``tests/plugins/test_example_plugin.py``.
"""

from __future__ import annotations

import sys

import evaluator_plugins
import pytest
from plugin_support import MemoryDistribution

from wink_decl.evals import (
    Outcome,
    PluginCheck,
    PluginEvaluators,
    Sample,
    Score,
    evaluate,
    plugin,
)
from wink_decl.plugins import EVALUATORS, PluginCatalog

CASE = Sample("polite-1")
ANSWER = Outcome(text="Please add a test. Use a + b. Please rename x.")
GRADERS = MemoryDistribution(
    "wink-decl-graders",
    "2.0",
    {
        EVALUATORS: {
            "graders.polite": "evaluator_plugins:polite",
            "graders.anything": "evaluator_plugins:takes_anything",
            "graders.refusing": "evaluator_plugins:refusing",
            "graders.number": "evaluator_plugins:NOT_A_FUNCTION",
            "graders.nothing": "evaluator_plugins:builds_nothing",
            "graders.raising": "evaluator_plugins:raising",
            "graders.returning": "evaluator_plugins:returning",
            "graders.missing": "evaluator_plugins_gone:polite",
            "graders.malformed": "not a module path",
        }
    },
)
FORK = MemoryDistribution(
    "graders-fork", "0.1", {EVALUATORS: {"graders.polite": "evaluator_plugins:takes_anything"}}
)


def label(name: str, value: str) -> str:
    return f"'{name}' (wink-decl-graders 2.0, value '{value}')"


POLITE = label("graders.polite", "evaluator_plugins:polite")
RETURNING = label("graders.returning", "evaluator_plugins:returning")


@pytest.fixture
def graders() -> PluginEvaluators:
    evaluator_plugins.built.clear()
    return PluginEvaluators(PluginCatalog(distributions=[GRADERS]))


CASES: list[tuple[str, PluginCheck, Score]] = [
    (
        "passes",
        PluginCheck(name="graders.polite"),
        Score(2 / 3, True, "0.67 of the sentences say please"),
    ),
    (
        "fails-with-its-args",
        PluginCheck(name="graders.polite", args={"min": 0.9}),
        Score(2 / 3, False, "0.67 of the sentences say please"),
    ),
    (
        "by-name-and-distribution",
        PluginCheck(name="graders.polite@wink-decl-graders", args={"word": "Use"}),
        Score(1 / 3, False, "0.33 of the sentences say Use"),
    ),
    (
        "a-factory-that-takes-any-args",
        PluginCheck(name="graders.anything", args={"b": 1, "a": [2]}),
        Score(1.0, True, "polite-1: ['a', 'b']"),
    ),
    (
        "a-name-not-installed-with-did-you-mean",
        PluginCheck(name="graders.polit"),
        Score(
            0.0,
            False,
            "No evaluator named 'graders.polit' is installed. Did you mean 'graders.polite', "
            "'graders.nothing' or 'graders.missing'? Run 'wink-decl plugins' to list what is "
            "installed.",
        ),
    ),
    (
        "a-distribution-that-does-not-register-it",
        PluginCheck(name="graders.polite@wink-decl-grader"),
        Score(
            0.0,
            False,
            "Evaluator 'graders.polite' is not registered by a distribution named "
            "'wink-decl-grader'. Did you mean 'graders.polite@wink-decl-graders'? It is "
            "registered by wink-decl-graders 2.0.",
        ),
    ),
    (
        "an-import-that-fails",
        PluginCheck(name="graders.missing"),
        Score(
            0.0,
            False,
            "Could not import evaluator 'graders.missing' (wink-decl-graders 2.0, value "
            "'evaluator_plugins_gone:polite'): ModuleNotFoundError: No module named "
            "'evaluator_plugins_gone'",
        ),
    ),
    (
        "a-value-that-is-not-module-and-attribute",
        PluginCheck(name="graders.malformed"),
        Score(
            0.0,
            False,
            "Could not import evaluator 'graders.malformed' (wink-decl-graders 2.0, value 'not a "
            "module path'): the value must have the form 'package.module:attribute'.",
        ),
    ),
    (
        "not-a-function",
        PluginCheck(name="graders.number"),
        Score(
            0.0,
            False,
            f"Evaluator {label('graders.number', 'evaluator_plugins:NOT_A_FUNCTION')} is a value "
            "of type 'int', not a function.",
        ),
    ),
    (
        "an-arg-the-factory-does-not-take",
        PluginCheck(name="graders.polite", args={"strictness": 0.5}),
        Score(0.0, False, f"Evaluator {POLITE} has no arg 'strictness'; it takes min, word."),
    ),
    (
        "an-arg-the-factory-does-not-take-close-to-one-it-does",
        PluginCheck(name="graders.polite", args={"mn": 0.5}),
        Score(
            0.0,
            False,
            f"Evaluator {POLITE} has no arg 'mn'; it takes min, word. Did you mean 'min'?",
        ),
    ),
    (
        "an-arg-to-a-factory-that-takes-none",
        PluginCheck(name="graders.nothing", args={"x": 1}),
        Score(
            0.0,
            False,
            f"Evaluator {label('graders.nothing', 'evaluator_plugins:builds_nothing')} has no "
            "arg 'x'; it takes no args.",
        ),
    ),
    (
        "an-arg-the-factory-needs",
        PluginCheck(name="graders.refusing"),
        Score(
            0.0,
            False,
            f"Evaluator {label('graders.refusing', 'evaluator_plugins:refusing')} needs the arg "
            "'level'.",
        ),
    ),
    (
        "a-factory-that-refuses-its-args",
        PluginCheck(name="graders.refusing", args={"level": 9}),
        Score(
            0.0,
            False,
            f"Evaluator {label('graders.refusing', 'evaluator_plugins:refusing')} refused its "
            "args: ValueError: level 9 is out of range",
        ),
    ),
    (
        "a-factory-that-builds-no-function",
        PluginCheck(name="graders.nothing"),
        Score(
            0.0,
            False,
            f"Evaluator {label('graders.nothing', 'evaluator_plugins:builds_nothing')} built a "
            "str, not a function (outcome, sample) -> Score.",
        ),
    ),
    (
        "an-evaluator-that-raises",
        PluginCheck(name="graders.raising"),
        Score(
            0.0,
            False,
            "Evaluator 'graders.raising' (entry point in wink_decl.evaluators, from "
            "wink-decl-graders 2.0, value 'evaluator_plugins:raising') raised RuntimeError: the "
            "grader lost its model.",
        ),
    ),
    (
        "an-evaluator-that-returns-no-score",
        PluginCheck(name="graders.returning", args={"kind": "dict"}),
        Score(0.0, False, f"Evaluator {RETURNING} returned a dict, not a Score."),
    ),
    (
        "a-score-above-one",
        PluginCheck(name="graders.returning", args={"kind": "above_one"}),
        Score(
            0.0, False, f"Evaluator {RETURNING} returned a Score of 1.5; a value is from 0 to 1."
        ),
    ),
    (
        "a-score-of-nan",
        PluginCheck(name="graders.returning", args={"kind": "nan"}),
        Score(
            0.0, False, f"Evaluator {RETURNING} returned a Score of nan; a value is from 0 to 1."
        ),
    ),
    (
        "a-score-whose-value-is-a-bool",
        PluginCheck(name="graders.returning", args={"kind": "bool_value"}),
        Score(
            0.0,
            False,
            f"Evaluator {RETURNING} returned a Score whose value is a bool, not a number.",
        ),
    ),
    (
        "a-score-whose-passed-is-text",
        PluginCheck(name="graders.returning", args={"kind": "text_passed"}),
        Score(
            0.0,
            False,
            f"Evaluator {RETURNING} returned a Score whose passed is a str, not true or false.",
        ),
    ),
    (
        "a-score-whose-reason-is-a-number",
        PluginCheck(name="graders.returning", args={"kind": "number_reason"}),
        Score(
            0.0, False, f"Evaluator {RETURNING} returned a Score whose reason is a int, not text."
        ),
    ),
    (
        "a-partial-score",
        PluginCheck(name="graders.returning", args={"kind": "good"}),
        Score(0.25, False, "a quarter"),
    ),
]
IDS = [case[0] for case in CASES]


@pytest.mark.parametrize(("name", "check", "expected"), CASES, ids=IDS)
def test_each_plugin_check_scores(
    graders: PluginEvaluators, name: str, check: PluginCheck, expected: Score
) -> None:
    assert evaluate(check, ANSWER, CASE, plugins=graders) == expected


@pytest.mark.parametrize(("name", "check", "expected"), CASES, ids=IDS)
def test_each_plugin_check_negated_scores_the_other_way(
    graders: PluginEvaluators, name: str, check: PluginCheck, expected: Score
) -> None:
    negated = PluginCheck(name=check.name, args=check.args, negate=True)
    assert evaluate(negated, ANSWER, CASE, plugins=graders) == Score(
        1.0 - expected.value, not expected.passed, f"negated: {expected.reason}"
    )


def test_a_name_two_distributions_register_must_be_chosen() -> None:
    both = PluginEvaluators(PluginCatalog(distributions=[GRADERS, FORK]))
    assert evaluate(PluginCheck(name="graders.polite"), ANSWER, CASE, plugins=both) == Score(
        0.0,
        False,
        "Evaluator 'graders.polite' is registered by two distributions: graders-fork 0.1, "
        "wink-decl-graders 2.0. Choose one: graders.polite@graders-fork, "
        "graders.polite@wink-decl-graders.",
    )
    chosen = PluginCheck(name="graders.polite@graders-fork", args={"z": 0})
    assert evaluate(chosen, ANSWER, CASE, plugins=both) == Score(1.0, True, "polite-1: ['z']")


def test_each_evaluator_is_built_once_for_each_args(graders: PluginEvaluators) -> None:
    for args in ({"min": 0.5}, {"min": 0.5}, {"min": 0.9}, {"min": 0.5}):
        evaluate(PluginCheck(name="graders.polite", args=args), ANSWER, CASE, plugins=graders)
    assert evaluator_plugins.built == [
        {"min": 0.5, "word": "please"},
        {"min": 0.9, "word": "please"},
    ]


def test_past_the_cache_an_evaluator_is_built_each_time(
    graders: PluginEvaluators, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("wink_decl.evals._plugin_evaluators._CACHED", 1)
    for word in ("a", "b", "b"):
        graders.evaluator("graders.polite", {"word": word})
    assert [args["word"] for args in evaluator_plugins.built] == ["a", "b", "b"]


def test_nothing_is_imported_until_a_check_uses_it(graders: PluginEvaluators) -> None:
    sys.modules.pop("evaluator_plugins_lazy", None)
    lazy = MemoryDistribution(
        "lazy", "1.0", {EVALUATORS: {"lazy.grade": "evaluator_plugins_lazy:grade"}}
    )
    found = PluginEvaluators(PluginCatalog(distributions=[lazy]))
    assert found.names() == ("lazy.grade",)
    check = plugin("lazy.grade", plugins=found)
    assert "evaluator_plugins_lazy" not in sys.modules
    assert check(ANSWER, CASE).reason.startswith("Could not import evaluator 'lazy.grade'")


def test_the_names_installed_are_listed(graders: PluginEvaluators) -> None:
    assert graders.names() == (
        "graders.anything",
        "graders.malformed",
        "graders.missing",
        "graders.nothing",
        "graders.number",
        "graders.polite",
        "graders.raising",
        "graders.refusing",
        "graders.returning",
    )


def test_plugin_from_python_takes_the_args(graders: PluginEvaluators) -> None:
    check = plugin("graders.polite", {"word": "Please", "min": 0.5}, plugins=graders)
    assert check(ANSWER, CASE) == Score(2 / 3, True, "0.67 of the sentences say Please")


def test_without_plugins_the_installed_evaluators_are_used() -> None:
    assert evaluate(PluginCheck(name="nobody.has_this"), ANSWER, CASE) == Score(
        0.0,
        False,
        "No evaluator named 'nobody.has_this' is installed. Run 'wink-decl plugins' to list "
        "what is installed.",
    )
