"""EvalReport: summaries per experiment and model, the threshold, comparisons on the same cases."""

from __future__ import annotations

import re

import pytest
from eval_results import MODEL, close, paired, run

import wink_decl.evals
from wink_decl.evals import Comparison, EvalReport, Summary
from wink_decl.evals._eval_report import run_counts, run_name

OTHER = "openai:qwen3:8b"


def refused(message: str) -> pytest.RaisesExc[ValueError]:
    """A ``ValueError`` whose whole message is ``message``."""
    return pytest.raises(ValueError, match=f"^{re.escape(message)}$")


def summary(**fields: object) -> Summary:
    """A summary of the baseline with MODEL, zeros and Nones but for ``fields``."""
    values: dict[str, object] = {
        "experiment": "baseline",
        "model": MODEL,
        "cases": 0,
        "passed": 0,
        "failed": 0,
        "errors": 0,
        "pass_rate": None,
        "mean_score": None,
        "latency_p50_ms": None,
        "latency_p95_ms": None,
        "input_tokens": 0,
        "output_tokens": 0,
        "mean_input_tokens": None,
        "mean_output_tokens": None,
        "threshold": 1.0,
        "threshold_met": False,
    }
    values.update(fields)
    return Summary(**values)  # pyright: ignore[reportArgumentType]


def test_a_group_is_added_up_errors_apart() -> None:
    report = EvalReport(
        [
            run("a", score=1.0, latency_ms=100.0, tokens=(10, 5)),
            run("b", passed=False, score=0.25, latency_ms=300.0, tokens=(20, 7)),
            run("c", score=0.75, latency_ms=200.0, tokens=(30, 9)),
            run("d", error="the provider refused"),
        ],
        threshold=0.6,
    )
    assert report.by_experiment() == {
        ("baseline", MODEL): summary(
            cases=4,
            passed=2,
            failed=1,
            errors=1,
            pass_rate=2 / 3,
            mean_score=2 / 3,
            latency_p50_ms=200.0,
            latency_p95_ms=300.0,
            input_tokens=60,
            output_tokens=21,
            mean_input_tokens=20.0,
            mean_output_tokens=7.0,
            threshold=0.6,
            threshold_met=True,
        )
    }
    assert report.pass_rate == 2 / 3
    assert report.ok


def test_an_all_pass_group_meets_the_default_threshold_of_one() -> None:
    report = EvalReport([run("a"), run("b", latency_ms=50.0)])
    assert report.by_experiment()[("baseline", MODEL)] == summary(
        cases=2,
        passed=2,
        pass_rate=1.0,
        mean_score=1.0,
        latency_p50_ms=50.0,
        latency_p95_ms=100.0,
        input_tokens=20,
        output_tokens=10,
        mean_input_tokens=10.0,
        mean_output_tokens=5.0,
        threshold_met=True,
    )
    assert report.ok


def test_an_all_error_group_has_no_rates_and_fails_any_threshold() -> None:
    report = EvalReport([run("a", error="timed out"), run("b", error="timed out")], threshold=0.0)
    assert report.by_experiment() == {
        ("baseline", MODEL): summary(cases=2, errors=2, threshold=0.0)
    }
    assert report.pass_rate is None
    assert not report.ok


def test_a_report_of_no_runs_is_not_ok() -> None:
    report = EvalReport([])
    assert (report.by_experiment(), report.pass_rate, report.ok) == ({}, None, False)


def test_one_group_below_the_threshold_fails_the_report() -> None:
    report = EvalReport([run("a"), run("a", experiment="concise", passed=False)], threshold=0.5)
    met = {group: s.threshold_met for group, s in report.by_experiment().items()}
    assert met == {("baseline", MODEL): True, ("concise", MODEL): False}
    assert not report.ok


@pytest.mark.parametrize(
    ("passed", "runs", "threshold"),
    [(4, 5, 0.8), (3, 10, 0.3), (7, 10, 0.7), (1, 3, 1 / 3)],
    ids=["4/5", "3/10", "7/10", "1/3"],
)
def test_a_pass_rate_equal_to_the_threshold_meets_it(
    passed: int, runs: int, threshold: float
) -> None:
    results = [run(f"c{i}", passed=i < passed) for i in range(runs)]
    assert EvalReport(results, threshold=threshold).ok


def test_a_pass_rate_just_below_the_threshold_misses_it() -> None:
    results = [run(f"c{i}", passed=i < 79) for i in range(100)]
    assert not EvalReport(results, threshold=0.8).ok


@pytest.mark.parametrize("threshold", [-0.1, 1.5, float("nan")], ids=["negative", "over", "nan"])
def test_a_threshold_outside_0_to_1_is_refused(threshold: float) -> None:
    with refused(f"the threshold must be from 0 to 1, not {threshold!r}"):
        EvalReport([], threshold=threshold)


def test_two_results_of_one_run_are_refused() -> None:
    with refused(
        "two results for case 'a' (repetition 1) of experiment 'baseline' "
        "with model 'openai:gpt-4.1-mini'"
    ):
        EvalReport([run("a", repeat=1), run("a", repeat=1, passed=False)])


def test_the_baseline_comes_first_then_the_order_of_the_results() -> None:
    report = EvalReport(
        [
            run("a", experiment="zeta"),
            run("a", experiment="alpha", model=OTHER),
            run("a", model=OTHER),
            run("a", experiment="zeta", model=OTHER),
            run("a"),
        ]
    )
    assert list(report.by_experiment()) == [
        ("baseline", OTHER),
        ("baseline", MODEL),
        ("zeta", MODEL),
        ("alpha", OTHER),
        ("zeta", OTHER),
    ]


def test_the_report_keeps_what_it_was_given() -> None:
    results = [run("a")]
    report = EvalReport(iter(results), threshold=0.5, suite="evals/review.wink-eval.yaml")
    assert (report.results, report.threshold, report.suite) == (
        tuple(results),
        0.5,
        "evals/review.wink-eval.yaml",
    )


def comparison(**fields: object) -> Comparison:
    """A comparison of concise with the baseline on MODEL, zeros and Nones but for ``fields``."""
    values: dict[str, object] = {
        "baseline": "baseline",
        "treatment": "concise",
        "baseline_model": MODEL,
        "model": MODEL,
        "pairs": 0,
        "errored": 0,
        "unpaired": 0,
        "b": 0,
        "c": 0,
        "baseline_pass_rate": None,
        "treatment_pass_rate": None,
        "change": None,
        "ci_low": None,
        "ci_high": None,
        "p_value": 1.0,
    }
    values.update(fields)
    return Comparison(**values)  # pyright: ignore[reportArgumentType]


def test_a_comparison_pairs_runs_by_case_and_repetition() -> None:
    # The same cells as the published example in test_report_stats (CAMIS): 20 pairs pass on
    # both, 15 on the treatment only, 6 on the baseline only, 5 on neither.
    results = paired("PP" * 20 + "FP" * 15 + "PF" * 6 + "FF" * 5)
    compared = EvalReport(results).compare("baseline", "concise")
    low, high = compared.ci_low, compared.ci_high
    assert low is not None
    assert high is not None
    assert (round(low, 6), round(high, 6)) == (0.002602, 0.369943)
    assert compared == comparison(
        pairs=46,
        b=6,
        c=15,
        baseline_pass_rate=26 / 46,
        treatment_pass_rate=35 / 46,
        change=9 / 46,
        ci_low=low,
        ci_high=high,
        p_value=0.0783538818359375,  # scipy.stats.binomtest(6, 21, 0.5).pvalue
    )


def test_ties_have_no_discordant_pairs_a_p_value_of_one_and_a_two_sided_interval() -> None:
    compared = EvalReport(paired("PP PP FF")).compare("baseline", "concise")
    # Newcombe's method 10 of (2, 0, 0, 1), from the throwaway script (module docstring of
    # test_report_stats): -0.47137741565836877 to 0.47137741565836877.
    expected = (-0.47137741565836877, 0.47137741565836877)
    assert close((compared.ci_low, compared.ci_high), expected, within=1e-15)
    assert compared == comparison(
        pairs=3,
        baseline_pass_rate=2 / 3,
        treatment_pass_rate=2 / 3,
        change=0.0,
        ci_low=compared.ci_low,
        ci_high=compared.ci_high,
    )


def test_all_pass_on_both_sides_b_and_c_zero() -> None:
    compared = EvalReport(paired("PP" * 5)).compare("baseline", "concise")
    # statsmodels' Wilson interval of 5 of 5 starts at 0.5655175352168252: 1 minus it each way.
    assert (compared.b, compared.c, compared.p_value, compared.change) == (0, 0, 1.0, 0.0)
    expected = (-0.43448246478317476, 0.43448246478317476)
    assert close((compared.ci_low, compared.ci_high), expected, within=1e-15)


def test_pairs_where_one_side_errored_are_left_out_and_counted() -> None:
    compared = EvalReport(paired("PF EP PE EE FP PP")).compare("baseline", "concise")
    assert (compared.pairs, compared.errored, compared.b, compared.c) == (3, 3, 1, 1)
    assert (compared.baseline_pass_rate, compared.treatment_pass_rate) == (2 / 3, 2 / 3)


def test_runs_without_a_counterpart_are_counted_apart() -> None:
    compared = EvalReport(paired("PF P- -F -P PP")).compare("baseline", "concise")
    assert (compared.pairs, compared.unpaired, compared.b, compared.c) == (2, 3, 1, 0)


def test_with_every_pair_errored_there_is_no_change() -> None:
    compared = EvalReport(paired("EP PE")).compare("baseline", "concise")
    assert compared == comparison(errored=2)


def test_repetitions_pair_with_their_own_number() -> None:
    results = [
        run("a", repeat=0, passed=True),
        run("a", repeat=1, passed=False),
        run("a", experiment="concise", repeat=1, passed=True),
        run("a", experiment="concise", repeat=0, passed=True),
    ]
    compared = EvalReport(results).compare("baseline", "concise")
    assert (compared.pairs, compared.b, compared.c) == (2, 0, 1)


def test_many_discordant_pairs_do_not_overflow() -> None:
    results = paired("PF" * 700 + "FP" * 800 + "PP" * 100)
    compared = EvalReport(results).compare("baseline", "concise")
    assert (compared.b, compared.c) == (700, 800)
    # 0.010559255466711506: scipy.stats.binomtest's p-value of 700 of 1500 at one half.
    assert close(compared.p_value, 0.010559255466711506, rel=1e-12)


def test_the_model_may_be_named() -> None:
    results = paired("PF", model=MODEL) + paired("FP", model=OTHER)
    compared = EvalReport(results).compare("baseline", "concise", model=OTHER)
    # Newcombe's method 10 of (0, 1, 0, 0), as above: -0.12210872068194178 to 1.0.
    assert close(compared.ci_low, -0.12210872068194178, within=1e-15)
    assert compared == comparison(
        baseline_model=OTHER,
        model=OTHER,
        pairs=1,
        c=1,
        baseline_pass_rate=0.0,
        treatment_pass_rate=1.0,
        change=1.0,
        ci_low=compared.ci_low,
        ci_high=1.0,
    )


def test_a_treatment_of_several_models_needs_one_named() -> None:
    report = EvalReport(paired("PF", model=MODEL) + paired("FP", model=OTHER))
    with refused(
        "experiment 'concise' ran with 2 models (openai:gpt-4.1-mini, openai:qwen3:8b): "
        "choose one with model="
    ):
        report.compare("baseline", "concise")


def test_an_experiment_of_its_own_model_is_compared_with_the_baselines_only_model() -> None:
    results = [run("a", passed=False), run("a", experiment="bigger", model="openai:gpt-4.1")]
    compared = EvalReport(results).compare("baseline", "bigger")
    assert (compared.baseline_model, compared.model, compared.c) == (MODEL, "openai:gpt-4.1", 1)


def test_a_baseline_of_several_models_needs_one_named_for_an_experiment_of_its_own() -> None:
    results = [
        run("a"),
        run("a", model=OTHER),
        run("a", experiment="bigger", model="openai:gpt-4.1", passed=False),
    ]
    report = EvalReport(results)
    with refused(
        "experiment 'baseline' ran with 2 models (openai:gpt-4.1-mini, openai:qwen3:8b): "
        "choose one with baseline_model="
    ):
        report.compare("baseline", "bigger")
    compared = report.compare("baseline", "bigger", baseline_model=OTHER)
    assert (compared.baseline_model, compared.b) == (OTHER, 1)


def test_an_unknown_experiment_is_named_with_the_known_ones() -> None:
    report = EvalReport(paired("PF"))
    with refused("no results for experiment 'consise' (experiments: baseline, concise)"):
        report.compare("baseline", "consise")


def test_comparing_in_an_empty_report_names_no_experiment() -> None:
    with refused("no results for experiment 'concise' (experiments: none)"):
        EvalReport([]).compare("baseline", "concise")


def test_a_model_the_experiment_did_not_run_with_is_refused() -> None:
    with refused(
        "experiment 'concise' did not run with model 'openai:qwen3:8b' "
        "(it ran with openai:gpt-4.1-mini)"
    ):
        EvalReport(paired("PF")).compare("baseline", "concise", model=OTHER)


def test_the_comparisons_are_each_experiment_and_model_against_the_baseline() -> None:
    results = [
        *paired("PF", model=MODEL),
        *paired("FP", model=OTHER),
        run("c0", experiment="bigger", model="openai:gpt-4.1", passed=False),
    ]
    found = [
        (c.treatment, c.model, c.baseline_model, c.b, c.c)
        for c in EvalReport(results).comparisons()
    ]
    assert found == [
        ("concise", MODEL, MODEL, 1, 0),
        ("concise", OTHER, OTHER, 0, 1),
        ("bigger", "openai:gpt-4.1", MODEL, 1, 0),
        ("bigger", "openai:gpt-4.1", OTHER, 0, 0),
    ]


def test_without_a_baseline_there_is_nothing_to_compare() -> None:
    report = EvalReport([run("a", experiment="concise")])
    assert report.comparisons() == ()


def test_a_run_is_named_by_its_case_and_numbered_when_it_repeats() -> None:
    results = [run("a", repeat=0), run("a", repeat=1), run("b"), run("a", experiment="concise")]
    counts = run_counts(results)
    assert [run_name(r, counts) for r in results] == ["a #1", "a #2", "b", "a"]


def test_the_report_is_part_of_the_public_api() -> None:
    assert wink_decl.evals.EvalReport is EvalReport
    assert wink_decl.evals.Summary is Summary
    assert wink_decl.evals.Comparison is Comparison
