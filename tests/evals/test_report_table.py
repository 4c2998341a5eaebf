"""The report as a terminal table, whole texts.

The intervals shown were checked against Newcombe's method 10 computed independently (the
throwaway script of test_report_stats): (1, 1, 0, 0) -0.2726 to 0.9055, (0, 0, 0, 1) -0.7935 to
0.7935, (2, 12, 0, 0) 0.5222 to 0.9599.
"""

from __future__ import annotations

from pathlib import Path

from eval_results import lines, paired, run

import wink_decl.evals
from wink_decl.evals import EvalReport, Score, render_table

HEADER = (
    "experiment  model                pass rate  passed  failed  errors  score  p50 ms  p95 ms"
    "  tokens in  tokens out"
)


def review() -> EvalReport:
    """Two cases on the baseline, on a tag and on a model of its own; failures and an error."""
    regex = ("regex: line \\d+", Score(0.0, False, "no match for 'line \\d+' in the answer"))
    judge = (
        "judge: Names the bug and the fix.",
        Score(0.25, False, "poor: names the bug,\nnot the fix"),
    )
    contains = ("contains: a + b", Score(1.0, True))
    return EvalReport(
        [
            run("add-bug", latency_ms=812.4, tokens=(1200, 340), checks=(contains,)),
            run(
                "off-by-one",
                passed=False,
                score=0.5,
                latency_ms=1530.0,
                tokens=(1100, 420),
                checks=(contains, regex),
            ),
            run("add-bug", experiment="concise", latency_ms=640.0, tokens=(1150, 120)),
            run("off-by-one", experiment="concise", latency_ms=700.0, tokens=(1090, 130)),
            run(
                "add-bug",
                experiment="bigger",
                model="openai:gpt-4.1",
                error="the provider refused: 429 Too Many Requests",
            ),
            run(
                "off-by-one",
                experiment="bigger",
                model="openai:gpt-4.1",
                passed=False,
                score=0.25,
                latency_ms=2100.0,
                tokens=(1100, 500),
                checks=(judge,),
            ),
        ],
        threshold=0.8,
        suite="evals/review.wink-eval.yaml",
    )


def test_the_whole_table() -> None:
    assert render_table(review()) == lines(
        "evals/review.wink-eval.yaml: 6 runs, 3 passed, 2 failed, 1 error",
        "",
        HEADER,
        "baseline    openai:gpt-4.1-mini       0.50       1       1       0   0.75     812"
        "    1530       2300         760",
        "concise     openai:gpt-4.1-mini       1.00       2       0       0   1.00     640"
        "     700       2240         250",
        "bigger      openai:gpt-4.1            0.00       0       1       1   0.25    2100"
        "    2100       1100         500",
        "",
        "Against the baseline, on the same cases "
        "(b: passed on the baseline only; c: passed on the experiment only)",
        "experiment  model                                  pairs  errored  unpaired  change"
        "    95% interval  b  c  McNemar p",
        "concise     openai:gpt-4.1-mini                        2        0         0   +0.50"
        "  [-0.27, +0.91]  0  1      1.000",
        "bigger      openai:gpt-4.1 vs openai:gpt-4.1-mini      1        1         0   +0.00"
        "  [-0.79, +0.79]  0  0      1.000",
        "",
        "Runs that failed or errored",
        "off-by-one  baseline x openai:gpt-4.1-mini  score 0.50",
        "  - regex: line \\d+ -- no match for 'line \\d+' in the answer",
        "add-bug  bigger x openai:gpt-4.1  error: the provider refused: 429 Too Many Requests",
        "off-by-one  bigger x openai:gpt-4.1  score 0.25",
        "  - judge: Names the bug and the fix. -- poor: names the bug,\\nnot the fix",
        "",
        "FAIL: threshold 0.80 not met by baseline x openai:gpt-4.1-mini (0.50), "
        "bigger x openai:gpt-4.1 (0.00)",
    )


def test_the_documents_example_is_this_table() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "evals.md").read_text(encoding="utf-8")
    example = doc.split("\n## The table\n", 1)[1].split("```\n", 2)[1]
    assert example == render_table(review())


def test_every_run_passing_is_a_pass() -> None:
    assert render_table(EvalReport([run("a")])) == lines(
        "1 run, 1 passed, 0 failed, 0 errors",
        "",
        HEADER,
        "baseline    openai:gpt-4.1-mini       1.00       1       0       0   1.00     100"
        "     100         10           5",
        "",
        "PASS",
    )


def test_no_runs_is_a_failure() -> None:
    assert render_table(EvalReport([])) == lines(
        "0 runs, 0 passed, 0 failed, 0 errors",
        "",
        "experiment  model  pass rate  passed  failed  errors  score  p50 ms  p95 ms"
        "  tokens in  tokens out",
        "",
        "FAIL: no runs",
    )


def test_a_group_whose_every_run_errored_fails_whatever_the_threshold() -> None:
    results = [run("a", error="timed out after 60 s"), run("b", error="timed out after 60 s")]
    assert render_table(EvalReport(results, threshold=0.0)) == lines(
        "2 runs, 0 passed, 0 failed, 2 errors",
        "",
        HEADER,
        "baseline    openai:gpt-4.1-mini          -       0       0       2      -       -"
        "       -          0           0",
        "",
        "Runs that failed or errored",
        "a  baseline x openai:gpt-4.1-mini  error: timed out after 60 s",
        "b  baseline x openai:gpt-4.1-mini  error: timed out after 60 s",
        "",
        "FAIL: threshold 0.00 not met by baseline x openai:gpt-4.1-mini (every run errored)",
    )


def test_long_lists_and_long_reasons_are_cut_and_controls_escaped() -> None:
    checks = tuple((f"contains: word{i}", Score(0.0, False, "not found")) for i in range(7))
    long = ("icontains: return", Score(0.0, False, "the answer was: \x1b[2J" + "x" * 200))
    results = [
        run("flaky", repeat=i, passed=False, checks=(long, *checks) if i == 0 else ())
        for i in range(22)
    ]
    runs = [f"flaky #{i}  baseline x openai:gpt-4.1-mini  score 0.00" for i in range(2, 21)]
    assert render_table(EvalReport(results)) == lines(
        "22 runs, 0 passed, 22 failed, 0 errors",
        "",
        HEADER,
        "baseline    openai:gpt-4.1-mini       0.00       0      22       0   0.00     100"
        "     100        220         110",
        "",
        "Runs that failed or errored",
        "flaky #1  baseline x openai:gpt-4.1-mini  score 0.00",
        "  - icontains: return -- the answer was: \\x1b[2J" + "x" * 49 + "...",
        "  - contains: word0 -- not found",
        "  - contains: word1 -- not found",
        "  - contains: word2 -- not found",
        "  - contains: word3 -- not found",
        "  - and 3 more failing checks",
        *runs,
        "and 2 more (the JSON report lists every run)",
        "",
        "FAIL: threshold 1.00 not met by baseline x openai:gpt-4.1-mini (0.00)",
    )


def test_a_small_p_value_an_uneven_threshold_and_a_hostile_suite_name() -> None:
    report = EvalReport(
        paired("FP" * 12 + "PP" * 2), threshold=0.875, suite="evals/\x1b[31mred.wink-eval.yaml"
    )
    failed = [f"c{i}  baseline x openai:gpt-4.1-mini  score 0.00" for i in range(12)]
    assert render_table(report) == lines(
        "evals/\\x1b[31mred.wink-eval.yaml: 28 runs, 16 passed, 12 failed, 0 errors",
        "",
        HEADER,
        "baseline    openai:gpt-4.1-mini       0.14       2      12       0   0.14     100"
        "     100        140          70",
        "concise     openai:gpt-4.1-mini       1.00      14       0       0   1.00     100"
        "     100        140          70",
        "",
        "Against the baseline, on the same cases "
        "(b: passed on the baseline only; c: passed on the experiment only)",
        "experiment  model                pairs  errored  unpaired  change    95% interval"
        "  b   c  McNemar p",
        "concise     openai:gpt-4.1-mini     14        0         0   +0.86  [+0.52, +0.96]"
        "  0  12     <0.001",
        "",
        "Runs that failed or errored",
        *failed,
        "",
        "FAIL: threshold 0.875 not met by baseline x openai:gpt-4.1-mini (0.14)",
    )


def test_a_failed_run_without_a_failing_check_shows_its_score_only() -> None:
    report = EvalReport(
        [run("a", passed=False, score=0.4, checks=(("equals: 4", Score(1, True)),))]
    )
    assert render_table(report) == lines(
        "1 run, 0 passed, 1 failed, 0 errors",
        "",
        HEADER,
        "baseline    openai:gpt-4.1-mini       0.00       0       1       0   0.40     100"
        "     100         10           5",
        "",
        "Runs that failed or errored",
        "a  baseline x openai:gpt-4.1-mini  score 0.40",
        "",
        "FAIL: threshold 1.00 not met by baseline x openai:gpt-4.1-mini (0.00)",
    )


def test_render_table_is_part_of_the_public_api() -> None:
    assert wink_decl.evals.render_table is render_table
